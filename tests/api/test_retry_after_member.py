# mypy: disable-error-code="no-untyped-call, assignment"
"""Every problem that sends ``Retry-After`` carries the same seconds as ``retry_after``.

The Problem schema promises the member "as the `Retry-After` header"; ``throttled``,
``race_not_started`` and the others sent both, but ``too_many_streams``,
``live_unavailable`` (the broker down) and ``database_unavailable`` sent the header
alone, so a client reading the body found nothing to wait by.
"""

from __future__ import annotations

import socket
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import OperationalError
from django.test import AsyncClient, override_settings

import api.streams
from games.live.hub import Hub
from games.services import games as game_services
from tests.api.conftest import client_for
from tests.factories import create_user
from tests.tournaments.factories import running_race


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.django_db(transaction=True)
def test_too_many_streams_says_its_wait_in_the_body() -> None:
    race = running_race(name="no slot")
    with override_settings(LIVE_STREAMS_PER_USER=0, LIVE_HEARTBEAT_SECONDS=15):
        answer = async_to_sync(AsyncClient().get)(f"/api/v1/races/{race.id}/events")
    assert answer.status_code == 429
    body = answer.json()
    assert body["code"] == "too_many_streams"
    assert answer["Retry-After"] == "15"
    assert body["retry_after"] == 15


@pytest.mark.django_db(transaction=True)
def test_a_broker_outage_says_its_wait_in_the_body(monkeypatch: pytest.MonkeyPatch) -> None:
    race = running_race(name="broker down")
    monkeypatch.setattr(api.streams, "hub", Hub)  # a hub of its own, on the dead URL
    with override_settings(LIVE_REDIS_URL=f"redis://127.0.0.1:{_dead_port()}/0"):
        answer = async_to_sync(AsyncClient().get)(f"/api/v1/races/{race.id}/events")
    assert answer.status_code == 503
    assert answer.json()["code"] == "live_unavailable"
    assert answer["Retry-After"] == "5"
    assert answer.json()["retry_after"] == 5


def _down(*args: Any, **kwargs: Any) -> Any:
    raise OperationalError("connection refused")


@pytest.mark.django_db
def test_a_database_outage_says_its_wait_in_the_body(monkeypatch: pytest.MonkeyPatch) -> None:
    client = client_for(create_user("outage-member"))
    game = client.post("/api/v1/games", {"seed": "0"}).json()
    monkeypatch.setattr(game_services, "move_play", _down)
    answer = client.post(
        f"/api/v1/games/{game['id']}/moves", {"move": "draw", "expected_move_number": 0}
    )
    assert answer.status_code == 503
    assert answer.json()["code"] == "database_unavailable"
    assert answer["Retry-After"] == "5"
    assert answer.json()["retry_after"] == 5
