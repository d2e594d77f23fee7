"""Strategies: ``strategy(view) -> move or None``, from the player's view only.

A strategy gets the game view exactly as ``GET /api/v1/games/{id}`` returns it
(``legal_moves``, ``tableau``, ``reserve``, ``waste``, ``foundations``,
``stock.count``, ``move_number``, ...) and returns one of ``view["legal_moves"]``,
or ``None`` to say "nothing useful left" (the bot then resigns or stops).

A plain function works (it is stateless).  A strategy that needs memory is a
callable object; the bot makes one per game when given a class.
:class:`DefaultStrategy` is such an object.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

#: ``strategy(view) -> move`` (one of ``view["legal_moves"]``) or ``None`` (stuck).
Strategy = Callable[[dict[str, Any]], str | None]

_STOCK_MOVES = ("draw", "redeal")


def position_key(view: dict[str, Any]) -> str:
    """A hash of what the player sees on the table (not the move number or clocks)."""
    visible = {
        "reserve": [view["reserve"]["count"], view["reserve"]["cards"]],
        "foundations": {s: len(c) for s, c in view["foundations"].items()},
        "tableau": view["tableau"],
        "stock": view["stock"]["count"],
        "waste": [*view["waste"]["cards"][-1:], view["waste"]["count"]],
    }
    return hashlib.sha1(json.dumps(visible, sort_keys=True).encode()).hexdigest()[:16]  # noqa: S324


def first_legal(view: dict[str, Any]) -> str | None:
    """The simplest strategy: the first legal move (foundation moves are listed first)."""
    moves = view.get("legal_moves") or []
    return str(moves[0]) if moves else None


class DefaultStrategy:
    """Sensible priorities with memory against back-and-forth play.

    Score of a legal move, best first:

    1. a card to its foundation (reserve first, then tableau, then waste);
    2. the reserve's top card onto the tableau (frees a reserve card);
    3. a whole tableau pile onto another pile, emptying its pile (refilled from
       the reserve while it lasts);
    4. the waste's top card onto the tableau;
    5. a tableau top card onto another pile when that exposes a card that can
       go home;
    6. anything else that is not a stock move; 7. ``draw``/``redeal``.

    Memory: a move is never played twice from the same visible position (the
    position is :func:`position_key`), which rules out shuffling a card between
    two piles.  The strategy gives up (``None``) when a whole pass through the
    stock (from one ``redeal`` to the next) played nothing else.
    """

    def __init__(self, seed: int | None = None) -> None:
        """``seed``: break ties between equally scored moves at random (reproducibly);
        ``None`` keeps the server's order, so every such bot plays alike."""
        self.rng = random.Random(seed) if seed is not None else None  # noqa: S311 - play style
        self.tried: set[tuple[str, str]] = set()
        self.played_since_redeal = True
        self.redeals = 0

    def __call__(self, view: dict[str, Any]) -> str | None:
        legal: list[str] = list(view.get("legal_moves") or [])
        if not legal:
            return None
        key = position_key(view)
        candidates = [m for m in legal if m in _STOCK_MOVES or (key, m) not in self.tried]
        if not candidates:
            return None
        best = max(self.score(view, m) for m in candidates)
        top = [m for m in candidates if self.score(view, m) == best]
        move = self.rng.choice(top) if self.rng is not None else top[0]
        if move == "redeal":
            if not self.played_since_redeal:
                return None  # a full pass of the stock changed nothing: stuck
            self.played_since_redeal = False
            self.redeals += 1
        elif move != "draw":
            self.played_since_redeal = True
            self.tried.add((key, move))
        return move

    @staticmethod
    def score(view: dict[str, Any], move: str) -> int:
        """Higher is better; see the class docstring for the order."""
        if move in _STOCK_MOVES:
            return 0
        card, dest = move.split(">")
        reserve_top = (view["reserve"]["cards"] or [None])[-1]
        waste = view["waste"]["cards"]
        waste_top = waste[-1] if waste else None
        tableau: list[list[str]] = view["tableau"]
        if dest == "f":
            if card == reserve_top:
                return 100
            return 95 if card != waste_top else 90
        if card == reserve_top:
            return 80
        pile = next((p for p in tableau if card in p), None)
        if pile is not None and pile[0] == card:
            # A whole pile moves and empties its pile: the reserve refills it.
            return 70 if view["reserve"]["count"] else 20
        if card == waste_top:
            return 60
        if pile is not None and len(pile) > 1:
            under = pile[-2]
            if _goes_home(view, under):
                return 50
        return 10


def _goes_home(view: dict[str, Any], card: str) -> bool:
    """Whether ``card`` is the next card of its foundation (from the view only)."""
    order = "A23456789TJQK"
    rank, suit = card[:-1], card[-1]
    pile: list[str] = view["foundations"][suit]
    if not pile:
        return bool(rank == view["base_rank"])
    top = pile[-1][:-1]
    return len(pile) < 13 and order[(order.index(top) + 1) % 13] == rank
