#!/usr/bin/env python3
"""One-command developer entry point (standard library only).

Usage::

    python3 dev.py serve [[host:]port]      # set up, migrate, dev superuser, serve :8000 (uvicorn)
    python3 dev.py test [pytest args]       # set up, run the whole test suite
    python3 dev.py manage <args>            # set up, run any manage.py command
    python3 dev.py demo [--bots N]          # set up, migrate, five bots race on a local server
    python3 dev.py setup                    # only create/refresh .venv

Set-up creates ``.venv`` beside this file, installs the pinned ``requirements-lock.txt``
(hash-checked) and the project itself in editable mode. It records a stamp of the
lock file and ``pyproject.toml``; while neither changes, later runs skip the install.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements-lock.txt"
PYPROJECT = ROOT / "pyproject.toml"
#: Build inputs of the solver's C core: a change rebuilds it on the next set-up.
BUILD_INPUTS = (ROOT / "setup.py", ROOT / "games" / "engine" / "_solver.c")
STAMP = VENV / ".canfield-install-stamp"
MIN_PYTHON = (3, 11)

DEV_ADMIN_USER = "admin"
DEV_ADMIN_PASSWORD = "admin"  # noqa: S105 - dev-only account on the embedded SQLite default


def venv_python() -> Path:
    """Return the path of the virtual environment's Python interpreter."""
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for path in (LOCK, PYPROJECT, *BUILD_INPUTS):
        if path.exists():
            digest.update(path.read_bytes())
    digest.update(sys.version.encode())
    return digest.hexdigest()


def _run(cmd: list[str | Path], **kwargs: object) -> None:
    result = subprocess.run([str(c) for c in cmd], cwd=ROOT, check=False, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        sys.exit(result.returncode)


def ensure_env() -> Path:
    """Create ``.venv`` and install the locked dependencies unless the stamp is current."""
    if sys.version_info < MIN_PYTHON:
        sys.exit(f"Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]}+ is required, this is {sys.version}")
    python = venv_python()
    if not python.exists():
        print(f"[dev] creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    fingerprint = _fingerprint()
    if STAMP.exists() and STAMP.read_text().strip() == fingerprint:
        return python
    print("[dev] installing pinned dependencies from requirements-lock.txt", flush=True)
    pip: list[str | Path] = [python, "-m", "pip", "--disable-pip-version-check"]
    _run([*pip, "install", "--quiet", "--require-hashes", "-r", LOCK])
    _run([*pip, "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", ROOT])
    STAMP.write_text(fingerprint + "\n")
    return python


def _manage(python: Path, *args: str) -> None:
    _run([python, ROOT / "manage.py", *args])


def _base_url(args: list[str]) -> str:
    """The URL ``runserver`` will serve for these arguments (default 127.0.0.1:8000)."""
    addrport = next((a for a in args if not a.startswith("-")), "127.0.0.1:8000")
    host, sep, port = addrport.rpartition(":")
    if not sep:  # only a port
        host, port = "127.0.0.1", addrport
    if host in ("", "0", "0.0.0.0"):  # noqa: S104 - reading an argument, not binding
        host = "127.0.0.1"
    return f"http://{host}:{port}"


def cmd_serve(python: Path, args: list[str]) -> None:
    """Migrate, make sure a superuser exists, then serve the ASGI app with uvicorn.

    ``args``: an address as for ``runserver`` (``python3 dev.py serve 8001`` or
    ``127.0.0.1:8001``); the event streams are served too.
    """
    base = _base_url(args)
    _manage(python, "migrate", "--noinput")
    _manage(
        python,
        "ensure_dev_superuser",
        "--username",
        DEV_ADMIN_USER,
        "--password",
        DEV_ADMIN_PASSWORD,
        "--base-url",
        base,
    )
    print(
        f"\n[dev] Canfield race server on {base}\n"
        f"      admin:    {base}/admin/\n"
        f"      API docs: {base}/api/v1/docs/\n"
        f"      health:   {base}/api/v1/health\n",
        flush=True,
    )
    # The ASGI application under uvicorn: the REST API, pages and the event streams.
    addr = next((a for a in args if not a.startswith("-")), "127.0.0.1:8000")
    host, sep, port = addr.rpartition(":")
    host = "0.0.0.0" if host == "0" else (host or "127.0.0.1")  # noqa: S104 - as asked
    if not sep:
        host, port = "127.0.0.1", addr
    _run([python, "-m", "uvicorn", "canfield_site.asgi:application", "--host", host,
          "--port", port, "--lifespan", "off"])  # fmt: skip


def cmd_test(python: Path, args: list[str]) -> None:
    """Run the whole pytest suite, passing extra arguments through."""
    _run([python, "-m", "pytest", *args])


def cmd_demo(python: Path, args: list[str]) -> None:
    """Migrate, then race bots over HTTP on a local server (``canfield_bot.demo``)."""
    _manage(python, "migrate", "--noinput")
    _run([python, "-m", "canfield_bot.demo", *args])


def main(argv: list[str]) -> None:
    """Dispatch ``serve``, ``test``, ``manage``, ``demo`` or ``setup``."""
    if not argv or argv[0] not in {"serve", "test", "manage", "demo", "setup"}:
        sys.exit(__doc__)
    command, rest = argv[0], argv[1:]
    os.chdir(ROOT)
    python = ensure_env()
    if command == "serve":
        cmd_serve(python, rest)
    elif command == "test":
        cmd_test(python, rest)
    elif command == "manage":
        _manage(python, *rest)
    elif command == "demo":
        cmd_demo(python, rest)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:  # Ctrl-C stops the server: no traceback
        sys.exit(130)
