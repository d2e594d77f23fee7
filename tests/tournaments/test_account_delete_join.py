# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Joining a race while the account is being deleted, on PostgreSQL with threads.

A join inserts the player's race entry and game; the deletion of the account deletes
its entries and games, then the account.  Overlapping, one of the two died of an
IntegrityError (a 500): a join committing while the deletion ran left a game (or an
entry) the deletion had not collected, pointing at the deleted account; a join
committing after the deletion pointed at an account gone.  Now the join locks the
account's row first, and the deletion too, before anything else: a join under way
finishes first (the deletion then deletes its entry and game too), a join arriving
during the deletion waits and is refused as a missing player (404).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games.models import Game, Race, RaceEntry
from games.services import race_admin, races
from games.services.errors import NotFound
from games.services.races import race_join
from tests.tournaments.factories import Result, TournamentFactory, finished_race, running_race
from tests.tournaments.test_account_delete_locks import Worker, deleting, paused

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def blocked_or_done(worker: Worker) -> None:
    """Until the worker waits for a row lock or has ended (at most 10 s)."""
    assert worker.started_work.wait(10)
    with connection.cursor() as cur:
        for _ in range(500):
            if not worker.is_alive():
                return
            cur.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [worker.pid])
            row = cur.fetchone()
            if row and row[0] == "Lock":
                return
            time.sleep(0.02)
    raise AssertionError("the worker neither waited for a lock nor ended")


def bob_with_a_past_race() -> tuple[User, Race]:
    """bob, who ran a finished tournament race, and a running race he has not joined."""
    finished_race(TournamentFactory(), Result("ann", 30, 1000), Result("bob", 20, 1000))
    return User.objects.get(username="bob"), running_race(name="other")


def test_an_account_deleted_while_its_join_is_under_way_takes_the_new_entry_with_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The join has inserted bob's entry and is about to create his game when the
    deletion starts: the deletion waits for the join, then deletes that entry and game
    too (it had collected bob's games before the join committed)."""
    bob, other = bob_with_a_past_race()
    holding, go = paused(monkeypatch, races, "game_create")
    joiner = Worker(lambda: race_join(race_id=other.id, player=bob))
    joiner.start()
    assert holding.wait(30)
    deleter = Worker(deleting("bob"))
    deleter.start()
    blocked_or_done(deleter)
    go.set()
    joiner.join(30)
    deleter.join(30)
    assert (joiner.error, deleter.error) == (None, None)
    assert joiner.result.created is True
    assert not User.objects.filter(username="bob").exists()
    assert not RaceEntry.objects.filter(race=other).exists()
    assert not Game.objects.filter(player_id=bob.pk).exists()


@pytest.mark.parametrize("step", ["player_results_lock", "player_results_rescore"])
def test_a_join_arriving_while_the_account_is_deleted_is_refused_as_a_missing_player(
    monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """The deletion is under way (before it deletes the account's rows, or after) when
    bob's join arrives: the join waits for the deletion, then finds no player."""
    bob, other = bob_with_a_past_race()
    holding, go = paused(monkeypatch, race_admin, step)
    deleter = Worker(deleting("bob"))
    deleter.start()
    assert holding.wait(30)

    def join() -> Any:
        try:
            return race_join(race_id=other.id, player=bob)
        except NotFound as exc:
            return exc.detail

    joiner = Worker(join)
    joiner.start()
    blocked_or_done(joiner)
    go.set()
    deleter.join(30)
    joiner.join(30)
    assert (joiner.error, deleter.error) == (None, None)
    assert joiner.result == "no such player: the account was deleted"
    assert not User.objects.filter(username="bob").exists()
    assert not RaceEntry.objects.filter(race=other).exists()
    assert not Game.objects.filter(player_id=bob.pk).exists()


def test_a_join_by_an_account_deleted_before_is_refused_as_a_missing_player() -> None:
    """The request's user was read before the deletion committed: no IntegrityError."""
    bob, other = bob_with_a_past_race()
    User.objects.filter(pk=bob.pk).delete()
    with pytest.raises(NotFound, match="no such player"):
        race_join(race_id=other.id, player=bob)
    assert not RaceEntry.objects.filter(race=other).exists()
