"""Race services: create, join, start, close and score (DESIGN.md "Races and deadlines").

Fairness (RULES.md 7): a race's seed comes from :func:`secrets.token_hex`, its
commitment ``hex(SHA-256(seed))`` is public from creation, and the seed is
revealed only once the race is ``finished``.

Closing is two guarded, idempotent steps, each one transaction that first
locks the race row with ``select_for_update(no_key=True, skip_locked=True)``
(a concurrent closer skips instead of waiting):

1. ``scheduled -> closing``: every game still playing is marked ``timed_out``.
2. ``closing -> finished``: entry results are copied from the games and
   ranked in the database with ``RANK()`` (ties share a rank), then the race is
   marked finished.

A worker killed between or inside the steps leaves a state the next call
(the beat sweeper) finishes; running either step twice changes nothing.

Lock order: the race row, then its tournament's row (a finishing tournament race
re-scores the tournament inside step 2); see :mod:`games.services.standings`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Case, Count, DateTimeField, F, Q, QuerySet, Value, When
from django.utils import timezone

from games.engine import Rules, random_seed
from games.live.publish import game_topic, publish_on_commit, race_topic, tournament_topic
from games.models import Game, Race, RaceEntry, Tournament, WinnableDeal
from games.permissions import may_see_drafts
from games.ranking import RANKING_RULE as RANKING_RULE  # re-exported for callers
from games.ranking import rank_order_sql
from games.services.accounts import player_lock
from games.services.errors import (
    MALFORMED_ID,
    EntryDisqualified,
    InvalidOptions,
    InvalidRace,
    NotEntered,
    NotFound,
    NoWinnableDeal,
    RaceNotOpen,
    RaceNotStarted,
    TournamentNotOpen,
    utc_text,
)
from games.services.games import deal_create, game_create, rules_build
from games.services.ratings import race_rating_enqueue, race_rating_mark_stale
from games.services.seeds import LIVE_DEAL_ATTEMPTS as LIVE_DEAL_ATTEMPTS  # re-exported
from games.services.seeds import live_seed
from games.services.solutions import deal_record_verdict
from games.services.standings import tournament_admit, tournament_rescore
from games.services.winnable_pool import winnable_draw, winnable_pool_request

log = logging.getLogger(__name__)

#: Longest race, from opens_at to ends_at, in seconds (366 days).
MAX_RACE_SECONDS = 366 * 86400

#: ``late_join_s`` not given: 0 for a scheduled race, ``None`` (until ends_at) for a window race.
LATE_JOIN_DEFAULT = object()

#: The SQL order of the ranking key (RULES.md 6), derived from its one definition
#: :data:`games.engine.ranking.RANK_KEY`: more cards home, then earlier; moves never count.
RANK_ORDER_SQL = rank_order_sql()


def race_seed(rules: Rules) -> str:
    """A fresh secret seed whose deal is not blocked at the deal (RULES.md 3.9).

    A blocked deal (no move but ``draw`` and ``redeal`` in any position those two
    reach) ends every entrant's game at its first second with the cards the deal put
    home: a race with nothing to race.  So a race never gets one: seeds are drawn from
    this module's :func:`random_seed` until one deals a game that can move
    (:func:`games.services.seeds.live_seed`, the rule practice games drawn at random
    follow too).  The check reads only the deal, from the seed kept secret until the
    race ends (RULES.md 7), and nothing about a rejected seed is stored or shown; the
    commitment is to the seed kept, and once it is revealed anyone can check its deal.
    Raises :class:`InvalidRace` when :data:`LIVE_DEAL_ATTEMPTS` seeds in a row all deal
    blocked games (rules under which nearly every deal is dead).
    """
    try:
        return live_seed(rules, draw=random_seed)
    except InvalidOptions as exc:
        raise InvalidRace(exc.detail).because("deals_all_blocked", {}) from None


def race_create(
    *,
    name: str,
    opens_at: datetime,
    starts_at: datetime,
    ends_at: datetime,
    mode: str = Race.Mode.SCHEDULED,
    variant: str = "classic",
    options: dict[str, Any] | None = None,
    time_limit_s: int | None = None,
    allow_undo: bool = False,
    require_winnable: bool = False,
    late_join_s: int | None | object = LATE_JOIN_DEFAULT,
    created_by: User | None = None,
    rated: bool = True,
    now: datetime | None = None,
) -> Race:
    """Announce a race on a fresh secret seed; its commitment is public at once.

    The seed's deal is never blocked at the deal (:func:`race_seed`).  With
    ``require_winnable`` it is proven winnable: the oldest deal of the races' reserve of
    the rules' winnable pool, which practice games never draw from (then of the players'
    pool, once the reserve is empty: :func:`games.services.winnable_pool.winnable_draw`),
    taken in the race's transaction; the solver never runs here (solver work runs on
    the ``solver`` queue).  When both are empty the race is not created: a refill is
    asked for
    (:func:`games.services.winnable_pool.winnable_pool_request`) and
    :class:`NoWinnableDeal` is raised with ``retry_after`` (seconds,
    ``WINNABLE_RETRY_AFTER_SECONDS``); when the rules' recent deals were all proved lost,
    :class:`WinnableNotFound` (no refill).  Scheduled mode: everyone plays from
    ``starts_at`` to ``ends_at`` (``time_limit_s`` is that span).  Window mode: each entrant gets
    ``time_limit_s`` seconds from their own start, between ``starts_at`` and
    ``ends_at``.  ``late_join_s``: seconds after ``starts_at`` that joining stays
    open (``None``: until ``ends_at``); by default 0 for a scheduled race (joining
    closes at the start) and ``None`` for a window race.  ``rated``: ``False`` creates
    the race unrated (it never counts for ratings), in the same transaction.
    A race must still take entrants at ``now`` (default: the clock): one whose
    joining would close at or before it (:attr:`Race.join_closes_at`: a scheduled race
    whose start has passed, joining closing at the start by default) could never have
    an entrant, and is refused (``why`` ``joining_closed_already``).
    ``created_by``'s account is locked first (:func:`games.services.accounts.player_lock`:
    the race points at it).  Raises :class:`InvalidRace`, :class:`InvalidOptions`,
    :class:`NoWinnableDeal`, :class:`WinnableNotFound`, :class:`AccountDeleted` (the
    creator's account was deleted meanwhile).
    """
    if not (opens_at <= starts_at < ends_at):
        raise InvalidRace("times must satisfy opens_at <= starts_at < ends_at").because(
            "race_times_order", {}
        )
    now = now or timezone.now()
    if ends_at <= now:
        raise InvalidRace(
            "ends_at is in the past: the race would be over before it is announced"
        ).because("ends_in_the_past", {"ends_at": ends_at})
    if (ends_at - opens_at).total_seconds() > MAX_RACE_SECONDS:
        raise InvalidRace(
            f"a race lasts at most {MAX_RACE_SECONDS // 86400} days from opens_at"
        ).because("race_too_long", {"days": MAX_RACE_SECONDS // 86400})
    span = int((ends_at - starts_at).total_seconds())
    if mode == Race.Mode.SCHEDULED:
        limit = span
    elif mode == Race.Mode.WINDOW:
        if not time_limit_s or time_limit_s <= 0:
            raise InvalidRace("a window race needs time_limit_s > 0 (seconds)").because(
                "window_needs_limit", {}
            )
        if time_limit_s > span:
            raise InvalidRace(
                "time_limit_s is longer than the window from starts_at to ends_at"
            ).because("limit_longer_than_race", {})
        limit = time_limit_s
    else:
        raise InvalidRace(f"unknown mode {mode!r}: use scheduled or window").because(
            "unknown_mode", {"mode": mode}
        )
    rules = rules_build(variant=variant, options=options)
    if late_join_s is LATE_JOIN_DEFAULT:
        late_join_s = 0 if mode == Race.Mode.SCHEDULED else None
    if late_join_s is not None:
        if not isinstance(late_join_s, int) or isinstance(late_join_s, bool) or late_join_s < 0:
            raise InvalidRace("late_join_s is a whole number of seconds >= 0, or null").because(
                "late_join_invalid", {}
            )
        if late_join_s > (ends_at - starts_at).total_seconds():
            raise InvalidRace("late_join_s is longer than the race (starts_at to ends_at)").because(
                "late_join_longer_than_race", {}
            )
        if late_join_s == 0 and opens_at == starts_at:
            raise InvalidRace(
                "joining would never be open: set opens_at before starts_at or late_join_s > 0"
            ).because("joining_never_open", {})
    join_closes_at = (
        ends_at if late_join_s is None else min(starts_at + timedelta(seconds=late_join_s), ends_at)
    )
    if join_closes_at <= now:
        # Nobody could ever join it: it would sit in the lists as open until its end and
        # then close with no entrant (the API's default opens_at is now, or starts_at if
        # earlier, so a scheduled race started already was announced closed to joining).
        raise InvalidRace(
            f"joining would already be closed (at {utc_text(join_closes_at)}, "
            f"{late_join_s} s after starts_at): start the race later, or give late_join_s "
            "so that joining stays open past now"
        ).because("joining_closed_already", {"join_closes_at": join_closes_at})
    seed = None if require_winnable else race_seed(rules)
    try:
        with transaction.atomic():
            if created_by is not None:
                # The creator's account first, as the deletion locks it: the race's
                # created_by, committed while the deletion ran or after it, pointed at
                # an account gone (an IntegrityError on one side).
                player_lock(player=created_by)
            proof = None
            if seed is None:
                # Taken from the pool the solver queue fills ahead of time, in this
                # transaction (the row comes back if the race is not created): no
                # solving in the organiser's request.
                seed, proof = winnable_draw(rules=rules, purpose=WinnableDeal.Purpose.RACE)
            deal = deal_create(rules=rules, seed=seed, preset=variant)
            if proof is not None:
                # Pooled already shortened: no tidying in the organiser's request.
                deal_record_verdict(deal=deal, result=proof)
            race = Race.objects.create(
                name=name,
                deal=deal,
                mode=mode,
                time_limit_s=limit,
                opens_at=opens_at,
                starts_at=starts_at,
                ends_at=ends_at,
                allow_undo=allow_undo,
                require_winnable=require_winnable,
                late_join_s=late_join_s,
                commitment=deal.commitment,
                created_by=created_by,
                rated=rated,
            )
    except NoWinnableDeal as exc:
        winnable_pool_request(rules=rules)
        retry_after = exc.extra.get("retry_after", settings.WINNABLE_RETRY_AFTER_SECONDS)
        raise NoWinnableDeal(
            "no proven-winnable deal of these rules is ready for the race: the race was not "
            "created, and a refill of the rules' pool has been asked of the solver queue; "
            f"retry in {retry_after} s, or create the race without require_winnable",
            retry_after=retry_after,
        ) from None
    return race


@dataclass(frozen=True)
class JoinOutcome:
    """The entry and whether this call created it (``False`` on a repeated join)."""

    entry: RaceEntry
    created: bool


def race_join(*, race_id: Any, player: User, now: datetime | None = None) -> JoinOutcome:
    """Join a race (idempotent: a second join returns the same entry).

    Allowed from ``opens_at`` until :attr:`Race.join_closes_at` (``starts_at +
    late_join_s``, or ``ends_at`` when ``late_join_s`` is null); a player who already
    joined may always call it again.  In scheduled mode the player's game is created at once,
    starting at ``starts_at`` with deadline ``ends_at``.  A tournament race
    first admits the player to the tournament (its entry rules).  Locks the player's
    account first (:func:`games.services.accounts.player_lock`), then the race, then the
    tournament.  Raises :class:`NotFound` (:class:`AccountDeleted` for an account deleted
    meanwhile), :class:`RaceNotOpen` (checked first: a race that is over says so, whatever
    its tournament's state),
    and for a tournament race :class:`TournamentNotOpen`, :class:`TournamentInviteOnly`,
    :class:`TournamentFull`.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # The player's account first (the deletion's order: account, then the rest), so
        # a join and the deletion of the account never overlap: the join's entry and
        # game, committed while the deletion ran or after it, pointed at an account
        # gone (an IntegrityError on one side).  A deleted account is refused.
        player_lock(player=player)
        # Locked, so a join and the early close of a race over for everyone
        # (:func:`race_close`) never overlap: an attack's join, slowed while a closer
        # counted the entries without it, left a game playing on after the seed was out.
        race = race_locked(race_id)
        # A draft tournament's race does not exist for players: the same NotFound as
        # an unknown id, before any other state of the race is looked at.
        if (
            race.tournament is not None
            and race.tournament.status == Tournament.Status.DRAFT
            and not may_see_drafts(player)
        ):
            raise NotFound("no such race")
        existing = RaceEntry.objects.filter(race=race, player=player).first()
        if existing is not None:
            return JoinOutcome(existing, False)
        # The race's own state first: a finished (or cancelled, closing) race of a
        # cancelled tournament is refused because it is over, not because of its
        # tournament.
        if race.phase(now) not in ("open", "running"):
            raise RaceNotOpen(f"the race is {race.phase(now)}: joining is closed")
        if race.tournament is not None and not race.tournament.takes_entries:
            # Its standings are final: an entrant admitted earlier joined a race of a
            # finished tournament, and its close re-scored the final standings.
            raise TournamentNotOpen(
                f"the tournament is {race.tournament.status}: its races take no more entrants"
            )
        if not race.joining_open(now):
            raise RaceNotOpen(
                f"joining closed at {utc_text(race.join_closes_at)} "
                f"({race.late_join_s} s after the start)"
            )
        if race.tournament_id is not None:
            tournament_admit(tournament_id=race.tournament_id, player=player)
        entry, created = RaceEntry.objects.get_or_create(
            race=race, player=player, defaults={"joined_at": now}
        )
        if created and race.mode == Race.Mode.SCHEDULED:
            entry.game = game_create(
                player=player,
                deal=race.deal,
                kind=Game.Kind.RACE,
                undo_allowed=race.allow_undo,
                deadline=race.ends_at,
                started_at=race.starts_at,
            )
            entry.save(update_fields=["game"])
        if created:
            publish_on_commit((race_topic(race.id), "standings", {}))
    return JoinOutcome(entry, created)


def race_start(*, race_id: Any, player: User, now: datetime | None = None) -> Game:
    """Start the player's clock (window mode; joins first if needed, undone if refused)
    and return their game.

    Idempotent: a started entry returns its game.  In scheduled mode this
    returns the game once the race has started.  The deadline is
    ``min(start + time_limit_s, ends_at)``.  Raises :class:`NotFound`,
    :class:`RaceNotOpen` (joining not open yet, for a player not entered; an entrant's
    start after the end, or in a cancelled race where no game was dealt; an entrant's
    game of a cancelled race is returned as it is, ended by the cancellation, even
    before the race's start), :class:`NotEntered` (a player not entered once the race
    takes no more entrants), :class:`RaceNotStarted`, :class:`EntryDisqualified` (a
    disqualified entrant's clock does not start: lifting the disqualification leaves
    them their whole time).
    """
    now = now or timezone.now()
    # One transaction with the join: a refusal (not started yet, closed, disqualified)
    # leaves no entry behind (an attack's start before the start joined the player and
    # took a tournament's last place while answering 409).
    with transaction.atomic():
        try:
            entry = race_join(race_id=race_id, player=player, now=now).entry
        except RaceNotOpen:
            # Not entered, and the race takes no more entrants: say that, not "joining
            # closed" alone (the caller asked to start, not to join).
            race = Race.objects.get(id=race_id)
            if race.phase(now) == "upcoming":
                raise
            if race.phase(now) == "running":
                why = f"joining closed at {utc_text(race.join_closes_at)}"
            else:
                why = f"the race is {race.phase(now)}"
            raise NotEntered(
                f"you are not entered in this race, and it takes no more entrants ({why}): "
                "only its entrants may start it"
            ) from None
        entry = (
            RaceEntry.objects.select_for_update(no_key=True)
            .select_related("race__deal")
            .get(pk=entry.pk)
        )
        race = entry.race
        if race.status == Race.Status.CANCELLED:
            # Cancelled (before its start too): it will never start, so no "starts at"
            # with a wait until then.  A dealt game was ended by the cancellation and is
            # answered as its view answers it (timed out, deal public: RULES.md 7).
            if entry.game_id is not None:
                assert entry.game is not None
                return entry.game
            raise RaceNotOpen("the race is cancelled")
        if now < race.starts_at:
            raise RaceNotStarted.until(race.starts_at, now=now)
        if entry.game_id is None and race.status != Race.Status.SCHEDULED:
            raise RaceNotOpen(f"the race is {race.status}")
        if entry.game_id is not None:
            assert entry.game is not None
            return entry.game
        if now >= race.ends_at:
            raise RaceNotOpen("the race is closed")
        if entry.disqualified:
            raise EntryDisqualified.with_reason(entry.disqualified_reason)
        entry.game = game_create(
            player=player,
            deal=race.deal,
            kind=Game.Kind.RACE,
            undo_allowed=race.allow_undo,
            deadline=min(now + timedelta(seconds=race.time_limit_s), race.ends_at),
            started_at=now,
        )
        entry.save(update_fields=["game"])
        publish_on_commit((race_topic(race.id), "standings", {}))
        return entry.game


def _over_for_everyone(races: QuerySet[Race], now: datetime) -> QuerySet[Race]:
    """The races of ``races`` running at ``now`` that have entrants, none of whose games
    may still change: every entrant has a game (a window entrant may still start) and
    none is playing before its deadline.  Joining having closed is for the caller to
    check on the rows (:attr:`Race.join_closes_at`)."""
    before_deadline = Q(entries__game__deadline__isnull=True) | Q(entries__game__deadline__gt=now)
    # A blocked game whose last move may still be taken back (a race with allow_undo;
    # games.selectors.games.undo_open) is not over for its player either.
    undoable = (
        Q(entries__game__status=Game.Status.BLOCKED)
        & Q(entries__game__undo_allowed=True)
        & Q(entries__game__move_number__gt=0)
    )
    still_open = Q(entries__game__isnull=True) | (
        (Q(entries__game__status=Game.Status.PLAYING) | undoable) & before_deadline
    )
    return (
        races.filter(status=Race.Status.SCHEDULED, starts_at__lte=now, ends_at__gt=now)
        .annotate(entrants=Count("entries"), still_open=Count("entries", filter=still_open))
        .filter(entrants__gt=0, still_open=0)
    )


def race_over_for_everyone(race: Race, *, now: datetime | None = None) -> bool:
    """Whether a running race is over for every player before its end (RULES.md 7: the
    seed is secret "until the race is over for every player"): joining has closed
    (``join_closes_at``), it has entrants, and every entrant's game is over (won,
    blocked, resigned, or past its own deadline).  In a race with ``allow_undo`` a
    blocked game whose last move may still be taken back is not over (its player may
    undo until their deadline, or resign it to end it for good).  A disqualified
    entrant's game counts like any other, so lifting the disqualification can still let
    them play on.  The
    sweeper then closes the race at once instead of at ``ends_at``.
    """
    now = now or timezone.now()
    if race.join_closes_at > now:
        return False
    return _over_for_everyone(Race.objects.filter(id=race.id), now).exists()


def _lock_games(race_ids: Sequence[Any]) -> None:
    """Lock every game of the races ``race_ids`` (whose rows the caller holds locked),
    waiting for any change to them in flight, before the games still ``playing`` are
    timed out.  An undo out of a blocked position (RULES.md 3.9) locks only its game and
    reads its race as still scheduled: without this wait a closer's update, on the rows
    as they were before that undo, skipped the blocked game, and the undo then left it
    ``playing`` in a finished or cancelled race.  Race rows, then game rows: the order of
    every closer (:func:`games.services.race_admin.race_close_now` too)."""
    list(
        Game.objects.select_for_update(no_key=True, of=("self",))
        .filter(race_entry__race_id__in=list(race_ids))
        .order_by("id")
        .values_list("id", flat=True)
    )


def _lock_race(race_id: Any) -> Race | None:
    """The race row locked for this transaction, or ``None`` if another closer holds it."""
    return Race.objects.select_for_update(no_key=True, skip_locked=True).filter(id=race_id).first()


def race_close(*, race_id: Any, now: datetime | None = None) -> str:
    """Close and score a due race; idempotent and safe to run concurrently.

    Returns the race status afterwards (``finished``), or ``busy`` when another
    closer holds the race, or the unchanged status when the race is not due.
    A tournament race re-scores its tournament when it finishes.
    """
    now = now or timezone.now()
    with transaction.atomic():
        race = _lock_race(race_id)
        if race is None:
            return "busy"
        if race.status == Race.Status.SCHEDULED:
            if now < race.ends_at and not race_over_for_everyone(race, now=now):
                return str(race.status)
            _lock_games([race.id])
            playing = Game.objects.filter(race_entry__race=race, status=Game.Status.PLAYING)
            timed_out = [str(g) for g in playing.values_list("id", flat=True)]
            playing.update(status=Game.Status.TIMED_OUT, finished_at=F("deadline"), updated_at=now)
            publish_on_commit(
                (race_topic(race.id), "phase", {"status": "closing"}),
                *((game_topic(g), "game", {"change": "timed_out"}) for g in timed_out),
            )
            race.status = Race.Status.CLOSING
            race.closed_at = now
            race.save(update_fields=["status", "closed_at"])
    with transaction.atomic():
        race = _lock_race(race_id)
        if race is None:
            return "busy"
        if race.status == Race.Status.CLOSING:
            race_score(race=race)
            race.status = Race.Status.FINISHED
            race.scored_at = now
            race.save(update_fields=["status", "scored_at"])
            race_rating_enqueue(race_id=race.id)
            log.info("race %s finished", race.id)
            publish_on_commit((race_topic(race.id), "phase", {"status": "finished"}))
            if race.tournament_id is not None:
                publish_on_commit(
                    (tournament_topic(race.tournament_id), "race_finished", {"race": str(race.id)})
                )
            if race.tournament_id is not None:
                tournament_rescore(tournament_id=race.tournament_id, now=now)
        return str(race.status)


def race_score(*, race: Race) -> None:
    """Copy each entry's result from its game and rank the race in SQL (RULES.md 6).

    A recomputation from stored facts: running it again gives the same rows.
    Entrants who never started get status ``did_not_start`` and no rank;
    disqualified entries keep their facts and get no rank.
    """
    _score([race.pk])


def _score(race_ids: Sequence[Any]) -> None:
    """:func:`race_score` for every race of ``race_ids`` at once (each ranked on its own)."""
    if not race_ids:
        return
    qn = connection.ops.quote_name
    entry_t = qn(RaceEntry._meta.db_table)
    game_t = qn(Game._meta.db_table)
    race_pk = Race._meta.pk
    assert race_pk is not None
    # The field converts the ids for the backend (UUIDs, or hex text on SQLite).
    keys = [race_pk.get_db_prep_value(race_id, connection) for race_id in race_ids]
    among = ", ".join(["%s"] * len(keys))
    with connection.cursor() as cur:
        # One write per entry: facts and rank together.  Disqualified entries are
        # ranked in a partition of their own and then given no rank.
        cur.execute(
            f"""
            UPDATE {entry_t}
               SET status = r.status, cards_home = r.cards_home, moves = r.moves,
                   elapsed_ms = r.elapsed_ms, won = (r.status = 'won'),
                   rank = CASE WHEN r.disqualified THEN NULL ELSE r.rnk END
              FROM (SELECT s.*, RANK() OVER (PARTITION BY s.race_id, s.disqualified
                                             ORDER BY {RANK_ORDER_SQL}) AS rnk
                      FROM (SELECT e.id, e.race_id, e.disqualified, g.status, g.cards_home,
                                   g.move_number AS moves, g.cards_home_ms AS elapsed_ms
                              FROM {entry_t} e JOIN {game_t} g ON g.id = e.game_id
                             WHERE e.race_id IN ({among})) s) r
             WHERE {entry_t}.id = r.id
            """,  # noqa: S608 - quoted table names from model metadata; the order is a constant
            keys,
        )
        cur.execute(
            f"""
            UPDATE {entry_t} SET status = 'did_not_start', cards_home = NULL, moves = NULL,
                   elapsed_ms = NULL, won = FALSE, rank = NULL
             WHERE race_id IN ({among}) AND game_id IS NULL
            """,  # noqa: S608
            keys,
        )


def race_locked(race_id: Any) -> Race:
    """The race with its deal and tournament, its row locked for this transaction (``FOR
    NO KEY UPDATE``, waiting for it; a closer's :func:`_lock_race` skips a locked race).
    Raises :class:`NotFound`."""
    races = Race.objects.select_related("deal", "tournament")
    try:
        return races.select_for_update(no_key=True, of=("self",)).get(id=race_id)
    except (Race.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such race").because("no_such_race", {}) from None


def race_rescore(*, race_id: Any) -> None:
    """Re-rank a finished race from its games under the current rule (RULES.md 6).

    A finished race keeps its published ranks until this runs (after a
    disqualification, or on an organiser's request); then the rule in force now
    applies (since RULES.md 6 changed: moves no longer break ties).  A race that
    is not finished is left alone.  Its rating is marked stale in the same
    transaction (:func:`games.services.ratings.race_rating_mark_stale`: the ratings
    sweep re-rates it if the task queued after the commit is lost).  Raises
    :class:`NotFound`.
    """
    with transaction.atomic():
        race = race_locked(race_id)
        if race.status == Race.Status.FINISHED:
            race_score(race=race)
            race_rating_mark_stale(race=race)
            race_rating_enqueue(race_id=race.id)


def races_rescore(*, race_ids: Sequence[Any]) -> list[Any]:
    """:func:`race_rescore` for many races at once, in a fixed number of queries.

    For the deletion of an account (``games.services.race_admin.player_results_rescore``),
    whose caller holds the races' locks: locks them (id order), re-ranks those finished
    from their games under the current rule (RULES.md 6, each race on its own), marks
    their ratings stale and queues their tasks after the commit in the order of
    ``race_ids`` (race order: the ratings are folded in that order).  Races not
    finished are left alone.  Returns the ids re-scored, in the order of ``race_ids``.
    Raises nothing of its own (one by one, a player of some thousands of races could
    not be deleted within a web request).
    """
    with transaction.atomic():
        finished = set(
            Race.objects.select_for_update(no_key=True)
            .filter(id__in=list(race_ids), status=Race.Status.FINISHED)
            .order_by("id")
            .values_list("id", flat=True)
        )
        ordered = [race_id for race_id in race_ids if race_id in finished]
        _score(ordered)
        Race.objects.filter(id__in=ordered, rating_stale=False).update(rating_stale=True)
        for race_id in ordered:
            race_rating_enqueue(race_id=race_id)
    return ordered


@dataclass(frozen=True)
class RacesEnded:
    """What :func:`races_end` did: ``cancelled``, the ids cancelled; ``scored``, the ids
    whose end had passed (or that were being scored), closed and scored instead, as the
    sweeper would have (:func:`race_close`); each in id order."""

    cancelled: list[Any]
    scored: list[Any]


@dataclass(frozen=True)
class RaceCancelOutcome:
    """What :func:`race_cancel_outcome` did to one race: ``result`` is ``cancelled``,
    ``scored`` (its end had passed: closed and scored instead, not cancelled),
    ``finished`` (left alone: a finished race keeps its results) or
    ``already_cancelled`` (left alone, with its first ``cancelled_at``); ``race`` is the
    race afterwards."""

    race: Race
    result: str


def race_cancel_outcome(*, race_id: Any, now: datetime | None = None) -> RaceCancelOutcome:
    """Cancel a race that is not over (:func:`races_end`) and say what was done.

    A race whose end has passed (stored ``scheduled`` past ``ends_at``, or ``closing``)
    was played in full: it is closed and scored (:func:`race_close`), not cancelled, so
    its results never depend on how late the sweeper is.  A finished or cancelled race
    is left unchanged (a cancelled race keeps its first ``cancelled_at``).  ``now``:
    the time of the cancellation (default: the current time).  Locks the race row,
    then its games.  Raises :class:`NotFound`.
    """
    now = now or timezone.now()
    with transaction.atomic():
        race = race_locked(race_id)
        was = race.status
        ended = races_end(race_ids=[race.id], now=now)
        if ended.cancelled:
            race.status = Race.Status.CANCELLED
            race.cancelled_at = now
            result = "cancelled"
        elif ended.scored:
            race.refresh_from_db()
            result = "scored"
        else:
            result = "finished" if was == Race.Status.FINISHED else "already_cancelled"
    return RaceCancelOutcome(race=race, result=result)


def race_cancel(*, race_id: Any, now: datetime | None = None) -> Race:
    """Cancel a race that is not over; its running games end as timed out (idempotent).

    As :func:`race_cancel_outcome` (a race whose end has passed is scored instead;
    a finished or cancelled race is returned unchanged), returning the race afterwards.
    The race is marked ``cancelled`` at ``now`` (default: the current time;
    ``Race.cancelled_at``, which its pages show).  Raises :class:`NotFound`.
    """
    return race_cancel_outcome(race_id=race_id, now=now).race


def races_cancel(*, race_ids: Iterable[Any], now: datetime | None = None) -> list[Any]:
    """:func:`races_end`, returning only the ids cancelled (id order)."""
    return races_end(race_ids=race_ids, now=now).cancelled


def races_end(*, race_ids: Iterable[Any], now: datetime | None = None) -> RacesEnded:
    """Cancel the races ``race_ids`` not over yet, together; score those whose end passed.

    For cancelling a tournament (``games.services.tournaments.tournament_set_status``),
    whose caller has locked the races already, and for :func:`race_cancel`: in one
    transaction, locks those still ``scheduled`` or ``closing`` (id order).  Those whose
    end has passed at ``now`` (phase ``closing``: stored ``scheduled`` past ``ends_at``,
    or ``closing``) were played in full: each is closed and scored as the sweeper would
    (:func:`race_close`, in this transaction, under these locks), not cancelled: a
    race's results never depend on the sweeper's latency.  The others: their games
    still playing end as timed out at ``now`` (default: the current time; a game whose
    own deadline came before ``now``, a window entrant out of time, at that deadline), they are
    marked ``cancelled`` at ``now`` (``Race.cancelled_at``; their seeds are revealed,
    RULES.md 7: no one can play them any more) and each race's stream, and each game's
    it ended (a ``game`` event, ``change`` ``cancelled``), is told after the commit.  A
    fixed number of queries for the races cancelled whatever their number
    (one by one, some thousands outlasted a web request).  Finished or cancelled races
    are left alone.  Returns :class:`RacesEnded`.  Raises nothing of its own.
    """
    now = now or timezone.now()
    with transaction.atomic():
        rows = list(
            Race.objects.select_for_update(no_key=True)
            .filter(id__in=list(race_ids), status__in=[Race.Status.SCHEDULED, Race.Status.CLOSING])
            .order_by("id")
            .values_list("id", "status", "ends_at")
        )
        scored = [
            i for i, status, ends_at in rows if status == Race.Status.CLOSING or ends_at <= now
        ]
        ids = [i for i, _status, _ends_at in rows if i not in scored]
        for race_id in scored:
            # The row is locked by this transaction: race_close's skip_locked lock takes it.
            race_close(race_id=race_id, now=now)
        if ids:
            _lock_games(ids)
            playing = Game.objects.filter(race_entry__race_id__in=ids, status=Game.Status.PLAYING)
            ended = [str(g) for g in playing.values_list("id", flat=True)]
            # A game whose own deadline had passed (a window entrant out of time before
            # the cancellation, not yet closed by anyone) ended then, not at ``now``: the
            # clock ended it, and its view's finished_at says when.
            ended_at = Case(
                When(deadline__lt=now, then=F("deadline")),
                default=Value(now, output_field=DateTimeField()),
            )
            playing.update(status=Game.Status.TIMED_OUT, finished_at=ended_at, updated_at=now)
            Race.objects.filter(id__in=ids).update(status=Race.Status.CANCELLED, cancelled_at=now)
            # Each game's stream too (as race_close tells the games it times out): an open
            # play page draws the cancellation's last word at once, not at its next move.
            publish_on_commit(
                *((race_topic(i), "phase", {"status": "cancelled"}) for i in ids),
                *((game_topic(g), "game", {"change": "cancelled"}) for g in ended),
            )
    return RacesEnded(cancelled=ids, scored=scored)


def races_due(*, now: datetime | None = None, limit: int = 50) -> list[Any]:
    """Ids of races that need closing or scoring now (for the sweeper): past their end,
    being scored (``closing``, whatever their end: a race closed early whose scoring was
    cut short, a worker lost between :func:`race_close`'s two steps, is scored at the
    next sweep, not once its ``ends_at`` comes), or over for every player before their
    end (:func:`race_over_for_everyone`)."""
    now = now or timezone.now()
    due = list(
        Race.objects.filter(
            Q(status=Race.Status.SCHEDULED, ends_at__lte=now) | Q(status=Race.Status.CLOSING)
        )
        .order_by("ends_at")
        .values_list("id", flat=True)[:limit]
    )
    # Running races none of whose entrants can still play (one query; joining closed is
    # checked on the few rows left, as join_closes_at does).
    done_early = (
        _over_for_everyone(Race.objects.all(), now)
        .only("id", "starts_at", "ends_at", "late_join_s")
        .order_by("ends_at")[:limit]
    )
    due += [race.id for race in done_early if race.join_closes_at <= now]
    return due[:limit]
