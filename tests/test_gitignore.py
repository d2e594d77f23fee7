"""Files the embedded default writes beside the project are ignored by git: after
``python3 dev.py serve`` a ``git add -A`` picked up ``db-broker.sqlite3-journal``
(SQLite's rollback journal of the embedded broker, README "Configuration"), which
``.gitignore`` did not cover (only ``*-broker.sqlite3`` and ``db.sqlite3-journal``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "name",
    [
        "db.sqlite3",
        "db.sqlite3-journal",
        "db-broker.sqlite3",
        "db-broker.sqlite3-journal",
        "other-broker.sqlite3-journal",
    ],
)
def test_the_embedded_databases_and_their_journals_are_ignored(name: str) -> None:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(
        [git, "check-ignore", "--no-index", "-q", name], cwd=ROOT, check=False
    ).returncode
    assert ignored == 0


def _dockerignore_excludes(name: str) -> bool:
    """Whether a top-level file ``name`` is left out of the image by ``.dockerignore``
    (its patterns as Go's filepath.Match reads them for a top-level name; ``!`` lines
    re-include)."""
    import fnmatch

    excluded = False
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith("#"):
            continue
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").removeprefix("**/").rstrip("/")
        if fnmatch.fnmatchcase(name, pattern):
            excluded = not negate
    return excluded


@pytest.mark.parametrize(
    "name",
    [
        ".env",
        "db.sqlite3",
        "db.sqlite3-journal",
        "db-broker.sqlite3",
        "db-broker.sqlite3-journal",
        "celery-broker.sqlite3",
        "celerybeat-schedule",
        "_solver.cpython-311-x86_64-linux-gnu.so",
    ],
)
def test_the_image_leaves_out_local_state(name: str) -> None:
    """Seen by an operator: ``docker build`` copied the embedded broker's files (queued
    tasks of a development server) and a locally built solver extension into the image
    (``COPY . .``), where the image's own build should make it; .dockerignore left out
    only ``db.sqlite3``.  (A file of a subdirectory, such as the solver's, is matched by
    its name here, as ``**/`` patterns do.)"""
    assert _dockerignore_excludes(name)
