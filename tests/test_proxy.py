"""compose's reverse proxy for real: nginx with ``deploy/nginx.conf`` in front of the
WSGI server (gunicorn sync workers) and the ASGI server (gunicorn + uvicorn workers).

Only the upstream addresses and the listening port are rewritten (compose's service
names do not resolve here).  The WSGI server answers a stream with ``503
live_unavailable``, the ASGI server with the stream itself (or ``404`` for an unknown
race), so each answer shows which server it came from.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from benchmarks.seeded_race import seeded_race
from canfield_bot.stack import Stack, free_port, wait_http
from tests.conftest import IN_CI
from tests.helpers import ROOT

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """``(proxy URL, a race id, the servers' log folder)``: nginx on a free port, web
    and live behind it (their access logs in ``web.log`` and ``live.log``)."""
    if NGINX is None:
        if IN_CI:
            pytest.fail("CI=true needs nginx (.ci/run installs it)", pytrace=False)
        pytest.skip("no nginx on this machine (apt-get install nginx-light)")
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DEBUG": "true",
        "REDIS_URL": "",
        "CELERY_BROKER_URL": "",
        "CELERY_RESULT_BACKEND": "",
        "CACHE_URL": "",
        "TRUSTED_PROXY_COUNT": "1",
    }
    stack = Stack(env, log_dir=tmp_path / "logs")
    nginx: subprocess.Popen[bytes] | None = None
    try:
        stack.manage("migrate", "--noinput", "-v", "0")
        race_id = seeded_race(stack, "proxy1", name="proxied", starts_in=600, seconds=60)
        web, live = stack.web_and_live(workers=1)
        port = free_port()
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        for old, new in (
            ("server web:8000;", f"server {web.removeprefix('http://')};"),
            ("server live:8000;", f"server {live.removeprefix('http://')};"),
            ("listen 8000;", f"listen 127.0.0.1:{port};"),
        ):
            assert old in site
            site = site.replace(old, new)
        (tmp_path / "logs").mkdir(exist_ok=True)
        (tmp_path / "site.conf").write_text(site)
        (tmp_path / "nginx.conf").write_text(
            "daemon off;\nworker_processes 1;\n"
            f"error_log {tmp_path / 'logs' / 'nginx-error.log'};\npid {tmp_path / 'nginx.pid'};\n"
            "events { worker_connections 64; }\n"
            f"http {{ access_log off; include {tmp_path / 'site.conf'}; }}\n"
        )
        nginx = subprocess.Popen(
            [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        wait_http(f"{url}/api/v1/health", timeout=20, proc=nginx)
        yield url, race_id, tmp_path / "logs"
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(10)
        stack.stop()


def test_streams_reach_the_asgi_server_and_the_rest_the_wsgi_server(
    proxied: tuple[str, str, Path],
) -> None:
    url, race_id, logs = proxied
    # A stream through the proxy: the ASGI server's (the WSGI one answers 503), and
    # unbuffered: the snapshot comes at once, well before the first heartbeat (15 s).
    started = time.monotonic()
    with httpx.stream("GET", f"{url}/api/v1/races/{race_id}/events", timeout=10) as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
        lines = response.iter_lines()
        head = [next(lines) for _ in range(4)]
    assert head[0] == "retry: 3000"
    assert head[2] == "event: snapshot"
    assert race_id in head[3]
    assert time.monotonic() - started < 10
    unknown = httpx.get(f"{url}/api/v1/races/{uuid.uuid4()}/events", timeout=10)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    # REST, pages and a near miss of the stream path: the WSGI server's.
    race = httpx.get(f"{url}/api/v1/races/{race_id}", timeout=10)
    assert race.status_code == 200
    assert race.json()["id"] == race_id
    assert httpx.get(f"{url}/", timeout=10).status_code == 200
    near = httpx.get(f"{url}/api/v1/races/{race_id}/events/", timeout=10)
    assert near.status_code == 404
    # Each server's access log says who answered what (gunicorn writes it per request).
    deadline = time.monotonic() + 10
    while f"/api/v1/races/{race_id}/events/ " not in (logs / "web.log").read_text():
        assert time.monotonic() < deadline
        time.sleep(0.1)
    web, live = (logs / "web.log").read_text(), (logs / "live.log").read_text()
    assert f'"GET /api/v1/races/{race_id} HTTP' in web
    assert '"GET / HTTP' in web
    assert f"/api/v1/races/{race_id}/events HTTP" not in web
    assert f'"GET /api/v1/races/{race_id}/events HTTP' in live
    assert f"/api/v1/races/{race_id} HTTP" not in live
    assert f"/api/v1/races/{race_id}/events/ " not in live
