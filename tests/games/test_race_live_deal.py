"""A race never gets a deal that is blocked at the deal (RULES.md 3.9).

A new user's window race answered its first start with ``"status": "blocked"`` and no
legal move: the deal had no move but draw and redeal, so every entrant's game was over
at its first second.  Classic seed ``"295"`` is such a deal (the tests check it is).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import legal_moves, new_game, status
from games.models import Race
from games.services import races as race_services
from games.services.errors import InvalidRace
from games.services.races import LIVE_DEAL_ATTEMPTS, race_create, race_join

pytestmark = pytest.mark.django_db

BLOCKED = "295"
LIVE = "296"


def _seeds(monkeypatch: pytest.MonkeyPatch, *seeds: str) -> list[str]:
    """Make the races' seed source give ``seeds`` in order; returns the list of those drawn."""
    drawn: list[str] = []
    source: Iterator[str] = iter(seeds)

    def next_seed() -> str:
        seed = next(source)
        drawn.append(seed)
        return seed

    monkeypatch.setattr(race_services, "random_seed", next_seed)
    return drawn


def _times() -> dict[str, Any]:
    now = timezone.now()
    return {
        "opens_at": now - timedelta(minutes=2),
        "starts_at": now - timedelta(minutes=1),
        "ends_at": now + timedelta(minutes=5),
        "now": now - timedelta(minutes=2),  # announced when joining opened
    }


def test_the_seeds_have_the_properties_the_tests_need() -> None:
    blocked = new_game("classic", seed=BLOCKED)
    assert status(blocked) == "blocked"
    assert set(legal_moves(blocked)) <= {"draw", "redeal"}  # nothing else, ever
    assert status(new_game("classic", seed=LIVE)) == "playing"


def test_a_race_skips_a_seed_whose_deal_is_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _seeds(monkeypatch, BLOCKED, LIVE)
    race = race_create(name="r", late_join_s=None, **_times())
    assert drawn == [BLOCKED, LIVE]
    assert race.deal.seed == LIVE
    game = race_join(race_id=race.id, player=User.objects.create_user("ann")).entry.game
    assert game is not None
    assert game.status == "playing"


def test_the_seed_kept_is_the_one_committed_to(monkeypatch: pytest.MonkeyPatch) -> None:
    _seeds(monkeypatch, BLOCKED, BLOCKED, LIVE)
    race = race_create(name="r", **_times())
    assert race.commitment == race.deal.commitment
    assert race.deal.seed == LIVE


def test_rules_whose_deals_are_all_blocked_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _seeds(monkeypatch, *[BLOCKED] * LIVE_DEAL_ATTEMPTS)
    with pytest.raises(InvalidRace, match="blocked at the deal"):
        race_create(name="r", **_times())
    assert len(drawn) == LIVE_DEAL_ATTEMPTS
    assert not Race.objects.exists()


def test_the_api_answers_such_rules_with_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    _seeds(monkeypatch, *[BLOCKED] * LIVE_DEAL_ATTEMPTS)
    client = APIClient()
    client.force_authenticate(User.objects.create_superuser("org"))
    times = {k: v.isoformat() for k, v in _times().items() if k != "now"}
    body = {"name": "r", "late_join_s": None, **times}  # joinable: it started already
    answer = client.post("/api/v1/races", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["code"] == "invalid_race"
    assert "blocked at the deal" in answer.json()["detail"]
    assert not Race.objects.exists()
