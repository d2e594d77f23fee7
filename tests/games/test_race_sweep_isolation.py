"""The beat sweeper (``games.race_sweep``) closes every due race even when one of them
fails: a race whose scoring raises is reported and retried at the next sweep, and the
races due after it are closed and scored now (they waited behind it on every sweep)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Game, Race
from games.services import races as race_services
from games.tasks import race_sweep
from tests.games.test_races import end_now, entrant, running_race

pytestmark = pytest.mark.django_db


def test_a_failing_race_does_not_stop_the_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = running_race()
    entrant(broken, "a", home=20, ms=5, moves=5)
    later = running_race()
    entrant(later, "b", home=25, ms=5, moves=5)
    end_now(broken)
    # Due after the broken one (races_due: oldest end first).
    later_end = broken.starts_at + timedelta(seconds=11)
    Race.objects.filter(id=later.id).update(ends_at=later_end)
    Game.objects.filter(race_entry__race=later).update(deadline=later_end)
    real_score = race_services.race_score

    def failing_score(*, race: Race) -> None:
        if race.id == broken.id:
            raise RuntimeError("scoring bug")
        real_score(race=race)

    monkeypatch.setattr(race_services, "race_score", failing_score)
    swept = race_sweep.apply().get()
    assert swept == [f"{broken.id}:error", f"{later.id}:finished"]
    assert Race.objects.get(id=later.id).status == Race.Status.FINISHED
    # Step 1 of the broken race committed; its scoring rolled back and waits for the next
    # sweep, which finishes it once the fault is gone.
    assert Race.objects.get(id=broken.id).status == Race.Status.CLOSING
    monkeypatch.setattr(race_services, "race_score", real_score)
    assert race_sweep.apply().get() == [f"{broken.id}:finished"]


def test_the_soft_time_limit_still_stops_the_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    from celery.exceptions import SoftTimeLimitExceeded

    first = running_race()
    entrant(first, "a", home=20, ms=5, moves=5)
    end_now(first)

    def out_of_time(*, race: Race) -> None:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(race_services, "race_score", out_of_time)
    with pytest.raises(SoftTimeLimitExceeded):
        race_sweep()
    assert Race.objects.get(id=first.id).status == Race.Status.CLOSING
