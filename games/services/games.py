"""Write services for games: start, play a move, undo, resign, time out (DESIGN.md "Services").

Every function is keyword-only, runs in one short transaction and locks the
game row (``select_for_update(no_key=True)``) before it reads the snapshot, so
two concurrent submissions for the same game serialise: exactly one is
accepted, the other sees the new move number and gets ``stale_move_number``.
Errors are :mod:`games.services.errors` subclasses; nothing is changed when one
is raised.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from games.engine import (
    DeckError,
    GameOverError,
    GameState,
    IllegalMoveError,
    MoveParseError,
    Rules,
    RulesError,
    canonical,
    check_seed,
    commitment,
    deal_deck,
    layout,
    make_rules,
    parse_deck,
    random_seed,
    variant_name,
)
from games.engine.cards import CARD_NAMES
from games.engine.rules import PRESET_ALIASES, PRESETS
from games.live.publish import game_changed_on_commit
from games.models import Deal, Game, Move, Race, WinnableDeal
from games.selectors.games import (
    cancelled_before_start,
    disqualified_reason,
    ended_by_cancellation,
    moves_left,
    undo_open,
)
from games.services.accounts import player_lock
from games.services.deal_guard import deal_in_open_race, opening_digest
from games.services.errors import (
    MALFORMED_ID,
    DealInRace,
    EntryDisqualified,
    GameOver,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    MalformedMove,
    MoveLimitReached,
    NotFound,
    NothingToUndo,
    NoWinnableDeal,
    RaceClosed,
    RaceNotStarted,
    StaleMoveNumber,
    UndoNotAllowed,
)
from games.services.seeds import live_seed
from games.services.solutions import deal_record_verdict
from games.services.winnable_pool import winnable_draw, winnable_pool_request

_ENDED = {"won", "blocked", "resigned", "timed_out"}
#: The Game columns a move or an undo changes.
_PROGRESS_FIELDS = [
    "state",
    "move_number",
    "moves_accepted",
    "status",
    "cards_home",
    "cards_home_at",
    "cards_home_ms",
    "finished_at",
    "updated_at",
]


def deck_digest(names: Sequence[str]) -> str:
    """``hex(SHA-256("AC 2C ..."))`` of a deck in deal order: equal decks, equal digests."""
    return hashlib.sha256(" ".join(names).encode()).hexdigest()


def rules_build(*, variant: str = "classic", options: dict[str, Any] | None = None) -> Rules:
    """Validated rules for a preset plus overrides; raises :class:`InvalidOptions`."""
    try:
        return make_rules(variant, **(options or {}))
    except RulesError as exc:
        raise InvalidOptions(str(exc)) from None


def _preset(name: str | None) -> str | None:
    """A preset's canonical name (``"strict"`` -> ``"one-pass"``), or ``None``."""
    if name is None:
        return None
    name = PRESET_ALIASES.get(name, name)
    return name if name in PRESETS else None


def deal_create(
    *,
    rules: Rules,
    seed: str | None = None,
    deck: Sequence[str] | None = None,
    preset: str | None = None,
) -> Deal:
    """Store a deal from ``seed``, an explicit ``deck`` or (neither) a fresh secret seed.

    ``preset`` is the preset ``rules`` were built from (RULES.md 4: a preset, its options
    overridden), recorded as ``Deal.preset`` beside ``variant`` (the preset the rules
    equal, or ``"custom"``); ``None``: the preset the rules equal, else ``"custom"``.
    Raises :class:`InvalidDeal` for a bad seed or deck, or both given.
    """
    if seed is not None and deck is not None:
        raise InvalidDeal("give a seed or a deck, not both")
    try:
        if deck is not None:
            names = [CARD_NAMES[c] for c in parse_deck(list(deck))]
            digest = deck_digest(names)
            seed_value: str | None = None
        else:
            seed_value = check_seed(seed) if seed is not None else random_seed()
            names = deal_deck(seed_value)
            digest = commitment(seed_value)
    except DeckError as exc:
        why = "invalid_deck" if deck is not None else "invalid_seed"
        raise InvalidDeal(str(exc)).because(why, {}) from None
    return Deal.objects.create(
        seed=seed_value,
        deck=names,
        deck_digest=deck_digest(names),
        opening_digest=opening_digest(names, rules),
        commitment=digest,
        variant=variant_name(rules) or "custom",
        preset=_preset(preset) or variant_name(rules) or "custom",
        options=rules.to_dict(),
    )


def game_create(
    *,
    player: User,
    deal: Deal,
    kind: str = Game.Kind.PRACTICE,
    undo_allowed: bool = True,
    deadline: datetime | None = None,
    started_at: datetime | None = None,
) -> Game:
    """Create a game of ``deal`` for ``player`` at the dealt position.

    The end-of-game rule (RULES.md 3.9) applies at creation as after a move: a
    deal with no legal move from the start (classic seed ``"295"``) is stored
    ``blocked`` and over at once.  Raises nothing of its own (the deal is
    already valid); database errors propagate.
    """
    state = layout(parse_deck(deal.deck), deal.rules)
    now = started_at or timezone.now()
    status = state.status()
    return Game.objects.create(
        status=status,
        finished_at=now if status in _ENDED else None,
        player=player,
        deal=deal,
        kind=kind,
        state=state.to_dict(),
        cards_home=state.cards_home,
        cards_home_at=now,
        undo_allowed=undo_allowed,
        deadline=deadline,
        started_at=now,
    )


def game_start(
    *,
    player: User,
    variant: str = "classic",
    options: dict[str, Any] | None = None,
    seed: str | None = None,
    deck: Sequence[str] | None = None,
    winnable: bool = False,
) -> Game:
    """Start a practice game (RULES.md 2, 4): preset + overrides, from a seed, a deck or at random.

    With neither ``seed`` nor ``deck`` the server draws a fresh secret seed whose deal
    is not blocked at the deal (RULES.md 3.9: no move but draw and redeal;
    :func:`games.services.seeds.live_seed`, the rule races follow); a ``seed`` or
    ``deck`` given is dealt exactly as asked, even when it is blocked (the game is
    then stored ``blocked``, over at once).

    ``winnable`` asks for a deal the solver proved winnable: a secret seed
    drawn at once from the players' pool of these rules (``games.services.winnable_pool``;
    never the races' reserve; the proof is cached on the deal); an empty players' pool
    raises :class:`NoWinnableDeal` (``retry_after``) and asks the solver queue for a
    refill.  Raises :class:`InvalidOptions` (also when the rules' deals are all
    blocked: :data:`games.services.seeds.LIVE_DEAL_ATTEMPTS` drawn in a row were),
    :class:`InvalidDeal`, or :class:`DealInRace` when the seed or deck opens as a race
    that has started and is not over (up to renaming: ``games.services.deal_guard``).
    Locks the player's account first (:func:`games.services.accounts.player_lock`, the
    lock the deletion of an account takes first): raises :class:`AccountDeleted`
    (``not_found``) when it was deleted meanwhile.
    """
    rules = rules_build(variant=variant, options=options)
    if winnable:
        if seed is not None or deck is not None:
            raise InvalidDeal("winnable draws its own deal: give no seed or deck with it").because(
                "winnable_with_seed", {}
            )
        # Drawn from the pool the solver queue fills ahead of time: no solving here.
        try:
            with transaction.atomic():
                player_lock(player=player)
                seed, proof = winnable_draw(rules=rules, purpose=WinnableDeal.Purpose.PRACTICE)
                deal = deal_create(rules=rules, seed=seed, preset=variant)
                # Pooled already shortened: no tidying in this request (it took seconds).
                deal_record_verdict(deal=deal, result=proof)
                return game_create(player=player, deal=deal)
        except NoWinnableDeal:
            winnable_pool_request(rules=rules)
            raise
    asked = seed is not None or deck is not None
    if not asked:
        # Drawn here, never blocked at the deal (RULES.md 3.9), as a race's seed is.
        seed = live_seed(rules, draw=random_seed)
    with transaction.atomic():
        # The player's account first (the deletion's order: account, then the rest), so
        # the game is committed wholly before the deletion of the account (which then
        # deletes it) or refused after it: it pointed at an account gone (an
        # IntegrityError, a 500, on one side).
        player_lock(player=player)
        deal = deal_create(rules=rules, seed=seed, deck=deck, preset=variant)
        if asked and deal_in_open_race(deal):
            # Compares only the opening cards every entrant sees (RULES.md 7; deal_guard).
            raise DealInRace("this deal opens like a race that is not over")
        return game_create(player=player, deal=deal)


@lru_cache(maxsize=16)
def _update_sql(vendor: str, table: str, pk: str, columns: tuple[str, ...]) -> str:
    """The UPDATE of :func:`_save_progress`, cached per database vendor (quoting differs)."""
    qn = connection.ops.quote_name
    sets = ", ".join(f"{qn(c)} = %s" for c in columns)
    return f"UPDATE {qn(table)} SET {sets} WHERE {qn(pk)} = %s"  # noqa: S608 - quoted names


@lru_cache(maxsize=16)
def _insert_sql(vendor: str, table: str, pk: str, columns: tuple[str, ...]) -> str:
    """The INSERT of :func:`_insert_move`, cached per database vendor (quoting differs)."""
    qn = connection.ops.quote_name
    cols = ", ".join(qn(c) for c in columns)
    marks = ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {qn(table)} ({cols}) VALUES ({marks}) RETURNING {qn(pk)}"  # noqa: S608


def _save_progress(game: Game, now: datetime) -> None:
    """``game.save(update_fields=_PROGRESS_FIELDS)`` as one plain UPDATE.

    The ORM's query compiler was the largest CPU cost of a move; the values
    still go through each field's ``get_db_prep_save``, so every database
    backend gets its own types (JSON, UUID, datetimes).
    """
    meta = Game._meta
    game.updated_at = now
    fields = [f for f in meta.concrete_fields if f.name in _PROGRESS_FIELDS]
    pk = meta.pk
    assert pk is not None
    params = [f.get_db_prep_save(getattr(game, f.attname), connection) for f in fields]
    params.append(pk.get_db_prep_value(game.pk, connection))
    sql = _update_sql(connection.vendor, meta.db_table, pk.column, tuple(f.column for f in fields))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _insert_move(move: Move) -> Move:
    """``move.save()`` for a new row as one INSERT ... RETURNING (as :func:`_save_progress`)."""
    meta = Move._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    pk = meta.pk
    assert pk is not None
    params = [f.get_db_prep_save(f.pre_save(move, True), connection) for f in fields]
    sql = _insert_sql(connection.vendor, meta.db_table, pk.column, tuple(f.column for f in fields))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        move.pk = cursor.fetchone()[0]
    move._state.adding = False
    return move


def _locked_game(game_id: Any, player: User) -> Game:
    # The deal and the race entry come in the same query (the view needs the deal,
    # _refuse_if_disqualified the entry) but are not locked: every entrant of a race
    # shares the deal, and the organisers' disqualification is read as it stands.
    try:
        return (
            Game.objects.select_related("deal", "race_entry")
            .select_for_update(no_key=True, of=("self",))
            .get(id=game_id, player=player)
        )
    except (Game.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such game") from None


def game_over_error(game: Game, *, now: datetime | None = None) -> GameOver:
    """The :class:`GameOver` refusing a move or a hint on ``game``, which is not
    ``playing``: "the game is over (won)"; a ``blocked`` game whose last move may still
    be taken back (``games.selectors.games.undo_open``) is not over for good, and the
    detail says what is left (RULES.md 3.9: undo or resign).  A game its race's
    cancellation ended (``games.selectors.games.ended_by_cancellation``, one query on
    this refusal only) says so: "the organisers cancelled this race: the game is over"
    (``why`` ``game_over_race_cancelled``, which the pages word)."""
    if ended_by_cancellation(game):
        return GameOver("the organisers cancelled this race: the game is over").because(
            "game_over_race_cancelled", {}
        )
    if game.status == Game.Status.BLOCKED and undo_open(game, now=now):
        return GameOver(
            "the game is blocked: no move is left (RULES.md 3.9); undo takes back the move "
            "that blocked it, or resign ends it"
        )
    return GameOver(f"the game is over ({game.status.replace('_', ' ')})")


def _refuse_before_start(game: Game, *, now: datetime) -> None:
    """Raise :class:`RaceNotStarted` (with ``retry_after``, the seconds until the start)
    when ``game`` is a race game whose race has not started at ``now``; not for a game its
    race's cancellation ended before the start (:func:`cancelled_before_start`: it is
    over, and says so).  A practice game starts when it is created, so never.  No query."""
    if now < game.started_at and not cancelled_before_start(game):
        raise RaceNotStarted.until(game.started_at, now=now)


def _refuse_if_disqualified(game: Game) -> None:
    """Raise :class:`EntryDisqualified` when ``game`` is a race game whose entry the
    organisers disqualified (``race_entry`` came with :func:`_locked_game`, no query)."""
    reason = disqualified_reason(game)
    if reason is not None:
        raise EntryDisqualified.with_reason(reason)


@dataclass(frozen=True)
class MoveOutcome:
    """Result of :func:`move_play`: the game after the move, the stored move, whether
    this was a retry of a move already applied (``replayed``: nothing new was stored),
    and the engine position after the move when it was just played (saves a rebuild)."""

    game: Game
    move: Move
    replayed: bool
    state: GameState | None = None


def _elapsed_ms(start: datetime, end: datetime) -> int:
    """Whole milliseconds from ``start`` to ``end`` (0 if ``end`` is earlier), counted
    down to the millisecond in integers: the race ranking's time (RULES.md 6).

    Through float seconds (``total_seconds() * 1000``) an exact 1.001 s came out as
    1000 ms (1.001 is not a binary fraction), so of two players 1 ms apart the slower
    one could share the faster one's time and rank."""
    return max(0, (end - start) // timedelta(milliseconds=1))


def _changed(game: Game, change: str) -> None:
    """Live events after commit: the game's stream and, for a race game, the race's standings."""
    game_changed_on_commit(
        game_id=game.id,
        kind=change,
        move_number=game.move_number,
        race_game=game.kind == Game.Kind.RACE,
    )


def _finish(game: Game, status: str, now: datetime) -> None:
    game.status = status
    game.finished_at = now if status in _ENDED else None


def move_play(
    *,
    game_id: Any,
    player: User,
    move: str,
    expected_move_number: int | None = None,
    now: datetime | None = None,
) -> MoveOutcome:
    """Validate ``move`` with the engine and store it (RULES.md 3, 5).

    ``expected_move_number`` is the number of moves the client believes were
    played; a mismatch raises :class:`StaleMoveNumber` (with
    ``current_move_number``) unless the request is a retry of the move that
    was accepted at that number, which returns the stored move with
    ``replayed=True``.  Raises :class:`NotFound`, :class:`MalformedMove`,
    :class:`IllegalMove` (engine reason), :class:`GameOver`,
    :class:`RaceClosed` (after the game's deadline, by the server clock),
    :class:`RaceNotStarted` (a race game before its start),
    :class:`EntryDisqualified` (the organisers disqualified the player's entry),
    :class:`MoveLimitReached` (the game has accepted ``GAME_MOVE_LIMIT`` moves,
    undone ones included; the rules set no limit, this is the server's).
    """
    try:
        notation = canonical(move)
    except MoveParseError as exc:
        raise MalformedMove(exc.reason).because(exc.why, exc.facts) from None
    with transaction.atomic():
        game = _locked_game(game_id, player)
        # The clock is read once the game is locked: moves of one game sent at once are
        # stored in the order they take the lock, each with a later time than the last.
        now = now or timezone.now()
        if expected_move_number is not None and expected_move_number != game.move_number:
            if expected_move_number < game.move_number:
                done = (
                    game.moves.filter(number=expected_move_number + 1, undone_at__isnull=True)
                    .only("id", "number", "notation", "played_at", "cards_home")
                    .first()
                )
                if done is not None and done.notation == notation:
                    return MoveOutcome(game=game, move=done, replayed=True)
            raise StaleMoveNumber(
                f"expected move number {expected_move_number}, but the game is at "
                f"{game.move_number}",
                current_move_number=game.move_number,
            )
        if game.deadline is not None and now >= game.deadline:
            raise RaceClosed("the race is closed for you: your deadline has passed")
        _refuse_before_start(game, now=now)
        _refuse_if_disqualified(game)
        if game.status != Game.Status.PLAYING:
            raise game_over_error(game, now=now)
        if not moves_left(game):
            # Checked before the engine, so the answer says nothing of the position.
            limit = settings.GAME_MOVE_LIMIT
            raise MoveLimitReached(
                f"this game has reached the move limit of {limit} (undone moves count "
                "too): it takes no more; resign it and start another",
                limit=limit,
            ).because(MoveLimitReached.code, {"limit": limit})
        state = GameState.from_dict(game.state)
        try:
            state.play(notation)
        except GameOverError as exc:
            raise GameOver(exc.reason).because(exc.why, exc.facts) from None
        except IllegalMoveError as exc:
            raise IllegalMove(exc.reason).because(exc.why, exc.facts) from None
        game.move_number += 1
        game.moves_accepted += 1
        home = state.cards_home
        if home != game.cards_home:
            game.cards_home = home
            game.cards_home_at = now
            game.cards_home_ms = _elapsed_ms(game.started_at, now)
        _finish(game, state.status(), now)
        game.state = state.to_dict()
        stored = _insert_move(
            Move(
                game=game,
                number=game.move_number,
                notation=notation,
                played_at=now,
                cards_home=home,
            )
        )
        _save_progress(game, now)
        _changed(game, "move")
    return MoveOutcome(game=game, move=stored, replayed=False, state=state)


@dataclass(frozen=True)
class UndoOutcome:
    """Result of :func:`game_undo_outcome`: the game after the undo and the move taken
    back (its row, ``undone_at`` set; ``move.notation`` says which move it was)."""

    game: Game
    move: Move


def game_undo(
    *,
    game_id: Any,
    player: User,
    expected_move_number: int | None = None,
    now: datetime | None = None,
) -> Game:
    """Take back the last live move; the game after it (:func:`game_undo_outcome`, which
    says what it raises, without the move taken back)."""
    return game_undo_outcome(
        game_id=game_id, player=player, expected_move_number=expected_move_number, now=now
    ).game


def game_undo_outcome(
    *,
    game_id: Any,
    player: User,
    expected_move_number: int | None = None,
    now: datetime | None = None,
) -> UndoOutcome:
    """Take back the last live move (practice games, or races that allow undo): the game
    after it and the move taken back (:class:`UndoOutcome`).

    The move's row stays with ``undone_at`` set.  A ``blocked`` game (RULES.md 3.9)
    may be undone: the move that led into the blocked position is taken back and the
    game plays on (``games.selectors.games.undo_open`` says when an undo is accepted).
    Raises :class:`NotFound`, :class:`UndoNotAllowed`, :class:`StaleMoveNumber`,
    :class:`GameOver` (the game is over: won, resigned or timed out, or a blocked game
    its player ended for good with :func:`game_end`), :class:`RaceClosed` (past the
    game's deadline; a blocked race game once its race is closing, finished or cancelled),
    :class:`NothingToUndo`, :class:`EntryDisqualified`, :class:`RaceNotStarted` (a race
    game before its start, checked first: its stored status was computed from the secret
    deal; RULES.md 7).
    """
    with transaction.atomic():
        game = _locked_game(game_id, player)
        now = now or timezone.now()  # once locked, as in move_play
        _refuse_before_start(game, now=now)
        if not game.undo_allowed:
            raise UndoNotAllowed(
                "undo is not allowed in this game: its race does not allow undo (allow_undo)"
                if game.kind == Game.Kind.RACE
                else "undo is not allowed in this game"
            )
        _refuse_if_disqualified(game)
        if expected_move_number is not None and expected_move_number != game.move_number:
            raise StaleMoveNumber(
                f"expected move number {expected_move_number}, but the game is at "
                f"{game.move_number}",
                current_move_number=game.move_number,
            )
        if game.status not in (Game.Status.PLAYING, Game.Status.BLOCKED):
            # A finished game shows its deal and solution: taking moves back would
            # let a player read the winning line and then play it.  A blocked game
            # (RULES.md 3.9: the engine declares it, the player did not choose it)
            # keeps its deal hidden while its last move may be taken back
            # (games.selectors.games.deal_revealed), so it may be.
            raise GameOver(f"the game is over ({game.status.replace('_', ' ')})")
        if game.deadline is not None and now >= game.deadline:
            raise RaceClosed("the race is closed for you: your deadline has passed")
        if game.status == Game.Status.BLOCKED and game.kind == Game.Kind.RACE:
            race_status = (
                Race.objects.filter(entries__game=game).values_list("status", flat=True).first()
            )
            if race_status != Race.Status.SCHEDULED:
                # Closed (at its end, early once over for everyone, by the organisers)
                # or cancelled: every game of it is settled.
                raise RaceClosed(f"the race is {race_status}: its games take no more changes")
        last = (
            game.moves.select_for_update(no_key=True)
            .filter(undone_at__isnull=True)
            .order_by("-number")
            .first()
        )
        if last is None:
            raise NothingToUndo("there is no move to undo")
        # Rebuild from the deal and the remaining live moves: the stored snapshot has
        # no undo history, and replay is the reference the audit command checks.
        state = game.deal.new_state()
        dealt = state.cards_home  # the base card(s) home at the deal (RULES.md 2)
        for notation in (
            game.moves.filter(undone_at__isnull=True, number__lt=last.number)
            .order_by("number")
            .values_list("notation", flat=True)
        ):
            state.play(notation)
        last.undone_at = now
        last.save(update_fields=["undone_at"])
        game.move_number -= 1
        home = state.cards_home
        if home != game.cards_home:
            game.cards_home = home
            reached = (
                game.moves.filter(undone_at__isnull=True, number__lt=last.number)
                .exclude(cards_home=home)
                .order_by("-number")
                .values_list("number", flat=True)
                .first()
            )
            # The count was reached by the move after the last one that had another
            # count; with no such move, by the first move if the deal had another count
            # (an attack's undo set it to the deal, ranking a slower player first on
            # time), else it held from the deal.
            first = (
                None
                if reached is None and dealt == home
                else game.moves.filter(
                    undone_at__isnull=True, number__gt=reached or 0, number__lt=last.number
                )
                .order_by("number")
                .values_list("played_at", flat=True)
                .first()
            )
            game.cards_home_at = first or game.started_at
            game.cards_home_ms = _elapsed_ms(game.started_at, game.cards_home_at)
        _finish(game, state.status(), now)
        game.state = state.to_dict()
        game.save(update_fields=_PROGRESS_FIELDS)
        _changed(game, "undo")
    return UndoOutcome(game=game, move=last)


def game_end(
    *, game_id: Any, player: User, how: str = "resigned", now: datetime | None = None
) -> Game:
    """Resign (or time out) a playing game; a game already over is returned unchanged,
    except a ``blocked`` game whose last move could still be taken back
    (``games.selectors.games.undo_open``): resigning ends it for good as ``resigned``
    (the player chose not to take the move back), so its deal is revealed (a practice
    game's seed, export and solution) and, in a race, it counts as over for the race's
    early close (how a game ended never changes its rank, RULES.md 6).

    Raises :class:`NotFound`, :class:`RaceNotStarted` (a race game before its
    start: the view would show the deal), :class:`RaceClosed` (past the
    deadline the result is the time-out, not a resignation) and
    :class:`EntryDisqualified` (a disqualified entry's game stays as the organisers
    judged it).
    """
    with transaction.atomic():
        game = _locked_game(game_id, player)
        now = now or timezone.now()  # once locked, as in move_play
        _refuse_before_start(game, now=now)
        undoable_block = game.status == Game.Status.BLOCKED and undo_open(game, now=now)
        if game.status == Game.Status.PLAYING or (undoable_block and how == "resigned"):
            if game.deadline is not None and now >= game.deadline:
                raise RaceClosed("the race is closed for you: your deadline has passed")
            _refuse_if_disqualified(game)
            state = GameState.from_dict(game.state)
            state.end(how)
            game.state = state.to_dict()
            _finish(game, how, now)
            game.save(update_fields=["state", "status", "finished_at", "updated_at"])
            _changed(game, how)
    return game


def game_replay(game: Game) -> GameState:
    """The position rebuilt from the deal and the live moves (the reference for snapshots)."""
    state = game.deal.new_state()
    for notation in (
        game.moves.filter(undone_at__isnull=True)
        .order_by("number")
        .values_list("notation", flat=True)
    ):
        state.play(notation)
    if game.status in ("resigned", "timed_out"):
        state.end(game.status)
    return state
