"""A race's standings read only the columns their rows show: never a game's engine
snapshot (``state``, which a 10,000-entrant race decoded 10,000 times per call:
benchmarks/public_reads.py) nor the players' other columns, and in a fixed number of
queries whatever the number of entrants."""

# mypy: disable-error-code="no-untyped-call, assignment"

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Race, RaceEntry
from games.selectors.races import race_standings
from games.services.race_admin import race_entry_disqualify
from games.services.races import race_close, race_create, race_join
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def _race(entrants: int, *, allow_undo: bool = False) -> Race:
    now = timezone.now()
    race = race_create(
        name="Columns",
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=10),
        late_join_s=None,
        allow_undo=allow_undo,
    )
    for i in range(entrants):
        race_join(race_id=race.id, player=create_user(f"col{entrants}-{i}"))
    return race


def _read(race: Race) -> tuple[list[dict[str, Any]], list[str]]:
    race = Race.objects.get(id=race.id)
    with CaptureQueriesContext(connection) as ctx:
        rows = race_standings(race=race)
    return rows, [q["sql"] for q in ctx.captured_queries]


def _columns_read(sql: list[str]) -> str:
    return " ".join(s.split(" FROM ")[0] for s in sql)


def test_running_standings_read_no_snapshot_and_no_query_per_entrant() -> None:
    small, large = _race(2, allow_undo=True), _race(6, allow_undo=True)
    # A blocked game and a disqualified entrant: the rows that read the most.
    blocked = RaceEntry.objects.filter(race=large).order_by("joined_at", "id")[0]
    Game.objects.filter(race_entry=blocked).update(status=Game.Status.BLOCKED, move_number=3)
    out = RaceEntry.objects.filter(race=large).order_by("joined_at", "id")[5]
    race_entry_disqualify(entry_id=out.id, reason="test")
    rows_small, sql_small = _read(small)
    rows_large, sql_large = _read(large)
    assert len(rows_small) == 2
    assert len(rows_large) == 6
    assert len(sql_small) == len(sql_large) == 2
    selected = _columns_read(sql_large)
    assert '"games_game"."state"' not in selected
    assert '"games_game"."hints"' not in selected
    assert '"auth_user"."password"' not in selected
    statuses = sorted(r["status"] for r in rows_large)
    assert statuses == ["blocked", "disqualified", "playing", "playing", "playing", "playing"]
    blocked_row = next(r for r in rows_large if r["status"] == "blocked")
    assert blocked_row["finished"] is False  # undo may still take the block back
    assert blocked_row["moves"] == 3


def test_finished_standings_read_only_the_shown_columns() -> None:
    race = _race(3)
    assert race_close(race_id=race.id, now=race.ends_at) == Race.Status.FINISHED
    rows, sql = _read(race)
    assert len(sql) == 1
    assert '"auth_user"."password"' not in _columns_read(sql)
    assert [r["rank"] for r in rows] == [1, 1, 1]
    assert {r["player"] for r in rows} == {"col3-0", "col3-1", "col3-2"}


def _play(race: Race, cards: list[int]) -> None:
    entries = RaceEntry.objects.filter(race=race).order_by("joined_at", "id")
    for entry, home in zip(entries, cards, strict=True):
        Game.objects.filter(race_entry=entry).update(cards_home=home, cards_home_ms=1000)


@pytest.mark.parametrize("finished", [False, True])
def test_limited_standings_end_with_the_viewers_own_row_and_rank(finished: bool) -> None:
    race = _race(5)
    _play(race, [9, 7, 5, 3, 1])  # col5-0 first ... col5-4 last
    if finished:
        assert race_close(race_id=race.id, now=race.ends_at) == Race.Status.FINISHED
    race = Race.objects.get(id=race.id)
    every = race_standings(race=race)
    assert [(r["rank"], r["player"]) for r in every] == [
        (1, "col5-0"),
        (2, "col5-1"),
        (3, "col5-2"),
        (4, "col5-3"),
        (5, "col5-4"),
    ]
    fourth = User.objects.get(username="col5-3")
    rows = race_standings(race=race, limit=2, viewer=fourth)
    assert [(r["rank"], r["player"]) for r in rows] == [(1, "col5-0"), (2, "col5-1"), (4, "col5-3")]
    assert rows[-1] == every[3]
    # Among the first: no row twice; a stranger or nobody: the first rows only.
    second = User.objects.get(username="col5-1")
    assert race_standings(race=race, limit=2, viewer=second) == every[:2]
    assert race_standings(race=race, limit=2, viewer=create_user("stranger")) == every[:2]
    assert race_standings(race=race, limit=2) == every[:2]


def test_limited_standings_reach_entrants_without_a_game() -> None:
    race = _race(3)
    last = RaceEntry.objects.filter(race=race).order_by("joined_at", "id")[2]
    race_entry_disqualify(entry_id=last.id, reason="test")
    viewer = User.objects.get(username="col3-2")
    rows = race_standings(race=race, limit=1, viewer=viewer)
    assert [(r["player"], r["status"]) for r in rows] == [
        ("col3-0", "playing"),
        ("col3-2", "disqualified"),
    ]
    assert len(race_standings(race=race, limit=3)) == 3


def test_the_tournament_standings_csv_reads_no_players_other_columns() -> None:
    from games.models import Tournament, TournamentStanding
    from games.selectors.exports import tournament_standings_rows

    t = Tournament.objects.create(name="Cup")
    TournamentStanding.objects.bulk_create(
        [
            TournamentStanding(
                tournament=t, player=create_user(f"cup{i}"), rank=i + 1, points=9 - i
            )
            for i in range(3)
        ]
    )
    with CaptureQueriesContext(connection) as ctx:
        rows = tournament_standings_rows(tournament=t)
    assert [(r[2], r[3], r[4]) for r in rows] == [(1, "cup0", 9), (2, "cup1", 8), (3, "cup2", 7)]
    assert len(ctx.captured_queries) == 1
    assert '"auth_user"."password"' not in _columns_read([q["sql"] for q in ctx.captured_queries])
