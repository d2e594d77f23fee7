# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined"
"""``409 race_not_started`` says when to come back: ``Retry-After`` and ``retry_after``
are the seconds until the start, rounded up, at least 1 (``RaceNotStarted.until``).

``POST /races/{id}/start`` before the start answered 409 with neither.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Race
from games.services.errors import RaceNotStarted
from games.services.races import race_create

pytestmark = pytest.mark.django_db

NOW = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """The server's clock stands at ``NOW`` (every ``timezone.now()`` reads it)."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    return NOW


def a_race(mode: str, starts_in: timedelta) -> Race:
    return race_create(
        name="soon",
        opens_at=NOW - timedelta(minutes=5),
        starts_at=NOW + starts_in,
        ends_at=NOW + timedelta(hours=1),
        mode=mode,
        time_limit_s=600 if mode == Race.Mode.WINDOW else None,
    )


@pytest.mark.parametrize("mode", [Race.Mode.SCHEDULED, Race.Mode.WINDOW])
def test_start_before_the_start_says_how_long_to_wait(
    frozen: datetime, make_client: Callable[..., APIClient], mode: str
) -> None:
    race = a_race(mode, timedelta(seconds=90, milliseconds=400))

    answer = make_client("bot").post(reverse("api:race-start", args=[race.id]))

    assert (answer.status_code, answer.json()["code"]) == (409, "race_not_started")
    assert answer["Retry-After"] == "91"  # 90.4 s, rounded up
    assert answer.json()["retry_after"] == 91
    assert "starts at 2030-01-02T03:05:35.400000Z" in answer.json()["detail"]


def test_a_race_game_before_its_start_says_how_long_to_wait(
    frozen: datetime, make_client: Callable[..., APIClient]
) -> None:
    race = a_race(Race.Mode.SCHEDULED, timedelta(minutes=2))
    bot = make_client("bot")
    game_id = bot.post(reverse("api:race-join", args=[race.id])).json()["game_id"]

    answer = bot.get(reverse("api:game", args=[game_id]))

    assert (answer.status_code, answer.json()["code"]) == (409, "race_not_started")
    assert (answer["Retry-After"], answer.json()["retry_after"]) == ("120", 120)


def test_the_wait_is_at_least_one_second() -> None:
    start = NOW + timedelta(milliseconds=1)
    assert RaceNotStarted.until(start, now=NOW).extra == {"retry_after": 1}
    assert RaceNotStarted.until(NOW + timedelta(seconds=3), now=NOW).extra == {"retry_after": 3}


@pytest.mark.django_db(transaction=True)
def test_a_race_game_stream_before_its_start_says_how_long_to_wait(frozen: datetime) -> None:
    """The stream's refusal (ASGI, before any event) carries the same member and header."""
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    from games.services.races import race_join
    from games.services.tokens import token_issue
    from tests.factories import UserFactory

    race = a_race(Race.Mode.SCHEDULED, timedelta(seconds=30))
    bot = UserFactory(username="bot")
    game_id = race_join(race_id=race.id, player=bot).entry.game_id
    token, _ = token_issue(user=bot)

    get = async_to_sync(AsyncClient().get)
    answer = get(f"/api/v1/games/{game_id}/events", headers={"Authorization": f"Token {token}"})

    assert (answer.status_code, answer.json()["code"]) == (409, "race_not_started")
    assert (answer["Retry-After"], answer.json()["retry_after"]) == ("30", 30)


@pytest.mark.parametrize("what", ["export", "solution"])
def test_a_race_games_export_and_solution_before_its_start_say_how_long_to_wait(
    frozen: datetime, make_client: Callable[..., APIClient], what: str
) -> None:
    """Answered as the game's view (their schema named only ``deal_secret``)."""
    race = a_race(Race.Mode.SCHEDULED, timedelta(minutes=2))
    bot = make_client("bot")
    game_id = bot.post(reverse("api:race-join", args=[race.id])).json()["game_id"]

    answer = bot.get(f"/api/v1/games/{game_id}/{what}")

    assert (answer.status_code, answer.json()["code"]) == (409, "race_not_started")
    assert (answer["Retry-After"], answer.json()["retry_after"]) == ("120", 120)
