"""A race over for every player closes at the next sweep, not at its end (RULES.md 7:
the seed is secret "until the race is over for every player").

A walkthrough saw a race "Running; ends in 1:23" with both entrants done (one blocked,
one out of time) and joining closed: results waited for the whole window.  Time is
injected (``races_due(now=)``, ``race_close(now=)``); nothing here waits.
"""

# mypy: disable-error-code="no-untyped-call, arg-type, misc"
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, Race, RaceEntry
from games.services.race_admin import race_entry_disqualify
from games.services.races import (
    race_close,
    race_create,
    race_join,
    race_over_for_everyone,
    race_start,
    races_due,
)
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def race(**kw: Any) -> Race:
    """Started a minute ago, ends in ten; joining closes at the start unless ``kw`` says."""
    now = timezone.now()
    return race_create(
        name="early",
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=10),
        # Announced when joining opened (announced after it closed, it would be refused).
        **{"late_join_s": 0, "now": now - timedelta(minutes=2), **kw},
    )


def joined(r: Race, name: str) -> RaceEntry:
    """``name`` in the race (joined before it started, as joining closes at the start)."""
    Race.objects.filter(id=r.id).update(late_join_s=None)
    entry = race_join(race_id=r.id, player=create_user(name)).entry
    Race.objects.filter(id=r.id).update(late_join_s=r.late_join_s)
    return entry


def end(entry: RaceEntry, status: str) -> None:
    Game.objects.filter(id=entry.game_id).update(status=status, finished_at=timezone.now())


def test_a_race_closes_once_every_game_is_over_and_joining_has_closed() -> None:
    r = race()
    ann, bob = joined(r, "ann"), joined(r, "bob")
    now = timezone.now()
    end(ann, "resigned")
    assert r.id not in races_due(now=now)  # bob still plays
    assert race_close(race_id=r.id, now=now) == "scheduled"
    end(bob, "blocked")
    r.refresh_from_db()
    assert race_over_for_everyone(r, now=now)
    assert races_due(now=now) == [r.id]
    assert race_close(race_id=r.id, now=now) == "finished"
    r.refresh_from_db()
    assert (r.status, r.closed_at, r.ends_at > now) == ("finished", now, True)
    assert r.seed_revealed()
    assert {e.player.username: e.status for e in r.entries.select_related("player")} == {
        "ann": "resigned",
        "bob": "blocked",
    }
    assert races_due(now=now) == []


def test_a_race_still_joinable_or_without_entrants_runs_to_its_end() -> None:
    now = timezone.now()
    empty = race()
    open_to_the_end = race(late_join_s=None)
    end(joined(open_to_the_end, "cy"), "won")
    for r in (empty, open_to_the_end):
        assert not race_over_for_everyone(r, now=now)
    assert races_due(now=now) == []


def test_a_window_entrant_who_has_not_started_keeps_the_race_open() -> None:
    now = timezone.now()
    r = race(mode=Race.Mode.WINDOW, time_limit_s=60)
    dee, eve = joined(r, "dee"), joined(r, "eve")
    game = race_start(race_id=r.id, player=dee.player)
    end(RaceEntry.objects.get(game=game), "won")
    assert races_due(now=now) == []  # eve may still start her clock
    race_start(race_id=r.id, player=eve.player)
    eve.refresh_from_db()
    assert races_due(now=now) == []  # now she plays
    # Past her own deadline her game is over, though nobody has stored it yet.
    later = now + timedelta(seconds=61)
    assert races_due(now=later) == [r.id]
    assert race_close(race_id=r.id, now=later) == "finished"
    timed_out = Game.objects.get(id=eve.game_id)
    assert (timed_out.status, timed_out.finished_at) == ("timed_out", timed_out.deadline)


def test_a_disqualified_entrant_still_playing_keeps_the_race_open() -> None:
    """Lifting the disqualification lets them play on, so their game is not over."""
    now = timezone.now()
    r = race()
    fay, gus = joined(r, "fay"), joined(r, "gus")
    end(fay, "won")
    race_entry_disqualify(entry_id=gus.id, reason="two accounts")
    assert races_due(now=now) == []
    end(gus, "resigned")
    assert races_due(now=now) == [r.id]


def test_the_race_view_and_page_say_when_a_race_ended_early() -> None:
    """A walkthrough's race closed at 18:36:11, its page still said "Ends 18:39:00"."""
    from django.test import Client

    from games.selectors.races import race_public

    r = race()
    ann = joined(r, "ann")
    assert race_public(r)["closed_at"] is None
    early = "or earlier: once joining has closed and every player has finished"
    assert early in Client().get(f"/races/{r.id}/").content.decode()
    end(ann, "resigned")
    now = timezone.now()
    assert race_close(race_id=r.id, now=now) == "finished"
    r.refresh_from_db()
    assert race_public(r)["closed_at"] == now < r.ends_at
    page = Client().get(f"/races/{r.id}/").content.decode()
    assert "Ended early" in page
    assert early not in page
    assert f"{now:%Y-%m-%d %H:%M:%S} UTC</time> · every player had finished" in page
    api = Client().get(f"/api/v1/races/{r.id}").json()
    assert api["closed_at"].startswith(f"{now:%Y-%m-%dT%H:%M:%S}")


def test_a_race_closed_early_whose_scoring_failed_is_scored_at_the_next_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker dies (here: scoring raises) after the close committed ``closing`` and
    before the scores: the next sweep scores the race, not the first sweep after its
    ``ends_at`` (ten minutes later here; a race closed early was held ``closing``, its
    results and seed waiting for the whole window)."""
    import games.services.races as races_module
    from games.selectors.races import races_overdue

    r = race()
    ann = joined(r, "ann")
    now = timezone.now()
    end(ann, "won")
    real_score = races_module.race_score

    def worker_lost(*, race: Race) -> None:
        raise RuntimeError("worker lost (injected)")

    monkeypatch.setattr(races_module, "race_score", worker_lost)
    with pytest.raises(RuntimeError):
        race_close(race_id=r.id, now=now)
    r.refresh_from_db()
    assert (r.status, r.closed_at) == ("closing", now)
    # The health check counts it once a minute has passed without a sweep scoring it.
    assert races_overdue(now=now + timedelta(seconds=60), grace_seconds=60) == 0
    assert races_overdue(now=now + timedelta(seconds=61), grace_seconds=60) == 1
    monkeypatch.setattr(races_module, "race_score", real_score)
    later = now + timedelta(seconds=2)
    assert races_due(now=later) == [r.id]
    assert race_close(race_id=r.id, now=later) == "finished"
    r.refresh_from_db()
    assert (r.status, r.closed_at, r.scored_at) == ("finished", now, later)
    assert r.entries.get().rank == 1
