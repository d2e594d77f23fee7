"""Read selectors: every race-list phase and mode filter, tournament list and get (18.3)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Race, Tournament
from games.selectors.races import race_list
from games.selectors.tournaments import tournament_get, tournament_list
from games.services.errors import NotFound
from games.services.races import race_cancel, race_create
from games.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def test_race_list_phases_and_modes() -> None:
    now = timezone.now()

    def make(name: str, opens: int, starts: int, ends: int, **kw: object) -> Race:
        return race_create(
            name=name,
            opens_at=now + timedelta(minutes=opens),
            starts_at=now + timedelta(minutes=starts),
            ends_at=now + timedelta(minutes=ends),
            now=now + timedelta(minutes=opens),  # announced when joining opens
            **kw,  # type: ignore[arg-type]
        )

    make("announced", 5, 12, 20)
    make("open", -5, 10, 20)
    make("running", -10, -5, 20, mode="window", time_limit_s=60)
    cancelled = make("cancelled", -10, -5, 20)
    race_cancel(race_id=cancelled.id)
    closing = make("closing", -10, -5, 20)
    Race.objects.filter(id=closing.id).update(status=Race.Status.CLOSING)

    def names(**kw: object) -> set[str]:
        return {r.name for r in race_list(now=now, **kw)}  # type: ignore[arg-type]

    # A phase filter lists the races whose phase field is that phase (announced: joining
    # not open yet); a tuple lists every race of those phases.
    assert {r.name: r.phase(now) for r in race_list(now=now)} == {
        "announced": "upcoming",
        "open": "open",
        "running": "running",
        "cancelled": "cancelled",
        "closing": "closing",
    }
    assert names(phase="upcoming") == {"announced"}
    assert names(phase=("upcoming", "open")) == {"announced", "open"}
    assert [r.name for r in race_list(now=now, phase=("open", "upcoming"))] == [
        "open",
        "announced",
    ]  # not started yet: soonest start first
    assert names(phase="open") == {"open"}
    assert names(phase="running") == {"running"}
    assert names(phase="closing") == {"closing"}
    assert names(phase="cancelled") == {"cancelled"}
    assert names(mode="window") == {"running"}
    assert names() == {"announced", "open", "running", "cancelled", "closing"}


def test_tournament_list_filters_and_get() -> None:
    draft = tournament_create(name="Draft", status=Tournament.Status.DRAFT)
    tournament_create(name="Open")
    assert [t.name for t in tournament_list(status="open")] == ["Open"]
    assert [t.name for t in tournament_list()] == ["Open"]  # drafts are the organisers'
    with pytest.raises(NotFound):
        tournament_get(tournament_id=draft.id)
    for bad in (uuid.uuid4(), "not-a-uuid"):
        with pytest.raises(NotFound):
            tournament_get(tournament_id=bad)
