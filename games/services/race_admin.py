"""Organisers' race actions (admin and staff API): open or close now, cancel, re-score,
disqualify, rename, move to another tournament; and the re-score of a deleted player's
races (:func:`players_lock`, :func:`player_results_lock`, :func:`player_results_rescore`).

Each keeps the race's tournament standings in step: whatever changes a race
result re-scores the tournament (:func:`games.services.tournaments.tournament_rescore`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.live.publish import (
    Notification,
    game_changed_on_commit,
    publish_on_commit,
    race_topic,
    tournament_topic,
)
from games.models import Game, Race, RaceEntry, Tournament, TournamentStanding
from games.services.errors import MALFORMED_ID, InvalidRace, NotFound, TournamentNotOpen
from games.services.races import (
    RaceCancelOutcome,
    race_cancel_outcome,
    race_close,
    race_locked,
    race_rescore,
    races_rescore,
)
from games.services.ratings import (
    player_pools_lock,
    player_races_mark_stale,
    race_rating_mark_stale,
)
from games.services.tournaments import tournament_rescore

#: What an organiser is told before re-scoring a finished race (RULES.md 6 changed:
#: published results stay as they are until a re-score applies the current rule).
RESCORE_NOTICE = (
    "Re-scoring ranks this race again under the current ranking rule (RULES.md 6: the "
    "number of moves no longer breaks ties; disqualified entries are left out). Published "
    "ranks, and the tournament standings built on them, may change."
)

#: Longest disqualification reason (``RaceEntry.disqualified_reason``).
MAX_REASON = 300


def _tournament_rescore_of(race: Race) -> None:
    if race.tournament_id is not None:
        tournament_rescore(tournament_id=race.tournament_id)


def race_open_now(*, race_id: Any, now: datetime | None = None) -> Race:
    """Open joining now (``opens_at = now``) for a race not yet open; idempotent.

    Raises :class:`InvalidRace` for a finished, closing or cancelled race.
    """
    now = now or timezone.now()
    with transaction.atomic():
        race = race_locked(race_id)
        if race.status != Race.Status.SCHEDULED or now >= race.ends_at:
            raise InvalidRace(f"the race is {race.phase(now)}: it cannot be opened").because(
                "race_not_openable", {"phase": race.phase(now)}
            )
        if race.opens_at > now:
            race.opens_at = now
            race.save(update_fields=["opens_at"])
        return race


def race_close_now(*, race_id: Any, now: datetime | None = None) -> str:
    """End the race now: ``ends_at = now``, every deadline cut to now (a scheduled race's
    ``time_limit_s`` becomes its new span), then :func:`race_close`.

    A race that had not started yet and has no entrants starts and ends now; one
    with entrants is refused (:class:`InvalidRace`): nobody could play it, so it has no
    result to rank or rate, and their games would stay closed to them until the old
    start (cancel it instead: :func:`race_cancel_now`).  A race already past
    ``ends_at`` is just closed.  Returns the status afterwards (``finished``, or
    ``busy`` if another closer holds it).  Raises :class:`InvalidRace` for a
    cancelled race.
    """
    now = now or timezone.now()
    with transaction.atomic():
        race = race_locked(race_id)
        if race.status == Race.Status.CANCELLED:
            raise InvalidRace("the race is cancelled").because("close_cancelled", {})
        if race.status == Race.Status.SCHEDULED and now < race.starts_at and race.entries.exists():
            raise InvalidRace(
                "the race has not started, so nobody has played it: cancel it instead "
                "(closing would rank and rate games nobody could play)"
            ).because("close_before_start", {})
        if race.status == Race.Status.SCHEDULED and race.ends_at > now:
            race.ends_at = now
            if race.starts_at >= now:
                race.starts_at = now - timedelta(microseconds=1)
            race.opens_at = min(race.opens_at, race.starts_at)
            fields = ["opens_at", "starts_at", "ends_at"]
            if race.mode == Race.Mode.SCHEDULED:
                # A scheduled race's time limit is its span (race_create): the race view
                # said 600 s for a race closed after 200 (a window race keeps the limit
                # each entrant was given).
                race.time_limit_s = int((race.ends_at - race.starts_at).total_seconds())
                fields.append("time_limit_s")
            race.save(update_fields=fields)
            Game.objects.filter(race_entry__race=race).filter(
                Q(deadline__isnull=True) | Q(deadline__gt=now)
            ).update(deadline=now)
    return race_close(race_id=race_id, now=now)


def race_cancel_now(*, race_id: Any, now: datetime | None = None) -> RaceCancelOutcome:
    """Cancel a race that is not over (:func:`race_cancel_outcome`) and re-score its
    tournament; returns what was done (``result``: ``cancelled``; ``scored``, its end had
    passed so it was closed and scored instead, its tournament re-scored by the close;
    ``finished`` or ``already_cancelled``, left alone).  ``now``: default the current
    time.  Raises :class:`NotFound`."""
    outcome = race_cancel_outcome(race_id=race_id, now=now)
    if outcome.result == "cancelled":
        _tournament_rescore_of(outcome.race)
    return outcome


def race_rescore_all(*, race_id: Any) -> Race:
    """Re-rank a finished race under the current rule (RULES.md 6), then re-score its
    tournament.  Published ranks change only here.  Raises :class:`NotFound`."""
    race_rescore(race_id=race_id)  # raises NotFound
    race = Race.objects.get(id=race_id)
    _tournament_rescore_of(race)
    return race


def _game_told(entry: RaceEntry, change: str) -> None:
    """After commit, a ``game`` event on the entry's game stream (``change``:
    ``disqualified`` or ``reinstated``): an open play page redraws its board at once."""
    if entry.game_id is None:  # a window race entrant who never started
        return
    number = Game.objects.filter(id=entry.game_id).values_list("move_number", flat=True).first()
    if number is not None:
        game_changed_on_commit(
            game_id=entry.game_id, kind=change, move_number=number, race_game=True
        )


def _entry_locked_in_live_race(entry_id: Any, verb: str) -> RaceEntry:
    """The entry ``entry_id`` locked after its race (the project's order: race, then
    entry), inside the caller's transaction; the race must not be cancelled.  Raises
    :class:`NotFound` and :class:`InvalidRace` ("its entries cannot be ``verb``")."""
    try:
        race_id = RaceEntry.objects.values_list("race_id", flat=True).get(id=entry_id)
    except (RaceEntry.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such race entry").because("no_such_entry", {}) from None
    race = race_locked(race_id)  # an entry never changes race
    if race.status == Race.Status.CANCELLED:
        raise InvalidRace(f"the race is cancelled: its entries cannot be {verb}").because(
            "entries_of_cancelled_race", {"verb": verb}
        )
    entry = RaceEntry.objects.select_for_update(no_key=True).get(id=entry_id)
    entry.race = race  # the locked row, for race_rating_mark_stale
    return entry


def race_entry_disqualify(*, entry_id: Any, reason: str, by: User | None = None) -> RaceEntry:
    """Disqualify an entry with a reason the entrant sees; the race and tournament re-score.

    The entry keeps its facts but loses its rank (and its tournament points), and its
    game takes no more moves, undo or resignation while the disqualification stands
    (``games.services.games`` refuses them with :class:`EntryDisqualified`).
    Disqualifying again replaces the reason.  ``reason``: 1 to :data:`MAX_REASON`
    characters once stripped.  Locks the race row, then the entry's (the project's
    order), before reading the race's status, so a concurrent close or cancel either
    finishes first or waits for this; then the tournament's, to re-score it (as
    closing a race does).  One transaction: the flag, the race's ranks, the tournament
    standings and the rating's stale mark commit together, or (an error) none of them.
    Returns the entry afterwards.  Raises
    :class:`InvalidRace` (empty or too long reason, cancelled race) and
    :class:`NotFound`.
    """
    reason = reason.strip()
    if not reason:
        raise InvalidRace("a disqualification needs a reason").because("reason_missing", {})
    if len(reason) > MAX_REASON:
        raise InvalidRace(f"the reason is longer than {MAX_REASON} characters").because(
            "reason_too_long", {"most": MAX_REASON}
        )
    with transaction.atomic():
        entry = _entry_locked_in_live_race(entry_id, "disqualified")
        entry.disqualified = True
        entry.disqualified_reason = reason
        entry.save(update_fields=["disqualified", "disqualified_reason"])
        _game_told(entry, "disqualified")
        # The flag, the ranks and standings re-scored without the entry (or with it
        # again) and the rating's stale mark commit together: no reader sees one
        # without the others, and a failed re-score leaves nothing changed.
        race_rating_mark_stale(race=entry.race)
        race_rescore_all(race_id=entry.race_id)
    entry.refresh_from_db()
    return entry


def race_entry_reinstate(*, entry_id: Any, by: User | None = None) -> RaceEntry:
    """Lift a disqualification (the reason is cleared); the race and tournament re-score.

    Locks as :func:`race_entry_disqualify` does (race, then entry, then tournament),
    commits everything in one transaction as it does and, as it does, refuses an entry
    of a cancelled race.  Returns the entry afterwards.  Raises
    :class:`InvalidRace` (cancelled race) and :class:`NotFound`.
    """
    with transaction.atomic():
        entry = _entry_locked_in_live_race(entry_id, "reinstated")
        entry.disqualified = False
        entry.disqualified_reason = ""
        entry.save(update_fields=["disqualified", "disqualified_reason"])
        _game_told(entry, "reinstated")
        # The flag, the ranks and standings re-scored without the entry (or with it
        # again) and the rating's stale mark commit together: no reader sees one
        # without the others, and a failed re-score leaves nothing changed.
        race_rating_mark_stale(race=entry.race)
        race_rescore_all(race_id=entry.race_id)
    entry.refresh_from_db()
    return entry


def race_rename(*, race_id: Any, name: str) -> Race:
    """Rename a race (1 to 120 characters), in any state: a name is only a label, so an
    organiser may mend a typo while the race runs or after it.  Raises
    :class:`InvalidRace`, :class:`NotFound`."""
    name = name.strip()
    if not 1 <= len(name) <= 120:
        raise InvalidRace("a race name has 1 to 120 characters").because("race_name_length", {})
    with transaction.atomic():
        race = race_locked(race_id)
        race.name = name
        race.save(update_fields=["name"])
        return race


def race_move(*, race_id: Any, tournament_id: Any | None) -> Race:
    """Move a race to another tournament (``tournament_id``), or out of any (``None``).

    Only a race that is still ``scheduled``, has not started and has no entrant
    may move: entrants were admitted under the old tournament's entry rules, and
    a started race's result belongs to the tournament it was played for.  The
    target tournament must be ``draft`` or ``open``.

    Locks, in the project's order (race, then tournament; as
    :func:`games.services.races.race_close`): the race row, then the old and the
    new tournament rows in id order, so a concurrent join, close or re-score
    waits.  Moving a race without results changes no standings.

    Live streams hear of it after commit: the race's topic gets ``moved`` (a race moved
    into a draft tournament ends every stream but the organisers' with ``gone``:
    ``api.streams.RaceHandler``), the old tournament's ``race_removed`` and the new
    one's ``race_added``.
    Raises :class:`InvalidRace`, :class:`TournamentNotOpen`, :class:`NotFound`.
    """
    now = timezone.now()
    with transaction.atomic():
        race = race_locked(race_id)
        old = race.tournament_id
        if str(old) == str(tournament_id) or (old is None and tournament_id is None):
            return race
        ids = sorted({str(x) for x in (old, tournament_id) if x is not None})
        try:
            locked = {
                str(t.id): t
                for t in Tournament.objects.select_for_update(no_key=True)
                .filter(id__in=ids)
                .order_by("id")
            }
        except MALFORMED_ID:
            raise NotFound("no such tournament").because("no_such_tournament", {}) from None
        if tournament_id is not None and str(tournament_id) not in locked:
            raise NotFound("no such tournament").because("no_such_tournament", {})
        if race.status != Race.Status.SCHEDULED or now >= race.starts_at:
            raise InvalidRace(
                f"the race is {race.phase(now)}: only a race not started can move"
            ).because("move_after_start", {"phase": race.phase(now)})
        entrants = race.entries.count()
        if entrants:
            raise InvalidRace(
                f"the race has {entrants} entrant(s), admitted under its tournament's rules: "
                "it can no longer move"
            ).because("move_with_entrants", {"count": entrants})
        if tournament_id is not None:
            target = locked[str(tournament_id)]
            if target.status not in (Tournament.Status.DRAFT, Tournament.Status.OPEN):
                raise TournamentNotOpen(
                    f"the tournament is {target.status}: no races can be added"
                ).because("no_races_added", {"status": target.status})
        race.tournament_id = None if tournament_id is None else locked[str(tournament_id)].id
        race.save(update_fields=["tournament"])
        notes: list[Notification] = [(race_topic(race.id), "moved", {})]
        if old is not None:
            notes.append((tournament_topic(old), "race_removed", {"race": str(race.id)}))
        if race.tournament_id is not None:
            notes.append(
                (tournament_topic(race.tournament_id), "race_added", {"races": [str(race.id)]})
            )
        publish_on_commit(*notes)
        return race


# ------------------------------------------------------------------ a deleted player


@dataclass(frozen=True)
class PlayerResults:
    """What deleting a player's account changes, found (and locked) before the deletion.

    ``finished``: ids of the finished races with an entry of the player, in race order
    (``ends_at``, then id: the order their ratings are folded in); ``running``: ids of
    the races with an entry still to be scored (``scheduled`` or ``closing``);
    ``tournaments``: ids of the tournaments whose standings count one of those finished
    races or list the player, in id order.
    """

    finished: tuple[Any, ...] = ()
    running: tuple[Any, ...] = ()
    tournaments: tuple[Any, ...] = ()


def players_lock(*, player_ids: Sequence[Any], using: str | None = None) -> None:
    """Lock, for the deletion of the accounts ``player_ids``, every row it writes to.

    In the deletion's transaction, before it deletes anything, in the project's order,
    each kind in id order and waiting for each row (``FOR NO KEY UPDATE``): the
    accounts themselves (every write inserting a row that points at an account locks
    it first, :func:`games.services.accounts.player_lock`: one under way finishes
    before the deletion goes on, one arriving waits and finds no account), then the rating
    pools the players have a rating or history row in
    (:func:`games.services.ratings.player_pools_lock`: pool, then race, as rating a race
    does), then every race with an entry of one of them or created by one of them (its
    ``created_by`` becomes NULL), then every tournament whose standings list one of them
    or count a finished race of theirs, or created by one of them.  The deletion then
    removes the entries and standings rows and re-scores: a race closing meanwhile
    (race, then tournament, then standings rows) waits for it instead of deadlocking
    with it, and a closer arriving meanwhile skips its race (``busy``; the sweeper takes
    it after the commit).  All the accounts of one deletion (the admin's "delete
    selected") are locked together: one after the other took a tournament before the
    next account's races.  ``using``: the database alias.  Raises nothing of its own (a
    database error propagates).
    """
    ids = list(player_ids)
    # The accounts first: a join, a practice game, a token, ... lock their account
    # before anything else (games.services.accounts.player_lock), so each runs wholly
    # before the deletion or waits for it and finds no account.  No key update: another
    # transaction's foreign key check (KEY SHARE) of a row pointing at the account does
    # not wait for it.
    list(
        get_user_model()
        ._default_manager.db_manager(using)
        .select_for_update(no_key=True)
        .filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    player_pools_lock(player_ids=ids, using=using)
    entered = RaceEntry.objects.db_manager(using).filter(player_id__in=ids).values("race_id")
    races = Race.objects.db_manager(using).select_for_update(no_key=True)
    list(
        races.filter(Q(id__in=entered) | Q(created_by_id__in=ids))
        .order_by("id")
        .values_list("id", flat=True)
    )
    counted = Race.objects.db_manager(using).filter(
        id__in=entered, status=Race.Status.FINISHED, tournament__isnull=False
    )
    listed = TournamentStanding.objects.db_manager(using).filter(player_id__in=ids)
    list(
        Tournament.objects.db_manager(using)
        .select_for_update(no_key=True)
        .filter(
            Q(id__in=counted.values("tournament_id"))
            | Q(id__in=listed.values("tournament_id"))
            | Q(created_by_id__in=ids)
        )
        .order_by("id")
        .values_list("id", flat=True)
    )


def player_results_lock(
    *, player_id: Any, using: str | None = None, locked: bool = False
) -> PlayerResults:
    """Lock what deleting player ``player_id``'s account writes to, and find what it
    re-scores.

    For the ``pre_delete`` receiver of the user model
    (:func:`games.services.accounts.account_delete_prepare`), in the deletion's
    transaction: unless ``locked`` (the receiver already called :func:`players_lock`
    for every account of the deletion), :func:`players_lock` for this player.  Deletes
    the player's games (and their moves) under those locks: Django collected them before
    the receiver ran, so one a join committed in between was left behind.  Marks the
    finished rated races they ran in stale for the ratings
    (:func:`games.services.ratings.player_races_mark_stale`).  ``using``: the database
    alias.  Returns what :func:`player_results_rescore` re-scores once the entries are
    gone.  Raises nothing of its own (a database error propagates).
    """
    if not locked:
        players_lock(player_ids=[player_id], using=using)
    # The player's games, every one: Django collected them before this receiver ran,
    # so a game a join created and committed in between (the join held the account's
    # row; the lock above waited for it) would be left pointing at the deleted account.
    Game.objects.db_manager(using).filter(player_id=player_id).delete()
    entered = RaceEntry.objects.db_manager(using).filter(player_id=player_id).values("race_id")
    races = list(
        Race.objects.db_manager(using)
        .filter(id__in=entered)
        .exclude(status=Race.Status.CANCELLED)
        .order_by("id")
        .values_list("id", "status", "ends_at", "tournament_id")
    )
    player_races_mark_stale(player_id=player_id, using=using)
    finished = sorted(
        (
            (ends_at, race_id)
            for race_id, status, ends_at, _t in races
            if status == Race.Status.FINISHED
        ),
        key=lambda row: (row[0], str(row[1])),
    )
    listed = TournamentStanding.objects.db_manager(using).filter(player_id=player_id)
    tournaments = {
        t for _r, status, _e, t in races if status == Race.Status.FINISHED and t is not None
    }
    tournaments.update(listed.values_list("tournament_id", flat=True))
    return PlayerResults(
        finished=tuple(race_id for _ends_at, race_id in finished),
        running=tuple(
            race_id for race_id, status, _e, _t in races if status != Race.Status.FINISHED
        ),
        tournaments=tuple(sorted(tournaments, key=str)),
    )


def player_results_rescore(results: PlayerResults) -> None:
    """Re-score what a deleted player's entries counted for, once they are gone.

    For the ``post_delete`` receiver of the user model
    (:func:`games.services.accounts.account_delete_rescore`), in the deletion's
    transaction, with the races still locked by :func:`player_results_lock`.  As a
    disqualification does (:func:`race_entry_disqualify`), each finished race is
    ranked again from its games, all of them together
    (:func:`games.services.races.races_rescore`, as ``race_rescore`` does one; RULES.md 6:
    the others close the gap, 1, 3 becoming 1, 2; its rating is marked stale and
    queued, in race order), then each tournament's standings are recomputed once
    (:func:`games.services.tournaments.tournament_rescore`, after every race: the
    project's lock order).  A running race ranks its entrants live from their games,
    so the entry is simply gone; its stream subscribers are told to fetch the
    standings again after the commit.  Raises nothing of its own.
    """
    races_rescore(race_ids=results.finished)
    for tournament_id in results.tournaments:
        tournament_rescore(tournament_id=tournament_id)
    if results.running:
        publish_on_commit(*((race_topic(race_id), "standings", {}) for race_id in results.running))
