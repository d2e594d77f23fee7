# mypy: disable-error-code="no-untyped-call, assignment"
"""The whole-list public reads of standings count in the ``games`` throttle, as the
results do: a 10,000-entrant race's standings took seconds and 1.2 MB per call
(benchmarks/public_reads.py), and nothing limited how often anyone asked."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Tournament
from tests.tournaments.factories import Result, finished_race, running_race

pytestmark = pytest.mark.django_db


def _codes(monkeypatch: pytest.MonkeyPatch, url: str) -> list[int]:
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"games": "2/min"})
    client = APIClient()
    return [client.get(url).status_code for _ in range(3)]


def test_race_standings_count_in_the_games_throttle(monkeypatch: pytest.MonkeyPatch) -> None:
    race = running_race(None)
    assert _codes(monkeypatch, f"/api/v1/races/{race.id}/standings") == [200, 200, 429]


def test_race_standings_csv_counts_in_the_games_throttle(monkeypatch: pytest.MonkeyPatch) -> None:
    race = finished_race(None, Result("ada", 5, 1000))
    assert _codes(monkeypatch, f"/api/v1/races/{race.id}/standings.csv") == [200, 200, 429]


def test_tournament_standings_csv_counts_in_the_games_throttle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = Tournament.objects.create(name="Cup")
    url = f"/api/v1/tournaments/{t.id}/standings.csv"
    assert _codes(monkeypatch, url) == [200, 200, 429]
