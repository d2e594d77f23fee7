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
