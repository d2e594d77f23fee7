"""Run a local stack in subprocesses: web server, Celery worker and beat (demo, e2e test, load).

Standard library only (plus ``psycopg``/``redis`` for the scratch-database helpers,
imported when used).  Every process is started in its own process group and
:meth:`Stack.stop` ends them all (TERM, then KILL), so callers use ``try/finally``
or ``with Stack(...) as stack``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
MANAGE = ROOT / "manage.py"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Stack:
    """Processes sharing one environment ``env`` (added to ``os.environ``)."""

    def __init__(self, env: dict[str, str], *, log_dir: Path | None = None) -> None:
        self.env = {**os.environ, **env}
        self.procs: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.log_dir = log_dir
        self._logs: list[IO[bytes]] = []

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def manage(self, *args: str, capture: bool = False) -> str:
        """Run ``manage.py ARGS`` to completion in the stack's environment."""
        done = subprocess.run(  # noqa: S603
            [sys.executable, str(MANAGE), *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=capture,
        )
        return done.stdout.decode() if capture else ""

    def spawn(
        self, name: str, cmd: list[str], *, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        """Start ``cmd`` in its own process group; output goes to ``log_dir/name.log``.

        ``env``: variables of this process only, over the stack's.
        """
        out: Any = subprocess.DEVNULL
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            out = open(self.log_dir / f"{name}.log", "wb")  # noqa: SIM115 - closed in stop()
            self._logs.append(out)
        proc = subprocess.Popen(  # noqa: S603
            cmd,
            cwd=ROOT,
            env={**self.env, **(env or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append((name, proc))
        return proc

    def web(
        self,
        port: int,
        *,
        server: str = "gunicorn",
        workers: int = 2,
        env: dict[str, str] | None = None,
        name: str = "web",
    ) -> str:
        """Start the web server on ``port``, wait for ``/api/v1/health``; return its URL.

        ``server``: ``gunicorn`` (WSGI sync workers, no event streams: compose's ``web``),
        ``gunicorn-asgi`` (gunicorn with uvicorn workers: compose's ``live``, or a
        single server for everything), ``uvicorn``, or ``runserver``.  ``env``: this
        server's own variables over the stack's; ``name``: its log's name.
        """
        if server == "gunicorn":
            cmd = [
                sys.executable, "-m", "gunicorn", "canfield_site.wsgi:application",
                "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
                "--access-logfile", "-" if self.log_dir else "/dev/null",
            ]  # fmt: skip
        elif server == "gunicorn-asgi":  # production ASGI: gunicorn with uvicorn workers
            cmd = [
                sys.executable, "-m", "gunicorn", "canfield_site.asgi:application",
                "--worker-class", "uvicorn_worker.UvicornWorker",
                "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
                "--access-logfile", "-" if self.log_dir else "/dev/null",
            ]  # fmt: skip
        elif server == "uvicorn":
            cmd = [
                sys.executable, "-m", "uvicorn", "canfield_site.asgi:application",
                "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
                "--lifespan", "off", "--no-access-log",
            ]  # fmt: skip
        else:
            cmd = [sys.executable, str(MANAGE), "runserver", f"127.0.0.1:{port}", "--noreload"]
        proc = self.spawn(name, cmd, env=env)
        url = f"http://127.0.0.1:{port}"
        wait_http(f"{url}/api/v1/health", proc=proc)
        return url

    def web_and_live(
        self, *, workers: int, live_workers: int = 1, live_env: dict[str, str] | None = None
    ) -> tuple[str, str]:
        """compose.yaml's two servers: ``web`` (gunicorn sync workers, WSGI: REST and
        pages) and ``live`` (gunicorn with uvicorn workers, ASGI: the event streams,
        ``live_env`` over the stack's variables); return their URLs."""
        web = self.web(free_port(), server="gunicorn", workers=workers)
        live = self.web(
            free_port(), server="gunicorn-asgi", workers=live_workers, env=live_env, name="live"
        )
        return web, live

    def worker(self, *, concurrency: int = 2, beat: bool = False, threads: bool = False) -> None:
        """Start a Celery worker of both queues (``celery`` and ``solver``); ``beat`` embeds the
        scheduler, ``threads`` uses a thread pool.

        ``beat=True, threads=True`` is how ``python3 dev.py serve`` runs its worker on the
        embedded SQLite broker (``dev.worker_command``).
        """
        cmd = [
            sys.executable, "-m", "celery", "-A", "canfield_site", "worker", "-Q", "celery,solver",
            "--loglevel", "INFO", "--concurrency", str(concurrency), "--without-gossip",
            "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        if beat:
            cmd.append("--beat")
        if threads:
            cmd += ["--pool", "threads"]
        self.spawn("worker", cmd)

    def beat(self) -> None:
        """Start Celery beat (the race sweeper runs every ``RACE_SWEEP_SECONDS``)."""
        self.spawn(
            "beat",
            [sys.executable, "-m", "celery", "-A", "canfield_site", "beat", "--loglevel", "INFO"],
        )

    def alive(self) -> dict[str, bool]:
        """Which processes are still running."""
        return {name: proc.poll() is None for name, proc in self.procs}

    def stop(self, timeout: float = 10.0) -> None:
        """TERM every process group, wait, KILL what is left; close the logs."""
        for _, proc in self.procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for _, proc in self.procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.procs.clear()
        for f in self._logs:
            f.close()
        self._logs.clear()


def wait_http(
    url: str, *, timeout: float = 60.0, proc: subprocess.Popen[bytes] | None = None
) -> None:
    """Wait until ``url`` answers 200 (fail early if ``proc`` exits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - local URL
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def create_staff(stack: Stack, username: str, password: str) -> None:
    """Create (or update) an organiser (staff, in the ``organisers`` group: it may create
    races and tournaments) with ``password`` through ``manage.py shell``."""
    code = (
        "from django.contrib.auth.models import Group, User\n"
        f"u, _ = User.objects.get_or_create(username={username!r})\n"
        "u.is_staff = True\n"
        f"u.set_password({password!r})\n"
        "u.save()\n"
        "u.groups.add(Group.objects.get(name='organisers'))\n"
    )
    stack.manage("shell", "--no-imports", "-c", code, capture=True)


def postgres_scratch_db(base_url: str, name: str) -> str:
    """(Re)create database ``name`` on the server of ``base_url``; return its URL."""
    import psycopg

    admin_url = base_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return base_url.rsplit("/", 1)[0] + f"/{name}"


def postgres_drop_db(url: str) -> None:
    """Drop the database of ``url`` (forcing its connections off)."""
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def redis_claim_db(base_url: str, owner: str, *, dbs: range = range(8, 16)) -> str:
    """Claim a Redis database number no other run uses (a lock key); return its URL.

    Concurrent runs (several checkouts on one machine) then never consume each
    other's Celery messages.  :func:`redis_release_db` gives it back.
    """
    import redis

    root = base_url.rsplit("/", 1)[0] if base_url.count("/") > 2 else base_url.rstrip("/")
    for db in dbs:
        url = f"{root}/{db}"
        conn = redis.Redis.from_url(url)
        if conn.set("canfield:stack:lock", owner, nx=True, ex=900):
            for key in ("celery", "unacked", "unacked_index"):
                conn.delete(key)
            return url
    raise RuntimeError(f"every Redis database {dbs.start}-{dbs.stop - 1} is in use")


def redis_release_db(url: str) -> None:
    """Release a database claimed by :func:`redis_claim_db`."""
    import redis

    redis.Redis.from_url(url).delete("canfield:stack:lock")


def asgi_database_env(pool: int) -> dict[str, str]:
    """The database settings of an ASGI server process: no persistent connections (each
    request's sync code runs on a thread of its own) and a pool of ``pool`` instead."""
    return {"CONN_MAX_AGE": "0", "DATABASE_POOL_MAX_SIZE": str(pool)}
