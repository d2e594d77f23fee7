# mypy: disable-error-code="no-untyped-call, assignment"
"""Race lists (the lobby, its polled ETag, ``GET /api/v1/races``) count the entries of
the races they list only: a join grouped by race counted every entry of every race
before the sort and the limit kept a page (the lobby's ETag alone took 280 ms on every
poll with 20,000 entries in two races: benchmarks/public_reads.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.selectors.races import lobby_change_key, race_list
from games.services.races import race_create, race_join
from tests.factories import create_user

pytestmark = pytest.mark.django_db

GROUPED_BY_RACE = 'GROUP BY "games_race"."id"'


def test_race_lists_count_entries_per_listed_race_without_grouping_every_race() -> None:
    now = timezone.now()
    races = []
    for i, entrants in enumerate((3, 0, 1)):
        race = race_create(
            name=f"R{i}",
            opens_at=now - timedelta(minutes=2),
            starts_at=now - timedelta(minutes=1, seconds=i),
            ends_at=now + timedelta(minutes=10),
            late_join_s=None,
        )
        for j in range(entrants):
            race_join(race_id=race.id, player=create_user(f"r{i}p{j}"))
        races.append(race)
    with CaptureQueriesContext(connection) as ctx:
        listed = {
            r.name: getattr(r, "entrants", None)
            for r in race_list(phase="running", now=now, limit=2)
        }
        key = lobby_change_key(include_drafts=False, now=now)
    assert listed == {"R0": 3, "R1": 0}
    assert key[0] == 4  # entries of scheduled races
    looks = key[-1]
    assert f"{races[0].id}:R0:" in looks
    assert looks.split(";")[0].endswith(":3")
    sql = " ".join(q["sql"] for q in ctx.captured_queries)
    assert GROUPED_BY_RACE not in sql
