# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""A tournament's points total past 2**31: the standings column is a 64-bit integer.

The services take up to 100,000 points per card and 100,000 for a win
(``games.services.tournaments.scoring_validate``): a won race is worth
52 * 100,000 + 100,000 = 5,300,000 points, and 406 of them pass 2**31 - 1, where the
32-bit ``TournamentStanding.points`` column stopped (PostgreSQL: "integer out of range",
a 500 from the race close that re-scores the tournament).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.test import Client
from rest_framework.test import APIClient

from games.models import Race, RaceEntry, Tournament, TournamentStanding
from tests.factories import UserFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race

pytestmark = pytest.mark.django_db

#: One won race at the largest scheme the services accept.
WON_RACE_POINTS = 52 * 100_000 + 100_000


def test_every_points_total_column_is_64_bit() -> None:
    """Points accumulate over races without a bound on their number: every column that
    stores a sum of points holds 64-bit values on every database."""
    ranges = BaseDatabaseOperations.integer_field_ranges
    field = TournamentStanding._meta.get_field("points")
    assert isinstance(field, models.Field)
    low, high = ranges[field.get_internal_type()]
    assert (low, high) == (-(2**63), 2**63 - 1)


@pytest.mark.postgres
def test_a_total_past_2_31_is_scored_stored_and_served() -> None:
    t = TournamentFactory(
        scoring=Tournament.Scoring.CARDS_HOME, points_per_card=100_000, win_bonus=100_000
    )
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    first = finished_race(t, Result(ann, 52, 60_000, won=True), Result(bob, 30, 60_000))
    # 418 more finished races Ann won (rows as a close leaves them; no game needed).
    races = Race.objects.bulk_create(
        Race(
            name=f"race {i}",
            deal=first.deal,
            commitment=first.commitment,
            time_limit_s=first.time_limit_s,
            opens_at=first.opens_at - timedelta(days=i + 1),
            starts_at=first.starts_at - timedelta(days=i + 1),
            ends_at=first.ends_at - timedelta(days=i + 1),
            status=Race.Status.FINISHED,
            tournament=t,
        )
        for i in range(418)
    )
    RaceEntry.objects.bulk_create(
        RaceEntry(
            race=r, player=ann, status="won", cards_home=52, won=True, rank=1, elapsed_ms=60_000
        )
        for r in races
    )
    # The last one closes as a race does (race_close_now): the close re-scores the
    # tournament, whose total passes 2**31 - 1 here.
    finished_race(t, Result(ann, 52, 60_000, won=True), Result(bob, 30, 60_000))

    total = 420 * WON_RACE_POINTS
    assert total == 2_226_000_000 > 2**31
    standings = {s.player.username: s for s in TournamentStanding.objects.filter(tournament=t)}
    assert (standings["ann"].rank, standings["ann"].points, standings["ann"].wins) == (
        1,
        total,
        420,
    )
    assert (standings["bob"].rank, standings["bob"].points) == (2, 2 * 30 * 100_000)
    body = APIClient().get(f"/api/v1/tournaments/{t.id}/standings").json()
    assert [(r["player"], r["points"]) for r in body["results"]] == [
        ("ann", total),
        ("bob", 6_000_000),
    ]
    assert Client().get(f"/tournaments/{t.id}/").status_code == 200
