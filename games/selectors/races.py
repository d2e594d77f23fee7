"""Read selectors for races: list, detail, live standings, results (RULES.md 6, 7).

Nothing here returns a card identity or a running race's seed; the seed and
every entrant's moves appear only in :func:`race_results`, which refuses until
the race is finished.  Reads never write: closing and scoring a due race is the
Celery beat sweeper's work (``games.race_sweep``), on the embedded default too.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import Count, F, Max, Min, Q, QuerySet, Window
from django.db.models.functions import Coalesce, Rank
from django.utils import timezone

from games.models import Game, Move, Race, RaceEntry, Tournament, TournamentEntrant
from games.ranking import RANKING_RULE, rank_order_by
from games.selectors.counts import rows_per_parent
from games.selectors.games import (
    NOT_OVER,
    SEEN_GAME_STATUSES,
    cancelled_before_start,
    ended_by_cancellation,
    game_over_for_good,
    game_status_seen,
    undo_open,
)
from games.services.errors import MALFORMED_ID, NotFound, RaceCancelled, RaceNotFinished


def of_draft_tournament(prefix: str = "") -> Q:
    """The races of a draft tournament (not published yet), as a filter.

    ``prefix``: the path to the race from the model queried (``"race__"`` for a
    model with a ``race`` foreign key; ``""`` for races).  Such a race is the
    organisers' until the tournament is published: hidden from everyone else, left
    out of a player's history and not rated (``games.services.ratings``).
    """
    return Q(**{f"{prefix}tournament__status": Tournament.Status.DRAFT})


def _visible(qs: QuerySet[Race], include_drafts: bool) -> QuerySet[Race]:
    """Races of a draft tournament are the organisers' until the tournament is published."""
    if include_drafts:
        return qs
    return qs.exclude(of_draft_tournament())


def race_get(*, race_id: Any, include_drafts: bool = False) -> Race:
    """One race; raises :class:`NotFound`.

    ``include_drafts`` (organisers: ``games.permissions.may_see_drafts``) also finds
    races of draft tournaments.  A read never closes a race: one past ``ends_at`` is in
    phase ``closing`` until the sweeper runs.
    """
    try:
        return _visible(Race.objects.select_related("deal"), include_drafts).get(id=race_id)
    except (Race.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such race") from None


def race_visible(*, race_id: Any, include_drafts: bool = False) -> bool:
    """Whether the race exists and may be seen: by anyone (``include_drafts`` false: not a
    draft tournament's), or by organisers (``include_drafts`` true: any race).

    One query.  The live race streams (``api.streams``) ask it before each event and at
    each heartbeat: a race moved into a draft tournament (``race_move``) stops being
    anyone's but the organisers' at once, as :func:`race_get` says.
    """
    try:
        return _visible(Race.objects.filter(id=race_id), include_drafts).exists()
    except MALFORMED_ID:
        return False


#: The clock phases of :meth:`games.models.Race.phase`, in the order a race goes through.
RACE_PHASES = ("upcoming", "open", "running", "closing", "finished", "cancelled")


def _phase_q(phase: str, now: datetime) -> Q:
    """The races whose :meth:`~games.models.Race.phase` at ``now`` is ``phase``."""
    scheduled = Q(status=Race.Status.SCHEDULED)
    return {
        "upcoming": scheduled & Q(opens_at__gt=now),
        "open": scheduled & Q(opens_at__lte=now, starts_at__gt=now),
        "running": scheduled & Q(starts_at__lte=now, ends_at__gt=now),
        "closing": Q(status=Race.Status.CLOSING) | (scheduled & Q(ends_at__lte=now)),
        "finished": Q(status=Race.Status.FINISHED),
        "cancelled": Q(status=Race.Status.CANCELLED),
    }[phase]


def race_list(
    *,
    phase: str | tuple[str, ...] | None = None,
    mode: str | None = None,
    tournament_id: Any = None,
    include_drafts: bool = False,
    now: datetime | None = None,
    limit: int | None = None,
) -> QuerySet[Race]:
    """Races filtered by clock phase and mode (and ``tournament_id``: that tournament's);
    the first ``limit`` of them when given (a sliced query, for a page's short list).

    ``phase``: one phase or a tuple of them (of :data:`RACE_PHASES`); a race is listed
    when its ``phase`` at ``now`` (:meth:`~games.models.Race.phase`, the field the race
    view shows) is one of them.  So ``upcoming`` is "joining not open yet" and
    ``("upcoming", "open")`` every race that has not started.  A race past ``ends_at``
    that the sweeper has not closed yet is in phase ``closing``.  Races of draft
    tournaments only with ``include_drafts`` (organisers).  Raises ``KeyError`` for an
    unknown phase (the API checks first).

    Ordered by ``starts_at`` (upcoming, open), ``ends_at`` (running), newest first
    (finished, anything else).
    """
    qs = _race_query(phase, mode, tournament_id, include_drafts, now or timezone.now())
    return qs if limit is None else qs[:limit]


def entry_count() -> Coalesce:
    """The number of a race's entries, as a subquery counted for each race listed only
    (``race_entry_unique_player``'s index: its entries alone; :func:`rows_per_parent`)."""
    return rows_per_parent(RaceEntry, "race")


def _race_query(
    phase: str | tuple[str, ...] | None,
    mode: str | None,
    tournament_id: Any,
    include_drafts: bool,
    now: datetime,
) -> QuerySet[Race]:
    """:func:`race_list` without its limit."""
    qs = _visible(
        Race.objects.select_related("deal", "tournament").annotate(entrants=entry_count()),
        include_drafts,
    )
    if mode:
        qs = qs.filter(mode=mode)
    if tournament_id is not None:
        qs = qs.filter(tournament_id=tournament_id)
    if not phase:
        return qs.order_by("-starts_at")
    phases = (phase,) if isinstance(phase, str) else tuple(phase)
    wanted = Q()
    for one in phases:
        wanted |= _phase_q(one, now)
    qs = qs.filter(wanted)
    if set(phases) <= {"upcoming", "open"}:
        return qs.order_by("starts_at")
    if set(phases) == {"running"}:
        return qs.order_by("ends_at")
    if set(phases) == {"finished"}:
        return qs.order_by("-ends_at")
    return qs.order_by("-starts_at")


def race_ended_at(race: Any) -> datetime | None:
    """When a race that is over ended, as its page tells it: ``closed_at`` when that is
    before ``ends_at`` (it was over for every player early: "Ended early"), else
    ``ends_at`` (a sweep closes it a moment after); ``cancelled_at`` for a cancelled race
    (``None`` when that time was not recorded).  ``race``: a :class:`~games.models.Race`
    or a dict with those keys (:func:`games.selectors.tournaments.race_summary`, or a
    rating history row of :func:`games.selectors.ratings.change_public`: a finished
    race, so without ``status``); only
    meaningful for a race past its end (phase ``closing``, ``finished`` or ``cancelled``).
    """

    def get(key: str) -> Any:
        return race.get(key) if isinstance(race, dict) else getattr(race, key, None)

    if get("status") == Race.Status.CANCELLED:
        cancelled_at: datetime | None = get("cancelled_at")
        return cancelled_at
    closed_at: datetime | None = get("closed_at")
    ends_at: datetime = get("ends_at")
    return closed_at if closed_at is not None and closed_at < ends_at else ends_at


def race_public(race: Race, *, viewer: Any = None, now: datetime | None = None) -> dict[str, Any]:
    """The race as anyone may see it; the seed only once the race is finished or cancelled.

    Keys: ``id``, ``name``, ``mode``, ``status``, ``phase`` (clock phase at
    ``now``), ``variant``, ``options``, ``time_limit_s`` (seconds),
    ``opens_at``/``starts_at``/``ends_at`` (datetimes), ``closed_at`` (when the sweeper
    closed it: at ``ends_at``, or before once it was over for every player; ``None``
    before), ``cancelled_at`` (when the organisers cancelled it; ``None`` for a race not
    cancelled, or cancelled before the time was recorded: its page then shows no end
    time, since it never ended at ``ends_at``), ``allow_undo``,
    ``require_winnable``, ``commitment`` (hex SHA-256 of the seed), ``seed``
    (``None`` until finished or cancelled), ``entrants`` (count), ``joined`` and ``game_id``
    (the viewer's entry and game, if any), ``game_status`` (that game's status as
    :func:`~games.selectors.games.game_status_seen` tells it: ``not_started`` before the
    start, then ``playing``, ``won``, ``blocked``, ``resigned`` or ``timed_out``;
    ``None`` without a game), ``disqualified_reason`` (the organisers' reason when they
    disqualified the viewer's entry, else ``None``) and ``ranking_rule`` (RULES.md 6).
    """
    now = now or timezone.now()
    entry = _viewer_entries(races=[race], viewer=viewer).get(race.id)
    return _race_public(race, entry=entry, now=now)


def races_public(
    races: Sequence[Race], *, viewer: Any = None, now: datetime | None = None
) -> list[dict[str, Any]]:
    """:func:`race_public` of each race of ``races`` (in their order), at one ``now``, with
    the viewer's entries in all of them read in one query (none for an anonymous viewer),
    not one per race: a page of 200 races is a fixed number of queries."""
    now = now or timezone.now()
    entries = _viewer_entries(races=races, viewer=viewer)
    return [_race_public(race, entry=entries.get(race.id), now=now) for race in races]


def _viewer_entries(*, races: Sequence[Race], viewer: Any) -> dict[Any, RaceEntry]:
    """``viewer``'s entries in ``races`` by race id, each with the game fields
    :func:`race_public` reads; empty, without a query, for an anonymous viewer."""
    if viewer is None or not viewer.is_authenticated or not races:
        return {}
    rows = (
        RaceEntry.objects.filter(race_id__in=[race.id for race in races], player=viewer)
        .select_related("game")
        .only(
            "id",
            "race_id",
            "game_id",
            "disqualified",
            "disqualified_reason",
            "game__kind",
            "game__status",
            "game__started_at",
            "game__deadline",
        )
    )
    return {entry.race_id: entry for entry in rows}


def _race_public(race: Race, *, entry: RaceEntry | None, now: datetime) -> dict[str, Any]:
    """:func:`race_public` with the viewer's entry (``None``: not entered) at hand."""
    entrants = getattr(race, "entrants", None)
    if entrants is None:
        entrants = race.entries.count()
    return {
        "id": str(race.id),
        "name": race.name,
        "mode": race.mode,
        "status": race.status,
        "phase": race.phase(now),
        "variant": race.deal.variant,
        "preset": race.deal.preset,
        "options": race.deal.options,
        "time_limit_s": race.time_limit_s,
        "opens_at": race.opens_at,
        "starts_at": race.starts_at,
        "ends_at": race.ends_at,
        "closed_at": race.closed_at,
        "cancelled_at": race.cancelled_at,
        "allow_undo": race.allow_undo,
        "late_join_s": race.late_join_s,
        "join_closes_at": race.join_closes_at,
        "joining_open": race.joining_open(now),
        "require_winnable": race.require_winnable,
        "commitment": race.commitment,
        # Finished or cancelled: as its entrants' games show it (deal_revealed).
        "seed": race.deal.seed if race.seed_revealed() else None,
        "entrants": entrants,
        "joined": entry is not None,
        "game_id": str(entry.game_id) if entry is not None and entry.game_id else None,
        "game_status": game_status_seen(entry.game, now=now)
        if entry is not None and entry.game
        else None,
        "disqualified_reason": entry.disqualified_reason
        if entry is not None and entry.disqualified
        else None,
        "ranking_rule": RANKING_RULE,
        "rated": race.rated,
    }


#: A standings row's status for a game its race's cancellation ended (:func:`race_standings`).
STANDING_CANCELLED = "cancelled"
#: Every status a row of :func:`race_standings` may have: the game's seen status
#: (:func:`games.selectors.games.game_status_seen`; a finished race's stored one),
#: ``did_not_start``, ``disqualified`` and :data:`STANDING_CANCELLED`.
STANDING_STATUSES: tuple[str, ...] = (
    *SEEN_GAME_STATUSES,
    "did_not_start",
    "disqualified",
    STANDING_CANCELLED,
)


#: The columns of a race entry (with its player's name) that its standings, results and
#: CSV read (:func:`race_standings`, :func:`race_results`, ``games.selectors.exports``):
#: not the player's other columns.
RESULT_ENTRY_FIELDS: tuple[str, ...] = (
    "race_id",
    "player_id",
    "game_id",
    "joined_at",
    "status",
    "cards_home",
    "moves",
    "elapsed_ms",
    "won",
    "rank",
    "disqualified",
    "disqualified_reason",
    "player__username",
)
#: The columns of an entry's game that the live standings read (their rules:
#: ``game_status_seen``, ``undo_open``, ``ended_by_cancellation``): never ``state``.
_STANDING_GAME_FIELDS: tuple[str, ...] = tuple(
    f"game__{name}"
    for name in (
        "kind",
        "status",
        "move_number",
        "cards_home",
        "cards_home_ms",
        "undo_allowed",
        "deadline",
        "started_at",
        "finished_at",
    )
)


def _viewer_id(viewer: Any) -> Any:
    """The id of ``viewer`` when it is a logged-in user, else ``None``."""
    return viewer.pk if viewer is not None and viewer.is_authenticated else None


def _stored_ranking(race: Race) -> QuerySet[RaceEntry]:
    """A finished race's entries in their stored order (rank, unranked last, then time
    of joining), with only the columns its standings and results read."""
    return (
        RaceEntry.objects.filter(race=race)
        .select_related("player")
        .only(*RESULT_ENTRY_FIELDS)
        .order_by(F("rank").asc(nulls_last=True), "joined_at")
    )


def _first_rows(
    rows: QuerySet[RaceEntry], limit: int | None, mine: Any, *, mine_filter: Q | None = None
) -> list[RaceEntry]:
    """The first ``limit`` of ``rows`` (all of them when ``limit`` is ``None``), then the
    entry of the player ``mine`` (an id, or ``None``) when it is among ``rows`` but not
    among those first: one more query, and none when the first rows are all there are.
    ``mine_filter`` finds it instead of ``player_id=mine`` (a ranked query must keep its
    ranking over every row: :func:`race_standings`)."""
    first = list(rows if limit is None else rows[:limit])
    if limit is None or mine is None or len(first) < limit:
        return first
    if any(e.player_id == mine for e in first):
        return first
    return first + list(rows.filter(mine_filter or Q(player_id=mine)))


def _entries_in_all(race: Race, shown: int, limit: int | None) -> int:
    """How many entries ``race`` has, given the ``shown`` rows :func:`_first_rows` kept of
    a cut at ``limit``: ``shown`` itself when nothing was cut (no ``limit``, or fewer rows
    than it: a viewer's row is added only past a full cut), else one count query."""
    if limit is None or shown < limit:
        return shown
    return RaceEntry.objects.filter(race=race).count()


def race_standings(
    *, race: Race, now: datetime | None = None, limit: int | None = None, viewer: Any = None
) -> list[dict[str, Any]]:
    """Standings: stored ranks once finished, otherwise live ranks from the games.

    Rows: ``rank``, ``player``, ``cards_home``, ``moves``, ``elapsed_ms``,
    ``finished`` (the entrant can play no more: a ``blocked`` game whose last move may
    still be taken back, in a race with ``allow_undo``, is not finished), ``status``;
    never a card.  Before an
    entrant's game starts (a scheduled race not yet started, a window entrant who has not
    started) the row has no rank and no counts (``None``) and the status ``not_started``
    (it showed ``playing`` and a shared rank 1, then the counts of the stored deal).
    A cancelled race is never ranked: every row has no rank, is ``finished`` (nobody
    can play it any more), and an entrant who never started is ``did_not_start`` (as
    in a finished race); the counts of those who played stay.  A game the cancellation
    ended (stored ``timed_out`` before its deadline:
    :func:`games.selectors.games.ended_by_cancellation`) is ``cancelled``, not
    ``timed_out``: its clock had not run out; a game that ended before the cancellation
    keeps its own ending.  Every status is one of :data:`STANDING_STATUSES`.

    ``limit``: only the first ``limit`` rows (the pages: a 10,000-entrant race's table
    took seconds to render on every poll), then, when ``viewer`` (a user) has an entry
    among the others, their own row last, with its rank among everyone.  Without
    ``limit``, every row.  Two queries at most, three with a ``viewer`` past the limit.
    """
    now = now or timezone.now()
    cancelled = race.status == Race.Status.CANCELLED
    mine = _viewer_id(viewer)
    if race.status == Race.Status.FINISHED:
        return [
            {
                "rank": e.rank,
                "player": e.player.get_username(),
                "cards_home": e.cards_home,
                "moves": e.moves,
                "elapsed_ms": e.elapsed_ms,
                "finished": True,
                "status": "disqualified" if e.disqualified else e.status,
            }
            for e in _first_rows(_stored_ranking(race), limit, mine)
        ]
    ranked = (
        RaceEntry.objects.filter(race=race, disqualified=False, game__isnull=False)
        .select_related("player", "game")
        # Neither the engine snapshot nor the hints: decoding 10,000 snapshots was most
        # of a 10,000-entrant race's standings (benchmarks/public_reads.py).
        .only(*RESULT_ENTRY_FIELDS, *_STANDING_GAME_FIELDS)
        .annotate(
            live_rank=Window(
                Rank(),
                # RULES.md 6: the ranking key derived from its one definition.
                order_by=rank_order_by(
                    {"cards_home": "game__cards_home", "elapsed_ms": "game__cards_home_ms"}
                ),
            )
        )
        .order_by("live_rank", "joined_at")
    )
    # The viewer's rank among everyone: a disjunction naming the rank is applied after
    # the ranking (Django's QUALIFY emulation: an outer query); a plain player filter
    # would go into the ranked query's WHERE and rank them alone, first.  No rank is
    # below 1: the second branch never holds.
    live: list[Any] = _first_rows(  # each with its live_rank
        ranked, limit, mine, mine_filter=Q(player_id=mine) | Q(live_rank__lt=1)
    )
    out: list[dict[str, Any]] = []
    for e in live:
        g: Game = e.game
        # A scheduled race's entrant before the start is not_started (not ranked, not
        # finished, even on a deal dead from the deal); past a deadline, timed_out.
        status = game_status_seen(g, now=now)
        # Before it (or cancelled before it): no counts, as a window entrant's row.
        started = status != "not_started" and not cancelled_before_start(g)
        g.race_entry = e  # the entry is at hand: undo_open reads it without a query
        # A blocked game whose last move may still be taken back is not finished.
        going = status in NOT_OVER or undo_open(g, now=now, race_status=race.status)
        if cancelled and not started:
            status = "did_not_start"
        elif cancelled and ended_by_cancellation(g, race_status=race.status):
            status = STANDING_CANCELLED  # the organisers ended it, not the clock
        out.append(
            {
                "rank": e.live_rank if started and not cancelled else None,
                "player": e.player.get_username(),
                "cards_home": g.cards_home if started else None,
                "moves": g.move_number if started else None,
                "elapsed_ms": g.cards_home_ms if started else None,
                "finished": cancelled or not going,
                "status": status,
            }
        )
    others = (
        RaceEntry.objects.filter(race=race)
        .filter(Q(disqualified=True) | Q(game__isnull=True))
        .select_related("player")
        .only(*RESULT_ENTRY_FIELDS)
        .order_by("joined_at", "id")
    )
    room = None if limit is None else max(0, limit - len(out))
    listed = {e.player_id for e in live}
    for other in _first_rows(others, room, None if mine in listed else mine):
        out.append(
            {
                "rank": None,
                "player": other.player.get_username(),
                "cards_home": None,
                "moves": None,
                "elapsed_ms": None,
                "finished": cancelled,
                "status": "disqualified"
                if other.disqualified
                else "did_not_start"
                if cancelled
                else "not_started",
            }
        )
    return out


def race_standings_view(
    *, race: Race, now: datetime | None = None, limit: int | None = None, viewer: Any = None
) -> dict[str, Any]:
    """The standings of ``race`` as the API and the race stream send them, read at one
    instant ``now`` (default: the clock; the phase and the rows agree across the start).

    Shape: ``{"race": str (id), "phase": str (:meth:`Race.phase` at ``now``),
    "ranking_rule": str (RULES.md 6), "count": int, "standings": [row, ...]}``; rows as
    :func:`race_standings` (counts only, never a card: RULES.md 7).  ``count`` is the
    number of rows of the whole standings (every entry of the race, disqualified ones and
    entrants without a game included), so a reader of the first rows knows how many there
    are.  ``limit`` (``None``: every row; ``0`` is allowed) keeps the first ``limit`` rows,
    then the row of ``viewer`` (a logged-in user who entered) when it is not among them,
    with its rank among everyone: so ``len(standings)`` is at most ``limit + 1``.  A
    ``count`` query only when the rows shown may not be all of them (``len(rows) >=
    limit``).
    """
    now = now or timezone.now()
    rows = race_standings(race=race, now=now, limit=limit, viewer=viewer)
    return {
        "race": str(race.id),
        "phase": race.phase(now),
        "ranking_rule": RANKING_RULE,
        "count": _entries_in_all(race, len(rows), limit),
        "standings": rows,
    }


def race_is_window(*, race_id: Any) -> bool:
    """Whether race ``race_id`` (drafts included) is a window race, whose entrants each
    have a deadline of their own (:func:`next_game_deadline`); a race's mode is fixed once
    it is created.  Raises :class:`NotFound` for no such race.  One query."""
    return race_get(race_id=race_id, include_drafts=True).mode == Race.Mode.WINDOW


def next_game_deadline(*, race_id: Any, now: datetime) -> datetime | None:
    """The earliest deadline after ``now`` of a game of race ``race_id`` that its deadline
    will end (playing, or blocked with its last move open to undo: the standings show it
    over from that instant, :func:`race_standings`); ``None`` when there is none.

    In a window race each entrant has a deadline of their own (their start plus
    ``time_limit_s``, at most ``ends_at``), which no write marks: the race stream wakes at
    it to send the standings (``api.streams.RaceHandler``).  One query; a deadline is no
    hidden information (RULES.md 7: the standings show each entrant's start)."""
    first: datetime | None = RaceEntry.objects.filter(
        race_id=race_id,
        game__deadline__gt=now,
        game__status__in=(Game.Status.PLAYING, Game.Status.BLOCKED),
    ).aggregate(first=Min("game__deadline"))["first"]
    return first


def race_change_key(*, race: Race, now: datetime) -> tuple[Any, ...]:
    """What a race page shows to anyone, as values that change when it does (for its ETag):
    the number of entries, their games' last progress, the last stored rank, how many are
    disqualified, and how many games' own deadline has passed at ``now`` (shown timed out
    before the sweeper records it).  One query; no card, no seed."""
    agg = RaceEntry.objects.filter(race=race).aggregate(
        n=Count("id"),
        moved=Max("game__updated_at"),
        ranked=Max("rank"),
        out=Count("id", filter=Q(disqualified=True)),
        due=Count("id", filter=Q(game__deadline__lte=now)),
    )
    return (agg["n"], agg["moved"], agg["ranked"], agg["out"], agg["due"])


def race_entry_game(*, race: Race, player: Any) -> Game | None:
    """The game of ``player``'s entry in ``race`` (``None`` without an entry or a game),
    with its entry at hand (``game.race_entry``: no query for its disqualification).
    One query; none for an anonymous ``player``."""
    if player is None or not player.is_authenticated:
        return None
    entry = RaceEntry.objects.filter(race=race, player_id=player.pk).select_related("game").first()
    if entry is None or entry.game is None:
        return None
    entry.game.race_entry = entry
    return entry.game


def race_id_of_game(*, game_id: Any, player: Any) -> Any | None:
    """The id of the race of ``player``'s race game ``game_id`` (``None`` when it is no race
    game of theirs): where a page sends a player whose race has not started.  One query."""
    try:
        return (
            RaceEntry.objects.filter(game_id=game_id, player=player)
            .values_list("race_id", flat=True)
            .first()
        )
    except MALFORMED_ID:
        return None


def viewer_race_entries(*, race_ids: list[Any], viewer: Any) -> list[RaceEntry]:
    """``viewer``'s entries in the races of ``race_ids``, each with its game (``None``: no
    game yet) and the game's ``race_entry`` at hand (no query for its disqualification).
    Empty, without a query, for an anonymous viewer.  One query."""
    if viewer is None or not viewer.is_authenticated:
        return []
    entries = list(
        RaceEntry.objects.filter(race_id__in=race_ids, player=viewer).select_related("game")
    )
    for entry in entries:
        if entry.game is not None:
            entry.game.race_entry = entry
    return entries


def viewer_lobby_key(*, viewer: Any, now: datetime) -> str:
    """What the lobby's race rows show ``viewer`` alone, as a value that changes when it
    does (for its ETag, with :func:`lobby_change_key` for what everyone sees): for each of
    their entries in a race still ``scheduled`` (the open and running rows, the only ones
    with a button), ``race:game:over``, the game's id (empty before a window race's start)
    and whether it is over for good at ``now`` (:func:`game_over_for_good`: won, resigned,
    timed out, past its deadline, or blocked with no undo left).  So the viewer's "Play"
    becomes "See your game" when their own game ends, whoever else moved or not.  Empty,
    without a query, for an anonymous viewer.  One query; no card, no seed."""
    if viewer is None or not viewer.is_authenticated:
        return ""
    entries = RaceEntry.objects.filter(
        player_id=viewer.pk, race__status=Race.Status.SCHEDULED
    ).select_related("game")
    parts = []
    for entry in sorted(entries, key=lambda e: str(e.race_id)):
        game = entry.game
        over = False
        if game is not None:
            game.race_entry = entry  # its disqualification without a query
            over = game_over_for_good(game, now=now, race_status=Race.Status.SCHEDULED)
        parts.append(f"{entry.race_id}:{entry.game_id or ''}:{int(over)}")
    return ";".join(parts)


def lobby_change_key(*, include_drafts: bool, now: datetime) -> tuple[Any, ...]:
    """What the lobby's race lists show to anyone, as values that change when they do (for
    its ETag): the number of entries of scheduled races, then ``id:phase:joining_open`` at
    ``now`` of the 60 latest-starting races not cancelled, then one text of what their
    rows show besides (name, mode, time limit, deal, times, entrant count: a rename, or a
    finished race's entrant gone with their account, redraws the row).
    A draft tournament's races only with ``include_drafts`` (organisers): a draft must
    not move anyone else's ETag.  Two queries."""
    races = Race.objects.exclude(status=Race.Status.CANCELLED)
    entries_qs = RaceEntry.objects.filter(race__status=Race.Status.SCHEDULED)
    if not include_drafts:
        races = races.exclude(of_draft_tournament())
        entries_qs = entries_qs.exclude(of_draft_tournament("race__"))
    rows = (
        races.annotate(n=entry_count())
        .order_by("-starts_at")
        .values_list(
            "id",
            "status",
            "opens_at",
            "starts_at",
            "ends_at",
            "late_join_s",
            "name",
            "mode",
            "time_limit_s",
            "deal_id",
            "n",
        )[:60]
    )
    phases = []
    looks = []
    for rid, status, opens, starts, ends, late, name, mode, limit, deal, n in rows:
        race = Race(status=status, opens_at=opens, starts_at=starts, ends_at=ends, late_join_s=late)
        phases.append(f"{rid}:{race.phase(now)}:{race.joining_open(now)}")
        # What its row shows besides: a race renamed (any time, in the admin) redraws it,
        # and so does a finished race's entrant count an account deletion lowered.
        looks.append(f"{rid}:{name}:{mode}:{limit}:{deal}:{opens}:{starts}:{ends}:{n}")
    return (entries_qs.count(), *phases, ";".join(looks))


#: Seconds the live move lists of a finished race's games are kept in the cache.
RESULTS_MOVES_CACHE_SECONDS = 600


def _finished_move_lists(race_id: Any, game_ids: list[Any]) -> dict[Any, list[str]]:
    """The live moves (canonical notation, in order) of each of ``game_ids``, games of
    the finished race ``race_id``: ``{game id: [move, ...]}``.

    Read once and kept in the cache (``RESULTS_MOVES_CACHE_SECONDS``): a finished race's
    games take no more moves and no undo (every game is over or past its deadline), so
    the lists never change, and the results of a large race are read by everyone at its
    end.  The key names the games, so an entry gone since (an account deleted) is a new
    key, never a stale answer."""
    digest = hashlib.sha256(",".join(sorted(str(g) for g in game_ids)).encode()).hexdigest()
    key = f"race-results-moves:{race_id}:{digest}"
    cached = cache.get(key)
    if cached is not None:
        return {uuid.UUID(gid): moves for gid, moves in cached.items()}
    found: dict[Any, list[str]] = {gid: [] for gid in game_ids}
    for gid, notation in (
        Move.objects.filter(game_id__in=game_ids, undone_at__isnull=True)
        .order_by("game_id", "number")
        .values_list("game_id", "notation")
    ):
        found[gid].append(notation)
    cache.set(key, {str(g): m for g, m in found.items()}, RESULTS_MOVES_CACHE_SECONDS)
    return found


def race_results(
    *,
    race: Race,
    now: datetime | None = None,
    move_lists: bool = True,
    limit: int | None = None,
    viewer: Any = None,
) -> dict[str, Any]:
    """Final results with the seed reveal and every entrant's move list.

    ``move_lists=False`` leaves each entry's ``move_list`` empty without reading a
    move (the results page links each game's replay instead): a race of 100 entrants
    with 2,000 moves each is 200,000 rows, most of the answer's cost.

    Raises :class:`RaceCancelled` for a cancelled race (it never has results) and
    :class:`RaceNotFinished` until the race is finished for everyone (with the race's
    ``ends_at`` and ``retry_after``, the seconds from ``now``, default the clock, to it).
    ``commitment_verified`` is ``sha256(seed) == commitment``, recomputed here.

    ``limit`` (the results page): only the first ``limit`` entries by rank, then
    ``viewer``'s own entry when it is not among them, and ``entrants``, the number of
    entries in all (a 10,000-entrant race's page took 6 s to render every line).
    """
    if race.status == Race.Status.CANCELLED:
        raise RaceCancelled(
            "the race was cancelled: it has no results, ranks or rating, and never will"
        )
    if race.status != Race.Status.FINISHED:
        raise RaceNotFinished.until(race.ends_at, now=now or timezone.now())
    seed = race.deal.seed or ""
    entries = _first_rows(_stored_ranking(race), limit, _viewer_id(viewer))
    extra: dict[str, Any] = {}
    if limit is not None:
        extra["entrants"] = _entries_in_all(race, len(entries), limit)
    game_ids = [e.game_id for e in entries if e.game_id]
    from games.selectors.ratings import race_rating, race_rating_changes

    changes = race_rating_changes(
        race=race, player_ids=None if limit is None else [e.player_id for e in entries]
    )
    moves = _finished_move_lists(race.id, game_ids) if move_lists else {}
    return {
        "race": str(race.id),
        "seed": seed,
        "commitment": race.commitment,
        "commitment_verified": hashlib.sha256(seed.encode()).hexdigest() == race.commitment,
        "variant": race.deal.variant,
        "preset": race.deal.preset,
        "options": race.deal.options,
        "deck": race.deal.deck,
        "ranking_rule": RANKING_RULE,
        "entries": [
            {
                "rank": e.rank,
                "player": e.player.get_username(),
                "status": "disqualified" if e.disqualified else e.status,
                "won": e.won,
                "cards_home": e.cards_home,
                "casino_score": None if e.cards_home is None else 5 * e.cards_home - 52,
                "moves": e.moves,
                "elapsed_ms": e.elapsed_ms,
                "disqualified_reason": e.disqualified_reason or None,
                "game_id": str(e.game_id) if e.game_id else None,
                "move_list": moves.get(e.game_id, []) if e.game_id else [],
                "rating_change": changes.get(e.player_id),
            }
            for e in entries
        ],
        "rating": race_rating(race=race),
        **extra,
    }


#: Why a viewer may not join a race (:func:`race_join_barriers`).
JOIN_CLOSED = "closed"
JOIN_INVITE_ONLY = "invite_only"
JOIN_FULL = "full"


def race_join_barriers(
    races: list[Race], *, viewer: Any, now: datetime | None = None
) -> dict[Any, str | None]:
    """Whether ``viewer`` may join each race now, as :func:`games.services.races.race_join`
    and :func:`games.services.standings.tournament_admit` would decide it.

    Returns ``{race.id: None}`` when a Join button would be taken (or the viewer is
    already in the race: joining again is a no-op), else one reason: :data:`JOIN_CLOSED`
    (joining is not open, or the tournament takes no more entrants),
    :data:`JOIN_INVITE_ONLY` (an invite-only tournament the viewer was not invited to)
    or :data:`JOIN_FULL` (the tournament has ``max_entrants`` players, the viewer not
    among them).  An anonymous viewer gets the same answers (a log-in does not change
    them, an invitation aside).  Two queries whatever the number of races.
    """
    now = now or timezone.now()
    ids = [r.id for r in races]
    tournament_ids = {r.tournament_id for r in races if r.tournament_id is not None}
    joined: set[Any] = set()
    admitted: set[Any] = set()
    if viewer is not None and viewer.is_authenticated:
        joined = set(
            RaceEntry.objects.filter(race_id__in=ids, player=viewer).values_list(
                "race_id", flat=True
            )
        )
        if tournament_ids:
            admitted = set(
                TournamentEntrant.objects.filter(
                    tournament_id__in=tournament_ids, player=viewer
                ).values_list("tournament_id", flat=True)
            )
    counts = dict(
        TournamentEntrant.objects.filter(tournament_id__in=tournament_ids)
        .values("tournament_id")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "n")
    )
    out: dict[Any, str | None] = {}
    for r in races:
        t = r.tournament if r.tournament_id is not None else None
        if r.id in joined:
            out[r.id] = None
        elif not r.joining_open(now) or (t is not None and not t.takes_entries):
            out[r.id] = JOIN_CLOSED
        elif t is None or t.id in admitted:
            out[r.id] = None
        elif t.status != Tournament.Status.OPEN:
            out[r.id] = JOIN_CLOSED
        elif t.entry == Tournament.Entry.INVITE:
            out[r.id] = JOIN_INVITE_ONLY
        elif t.max_entrants is not None and counts.get(t.id, 0) >= t.max_entrants:
            out[r.id] = JOIN_FULL
        else:
            out[r.id] = None
    return out


def join_barriers_key(*, tournament_id: Any = None) -> str:
    """A fingerprint of what :func:`race_join_barriers` reads besides the races: each
    tournament's status, entry rule, ``max_entrants`` and admitted players (one
    tournament's, or every published one not finished or cancelled).  A page's ETag includes it,
    so an invitation or a tournament filling up redraws the Join buttons."""
    # Never a draft's: a draft tournament must not move anyone's ETag (it is secret).
    qs = Tournament.objects.exclude(
        status__in=(
            Tournament.Status.FINISHED,
            Tournament.Status.CANCELLED,
            Tournament.Status.DRAFT,
        )
    )
    if tournament_id is not None:
        qs = Tournament.objects.filter(id=tournament_id)
    rows = (
        qs.annotate(admitted=Count("entrants"), last=Max("entrants__id"))
        .order_by("id")
        .values_list("id", "status", "entry", "max_entrants", "admitted", "last")[:100]
    )
    return ";".join(":".join(str(v) for v in row) for row in rows)


def races_overdue(*, now: datetime | None = None, grace_seconds: float) -> int:
    """How many races the sweeper should have closed and has not: still ``scheduled`` or
    ``closing`` more than ``grace_seconds`` after their ``ends_at``, or ``closing`` (closed
    early, not scored) more than ``grace_seconds`` after their ``closed_at`` (one count).

    Races close at the first sweep after their end (``RACE_SWEEP_SECONDS``), so a count
    above 0 means no Celery worker or no beat is running, the broker drops the sweeps,
    or closing a race keeps failing (logged by ``games.race_sweep``).  For
    ``GET /api/v1/health``.
    """
    now = now or timezone.now()
    cut = now - timedelta(seconds=grace_seconds)
    late = Q(ends_at__lt=cut) | Q(status=Race.Status.CLOSING, closed_at__lt=cut)
    return (
        Race.objects.filter(status__in=[Race.Status.SCHEDULED, Race.Status.CLOSING])
        .filter(late)
        .count()
    )
