# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Deleting an account while races close or are rated, on PostgreSQL with threads.

The deletion deletes the account's standings rows and sets ``created_by`` of the races
and tournaments it created to NULL (row locks), and a race closing at the same time
holds its race, then its tournament, while it replaces the standings rows.  The
deletion took the tournament only after those rows, and the created races never in
the project's order: both ways one of the two transactions died of a deadlock.  Now
the deletion locks the players' rating pools (a rating task replays a pool under its
lock), then those races, then those tournaments, for every account of the deletion
together, before it deletes anything (games.services.race_admin.players_lock).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from games.models import Race, Tournament
from games.services import race_admin, races
from games.services.races import race_close
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_account_delete import table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class Worker(threading.Thread):
    """Runs ``work`` on its own connection; keeps its backend pid, result and error."""

    def __init__(self, work: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.work = work
        self.pid: int | None = None
        self.started_work = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with connection.cursor() as cur:
                cur.execute("SELECT pg_backend_pid()")
                self.pid = cur.fetchone()[0]
            self.started_work.set()
            self.result = self.work()
        except BaseException as exc:
            self.error = exc
        finally:
            self.started_work.set()
            connection.close()


def wait_until_blocked(worker: Worker) -> None:
    """Until the worker's transaction waits for a row lock (at most 10 s)."""
    assert worker.started_work.wait(10)
    with connection.cursor() as cur:
        for _ in range(500):
            cur.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [worker.pid])
            row = cur.fetchone()
            if row and row[0] == "Lock":
                return
            assert worker.is_alive(), worker.error
            time.sleep(0.02)
    raise AssertionError("the worker never waited for a lock")


def closing(race: Race) -> Callable[[], str]:
    return lambda: race_close(race_id=race.id, now=race.ends_at + timedelta(seconds=1))


def paused(
    monkeypatch: pytest.MonkeyPatch, module: Any, name: str
) -> tuple[threading.Event, threading.Event]:
    """``module.name`` made to set ``holding`` then wait for ``go`` before it runs."""
    holding, go = threading.Event(), threading.Event()
    real = getattr(module, name)

    def when_told(*args: Any, **kwargs: Any) -> Any:
        holding.set()
        assert go.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, when_told)
    return holding, go


def deleting(*usernames: str) -> Callable[[], None]:
    """The accounts deleted in one query, in one transaction (as the admin's action)."""

    def delete() -> None:
        with transaction.atomic():
            User.objects.filter(username__in=usernames).order_by("pk").delete()

    return delete


def delete_while_held(
    first: Worker, holding: threading.Event, go: threading.Event, *usernames: str
) -> None:
    """``first`` runs until its paused step; the deletion starts and waits for a lock;
    then ``first`` goes on.  Both must end without an error (no deadlock)."""
    first.start()
    assert holding.wait(30)
    deleter = Worker(deleting(*usernames))
    deleter.start()
    wait_until_blocked(deleter)
    go.set()
    first.join(30)
    deleter.join(30)
    assert (first.error, deleter.error) == (None, None)


def test_a_race_closing_while_the_deletion_re_scores_does_not_deadlock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deletion has deleted bob's standings rows; another race of the tournament
    closes and re-scores it before the deletion's own re-score locks it."""
    t = TournamentFactory()
    finished_race(t, Result("ann", 30, 1000), Result("bob", 20, 1000))
    other = running_race(t, name="other")
    play(other, Result("cat", 10, 1000))
    closer = Worker(closing(other))
    real = race_admin.player_results_rescore

    def rescore_once_the_closer_waits(results: Any) -> None:
        closer.start()
        wait_until_blocked(closer)
        real(results)

    monkeypatch.setattr(race_admin, "player_results_rescore", rescore_once_the_closer_waits)
    with transaction.atomic():
        User.objects.get(username="bob").delete()
    closer.join(30)
    assert closer.error is None
    assert closer.result == "finished"
    assert [row[:3] for row in table(t)] == [("ann", 1, 10), ("cat", 2, 10)]


def test_deleting_an_organiser_while_a_race_they_created_closes_does_not_deadlock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bob raced in the tournament and created its other race, which is being scored
    (its race row held) when the deletion starts; it then re-scores the tournament."""
    t = TournamentFactory()
    finished_race(t, Result("ann", 30, 1000), Result("bob", 20, 1000))
    bob = User.objects.get(username="bob")
    other = running_race(t, name="other")
    Race.objects.filter(id=other.id).update(created_by=bob)
    Tournament.objects.filter(id=t.id).update(created_by=bob)
    play(other, Result("cat", 10, 1000))
    holding, go = paused(monkeypatch, races, "tournament_rescore")
    closer = Worker(closing(other))
    delete_while_held(closer, holding, go, "bob")
    assert closer.result == "finished"
    other.refresh_from_db()
    assert other.created_by_id is None
    assert Tournament.objects.get(id=t.id).created_by_id is None
    assert [row[:3] for row in table(t)] == [("ann", 1, 10), ("cat", 2, 10)]


def test_deleting_a_player_while_their_pool_is_re_rated_does_not_deadlock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rating task replays the pool from an earlier race: it has removed bob's history
    row of a later race and is about to write bob's rating back when the deletion
    starts; the deletion removed bob's rating row first, then his history rows, the
    other order.  Now the deletion takes the pool's row lock first, as the task does
    (pool, then race)."""
    from games.models import PlayerRating, RaceRating, RatingChange
    from games.services import ratings
    from games.services.ratings import race_rate
    from tests.ratings.helpers import race_of

    earlier = race_of(Result("ann", 30, 1000), Result("cat", 20, 1000))
    later = race_of(Result("ann", 30, 1000), Result("bob", 20, 1000))
    for race in (earlier, later):
        race_rate(race_id=race.id)
    assert RatingChange.objects.filter(player__username="bob").count() == 1
    RaceRating.objects.filter(race=earlier).update(fingerprint="changed")  # re-rate it
    # The task has removed the history rows from the earlier race on when it pauses.
    holding, go = paused(monkeypatch, ratings, "_store_ratings")
    rater = Worker(lambda: race_rate(race_id=earlier.id))
    delete_while_held(rater, holding, go, "bob")
    assert rater.result == "rated"
    assert not PlayerRating.objects.filter(player__username="bob").exists()
    assert not User.objects.filter(username="bob").exists()
    later.refresh_from_db()
    assert later.rating_stale  # the sweep re-rates the later race without bob


def test_deleting_two_players_at_once_while_a_race_of_the_second_closes_does_not_deadlock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The admin's "delete selected" deletes ann and bob in one query: the receiver ran
    for ann (her races, then her tournament) before bob (his races), a tournament lock
    before a race lock; bob's race, closing meanwhile, held its race and waited for the
    tournament.  Now the races of every account deleted are locked first."""
    t = TournamentFactory()
    finished_race(t, Result("ann", 30, 1000), Result("cat", 20, 1000))
    other = running_race(t, name="other")
    play(other, Result("bob", 10, 1000))
    play(other, Result("cat", 5, 1000))
    holding, go = paused(monkeypatch, races, "tournament_rescore")
    closer = Worker(closing(other))
    delete_while_held(closer, holding, go, "ann", "bob")
    assert closer.result == "finished"
    assert [row[:3] for row in table(t)] == [("cat", 1, 20)]
