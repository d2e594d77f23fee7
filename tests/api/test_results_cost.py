# mypy: disable-error-code="no-untyped-call, assignment"
"""A finished race's results: every entrant's move list is read once, then kept.

Measured before this change (``benchmarks``-style, 100 entrants with 2,000 moves each,
SQLite): ``GET /api/v1/races/{id}/results`` took 2 to 4 s on every call, and so did the
results page, which shows no move list at all; both are public.  Now the page reads no
move, the API reads the moves once per race (a finished race's games take no more moves
and no undo, so the lists never change), and the API counts results reads in the
``games`` throttle, as it counts other history reads."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Move, RaceEntry
from games.services.games import move_play
from games.services.race_admin import race_close_now
from tests.tournaments.factories import Result, finished_race, play, running_race

pytestmark = pytest.mark.django_db

MOVE_TABLE = Move._meta.db_table


def move_reads(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if f'"{MOVE_TABLE}"' in q["sql"]]


def race_with_moves() -> tuple[Any, dict[str, list[str]]]:
    """A finished race whose two entrants drew 3 and 1 times: (race, moves by player)."""
    race = running_race()
    ada, bob = play(race, Result("ada", 1, 0)), play(race, Result("bob", 1, 0))
    for entry, n in ((ada, 3), (bob, 1)):
        for _ in range(n):
            move_play(game_id=entry.game_id, player=entry.player, move="draw")
    race_close_now(race_id=race.id)
    race.refresh_from_db()
    return race, {"ada": ["draw"] * 3, "bob": ["draw"]}


def test_the_api_reads_the_move_lists_once_and_answers_the_same() -> None:
    race, expected = race_with_moves()
    client = APIClient()
    url = f"/api/v1/races/{race.id}/results"
    with CaptureQueriesContext(connection) as first:
        one = client.get(url)
    with CaptureQueriesContext(connection) as second:
        two = client.get(url)
    assert one.status_code == two.status_code == 200
    assert one.json() == two.json()
    assert {e["player"]: e["move_list"] for e in one.json()["entries"]} == expected
    assert len(move_reads(first)) == 1
    assert move_reads(second) == []


def test_an_entry_gone_since_is_not_answered_from_the_cache() -> None:
    race, _ = race_with_moves()
    client = APIClient()
    url = f"/api/v1/races/{race.id}/results"
    assert len(client.get(url).json()["entries"]) == 2
    RaceEntry.objects.get(race=race, player__username="bob").player.delete()
    body = client.get(url).json()
    assert {e["player"]: e["move_list"] for e in body["entries"]} == {"ada": ["draw"] * 3}


def test_the_results_page_reads_no_move() -> None:
    race = finished_race(None, Result("ada", 5, 1000), Result("bob", 3, 2000))
    with CaptureQueriesContext(connection) as queries:
        page = APIClient().get(f"/races/{race.id}/results")
    assert page.status_code == 200
    assert b"ada" in page.content
    assert move_reads(queries) == []


def test_results_reads_count_in_the_games_throttle(monkeypatch: pytest.MonkeyPatch) -> None:
    from rest_framework.throttling import ScopedRateThrottle

    race = finished_race(None, Result("ada", 5, 1000))
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"games": "2/min"})
    client = APIClient()
    codes = [client.get(f"/api/v1/races/{race.id}/results").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
