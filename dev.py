#!/usr/bin/env python3
"""One-command developer entry point (standard library only).

Usage::

    python3 dev.py serve [[host:]port] [--no-worker]  # migrate, superuser, worker+beat, uvicorn
    python3 dev.py test [pytest args]                 # set up, run the whole test suite
    python3 dev.py manage <args>                      # set up, run any manage.py command
    python3 dev.py demo [--port P] [--bots N]         # bots race on a database of their own
    python3 dev.py setup                              # only create/refresh .venv

Set-up creates ``.venv`` beside this file, installs the pinned ``requirements-lock.txt``
(hash-checked) and the project itself in editable mode. It records a stamp of the
lock file and ``pyproject.toml``; while neither changes, later runs skip the install.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements-lock.txt"
#: pip itself, pinned and hash-checked, installed before the lock (see that file).
PIP_LOCK = ROOT / "requirements-pip.txt"
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
    for path in (PIP_LOCK, LOCK, PYPROJECT, *BUILD_INPUTS):
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
    _run([*pip, "install", "--quiet", "--require-hashes", "-r", PIP_LOCK])
    _run([*pip, "install", "--quiet", "--require-hashes", "-r", LOCK])
    _run([*pip, "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", ROOT])
    STAMP.write_text(fingerprint + "\n")
    return python


def _manage(python: Path, *args: str) -> None:
    _run([python, ROOT / "manage.py", *args])


def _base_url(args: list[str]) -> str:
    """The URL the web server will serve for these arguments (default 127.0.0.1:8000; an
    address bound on every interface is reached on 127.0.0.1): :func:`_serve_host_port`."""
    host, port = _serve_host_port(args)
    if host == "0.0.0.0":  # noqa: S104 - reading an argument, not binding
        host = "127.0.0.1"
    return f"http://{host}:{port}"


#: Options of ``serve`` itself; everything else goes to the web server.
NO_WORKER = "--no-worker"
HELP_OPTIONS = ("-h", "--help")
SERVE_USAGE = (
    "usage: python3 dev.py serve [[host:]port] [--no-worker]\n"
    "\n"
    "Migrate the database, create the development superuser (admin / admin) if there is\n"
    "none, start a Celery worker with beat and serve the site with uvicorn.\n"
    "\n"
    "  [host:]port    where to serve (default 127.0.0.1:8000): 8001, 0.0.0.0:8001, 0:8001\n"
    "  --no-worker    start no Celery worker (one runs elsewhere)\n"
    "  -h, --help     show this help and exit"
)


def check_serve_args(args: list[str]) -> None:
    """Refuse what ``serve`` would otherwise ignore, before anything is installed or served.

    ``args``: the arguments after ``serve``.  ``-h``/``--help`` prints
    :data:`SERVE_USAGE` and exits 0; an option other than ``--no-worker`` (``--port 8001``)
    or a second address exits 2 with the usage on stderr.  Before this check both started
    a server on the default address (``serve --help`` served on 127.0.0.1:8000).
    """
    if any(a in HELP_OPTIONS for a in args):
        print(SERVE_USAGE)
        sys.exit(0)
    unknown = [a for a in args if a.startswith("-") and a != NO_WORKER]
    addresses = [a for a in args if not a.startswith("-")]
    if unknown:
        problem = f"unknown option {unknown[0]}: the address is a plain argument (serve 8001)"
    elif len(addresses) > 1:
        problem = f"one address only, got {' '.join(addresses)}"
    else:
        return
    print(f"{SERVE_USAGE}\n\ndev.py serve: error: {problem}", file=sys.stderr)
    sys.exit(2)


def _serve_host_port(args: list[str]) -> tuple[str, str]:
    """The host and port the web server binds for these arguments, as :func:`web_command`."""
    addr = next((a for a in args if not a.startswith("-")), "127.0.0.1:8000")
    host, sep, port = addr.rpartition(":")
    host = "0.0.0.0" if host == "0" else (host or "127.0.0.1")  # noqa: S104 - as asked
    if not sep:
        host, port = "127.0.0.1", addr
    return host, port


def _bind_error(host: str, port: int) -> OSError | None:
    """Try to bind ``host:port`` as uvicorn will (``SO_REUSEADDR``, every address the host
    resolves to) and let go at once: the error, or ``None`` when it is free."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as error:
        return error
    for family, kind, proto, _name, sockaddr in infos:
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(sockaddr)
            except OSError as error:
                return error
    return None


#: How many ports after a taken one :func:`check_serve_port` tries for its suggestion.
FREE_PORT_TRIES = 50


def check_serve_port(args: list[str]) -> None:
    """Refuse an address the web server could not bind, before anything is set up.

    ``args``: the arguments after ``serve`` (already checked by :func:`check_serve_args`).
    A port that is not a number from 1 to 65535, or an address that cannot be bound (a
    port another program listens on: ``EADDRINUSE``; a host that is not this machine's),
    exits 2 with one line on stderr naming the address; for a port in use the line names
    the first free port after it on the same host, as the address to pass instead
    (``python3 dev.py serve 127.0.0.1:8002``).  Before this check the migrations ran, the
    superuser was made and the worker started, and only then did uvicorn say "address
    already in use" above the worker's banner, and ``dev.py`` exited 3.

    A check, not a reservation: a program that takes the port in between still makes
    uvicorn fail as before.
    """
    host, port_text = _serve_host_port(args)
    shown = f"{host}:{port_text}"
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        problem = f"{port_text!r} is not a port (a number from 1 to 65535): serve 8001"
    elif (error := _bind_error(host, int(port_text))) is None:
        return
    elif error.errno == errno.EADDRINUSE:
        port = int(port_text)
        free = next(
            (p for p in range(port + 1, min(port + FREE_PORT_TRIES, 65535) + 1)
             if _bind_error(host, p) is None),
            None,
        )  # fmt: skip
        problem = f"{shown} is already in use (another server listens there)"
        if free is not None:
            problem += f"; pass a free address instead: python3 dev.py serve {host}:{free}"
        else:
            problem += "; pass another address: python3 dev.py serve HOST:PORT"
    else:
        problem = f"cannot serve on {shown}: {error.strerror or error}"
    print(f"dev.py serve: error: {problem}", file=sys.stderr)
    sys.exit(2)


def web_command(python: Path, args: list[str]) -> list[str | Path]:
    """The web server ``serve`` runs: uvicorn on the ASGI app (default 127.0.0.1:8000).

    ``args``: an address as for ``runserver`` (``8001``, ``127.0.0.1:8001``, ``0:8001``).
    The ASGI app serves the REST API, the pages, the admin and the live event streams.
    The one place that names the web server.
    """
    host, port = _serve_host_port(args)
    return [python, "-m", "uvicorn", "canfield_site.asgi:application", "--host", host,
            "--port", port, "--lifespan", "off"]  # fmt: skip


def worker_command(python: Path, *, loglevel: str = "WARNING") -> list[str | Path]:
    """A Celery worker with beat embedded (``--beat``): runs the race sweeper and every task,
    consuming both queues (``celery``, the default, and ``solver``).

    Threads, not processes (two, so a long task never holds up the sweeper); no gossip,
    mingle or heartbeat (the embedded SQLite broker has no broadcast).  The broker is
    whatever the settings say: the SQLite file of the embedded default, or Redis.
    """
    return [
        python, "-m", "celery", "-A", "canfield_site", "worker", "--beat", "-Q", "celery,solver",
        "--pool", "threads", "--concurrency", "2", "--loglevel", loglevel,
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip


class _Stopped(Exception):
    """Raised by the SIGINT/SIGTERM handler of :func:`supervise` with the signal's number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stopped(signum: int, frame: object) -> None:
    raise _Stopped(signum)


def _stop_all(children: list[subprocess.Popen[bytes]], signum: int, grace: float) -> None:
    """Send ``signum`` to each child's process group, wait for them all up to ``grace``
    seconds in total, then KILL the groups still running and reap them, and KILL what is
    left in each group (a child's own children whose parent died before them)."""
    for child in children:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signum)
    deadline = time.monotonic() + grace
    for child in children:
        try:
            child.wait(max(deadline - time.monotonic(), 0.0))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    # What a child left in its group: the beat process of a worker killed earlier kept
    # running (it ignores SIGINT) after dev.py had exited.
    for child in children:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)


#: Seconds between two checks that the children still run, and the least time between
#: two starts of one of ``others`` (a child that dies at once is not restarted in a loop).
SUPERVISE_POLL_SECONDS = 0.5
RESTART_AFTER_SECONDS = 5.0


def _start(cmd: list[str | Path]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([str(c) for c in cmd], cwd=ROOT, start_new_session=True)


def supervise(
    main: list[str | Path],
    others: list[list[str | Path]],
    *,
    grace: float = 10.0,
    names: list[str] | None = None,
) -> int:
    """Run ``others`` then ``main``, each in a process group of its own, until ``main``
    exits or this process gets SIGINT or SIGTERM; then stop them all and return the exit
    status (``main``'s own, or 128 + the signal's number).

    One of ``others`` that exits meanwhile (the Celery worker killed, out of memory, a
    crash) is started again, at most once per :data:`RESTART_AFTER_SECONDS`, after its
    process group is killed (the beat it ran is not left behind), saying so on stderr
    with its name from ``names``: without the worker no race closes.

    A signal is forwarded to every child's group (Ctrl-C and ``kill -INT`` alike: the
    children are in groups of their own, so only this process gets it from the terminal),
    and each child gets ``grace`` seconds to stop before it is killed.  The handlers are
    installed even where the signal was inherited as ignored (a shell's ``&`` ignores
    SIGINT), so ``kill -INT`` always stops the server and everything it started.
    """
    stop_signals = (signal.SIGINT, signal.SIGTERM)
    previous = {signum: signal.signal(signum, _raise_stopped) for signum in stop_signals}
    children: list[subprocess.Popen[bytes]] = []
    forward: int = signal.SIGTERM
    try:
        started: list[float] = []
        for cmd in [*others, main]:
            children.append(_start(cmd))
            started.append(time.monotonic())
        while (status_or_none := children[-1].poll()) is None:
            for i, cmd in enumerate(others):
                gone = children[i].poll()
                if gone is None or time.monotonic() - started[i] < RESTART_AFTER_SECONDS:
                    continue
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(children[i].pid, signal.SIGKILL)
                name = names[i] if names and i < len(names) else str(cmd[0])
                print(f"[dev] {name} stopped (status {gone}); starting it again", file=sys.stderr)
                children[i] = _start(cmd)
                started[i] = time.monotonic()
            time.sleep(SUPERVISE_POLL_SECONDS)
        status = status_or_none
    except _Stopped as stopped:
        forward = stopped.signum
        status = 128 + stopped.signum
    finally:
        for signum in stop_signals:  # a second Ctrl-C must not cut the stop short
            signal.signal(signum, signal.SIG_IGN)
        try:
            _stop_all(children, forward, grace)
        finally:
            for signum, handler in previous.items():
                if handler is not None:
                    signal.signal(signum, handler)
    return 128 - status if status < 0 else status  # killed by a signal: as a shell says


def cmd_serve(python: Path, args: list[str]) -> None:
    """Migrate, make sure a superuser exists, start the Celery worker with beat, then serve.

    ``args`` go to the web server (``python3 dev.py serve 8001`` or ``127.0.0.1:8001``);
    ``--no-worker`` leaves the worker out (when one runs elsewhere).  The worker is
    stopped when the web server exits; SIGINT (Ctrl-C) or SIGTERM stops both
    (:func:`supervise`).
    """
    with_worker = NO_WORKER not in args
    args = [a for a in args if a != NO_WORKER]
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
        f"      health:   {base}/api/v1/health\n"
        + (
            "      worker:   Celery worker with beat (closes and scores races by itself)\n"
            if with_worker
            else "      worker:   not started (--no-worker): races close only if one runs\n"
        ),
        flush=True,
    )
    status = supervise(
        web_command(python, args),
        [worker_command(python)] if with_worker else [],
        names=["the Celery worker"],
    )
    if status:
        sys.exit(status)


def cmd_test(python: Path, args: list[str]) -> None:
    """Run the whole pytest suite, passing extra arguments through."""
    _run([python, "-m", "pytest", *args])


def cmd_demo(python: Path, args: list[str]) -> None:
    """Race bots over HTTP on a local server with a database of its own (``canfield_bot.demo``).

    The demo never touches ``db.sqlite3``: it migrates its own database (see
    ``python3 dev.py demo --help`` for ``--database``, ``--port``, ``--bots``).
    """
    _run([python, "-m", "canfield_bot.demo", *args])


def main(argv: list[str]) -> None:
    """Dispatch ``serve``, ``test``, ``manage``, ``demo`` or ``setup``."""
    if argv and argv[0] in HELP_OPTIONS:
        print(__doc__)
        return
    if not argv or argv[0] not in {"serve", "test", "manage", "demo", "setup"}:
        sys.exit(__doc__)
    command, rest = argv[0], argv[1:]
    if command == "serve":
        check_serve_args(rest)
        check_serve_port(rest)
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
