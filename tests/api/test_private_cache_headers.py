"""A shared cache (a CDN, a company proxy) never serves one player's API answer to another.

API answers depend on the ``Authorization`` header (a game view, ``joined`` and
``game_id`` in a race, a 409's ``current_move_number``), so every API answer names it in
``Vary``; an answer to an authenticated request is ``Cache-Control: private``.  They had
``Vary: Accept, Accept-Language`` only and no ``Cache-Control``: a cache keyed on the URL
could answer a player's token request with the copy it kept of an anonymous one, or of
another player's (a session's answers already had ``Vary: Cookie``).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils.cache import get_max_age
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _vary(response: Any) -> list[str]:
    return [v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()]


def _cache_control(response: Any) -> list[str]:
    return [v.strip().lower() for v in response.get("Cache-Control", "").split(",") if v.strip()]


def test_a_token_answer_is_private_and_varies_on_authorization(player: APIClient) -> None:
    game = player.post("/api/v1/games", {"seed": "7"}, format="json")
    assert game.status_code == 201
    view = player.get(f"/api/v1/games/{game.json()['id']}")
    assert view.status_code == 200
    assert "authorization" in _vary(view)
    assert "private" in _cache_control(view)
    assert get_max_age(view) is None  # nothing says it may be kept fresh


def test_a_refusal_to_a_token_request_is_private_too(player: APIClient) -> None:
    game = player.post("/api/v1/games", {"seed": "7"}, format="json").json()
    stale = player.post(
        f"/api/v1/games/{game['id']}/moves",
        {"move": "draw", "expected_move_number": 5},
        format="json",
    )
    assert stale.status_code == 409
    assert stale.json()["current_move_number"] == 0
    assert "private" in _cache_control(stale)
    assert "authorization" in _vary(stale)


def test_an_anonymous_answer_varies_on_authorization_but_is_not_private(anon: APIClient) -> None:
    races = anon.get("/api/v1/races")
    assert races.status_code == 200
    assert "authorization" in _vary(races)
    assert "private" not in _cache_control(races)


def test_the_token_answer_keeps_no_store(make_client: Any) -> None:
    """The login's answer (a new token, to a request that carried none) stays ``no-store``."""
    make_client("bob")
    login = APIClient().post(
        "/api/v1/auth/token",
        {"username": "bob", "password": "correct-horse-battery"},
        format="json",
    )
    assert login.status_code == 200
    assert "no-store" in _cache_control(login)


def test_a_session_answer_is_private(make_client: Any) -> None:
    """A browser's session (no ``Authorization``) gets ``private`` as well."""
    user = make_client("carol").user
    browser = APIClient()
    browser.force_login(user)
    games = browser.get("/api/v1/games")
    assert games.status_code == 200
    assert "private" in _cache_control(games)
    assert "cookie" in _vary(games)


@pytest.mark.django_db(transaction=True)
def test_an_event_stream_is_private_and_varies_on_authorization_too() -> None:
    """The event streams are API answers too (a game's stream is its player's view):
    they said ``Cache-Control: no-cache, no-transform`` only, neither ``private`` nor
    ``Vary: Authorization``."""
    import asyncio
    from datetime import timedelta

    from asgiref.sync import sync_to_async
    from django.db import connections
    from django.test import AsyncClient, override_settings
    from django.utils import timezone

    from games.services.races import race_create
    from games.services.tokens import token_issue
    from tests.factories import create_user

    def setup() -> tuple[str, str]:
        try:
            now = timezone.now()
            race = race_create(
                name="Cached",
                opens_at=now + timedelta(minutes=30),
                starts_at=now + timedelta(hours=1),
                ends_at=now + timedelta(hours=1, minutes=10),
            )
            return str(race.id), token_issue(user=create_user("viewer"))[0]
        finally:
            connections.close_all()  # this thread's connection, as another request's

    async def main() -> None:
        race_id, token = await sync_to_async(setup, thread_sensitive=False)()
        response: Any = await AsyncClient().get(
            f"/api/v1/races/{race_id}/events", headers={"Authorization": f"Token {token}"}
        )
        try:
            assert response.status_code == 200
            assert _cache_control(response) == ["private", "no-cache", "no-transform"]
            assert "authorization" in _vary(response)
        finally:
            await response.streaming_content.aclose()

    with override_settings(LIVE_REDIS_URL=""):
        asyncio.run(main())
