# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Writes pointing at an account while the account is deleted, on PostgreSQL with threads.

A join was fixed before (``test_account_delete_join.py``); every other write that
inserts a row pointing at an account met the deletion the same way: a practice game
(``POST /api/v1/games``, the practice form), an API token (a login), a race or a
tournament an organiser creates or the races added to one (``created_by``), an
admission to a tournament (``player``, ``invited_by``), a solve asked for (hints,
solutions: ``requested_by``).  Committed while the deletion ran, or after it, the row
pointed at an account gone: an IntegrityError (a 500) on one side.  Now each locks the
account's row first (``games.services.accounts.player_lock``), as the deletion does:
a write under way finishes first (the deletion then deletes or unlinks its row), a
write arriving during the deletion waits and is refused (``AccountDeleted``, the API's
404).  A pool recompute rating a race never rated was the last: it now locks that race,
which the deletion locks too.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from knox.models import AuthToken

from games.engine import make_rules
from games.models import (
    Game,
    PlayerRating,
    Race,
    RaceRating,
    RatingChange,
    RatingPool,
    Solve,
    Tournament,
    TournamentEntrant,
    WinnableDeal,
)
from games.services import games as game_services
from games.services import race_admin, races, ratings, standings, tournaments
from games.services.errors import AccountDeleted
from games.services.games import deal_create, game_start, rules_build
from games.services.races import race_create
from games.services.ratings import pool_recompute
from games.services.solver import solve_request
from games.services.tokens import token_issue
from games.services.tournaments import (
    RaceSchedule,
    tournament_admit,
    tournament_create,
    tournament_races_add,
)
from games.services.winnable_pool import rules_key
from tests.tournaments.factories import Result, TournamentFactory, finished_race
from tests.tournaments.test_account_delete_join import blocked_or_done
from tests.tournaments.test_account_delete_locks import Worker, deleting, paused

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

GONE = "no such player: the account was deleted"


def paused_once(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str
) -> tuple[threading.Event, threading.Event]:
    """``owner.name`` made to set ``holding`` then wait for ``go`` at its first call only
    (the write's: the deletion, started later, may call it too, and goes straight on)."""
    holding, go = threading.Event(), threading.Event()
    real = getattr(owner, name)
    first = threading.Lock()

    def when_told(*args: Any, **kwargs: Any) -> Any:
        if first.acquire(blocking=False):
            holding.set()
            assert go.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, when_told)
    return holding, go


@dataclass
class Write:
    """A write for bob's account: ``run`` it; it waits at ``pause`` (module or object,
    attribute), after its account lock and before its insert; ``pointing`` counts the
    rows left pointing at bob's account."""

    run: Callable[[], Any]
    pause: tuple[Any, str]
    pointing: Callable[[], int]


def _later(hours: int) -> Any:
    return timezone.now() + timedelta(hours=hours)


def practice(bob: User, ann: User) -> Write:
    return Write(
        lambda: game_start(player=bob, seed="7"),
        (game_services, "deal_create"),
        lambda: Game.objects.filter(player_id=bob.pk).count(),
    )


def practice_winnable(bob: User, ann: User) -> Write:
    WinnableDeal.objects.create(
        rules_key=rules_key(make_rules("classic")),
        variant="classic",
        options=make_rules("classic").to_dict(),
        seed="7",
        moves=[],
    )
    return Write(
        lambda: game_start(player=bob, winnable=True),
        (game_services, "winnable_draw"),
        lambda: Game.objects.filter(player_id=bob.pk).count(),
    )


def race_created(bob: User, ann: User) -> Write:
    return Write(
        lambda: race_create(
            name="r", opens_at=_later(1), starts_at=_later(2), ends_at=_later(3), created_by=bob
        ),
        (races, "deal_create"),
        lambda: Race.objects.filter(created_by_id=bob.pk).count(),
    )


def races_added(bob: User, ann: User) -> Write:
    t = TournamentFactory()
    schedule = RaceSchedule(count=1, first_starts_at=_later(2), duration=timedelta(minutes=10))
    return Write(
        lambda: tournament_races_add(tournament_id=t.id, schedule=schedule, created_by=bob),
        (tournaments, "_tournament_locked"),
        lambda: Race.objects.filter(created_by_id=bob.pk).count(),
    )


def tournament_created(bob: User, ann: User) -> Write:
    return Write(
        lambda: tournament_create(name="Bob's cup", created_by=bob),
        (tournaments, "tournament_validate"),
        lambda: Tournament.objects.filter(created_by_id=bob.pk).count(),
    )


def admitted(bob: User, ann: User) -> Write:
    t = TournamentFactory(entry=Tournament.Entry.INVITE)
    return Write(
        lambda: tournament_admit(tournament_id=t.id, player=bob, invited_by=ann),
        (standings, "_tournament_locked"),
        lambda: TournamentEntrant.objects.filter(player_id=bob.pk).count(),
    )


def admitting(bob: User, ann: User) -> Write:
    t = TournamentFactory(entry=Tournament.Entry.INVITE)
    return Write(
        lambda: tournament_admit(tournament_id=t.id, player=ann, invited_by=bob),
        (standings, "_tournament_locked"),
        lambda: TournamentEntrant.objects.filter(invited_by_id=bob.pk).count(),
    )


def token(bob: User, ann: User) -> Write:
    return Write(
        lambda: token_issue(user=bob),
        (AuthToken.objects, "create"),
        lambda: AuthToken.objects.filter(user_id=bob.pk).count(),
    )


def solve(bob: User, ann: User) -> Write:
    deal = deal_create(rules=rules_build(), seed="7")
    return Write(
        lambda: solve_request(deal=deal, moves=["draw"], requested_by=bob),
        (Solve.objects, "create"),
        lambda: Solve.objects.filter(requested_by_id=bob.pk).count(),
    )


WRITES: dict[str, Callable[[User, User], Write]] = {
    "practice": practice,
    "practice_winnable": practice_winnable,
    "race_created": race_created,
    "races_added": races_added,
    "tournament_created": tournament_created,
    "admitted": admitted,
    "admitting": admitting,
    "token": token,
    "solve": solve,
}


@pytest.fixture
def people(queued: Any) -> tuple[User, User]:
    """ann and bob, who ran a finished tournament race together (the deletion of bob's
    account re-scores it); tasks recorded, not run (no solver in these tests)."""
    finished_race(TournamentFactory(), Result("ann", 30, 1000), Result("bob", 20, 1000))
    return User.objects.get(username="bob"), User.objects.get(username="ann")


def refused(run: Callable[[], Any]) -> Callable[[], Any]:
    """``run``, answering the detail of an :class:`AccountDeleted` it raises."""

    def attempt() -> Any:
        try:
            return run()
        except AccountDeleted as exc:
            return exc.detail

    return attempt


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_deletion_arriving_while_a_write_is_under_way_waits_for_it(
    monkeypatch: pytest.MonkeyPatch, people: tuple[User, User], name: str
) -> None:
    """The write holds bob's account and is about to insert its row when the deletion
    starts: the deletion waits, then deletes (or unlinks) that row too."""
    bob, ann = people
    write = WRITES[name](bob, ann)
    holding, go = paused_once(monkeypatch, *write.pause)
    writer = Worker(write.run)
    writer.start()
    assert holding.wait(30)
    deleter = Worker(deleting("bob"))
    deleter.start()
    blocked_or_done(deleter)
    waited = deleter.is_alive()
    go.set()
    writer.join(30)
    deleter.join(30)
    assert (writer.error, deleter.error) == (None, None)
    assert waited, "the deletion did not wait for the write"
    assert writer.result is not None
    assert not User.objects.filter(pk=bob.pk).exists()
    assert write.pointing() == 0


@pytest.mark.parametrize("name", sorted(WRITES))
@pytest.mark.parametrize("step", ["player_results_lock", "player_results_rescore"])
def test_a_write_arriving_while_the_account_is_deleted_is_refused(
    monkeypatch: pytest.MonkeyPatch, people: tuple[User, User], name: str, step: str
) -> None:
    """The deletion is under way (before it deletes bob's rows, or after) when the write
    arrives: the write waits for the deletion, then finds no account."""
    bob, ann = people
    write = WRITES[name](bob, ann)
    holding, go = paused(monkeypatch, race_admin, step)
    deleter = Worker(deleting("bob"))
    deleter.start()
    assert holding.wait(30)
    writer = Worker(refused(write.run))
    writer.start()
    blocked_or_done(writer)
    go.set()
    deleter.join(30)
    writer.join(30)
    assert (writer.error, deleter.error) == (None, None)
    assert writer.result == GONE
    assert not User.objects.filter(pk=bob.pk).exists()
    assert write.pointing() == 0


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_write_for_an_account_deleted_before_is_refused(
    people: tuple[User, User], name: str
) -> None:
    """The request read the account before the deletion committed: AccountDeleted (a
    404 ``not_found``), nothing written, no IntegrityError."""
    bob, ann = people
    write = WRITES[name](bob, ann)
    User.objects.filter(pk=bob.pk).delete()
    with pytest.raises(AccountDeleted, match=GONE):
        write.run()
    assert write.pointing() == 0


# ------------------------------------------------------------------ ratings


def unrated_race(people: tuple[User, User]) -> tuple[User, Race, RatingPool]:
    """bob's finished race with ann, whose rating task was lost: never processed, and
    bob (who ran only this race) has no row in its pool."""
    bob, _ann = people
    race = Race.objects.get(entries__player=bob)
    pool = ratings.pool_for_options(race.deal.options)
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    RaceRating.objects.all().delete()
    Race.objects.filter(id=race.id).update(rating_stale=False)
    return bob, race, pool


def test_a_deletion_arriving_while_a_pool_recompute_rates_the_player_waits_for_it(
    monkeypatch: pytest.MonkeyPatch, people: tuple[User, User]
) -> None:
    """The recompute has written bob's rating history from a race never rated and is
    about to store his rating when the deletion starts: it waits, then deletes both."""
    bob, race, pool = unrated_race(people)
    holding, go = paused_once(monkeypatch, ratings, "_store_ratings")
    recompute = Worker(lambda: pool_recompute(pool_id=pool.id))
    recompute.start()
    assert holding.wait(30)
    deleter = Worker(deleting("bob"))
    deleter.start()
    blocked_or_done(deleter)
    waited = deleter.is_alive()
    go.set()
    recompute.join(30)
    deleter.join(30)
    assert (recompute.error, deleter.error) == (None, None)
    assert waited, "the deletion did not wait for the recompute"
    assert recompute.result == 1
    assert not PlayerRating.objects.filter(player_id=bob.pk).exists()
    assert not RatingChange.objects.filter(player_id=bob.pk).exists()
    assert Race.objects.get(id=race.id).rating_stale  # re-rated without bob by the sweep


def test_a_pool_recompute_arriving_while_the_account_is_deleted_rates_without_the_player(
    monkeypatch: pytest.MonkeyPatch, people: tuple[User, User]
) -> None:
    """The deletion is under way when the recompute arrives: it waits for the race, then
    rates it without bob (one ranked entry: not rated)."""
    bob, race, pool = unrated_race(people)
    holding, go = paused(monkeypatch, race_admin, "player_results_rescore")
    deleter = Worker(deleting("bob"))
    deleter.start()
    assert holding.wait(30)
    recompute = Worker(lambda: pool_recompute(pool_id=pool.id))
    recompute.start()
    blocked_or_done(recompute)
    go.set()
    deleter.join(30)
    recompute.join(30)
    assert (recompute.error, deleter.error) == (None, None)
    assert recompute.result == 0
    assert RaceRating.objects.get(race=race).reason == ratings.REASON_TOO_FEW
    assert not RatingChange.objects.exists()
