"""Publishing live events: once, after commit, never failing the caller; WSGI serves no stream."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import override_settings
from rest_framework.test import APIClient

from canfield_bot.stack import free_port
from games.live import publish
from games.live.publish import game_topic, local_broker, publish_on_commit

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard() -> Any:
    got: list[tuple[str, int, str]] = []

    def listener(topic: str, seq: int, body: str) -> None:
        got.append((topic, seq, body))

    local_broker.listen(listener)
    yield got
    local_broker.unlisten(listener)


@override_settings(LIVE_REDIS_URL="")
def test_published_once_after_commit_and_never_on_rollback(
    heard: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        publish_on_commit(("race:r1", "standings", {}))
        assert heard == []  # not before the commit
    assert [t for t, _, _ in heard] == ["race:r1"]
    assert len(heard) == 1

    def rolled_back() -> None:
        with transaction.atomic():
            publish_on_commit(("race:r1", "standings", {}))
            raise RuntimeError("rolled back")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        rolled_back()
    assert len(heard) == 1
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        publish_on_commit(("race:r1", "standings", {}))
    assert [seq for _, seq, _ in heard] == [heard[0][1], heard[0][1] + 1]


@override_settings(LIVE_REDIS_URL="")
def test_a_move_publishes_the_game_topic_without_cards(
    heard: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    client = APIClient()
    client.force_authenticate(User.objects.create_user(f"u{uuid.uuid4().hex[:12]}"))
    game = client.post("/api/v1/games", {"variant": "classic"}, format="json").json()
    assert game["status"] == "playing"  # the seed comes from tests/conftest.py's sequence
    move = next(m for m in game["legal_moves"])
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            f"/api/v1/games/{game['id']}/moves",
            {"move": move, "expected_move_number": 0},
            format="json",
        )
    assert r.status_code == 201
    mine = [(t, b) for t, _, b in heard if t == game_topic(game["id"])]
    assert len(mine) == 1
    assert '"change": "move"' in mine[0][1]
    assert '"move_number": 1' in mine[0][1]


def test_redis_down_never_fails_a_move(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    monkeypatch.setattr(publish, "_redis_publisher", publish._RedisPublisher())
    with override_settings(LIVE_REDIS_URL=dead):
        client = APIClient()
        client.force_authenticate(User.objects.create_user(f"u{uuid.uuid4().hex[:12]}"))
        game = client.post("/api/v1/games", {"variant": "classic"}, format="json").json()
        assert "draw" in game["legal_moves"]  # the seed: tests/conftest.py's sequence
        for n, move in enumerate(["draw", "draw"]):
            with django_capture_on_commit_callbacks(execute=True) as callbacks:
                r = client.post(
                    f"/api/v1/games/{game['id']}/moves",
                    {"move": move, "expected_move_number": n},
                    format="json",
                )
            assert r.status_code == 201, r.content
            assert len(callbacks) == 1  # the publish ran, failed quietly


def test_under_wsgi_a_stream_is_a_503_problem() -> None:
    """The WSGI entry point keeps working for REST; streams say to poll."""
    r = APIClient().get(f"/api/v1/races/{'0' * 8}-0000-4000-8000-{'0' * 12}/events")
    assert r.status_code == 503
    assert r["Content-Type"] == "application/problem+json"
    assert r.json()["code"] == "live_unavailable"


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options", "head"])
@pytest.mark.parametrize("kind", ["races", "tournaments", "games"])
def test_a_stream_answers_only_get(method: str, kind: str) -> None:
    """Any other method is 405 with ``Allow: GET`` first (before authentication, CSRF
    or the ASGI check): an OPTIONS or a POST with a session opened the stream."""
    client = APIClient(enforce_csrf_checks=True)
    r = getattr(client, method)(f"/api/v1/{kind}/{'0' * 8}-0000-4000-8000-{'0' * 12}/events")
    assert r.status_code == 405
    assert r["Allow"] == "GET"
    assert r["Content-Type"] == "application/problem+json"
    if method != "head":
        assert r.json()["code"] == "method_not_allowed"
