"""``python3 dev.py serve`` stops what it started: SIGINT or SIGTERM sent to ``dev.py``
alone is forwarded to the web server and the worker, which it waits for.

Real processes: ``dev.py``'s ``cmd_serve`` runs in a subprocess with the web server and
the worker replaced by small Python programs that record their pid and the signal that
stops them.  Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Stands in for uvicorn and the Celery worker: writes its pid, then on SIGINT or
#: SIGTERM writes the signal's number and exits (as both servers stop gracefully).
CHILD = """
import os, signal, sys, time
path = sys.argv[1]
def stop(signum, frame):
    with open(path + ".signal", "w") as f:
        f.write(str(signum))
    sys.exit(0)
signal.signal(signal.SIGINT, stop)
signal.signal(signal.SIGTERM, stop)
with open(path + ".pid", "w") as f:
    f.write(str(os.getpid()))
time.sleep(60)
"""

#: ``dev.py serve`` without migrations or a superuser, serving the fake children.  SIGINT
#: starts ignored, as for a command started with ``&`` by a non-interactive shell.
DRIVER = """
import signal, sys
from pathlib import Path
signal.signal(signal.SIGINT, signal.SIG_IGN)
sys.path.insert(0, sys.argv[1])
import dev
tmp, child = sys.argv[2], sys.argv[3]
dev._manage = lambda *args: None
dev.web_command = lambda python, args: [sys.executable, "-c", child, tmp + "/web"]
dev.worker_command = lambda python, **kw: [sys.executable, "-c", child, tmp + "/worker"]
dev.cmd_serve(Path(sys.executable), ["127.0.0.1:1"])
"""


def _wait_for(paths: list[Path], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not all(p.exists() and p.read_text() for p in paths):
        assert time.monotonic() < deadline, f"not written: {paths}"
        time.sleep(0.05)


def _reap(driver: subprocess.Popen[bytes], pids: list[int]) -> None:
    """Kill the driver and every child pid a test saw, whatever the test left running."""
    for pid in [driver.pid, *pids]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        driver.wait(timeout=5)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_dev_py_stops_the_web_server_and_the_worker(
    tmp_path: Path, signum: signal.Signals
) -> None:
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(ROOT), str(tmp_path), CHILD],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    names = ("web", "worker")
    pids: list[int] = []
    try:
        _wait_for([tmp_path / f"{name}.pid" for name in names])
        pids = [int((tmp_path / f"{name}.pid").read_text()) for name in names]
        os.kill(driver.pid, signum)  # dev.py alone, not its group
        assert driver.wait(timeout=20) == 128 + signum
        # Each child got the signal itself (a graceful stop, not a KILL) and is gone.
        assert [(tmp_path / f"{name}.signal").read_text() for name in names] == [
            str(int(signum))
        ] * 2
        assert [_alive(pid) for pid in pids] == [False, False]
    finally:
        _reap(driver, pids)


def test_a_worker_that_dies_is_started_again(tmp_path: Path) -> None:
    """The worker (with beat) is what closes and scores races on the embedded default:
    killed (out of memory, a crash), ``dev.py`` went on serving with nothing closing any
    race.  It is started again, as compose's ``restart: unless-stopped`` does in
    production; the web server is left alone."""
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(ROOT), str(tmp_path), CHILD],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    worker_pid = tmp_path / "worker.pid"
    pids: list[int] = []
    try:
        _wait_for([tmp_path / "web.pid", worker_pid])
        web, first = int((tmp_path / "web.pid").read_text()), int(worker_pid.read_text())
        pids += [web, first]
        worker_pid.unlink()
        os.kill(first, signal.SIGKILL)
        _wait_for([worker_pid])
        second = int(worker_pid.read_text())
        pids.append(second)
        assert second != first
        assert [_alive(web), _alive(second)] == [True, True]
        os.kill(driver.pid, signal.SIGTERM)
        assert driver.wait(timeout=20) == 128 + signal.SIGTERM
        assert (tmp_path / "worker.signal").read_text() == str(int(signal.SIGTERM))
        assert driver.stderr is not None
        assert "the Celery worker stopped (status -9); starting it again" in (
            driver.stderr.read().decode()
        )
    finally:
        _reap(driver, pids)


#: A worker that starts a helper of its own which ignores SIGINT and SIGTERM (as the beat
#: process a Celery worker runs with ``--beat`` outlived it) and writes its pid.
WORKER_WITH_HELPER = """
import os, signal, subprocess, sys, time
path = sys.argv[1]
helper = subprocess.Popen([sys.executable, "-c", '''
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(sys.argv[1] + ".helper", "w").write(str(os.getpid()))
time.sleep(60)
''', path])
def stop(signum, frame):
    sys.exit(0)
signal.signal(signal.SIGINT, stop)
signal.signal(signal.SIGTERM, stop)
with open(path + ".pid", "w") as f:
    f.write(str(os.getpid()))
time.sleep(60)
"""


def test_nothing_a_child_started_outlives_dev_py(tmp_path: Path) -> None:
    """The worker stops on the signal; a process it started that ignores it (its beat)
    was left running after ``dev.py`` exited.  Each child's whole group is killed."""
    driver_code = DRIVER.replace(
        'dev.worker_command = lambda python, **kw: [sys.executable, "-c", child, tmp + "/worker"]',
        "dev.worker_command = lambda python, **kw: "
        '[sys.executable, "-c", sys.argv[4], tmp + "/worker"]',
    )
    assert driver_code != DRIVER
    driver = subprocess.Popen(
        [sys.executable, "-c", driver_code, str(ROOT), str(tmp_path), CHILD, WORKER_WITH_HELPER],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    pids: list[int] = []
    try:
        _wait_for([tmp_path / "web.pid", tmp_path / "worker.pid", tmp_path / "worker.helper"])
        pids = [int((tmp_path / n).read_text()) for n in ("web.pid", "worker.pid", "worker.helper")]
        os.kill(driver.pid, signal.SIGTERM)
        assert driver.wait(timeout=20) == 128 + signal.SIGTERM
        deadline = time.monotonic() + 5
        while _alive(pids[2]) and time.monotonic() < deadline:
            time.sleep(0.05)  # the KILL is sent; the helper may still be being reaped
        assert [_alive(pid) for pid in pids] == [False, False, False]
    finally:
        _reap(driver, pids)


def _dev_module() -> object:
    sys.path.insert(0, str(ROOT))
    try:
        import dev
    finally:
        sys.path.remove(str(ROOT))
    return dev


def _main_refusing_to_set_up(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> int:
    """Run ``dev.main(argv)`` with set-up and serving replaced by failures: the exit status."""
    dev = _dev_module()

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"dev.py {' '.join(argv)} went on to set up or serve")

    monkeypatch.setattr(dev, "ensure_env", must_not_run)
    monkeypatch.setattr(dev, "cmd_serve", must_not_run)
    with pytest.raises(SystemExit) as exited:
        dev.main(argv)  # type: ignore[attr-defined]
    code = exited.value.code
    return code if isinstance(code, int) else 1


@pytest.mark.parametrize("option", ["--help", "-h"])
def test_serve_help_prints_the_usage_and_serves_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    # It used to start the server on 127.0.0.1:8000, the option ignored.
    assert _main_refusing_to_set_up(monkeypatch, ["serve", option]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python3 dev.py serve [[host:]port] [--no-worker]\n")
    assert "  --no-worker    start no Celery worker (one runs elsewhere)\n" in out


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (
            ["serve", "--port", "8101"],
            "dev.py serve: error: unknown option --port: the address is a plain argument"
            " (serve 8001)\n",
        ),
        (["serve", "8101", "--no-workers"], "dev.py serve: error: unknown option --no-workers"),
        (["serve", "8101", "8102"], "dev.py serve: error: one address only, got 8101 8102\n"),
    ],
)
def test_serve_refuses_an_option_it_would_ignore(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    error: str,
) -> None:
    assert _main_refusing_to_set_up(monkeypatch, argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python3 dev.py serve")
    assert error in err


def test_dev_py_help_prints_the_commands_and_exits_zero(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    dev = _dev_module()
    monkeypatch.setattr(dev, "ensure_env", lambda: pytest.fail("set up for --help"))
    dev.main(["--help"])  # type: ignore[attr-defined]
    out = capsys.readouterr().out
    assert "python3 dev.py serve [[host:]port] [--no-worker]" in out


def _listening_socket() -> socket.socket:
    """A socket on a free port of 127.0.0.1 that listens, as another server would."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def test_serve_on_a_port_in_use_says_so_and_names_a_free_address_before_setting_up() -> None:
    """It used to migrate, create the superuser and start the worker, and only then did
    uvicorn say "address already in use", above the worker's banner, and exit 3.  The real
    ``dev.py``, in a subprocess: it refuses before set-up (nothing is installed or served)."""
    with _listening_socket() as taken:
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, str(ROOT / "dev.py"), "serve", f"127.0.0.1:{port}", "--no-worker"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert result.returncode == 2
    assert result.stdout == ""
    match = re.fullmatch(
        rf"dev\.py serve: error: 127\.0\.0\.1:{port} is already in use \(another server"
        r" listens there\); pass a free address instead: python3 dev\.py serve"
        r" 127\.0\.0\.1:(\d+)\n",
        result.stderr,
    )
    assert match, result.stderr
    suggested = int(match.group(1))
    assert port < suggested <= port + 50
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", suggested))  # free indeed (unless taken since)


def test_serve_on_a_port_in_use_given_alone_checks_127_0_0_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with _listening_socket() as taken:
        port = taken.getsockname()[1]
        assert _main_refusing_to_set_up(monkeypatch, ["serve", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dev.py serve: error: 127.0.0.1:{port} is already in use")
    assert "python3 dev.py serve 127.0.0.1:" in err


def test_serve_on_a_free_port_goes_on_to_set_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    dev = _dev_module()
    dev.check_serve_port([f"127.0.0.1:{port}", "--no-worker"])  # type: ignore[attr-defined]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("address", ["127.0.0.1:http", "0", "70000"])
def test_serve_refuses_a_port_that_is_not_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], address: str
) -> None:
    assert _main_refusing_to_set_up(monkeypatch, ["serve", address]) == 2
    port = address.rpartition(":")[2]
    assert capsys.readouterr().err == (
        f"dev.py serve: error: {port!r} is not a port (a number from 1 to 65535): serve 8001\n"
    )
