# mypy: disable-error-code="no-untyped-call, arg-type, misc"
"""A join and the early close of a race over for everyone never overlap (PostgreSQL).

An attack slowed a join (a tournament admission waiting on a lock) just before joining
closed; meanwhile the sweeper found every entrant done, counted the entries without the
uncommitted one and closed the race.  The join then committed: a game playing on after
the seed was published, left out of the results.  The join now locks the race row, so
a closer skips the race until the join has committed (and then sees its entrant).
Time is injected; the two transactions are ordered by events, not by sleeping."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

import games.services.races as races_service
from games.models import Game, Race
from games.services.races import race_close, race_join
from tests.factories import create_user
from tests.tournaments.factories import running_race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_race_is_not_closed_under_a_join_in_progress(monkeypatch: Any) -> None:
    race = running_race(name="overlap", late_join_s=120)  # started a minute ago
    t0 = race.starts_at + timedelta(minutes=1)  # joining closes at t0 + 60 s
    ann = race_join(race_id=race.id, player=create_user("ann"), now=t0).entry
    Game.objects.filter(id=ann.game_id).update(status="resigned", finished_at=t0)
    bob = create_user("bob")

    inside, release = threading.Event(), threading.Event()
    real_game_create = races_service.game_create  # type: ignore[attr-defined]

    def slow_game_create(**kw: Any) -> Game:
        """The join's transaction, paused after its entry row is written."""
        inside.set()
        assert release.wait(timeout=20)
        return real_game_create(**kw)

    monkeypatch.setattr(races_service, "game_create", slow_game_create)
    result: list[Any] = []

    def join() -> None:
        try:
            result.append(race_join(race_id=race.id, player=bob, now=t0 + timedelta(seconds=59)))
        except BaseException as exc:  # reported below
            result.append(exc)
        finally:
            connection.close()

    joiner = threading.Thread(target=join)
    joiner.start()
    try:
        assert inside.wait(timeout=20)
        # Joining has closed by the closer's clock and the only committed entrant is
        # done: without the lock this closed the race under the join.
        assert race_close(race_id=race.id, now=t0 + timedelta(seconds=61)) == "busy"
    finally:
        release.set()
        joiner.join(timeout=30)
    assert not joiner.is_alive()
    assert len(result) == 1, result
    assert result[0].created, result
    # Bob's game is playing, so the race is not over for everyone: it stays running.
    assert race_close(race_id=race.id, now=t0 + timedelta(seconds=62)) == "scheduled"
    race.refresh_from_db()
    assert race.status == Race.Status.SCHEDULED
    assert Game.objects.get(id=result[0].entry.game_id).status == "playing"
