"""A Redis outage (cache and broker) fails nothing a player does (issue 12 item 2).

The test runs a Redis of its own on a free port as the shared cache and the
Celery broker, kills it in the middle and starts it again: while it is down
every throttled player action is accepted (throttles fall back to a local
cache), ``/api/v1/health`` answers 503 naming the broker and the cache, and
the sweeper cannot be dispatched; once Redis is back the health is 200 again
and a sweep closes the race that fell due meanwhile.
"""

from __future__ import annotations

import gc
import logging
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery
from django.conf import settings
from django.core.cache import caches
from django.utils import timezone
from kombu.exceptions import OperationalError
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

import canfield_site.celery
from canfield_site.cache import cache_settings
from canfield_site.security import slot_key
from games.models import Game, Race, Solve
from games.services.solver import solves_resend
from tests.api.conftest import client_for
from tests.conftest import IN_CI
from tests.factories import create_user
from tests.tournaments.factories import running_race


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class OwnRedis:
    """A redis-server subprocess on 127.0.0.1:``port`` (no persistence)."""

    def __init__(self, workdir: Path) -> None:
        self.port = _free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        self.process = subprocess.Popen(
            [
                binary,
                *("--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.workdir)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        for _ in range(100):
            # Our own server must be the one answering (not another one that took the port).
            assert self.process.poll() is None, f"redis-server could not bind port {self.port}"
            try:
                info: dict[str, Any] = client.info("server")  # type: ignore[assignment]
                pid = info["process_id"]
            except redis.RedisError:
                time.sleep(0.05)
                continue
            assert pid == self.process.pid, f"another redis-server holds port {self.port}"
            return
        raise AssertionError("redis-server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        if IN_CI:
            pytest.fail("CI=true needs redis-server for the outage test", pytrace=False)
        pytest.skip("no redis-server on PATH")
    server = OwnRedis(tmp_path)
    for _ in range(5):  # a free port may be taken between the probe and the bind
        try:
            server.start()
            break
        except AssertionError:
            server.port = _free_port()
    else:
        pytest.fail("could not start redis-server on a free port")
    yield server
    if server.process is not None:
        server.kill()


@pytest.fixture
def outage_app(own_redis: OwnRedis, monkeypatch: pytest.MonkeyPatch) -> Iterator[Celery]:
    """A Celery app (the project's JSON, late-ack conventions) on ``own_redis``.

    Celery's in-thread test worker makes its app the process's current and default app
    (shared tasks then send through it): the project's app is made both again after the
    test, so later tests never send to this test's Redis.
    """
    import games.tasks  # noqa: F401 - registers the shared tasks on the new app

    project_app = canfield_site.celery.app

    app = Celery("outage", broker=own_redis.url, backend=own_redis.url, set_as_current=False)
    app.conf.update(
        task_always_eager=False,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        broker_connection_retry=False,
        broker_connection_retry_on_startup=False,
        broker_connection_max_retries=0,
        broker_transport_options={"socket_connect_timeout": 1},
    )
    assert app.conf.broker_url == own_redis.url
    monkeypatch.setattr(canfield_site.celery, "app", app)
    try:
        yield app
    finally:
        # Results the test left behind unsubscribe from this Redis when collected:
        # collect them now, while it still runs (the fixture that owns it stops it
        # next); collected later, in another test, they met a dead port and pytest
        # reported an unraisable exception there.
        gc.collect()
        app.close()
        project_app.set_current()
        project_app.set_default()


@pytest.fixture
def redis_cache(own_redis: OwnRedis, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared cache on ``own_redis`` (retrying Redis at every call) and real throttles."""
    settings.CACHES = {
        **cache_settings(own_redis.url, retry_seconds=0),
        "auth_tokens": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        {"moves": "1000/min", "games": "1000/min", "auth": "1000/min"},
    )


def _health(client: APIClient) -> tuple[int, dict[str, Any]]:
    response = client.get("/api/v1/health")
    return response.status_code, response.json()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("redis_cache")
def test_moves_survive_a_redis_outage_and_due_races_close_after_it(
    own_redis: OwnRedis, outage_app: Celery, caplog: pytest.LogCaptureFixture
) -> None:
    from celery.contrib.testing.worker import start_worker

    anon = APIClient()
    status, body = _health(anon)
    assert status == 200, body
    assert (body["cache"], body["cache_mode"]) == ("ok", "redis")
    assert (body["broker"], body["broker_mode"]) == ("ok", "redis")

    player = create_user("steady")
    client = client_for(player)
    race = running_race(name="through the outage")
    joined = client.post(f"/api/v1/races/{race.id}/join")
    assert joined.status_code in (200, 201), joined.content
    game_id = joined.json()["game_id"]
    first = client.post(
        f"/api/v1/games/{game_id}/moves", {"move": "draw", "expected_move_number": 0}
    )
    assert first.status_code == 201
    # The throttle really counts in Redis.
    assert redis.Redis(port=own_redis.port).keys("*throttle*")

    own_redis.kill()
    caplog.set_level(logging.WARNING, logger="canfield_site.cache")

    # Every throttled action a player takes is accepted while Redis is down.
    for n in range(1, 6):
        moved = client.post(
            f"/api/v1/games/{game_id}/moves", {"move": "draw", "expected_move_number": n}
        )
        assert moved.status_code == 201, moved.content
    assert client.post(f"/api/v1/races/{race.id}/join").status_code == 200
    practice = client.post("/api/v1/games", {"seed": "0"})  # classic "0" is won
    assert practice.status_code == 201, practice.content
    pid = practice.json()["id"]
    assert client.post(f"/api/v1/games/{pid}/moves", {"move": "draw"}).status_code == 201
    assert client.post(f"/api/v1/games/{pid}/undo").status_code == 200
    assert client.post(f"/api/v1/games/{pid}/resign").status_code == 200
    # Asking for the finished game's solution queues a job the broker cannot take:
    # accepted (202), recorded, and sent again by the solver sweeper later.
    solution = client.get(f"/api/v1/games/{pid}/solution")
    assert solution.status_code == 202, solution.content
    assert Solve.objects.get().status == Solve.Status.PENDING
    assert client.get(f"/api/v1/games/{game_id}/moves").status_code == 200
    fresh = APIClient()
    registered = fresh.post(
        "/api/v1/auth/register", {"username": "newcomer", "password": "a-long-pass-phrase-9"}
    )
    assert registered.status_code == 201, registered.content
    # Logins work, their attempts in flight counted in the database (shared by every
    # process: canfield_site.security) instead of Redis.
    token = fresh.post(
        "/api/v1/auth/token", {"username": "newcomer", "password": "a-long-pass-phrase-9"}
    )
    assert token.status_code == 200, token.content
    wrong = fresh.post("/api/v1/auth/token", {"username": "newcomer", "password": "wrong"})
    assert wrong.json()["code"] == "invalid_credentials"
    # The slots count per address and per username at that address, as the lockout does.
    assert caches["database"].get(slot_key("address", "127.0.0.1")) == 0
    assert caches["database"].get(slot_key("username+address", "newcomer\n127.0.0.1")) == 0
    assert Game.objects.get(id=game_id).move_number == 6
    assert any("Redis is unavailable" in r.getMessage() for r in caplog.records)

    # Health names what failed.
    status, body = _health(anon)
    assert status == 503
    assert body["code"] == "service_unavailable"
    assert (body["database"], body["broker"], body["cache"]) == ("ok", "error", "error")
    assert body["detail"] == "Unavailable: broker, cache."

    # The race falls due during the outage; the sweeper cannot be dispatched.
    past = timezone.now() - timedelta(seconds=1)
    Race.objects.filter(id=race.id).update(ends_at=past)
    Game.objects.filter(id=game_id).update(deadline=past)
    with pytest.raises(OperationalError):
        outage_app.send_task("games.race_sweep", retry=False)
    assert Race.objects.get(id=race.id).status == Race.Status.SCHEDULED

    own_redis.start()
    status, body = _health(anon)
    assert status == 200, body
    with start_worker(outage_app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        swept = outage_app.send_task("games.race_sweep").get(timeout=60)
        later = timezone.now() + timedelta(seconds=settings.SOLVER_RESEND_SECONDS + 1)
        assert solves_resend(now=later) == 1
        for _ in range(600):
            if Solve.objects.get().status == Solve.Status.DONE:
                break
            time.sleep(0.1)
    assert Solve.objects.get().result == "won"
    assert client.get(f"/api/v1/games/{pid}/solution").status_code == 200
    assert f"{race.id}:finished" in swept
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED
    entry = race.entries.get()
    assert (entry.moves, entry.rank) == (6, 1)
