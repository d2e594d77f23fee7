"""The Canfield rules engine: pure Python, no Django, no I/O (RULES.md is the authority).

Facade for library users and researchers::

    from games.engine import deal_deck, new_game, legal_moves, play, status, undo

    deal_deck("12345")            # -> ["JC", "7C", "5C", ...]  52 card names in deal order
    state = new_game("classic", seed="12345")
    legal_moves(state)            # -> ["TD>t1", ..., "draw"]  canonical notation
    play(state, "draw")           # applies in place, returns "draw"
    status(state)                 # -> "playing" | "won" | "blocked" | "resigned" | "timed_out"
    undo(state)                   # back to the previous position exactly

Errors (all subclasses of ``ValueError``): :class:`DeckError` (bad seed or
deck), :class:`RulesError` (bad variant or option), :class:`MoveParseError`
(malformed move, ``code = "malformed_move"``), :class:`IllegalMoveError`
(``code = "illegal_move"``, the rule's reason in ``reason``),
:class:`GameOverError` (``code = "game_over"``).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from .cards import CARD_NAMES, RANKS, SUITS, CardError, card_name, parse_card
from .deal import DeckError, check_seed, commitment, deal_deck, parse_deck, shuffle_order
from .moves import (
    GameOverError,
    IllegalMoveError,
    MoveError,
    MoveParseError,
    canonical,
    parse_move,
)
from .rules import (
    OPTION_HELP,
    OPTION_NAMES,
    PRESET_HELP,
    PRESETS,
    Rules,
    RulesError,
    make_rules,
    variant_name,
)
from .state import (
    BLOCKED,
    ENDINGS,
    PLAYING,
    RESIGNED,
    STATUSES,
    TIMED_OUT,
    WON,
    GameState,
    StateError,
    layout,
    layout_dict,
    player_view,
)

__all__ = [
    "BLOCKED",
    "CARD_NAMES",
    "ENDINGS",
    "OPTION_HELP",
    "OPTION_NAMES",
    "PLAYING",
    "PRESETS",
    "PRESET_HELP",
    "RANKS",
    "RESIGNED",
    "STATUSES",
    "SUITS",
    "TIMED_OUT",
    "WON",
    "CardError",
    "DeckError",
    "GameOverError",
    "GameState",
    "IllegalMoveError",
    "MoveError",
    "MoveParseError",
    "Rules",
    "RulesError",
    "StateError",
    "canonical",
    "card_name",
    "check_seed",
    "commitment",
    "deal_deck",
    "deal_order",
    "layout",
    "layout_dict",
    "legal_moves",
    "make_rules",
    "new_game",
    "parse_card",
    "parse_deck",
    "parse_move",
    "play",
    "player_view",
    "random_seed",
    "replay",
    "status",
    "undo",
    "variant_name",
]


def random_seed() -> str:
    """A fresh race-grade seed: 32 lowercase hex digits from a cryptographic source.

    RULES.md 2.1.
    """
    return secrets.token_hex(16)


def deal_order(*, seed: str | None = None, deck: Sequence[str] | str | None = None) -> list[int]:
    """Card numbers in deal order from exactly one of ``seed`` or ``deck``.

    Raises :class:`DeckError` for a bad seed, a bad deck, or both/neither given.
    """
    if (seed is None) == (deck is None):
        raise DeckError("give exactly one of seed or deck")
    if seed is not None:
        return shuffle_order(seed)
    assert deck is not None
    return parse_deck(deck)


def new_game(
    variant: str | Rules = "classic",
    *,
    seed: str | None = None,
    deck: Sequence[str] | str | None = None,
    **options: Any,
) -> GameState:
    """Deal a new game.

    ``variant`` is a preset name (``classic``, ``draw-one``, ``superior``,
    ``rainbow``, ``storehouse``, ``one-pass``) or a :class:`Rules`; ``options``
    override the preset (RULES.md 4).  Give a ``seed`` (1-64 chars of
    ``[A-Za-z0-9_-]``; game numbers are decimal seeds) or an explicit ``deck``
    (52 distinct card names in deal order); with neither, a random seed from
    :func:`random_seed` is used (call it yourself if you need to keep it).
    Raises :class:`RulesError` or :class:`DeckError`.
    """
    if isinstance(variant, Rules):
        rules = make_rules("classic", **{**variant.to_dict(), **options})
    else:
        rules = make_rules(variant, **options)
    if seed is None and deck is None:
        seed = random_seed()
    return layout(deal_order(seed=seed, deck=deck), rules)


def legal_moves(state: GameState) -> list[str]:
    """Every legal move in canonical notation, in a stable order.

    See :meth:`GameState.legal_moves` for the order.
    """
    return state.legal_moves()


def play(state: GameState, move: str) -> str:
    """Apply one legal move to ``state`` in place (auto-fill included); return its canonical text.

    Raises :class:`MoveParseError`, :class:`IllegalMoveError` (state unchanged)
    or :class:`GameOverError`.
    """
    return state.play(move)


def undo(state: GameState) -> None:
    """Take back the last move played on ``state`` exactly.

    Raises :class:`IllegalMoveError` when there is none.
    """
    state.undo()


def status(state: GameState) -> str:
    """``playing``, ``won``, ``blocked``, ``resigned`` or ``timed_out`` (RULES.md 3.9)."""
    return state.status()


def replay(
    moves: Iterable[str],
    variant: str | Rules = "classic",
    *,
    seed: str | None = None,
    deck: Sequence[str] | str | None = None,
    **options: Any,
) -> GameState:
    """Deal from ``seed`` or ``deck`` and play ``moves`` in order; returns the final state.

    Raises the first move's error, with its 1-based number prefixed to the reason.
    """
    state = new_game(variant, seed=seed, deck=deck, **options)
    for number, move in enumerate(moves, 1):
        try:
            state.play(move)
        except MoveError as exc:
            raise type(exc)(f"move {number} ({move}): {exc.reason}") from None
    return state
