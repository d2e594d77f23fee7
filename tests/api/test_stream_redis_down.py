"""A stream refused because Redis is down says so without naming Redis's address.

The ``503 live_unavailable`` answer is for any client, anonymous ones too: its
``detail`` carried the Redis client's error text (``Error 111 connecting to
127.0.0.1:6391. Connect call failed ...``), the internal host and port of the
deployment's Redis.  The text goes to the log; the answer says what to do.
"""

from __future__ import annotations

import logging
import socket

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, override_settings

import api.streams
from games.live.hub import Hub
from tests.tournaments.factories import running_race


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.django_db(transaction=True)
def test_a_stream_refused_for_a_redis_outage_does_not_name_redis(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    race = running_race(name="redis down")
    port = _dead_port()
    # A hub of its own (a hub keeps the Redis URL it was made with).
    monkeypatch.setattr(api.streams, "hub", Hub)
    caplog.set_level(logging.WARNING)
    with override_settings(LIVE_REDIS_URL=f"redis://127.0.0.1:{port}/0"):
        answer = async_to_sync(AsyncClient().get)(f"/api/v1/races/{race.id}/events")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "5"
    body = answer.json()
    assert body["code"] == "live_unavailable"
    assert body["detail"] == (
        "Live events are unavailable; poll the REST endpoints and retry later."
    )
    assert str(port) not in answer.content.decode()
    # The log keeps the cause.
    assert any(str(port) in r.getMessage() for r in caplog.records)
