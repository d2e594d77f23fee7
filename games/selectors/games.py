"""Read selectors for games: :func:`game_view` is the ONLY place that turns a game
into what a player may see (DESIGN.md; RULES.md 7)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from games.engine import GameState, player_view
from games.engine.cards import RANKS
from games.engine.record import GameRecord
from games.models import Deal, Game, Move, Race, RaceEntry, Tournament

if TYPE_CHECKING:
    from games.services.errors import DealSecret


def deal_revealed(game: Game, *, now: datetime | None = None) -> bool:
    """Whether the game's deal (seed and deck) may be shown to its player at ``now``
    (default: the current time, read once).

    A practice game reveals its deal once it is over for good; a race game once it
    is over and its race is finished for everyone or cancelled (RULES.md 7): a player
    whose own game has ended still sees nothing while others play.  A ``blocked``
    game whose blocking move may still be taken back (:func:`undo_open`) is not over
    for good: its deal stays hidden, or a player could read the seed or the solution
    and then undo and play the winning line (resigning it ends it for good, as
    ``resigned``: :func:`games.services.games.game_end`).
    """
    if not game.is_over:
        # A game still playing cannot belong to a finished race: closing a race
        # times out every game still playing.  No query on the move path.
        return False
    now = now or timezone.now()
    race_status = _loaded_race_status(game)
    if game.status == Game.Status.BLOCKED and undo_open(game, now=now, race_status=race_status):
        return False
    if game_status_seen(game, now=now) == "not_started":
        # A race game before its start: its stored "over" came from the secret deal, so
        # nothing (not even whether a query runs) may follow from it (RULES.md 7).
        return False
    if game.kind == Game.Kind.RACE:
        if race_status is not None:  # loaded with the game (recent_games): no query
            return race_status in (Race.Status.FINISHED, Race.Status.CANCELLED)
        return Race.objects.filter(
            entries__game=game, status__in=[Race.Status.FINISHED, Race.Status.CANCELLED]
        ).exists()
    return True


def _loaded_race_status(game: Game) -> str | None:
    """The stored status of a race game's race when its entry and race came with the
    game (``select_related("race_entry__race")``), else ``None``.  Never queries."""
    if game.kind != Game.Kind.RACE or not Game.race_entry.is_cached(game):
        return None
    try:
        entry = game.race_entry
    except Game.race_entry.RelatedObjectDoesNotExist:
        return None
    if not RaceEntry.race.is_cached(entry):
        return None
    return str(entry.race.status)


def deal_public(deal: Deal, *, revealed: bool) -> dict[str, Any]:
    """The deal as a client may see it: variant, the preset it was built from, options,
    commitment; seed only when revealed."""
    return {
        "variant": deal.variant,
        "preset": deal.preset,
        "options": deal.options,
        "commitment": deal.commitment,
        "seed": deal.seed if revealed else None,
        "revealed": revealed,
    }


#: Every status :func:`game_status_seen` may answer (the API's enum of it).
SEEN_GAME_STATUSES: tuple[str, ...] = ("not_started", *Game.Status.values)
#: The seen statuses of a game that is not over (yet to start, or being played).
NOT_OVER: frozenset[str] = frozenset({"not_started", Game.Status.PLAYING})


def game_status_seen(game: Game, *, now: datetime | None = None) -> str:
    """A game's status as its player may be told it at ``now`` (RULES.md 7).

    ``not_started`` for a race game before its start: its stored status was computed
    from the secret deal when the player joined (a deal dead from the start is stored
    ``blocked``), so it says nothing until the deal is in play.  ``timed_out`` for a
    game still ``playing`` past its deadline (moves are refused from that instant; the
    sweeper records it later).  Otherwise the stored status: ``playing``, ``won``,
    ``blocked``, ``resigned`` or ``timed_out``.  A race game whose race was cancelled
    before its start (:func:`cancelled_before_start`) is ``timed_out`` at once: the
    cancellation ended it, and a cancelled race's deal is public (RULES.md 7).
    """
    now = now or timezone.now()
    if game.kind == Game.Kind.RACE and now < game.started_at:
        if cancelled_before_start(game):
            return str(Game.Status.TIMED_OUT)  # ended by the cancellation, deal public
        return "not_started"
    if game.status == Game.Status.PLAYING and game.deadline and now >= game.deadline:
        return str(Game.Status.TIMED_OUT)
    return str(game.status)


def cancelled_before_start(game: Game) -> bool:
    """Whether ``game`` is a race game its race's cancellation ended before the race
    started (``games.services.races.races_end`` times the games out at the cancellation:
    ``finished_at`` earlier than ``started_at``, which no other end of a game gives).
    No query."""
    return (
        game.kind == Game.Kind.RACE
        and game.status == Game.Status.TIMED_OUT
        and game.finished_at is not None
        and game.finished_at < game.started_at
    )


def game_started(game: Game, *, now: datetime | None = None) -> bool:
    """Whether the player's race game had started at ``now`` (a practice game always
    has): not before its start, nor when its race was cancelled before it
    (:func:`cancelled_before_start`: the game ended without being played).  No query."""
    now = now or timezone.now()
    if game.kind != Game.Kind.RACE:
        return True
    return now >= game.started_at and not cancelled_before_start(game)


def undo_open(game: Game, *, now: datetime | None = None, race_status: str | None = None) -> bool:
    """Whether :func:`games.services.games.game_undo` would take back the last move of
    ``game`` at ``now`` (sent without ``expected_move_number``, or with the game's).

    True when the game allows undo (practice games; race games of a race with
    ``allow_undo``), has a live move, is not disqualified, and is ``playing`` or
    ``blocked`` (RULES.md 3.9: declared by the engine, not chosen by the player, so
    the move that led there may be taken back; never ``won``, ``resigned`` or
    ``timed_out``); a race game only after its start, before its deadline and, when
    blocked, while its race is still scheduled (not closing, finished or cancelled:
    a race that closed settles every game).  ``race_status``: the race's stored
    status when the caller has it (else one query, for a blocked race game only).
    """
    now = now or timezone.now()
    if not game.undo_allowed or game.move_number == 0:
        return False
    if disqualified_reason(game) is not None:
        return False
    status = game_status_seen(game, now=now)
    if status == Game.Status.PLAYING:
        return True  # past the deadline it is seen timed_out; a closed race timed it out
    if status != Game.Status.BLOCKED:
        return False
    if game.deadline is not None and now >= game.deadline:
        return False
    if game.kind != Game.Kind.RACE:
        return True
    if race_status is None:
        race_status = (
            Race.objects.filter(entries__game=game).values_list("status", flat=True).first()
        )
    return race_status == Race.Status.SCHEDULED


def ended_by_cancellation(game: Game, *, race_status: str | None = None) -> bool:
    """Whether ``game`` was ended by its race's cancellation (RULES.md 7): a race game
    ``timed_out`` before its deadline in a ``cancelled`` race (cancelling a race ends its
    games still playing as timed out, ``games.services.races.races_cancel``; a game out
    of time before the cancellation ended at or after its deadline).  Its pages say the
    organisers cancelled the race, not that time was up.  ``race_status``: the race's
    stored status when the caller has it (else one query).  A practice game, or a game
    not timed out, never queries."""
    if game.kind != Game.Kind.RACE or game.status != Game.Status.TIMED_OUT:
        return False
    if game.deadline is not None and (
        game.finished_at is None or game.finished_at >= game.deadline
    ):
        return False
    if race_status is None:
        race_status = (
            Race.objects.filter(entries__game=game).values_list("status", flat=True).first()
        )
    return race_status == Race.Status.CANCELLED


def game_status_shown(
    game: Game, *, now: datetime | None = None, race_status: str | None = None
) -> str:
    """A game's status as its pages show it: :func:`game_status_seen`, except
    ``cancelled`` ("race cancelled", not "timed out") for a game its race's cancellation
    ended (:func:`ended_by_cancellation`), as a cancelled race's standings say it
    (``games.selectors.races.race_standings``).  ``race_status``: as for
    :func:`ended_by_cancellation` (spares its query)."""
    if ended_by_cancellation(game, race_status=race_status):
        return "cancelled"
    return game_status_seen(game, now=now)


def game_over_for_good(
    game: Game, *, now: datetime | None = None, race_status: str | None = None
) -> bool:
    """Whether ``game`` is over for its player at ``now``: its seen status
    (:func:`game_status_seen`) is over (``won``, ``blocked``, ``resigned`` or
    ``timed_out``) and no undo may take it back (:func:`undo_open`: a ``blocked`` game
    whose last move may still be taken back goes on; RULES.md 3.9).  The rule of the
    standings' ``finished`` and of the pages' "your game is over".  ``race_status``: as
    for :func:`undo_open` (spares its query for a blocked race game)."""
    now = now or timezone.now()
    if game_status_seen(game, now=now) in NOT_OVER:
        return False
    return not undo_open(game, now=now, race_status=race_status)


def own_deadline(
    game: Game | None,
    *,
    race_mode: str,
    race_status: str | None = None,
    now: datetime | None = None,
) -> Any:
    """When ``game``'s own clock stops in a window race (``race_mode`` ``window``) whose
    player has started it and whose game is not over for good at ``now``
    (:func:`game_over_for_good`: ``playing``, or ``blocked`` with its last move still
    open to an undo, RULES.md 3.9, which the player may take until this very moment):
    ``game.deadline`` (a datetime, UTC: ``time_limit_s`` from the player's own start, or
    the window's end if that comes first).  ``None`` otherwise: no game yet, a scheduled
    race (everyone's end is the race's), a game over for good or not started.
    ``race_status``: the race's stored status when the caller has it (as for
    :func:`undo_open`; else one query for a blocked game).  The race's own countdown
    shows the window's end, which a player who started late never reaches; this is the
    player's own, for their eyes alone.  The lobby's ETag counts the same "over for
    good" (``games.selectors.races.viewer_lobby_key``)."""
    if game is None or race_mode != Race.Mode.WINDOW or game.deadline is None:
        return None
    now = now or timezone.now()
    if game_status_seen(game, now=now) == "not_started":
        return None
    if game_over_for_good(game, now=now, race_status=race_status):
        return None
    return game.deadline


def moves_left(game: Game) -> int:
    """The moves ``game`` will still accept before the server's ``GAME_MOVE_LIMIT`` (not a
    rule: RULES.md sets none), undone ones counted (each stays stored); 0 at the limit,
    where a move is refused (``games.services.games.move_play``)."""
    return max(0, settings.GAME_MOVE_LIMIT - game.moves_accepted)


def game_view(
    game: Game, *, state: GameState | None = None, now: datetime | None = None
) -> dict[str, Any]:
    """The player's view of ``game`` at ``now`` (the shape of ``GameViewSerializer``).

    Hidden cards (face-down reserve, stock order) appear only as counts, and the
    seed only once :func:`deal_revealed` allows it.  ``state`` may be passed when
    the caller already holds the engine position.  ``now`` (default: the current
    time) is read once and used for the status, ``undo_allowed`` and the deal's
    ``revealed``, so they agree at a deadline (a view never says ``playing`` with
    ``undo_allowed`` false because the clock moved between two readings).
    ``moves_left``: the moves the game will still accept before ``GAME_MOVE_LIMIT``
    (undone ones count); ``legal_moves`` is empty once it is 0.
    """
    now = now or timezone.now()
    st = state if state is not None else GameState.from_dict(game.state)
    view = player_view(st)
    view["status"] = game_status_seen(game, now=now)
    disqualified = disqualified_reason(game)
    left = moves_left(game)
    if view["status"] != Game.Status.PLAYING or disqualified is not None or not left:
        view["legal_moves"] = []  # nothing more can be played
    return {
        "id": str(game.id),
        "kind": game.kind,
        "move_number": game.move_number,
        # The server's limit (GAME_MOVE_LIMIT), not a rule: moves it will still accept.
        "moves_left": left,
        **view,
        "deal": deal_public(game.deal, revealed=deal_revealed(game, now=now)),
        # Whether an undo would be accepted now (not only whether the game allows undo).
        "undo_allowed": undo_open(game, now=now),
        "started_at": game.started_at,
        # Past the deadline the game is over (timed out) before the sweeper stores it.
        "finished_at": game.finished_at
        or (game.deadline if view["status"] == Game.Status.TIMED_OUT else None),
        "deadline": game.deadline,
        "cards_home_at": game.cards_home_at,
        "disqualified_reason": disqualified,
    }


def disqualified_reason(game: Game) -> str | None:
    """The organisers' reason when they disqualified the race entry of ``game`` (its moves,
    undo and resignation are then refused), else ``None``.  No query when the entry came
    with the game (``select_related("race_entry")``, as :func:`game_get` and the services'
    locked reads do); a practice game never queries."""
    if game.kind != Game.Kind.RACE:
        return None
    try:
        entry = game.race_entry
    except Game.race_entry.RelatedObjectDoesNotExist:
        return None
    return entry.disqualified_reason if entry.disqualified else None


def game_get(*, game_id: Any, player: Any) -> Game:
    """The player's own game; raises ``NotFound`` (absent or another player's: ids leak
    nothing) or ``RaceNotStarted`` (a race game before its start: the deal stays hidden;
    not a game its race's cancellation ended before the start, :func:`game_status_seen`;
    ``retry_after``: the seconds until the start)."""
    from games.services.errors import MALFORMED_ID, NotFound, RaceNotStarted

    now = timezone.now()
    try:
        game = Game.objects.select_related("deal", "race_entry").get(id=game_id, player=player)
    except (Game.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such game") from None
    if game_status_seen(game, now=now) == "not_started":
        raise RaceNotStarted.until(game.started_at, now=now)
    return game


def game_replay_get(*, game_id: Any, viewer: Any) -> Game:
    """A game whose replay (deal, every live move) ``viewer`` may see (RULES.md 7).

    Their own game once its deal is revealed (:func:`deal_revealed`), or any entrant's
    game of a finished or cancelled race (a race game's deal is revealed only then);
    never someone else's practice game, nor a game of a draft tournament's race unless
    ``viewer`` may see drafts (``games.permissions.may_see_drafts``: as its race and
    results).  ``viewer``: a user, anonymous or not.  Raises
    :class:`games.services.errors.NotFound` for anything else, absent or hidden alike
    (ids leak nothing).  The game comes with its deal, player and race entry (with its
    race: :func:`game_race` reads it without a query)."""
    from games.permissions import may_see_drafts
    from games.services.errors import MALFORMED_ID, NotFound

    try:
        game = Game.objects.select_related("deal", "player", "race_entry__race__tournament").get(
            id=game_id
        )
    except (Game.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such game") from None
    own = viewer is not None and viewer.is_authenticated and game.player_id == viewer.pk
    if game.kind == Game.Kind.PRACTICE and not own:
        raise NotFound("no such game")
    race = game_race(game)
    draft = (
        race is not None
        and race.tournament is not None
        and race.tournament.status == Tournament.Status.DRAFT
    )
    if draft and not may_see_drafts(viewer):
        raise NotFound("no such game")
    if not deal_revealed(game):
        raise NotFound("no such game")
    return game


def game_race(game: Game) -> Race | None:
    """The race of a race game (``None`` for a practice game, or a race game whose entry is
    gone).  No query when the game came with its entry and race
    (``select_related("race_entry__race")``, as :func:`game_replay_get`), one otherwise;
    a practice game never queries."""
    if game.kind != Game.Kind.RACE:
        return None
    if not Game.race_entry.is_cached(game):  # one query for the entry and its race
        entry = RaceEntry.objects.filter(game=game).select_related("race").first()
        if entry is None:
            return None
        game.race_entry = entry
    try:
        entry = game.race_entry
    except Game.race_entry.RelatedObjectDoesNotExist:
        return None
    return entry.race


def game_list(*, player: Any) -> QuerySet[Game]:
    """The player's games, newest first."""
    return Game.objects.filter(player=player).select_related("deal").order_by("-started_at")


def recent_games(*, player: Any, kind: str | None = None, limit: int = 10) -> list[Game]:
    """The player's ``limit`` newest games (:func:`game_list`), only those of ``kind``
    (``"practice"`` or ``"race"``) when given, each with its deal and, for a race game,
    its entry and race loaded (``game.race_entry.race``) for the lobby's and the player
    page's lines.  A list, not a query: the pages do not shape it further."""
    qs = game_list(player=player).select_related("race_entry__race")
    if kind is not None:
        qs = qs.filter(kind=kind)
    return list(qs[:limit])


def deal_base_rank(deal: Deal) -> str:
    """The base rank of ``deal`` as the engine names ranks (one of ``"A23456789TJQK"``):
    the fixed rank of the rules, or the rank of the first foundation's card ``D[13]``,
    which is dealt face up (RULES.md 2.2) and so public from the deal on (RULES.md 7).
    Reads nothing else of the deck: no seed, no hidden card."""
    fixed = deal.rules.fixed_base
    return RANKS[fixed] if fixed is not None else str(deal.deck[13])[0]


def game_base_rank(game: Game, *, now: datetime | None = None) -> str | None:
    """The base rank of ``game``'s deal as its player may be told it at ``now``
    (:func:`deal_base_rank`), or ``None`` for a race game before its start: the base card
    is dealt face up when the race starts, and until then the whole deal is hidden (the
    game's view answers ``race_not_started``; RULES.md 7).  No query."""
    if game_status_seen(game, now=now) == "not_started":
        return None
    return deal_base_rank(game.deal)


def move_history(game: Game) -> QuerySet[Move]:
    """Live moves of ``game`` in play order."""
    return game.moves.filter(undone_at__isnull=True).order_by("number")


def move_notations(game: Game) -> list[str]:
    """The notations of ``game``'s live moves in play order (:func:`move_history`)."""
    return list(move_history(game).values_list("notation", flat=True))


def game_record(game: Game) -> GameRecord:
    """The self-contained record (deal, rules, live moves) for export.

    Raises :class:`games.services.errors.DealSecret` while the deal is hidden.
    """
    if not deal_revealed(game):
        raise deal_secret_error(game, what="deal")
    deal = game.deal
    return GameRecord(
        rules=deal.rules,
        deck=tuple(deal.deck),
        seed=deal.seed,
        moves=tuple(game_live_moves(game)),
        ended=game.status if game.status in ("resigned", "timed_out") else None,
    )


def deal_secret_error(game: Game, *, what: str) -> DealSecret:
    """The :class:`games.services.errors.DealSecret` refusing the ``what`` (``"deal"``:
    the export; ``"solution"``) of ``game`` while :func:`deal_revealed` is false, its
    detail saying why and what to do.  Built from what the player's view already shows
    (the seen status and ``undo_allowed``), so it tells nothing of the deal (RULES.md 7):

    - a ``blocked`` game whose blocking move may be taken back (:func:`undo_open`): it
      is blocked, not over; undo takes back the move that blocked it, or resign ends it
      (RULES.md 3.9), and the deal is shown once the game is over for good (a race
      game's when its race is finished);
    - any other race game: shown when the race is finished (or cancelled);
    - a practice game still playing: shown when the game is over.

    Its ``why`` says which, for a page to word it in its own language
    (``web.refusals``): ``blocked_not_over_<what>`` (a practice game),
    ``blocked_not_over_race_<what>``, ``race_secret_<what>`` or ``game_secret_<what>``.
    """
    from games.services.errors import DealSecret

    race_game = game.kind == Game.Kind.RACE
    when = (
        "when the race is finished or cancelled" if race_game else "once the game is over for good"
    )
    if game.status == Game.Status.BLOCKED and undo_open(game):
        kind = "blocked_not_over_race" if race_game else "blocked_not_over"
        return DealSecret(
            f"The game is blocked, not over: no move is left (RULES.md 3.9), but undo takes "
            f"back the move that blocked it, or resign ends it; the {what} is shown {when}."
        ).because(f"{kind}_{what}", {})
    if race_game:
        return DealSecret(
            f"The {what} of a race game is shown when the race is finished or cancelled "
            "(RULES.md 7)."
        ).because(f"race_secret_{what}", {})
    return DealSecret(f"The {what} is shown when the game is over.").because(
        f"game_secret_{what}", {}
    )


def game_live_moves(game: Game) -> list[str]:
    """The game's moves not taken back, in the order played (canonical notation, RULES.md 5)."""
    return list(move_history(game).values_list("notation", flat=True))


#: Where a solution starts: the dealt position, or the position the game ended in.
SOLUTION_FROM: tuple[str, ...] = ("deal", "end")


def game_solution(
    game: Game, *, start: str = "deal", moves: list[str] | None = None
) -> dict[str, Any] | None:
    """The solver's job on a position of the game, if one was asked for (reads only).

    ``start``: ``"deal"`` (the dealt position) or ``"end"`` (where the game ended: the
    deal followed by its live moves; for a resigned game, could it still have been
    won from there?).  Shape of :func:`games.selectors.solver.solve_public`
    (``status`` pending, running or done; when done ``result`` won/lost/unknown and,
    if won, one winning line from that position in ``moves``) plus ``start`` and
    ``after_moves`` (how many of the game's moves come before the line: 0 from the
    deal), or ``None`` when nobody asked yet (``games.services.solver.game_solution_request``
    asks).  ``moves``: the game's live moves when the caller already read them (``start``
    ``"end"``; read here otherwise).  Raises :class:`games.services.errors.DealSecret`
    while the deal is hidden (a solution names every card; RULES.md 7).
    """
    from games.selectors.solver import solve_status

    if not deal_revealed(game):
        raise deal_secret_error(game, what="solution")
    if start != "end":
        moves = []
    elif moves is None:
        moves = game_live_moves(game)
    answer = solve_status(deal=game.deal, moves=moves)
    if answer is None:
        return None
    return {**answer, "start": start, "after_moves": len(moves)}


def solution_cards_home(game: Game, line: list[str], *, after_moves: int = 0) -> list[int]:
    """Cards home (1..52, RULES.md 6) after each move of ``line``, a winning line of
    :func:`game_solution` (notations, RULES.md 5), played from the deal after the game's
    first ``after_moves`` live moves (the answer's ``after_moves``: 0 from the deal).

    Same length as ``line``.  Replays the deal, so raises
    :class:`games.services.errors.DealSecret` while it is hidden (RULES.md 7), as
    :func:`game_solution` does.
    """
    if not deal_revealed(game):
        raise deal_secret_error(game, what="solution")
    state = game.deal.new_state()
    for move in game_live_moves(game)[:after_moves] if after_moves else []:
        state.play(move)
    homes = []
    for move in line:
        state.play(move)
        homes.append(state.cards_home)
    return homes
