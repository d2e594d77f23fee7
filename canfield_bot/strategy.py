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
    position is :func:`position_key`).  Nor does a card go straight back: after a
    card moves from one tableau pile to another, moving it back onto the same
    cards it left (with only ``draw`` or ``redeal`` played since) is not played, since it only
    restores the tableau (a draw changes the position key, so the first rule
    alone let a card shuttle between two piles with draws between, 74 of 161
    moves on classic seed 38).  The strategy gives up (``None``) when a whole pass
    through the stock (from one ``redeal`` to the next) played nothing else.
    """

    def __init__(self, seed: int | None = None) -> None:
        """``seed``: break ties between equally scored moves at random (reproducibly);
        ``None`` keeps the server's order, so every such bot plays alike."""
        self.rng = random.Random(seed) if seed is not None else None  # noqa: S311 - play style
        self.tried: set[tuple[str, str]] = set()
        self.played_since_redeal = True
        self.redeals = 0
        #: The last tableau-to-tableau move as (its reverse move, the cards it left
        #: behind on its source pile), kept across stock moves; ``None`` once any other
        #: move (to a foundation, from the reserve or the waste) is played.
        self.last_shift: tuple[str, list[str]] | None = None

    def __call__(self, view: dict[str, Any]) -> str | None:
        legal: list[str] = list(view.get("legal_moves") or [])
        if not legal:
            return None
        key = position_key(view)
        candidates = [
            m
            for m in legal
            if m in _STOCK_MOVES or ((key, m) not in self.tried and not self._goes_back(view, m))
        ]
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
        if move not in _STOCK_MOVES:
            self.last_shift = _shift(view, move)
        return move

    def _goes_back(self, view: dict[str, Any], move: str) -> bool:
        """Whether ``move`` takes the last shifted card back onto the cards it left."""
        if self.last_shift is None or move != self.last_shift[0]:
            return False
        source = int(move.split(">t")[1]) - 1
        return bool(view["tableau"][source] == self.last_shift[1])

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


def _shift(view: dict[str, Any], move: str) -> tuple[str, list[str]] | None:
    """For a move of a tableau card onto another tableau pile: (the move that would take
    it back, the cards left on its source pile); ``None`` for any other move."""
    card, _, dest = move.partition(">")
    if not dest.startswith("t"):
        return None
    for number, pile in enumerate(view["tableau"], start=1):
        if card in pile:
            return f"{card}>t{number}", pile[: pile.index(card)]
    return None


def _goes_home(view: dict[str, Any], card: str) -> bool:
    """Whether ``card`` is the next card of its foundation (from the view only)."""
    order = "A23456789TJQK"
    rank, suit = card[:-1], card[-1]
    pile: list[str] = view["foundations"][suit]
    if not pile:
        return bool(rank == view["base_rank"])
    top = pile[-1][:-1]
    return len(pile) < 13 and order[(order.index(top) + 1) % 13] == rank


# ----------------------------------------------------------------- planning on the visible table
_ORDER = "A23456789TJQK"
_RED = frozenset("DH")


def _rank(card: str) -> int:
    return _ORDER.index(card[:-1])


def _fits_on(card: str, target: str) -> bool:
    """Classic building (RULES.md 3.3): one rank lower, other colour, wrapping A under K."""
    return (_rank(card) + 1) % 13 == _rank(target) and (card[-1] in _RED) != (target[-1] in _RED)


class _Table:
    """The visible table of a game view, which moves can be tried on (classic rules).

    Only what the player sees: the reserve's top card (the one beneath is unknown, so
    ``None`` after the top leaves), the waste's visible cards, the tableau and the
    foundation tops.  Stock moves are never simulated.
    """

    __slots__ = ("base", "found", "reserve", "reserve_count", "tableau", "talon", "waste")

    def __init__(self, view: dict[str, Any]) -> None:
        self.base = _ORDER.index(str(view["base_rank"]))
        self.found = {s: len(c) for s, c in view["foundations"].items()}
        reserve = view["reserve"]
        self.reserve_count = int(reserve["count"])
        self.reserve: str | None = reserve["cards"][-1] if reserve["cards"] else None
        self.waste: list[str] = list(view["waste"]["cards"])
        self.talon = int(view["stock"]["count"]) + int(view["waste"]["count"])
        self.tableau: list[list[str]] = [list(p) for p in view["tableau"]]

    def copy(self) -> _Table:
        other = object.__new__(_Table)
        other.base, other.found = self.base, dict(self.found)
        other.reserve, other.reserve_count = self.reserve, self.reserve_count
        other.waste, other.tableau = list(self.waste), [list(p) for p in self.tableau]
        other.talon = self.talon
        return other

    @property
    def home(self) -> int:
        return sum(self.found.values())

    def goes_home(self, card: str) -> bool:
        n = self.found[card[-1]]
        return n < 13 and (self.base + n) % 13 == _rank(card)

    def moves(self) -> list[str]:
        """Non-stock moves legal here under the classic rules, as far as the table shows."""
        sources: list[str] = [p[-1] for p in self.tableau if p]
        if self.reserve is not None:
            sources.append(self.reserve)
        if self.waste:
            sources.append(self.waste[-1])
        out = [f"{c}>f" for c in sources if self.goes_home(c)]
        whole = [p[0] for p in self.tableau if len(p) > 1]
        for card in [*sources, *whole]:
            for i, pile in enumerate(self.tableau):
                if card in pile:
                    continue
                if (pile and _fits_on(card, pile[-1])) or (not pile and self.reserve_count == 0):
                    out.append(f"{card}>t{i + 1}")
        return out

    def play(self, move: str) -> None:
        """Apply a move from :meth:`moves` (or the server's list); stock moves are not handled."""
        card, dest = move.split(">")
        moving = [card]
        if self.reserve == card:
            self.reserve_count -= 1
            self.reserve = None  # the card beneath is face down: unknown
        elif self.waste and self.waste[-1] == card:
            self.waste.pop()
            self.talon -= 1
        else:
            pile = next(p for p in self.tableau if card in p)
            at = pile.index(card)
            moving = pile[at:]
            del pile[at:]
        if dest == "f":
            self.found[card[-1]] += 1
        else:
            self.tableau[int(dest[1:]) - 1].extend(moving)
        for pile in self.tableau:  # auto-fill (RULES.md 3.7), with an unknown card
            if not pile and self.reserve_count > 0 and self.reserve is not None:
                pile.append(self.reserve)
                self.reserve_count -= 1
                self.reserve = None

    def value(self) -> int:
        """Higher is better: cards home first, then a smaller reserve, then fewer cards in
        the stock and waste, then open piles and cards ready to go home."""
        empty = sum(1 for p in self.tableau if not p)
        ready = sum(1 for p in self.tableau if p and self.goes_home(p[-1]))
        return 100 * self.home - 12 * self.reserve_count - 3 * self.talon + 4 * empty + 2 * ready


class LookaheadStrategy:
    """Greedy with lookahead: plays the first move of the best short sequence of table moves.

    From the legal moves the server lists, it tries every sequence of up to ``depth``
    non-stock moves on the visible table (:class:`_Table`, classic rules; the card under
    the reserve's top is unknown and never planned with) and scores where each sequence
    ends (cards home, then a smaller reserve, then empty piles and cards ready to go
    home).  If some sequence beats the present position it plays that sequence's first
    move; otherwise it turns the stock (``draw``, ``redeal``).  Like
    :class:`DefaultStrategy` it never plays the same move twice from one visible
    position and gives up after a whole pass of the stock without progress.
    ``nodes``: most positions examined per move (a budget, not a clock).
    """

    def __init__(self, depth: int = 3, nodes: int = 4000) -> None:
        self.depth = depth
        self.nodes = nodes
        self.tried: set[tuple[str, str]] = set()
        self.played_since_redeal = True

    def _best(self, table: _Table, depth: int, budget: list[int]) -> int:
        best = table.value()
        if depth == 0:
            return best
        for move in table.moves():
            if budget[0] <= 0:
                break
            budget[0] -= 1
            nxt = table.copy()
            nxt.play(move)
            best = max(best, self._best(nxt, depth - 1, budget))
        return best

    def __call__(self, view: dict[str, Any]) -> str | None:
        legal: list[str] = list(view.get("legal_moves") or [])
        if not legal:
            return None
        key = position_key(view)
        table = _Table(view)
        now = table.value()
        budget = [self.nodes]
        scored: list[tuple[int, int, str]] = []
        for order, move in enumerate(legal):
            if move in _STOCK_MOVES or (key, move) in self.tried:
                continue
            nxt = table.copy()
            nxt.play(move)
            scored.append((self._best(nxt, self.depth - 1, budget), -order, move))
        if scored:
            value, _, move = max(scored)
            if value > now:
                self.played_since_redeal = True
                self.tried.add((key, move))
                return move
        if "draw" in legal:
            return "draw"
        if "redeal" in legal:
            if not self.played_since_redeal:
                return None  # a whole pass of the stock changed nothing: stuck
            self.played_since_redeal = False
            return "redeal"
        return None


class HomeOnlyStrategy:
    """A novice: puts cards on the foundations and turns the stock, never builds the tableau.

    Plays the first foundation move the server lists, else ``draw``/``redeal``; gives up
    after a whole pass of the stock without a card going home.  The weakest of
    :data:`STRATEGIES`: the reserve only empties onto the foundations or by auto-fill.
    """

    def __init__(self) -> None:
        self.played_since_redeal = True

    def __call__(self, view: dict[str, Any]) -> str | None:
        legal = [str(m) for m in view.get("legal_moves") or []]
        home = [m for m in legal if m.endswith(">f")]
        if home:
            self.played_since_redeal = True
            return home[0]
        if "draw" in legal:
            return "draw"
        if "redeal" in legal and self.played_since_redeal:
            self.played_since_redeal = False
            return "redeal"
        return None


#: The strategies the demo fields, by name, weakest first (benchmarks/strategies.py
#: measures them: wins and average cards home over 100 deals).
STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "home-only": HomeOnlyStrategy,
    "priority": DefaultStrategy,
    "lookahead": LookaheadStrategy,
}
