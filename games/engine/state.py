"""The game position, its legal moves, play, undo, status and views (RULES.md 2.2-3.9, 6, 7).

:class:`GameState` is mutable: :meth:`GameState.play` applies a move in place
and keeps an undo record, :meth:`GameState.undo` restores the previous
position exactly.  Two states are equal when their positions are equal (the
undo history is not part of the position).

Internal layout (all lists run bottom to top, so the top card is ``[-1]``):

* ``reserve``: card numbers; the top card is face up, the others face down
  unless the rules say ``reserve_face_up``.
* ``tableau``: four lists.
* ``found``: number of cards home per suit (clubs, diamonds, hearts, spades);
  the foundation of suit ``s`` holds ranks ``base, base+1, ...`` (wrapping).
* ``stock``: the top (next card drawn) is ``stock[-1]``.
* ``waste``: the top (the available card) is ``waste[-1]``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Final

from .cards import CARD_NAMES, IS_RED, RANK_OF, RANKS, SUIT_OF, SUITS, CardError, parse_card
from .moves import (
    CARD,
    DRAW,
    FOUNDATION,
    MOVE_NAMES,
    REDEAL,
    GameOverError,
    IllegalMoveError,
    parse_move,
)
from .rules import Rules

STATE_FORMAT: Final = "canfield-state"
STATE_VERSION: Final = 1

#: Source codes in undo records (tableau piles are 0..3).
SRC_RESERVE: Final = 4
SRC_WASTE: Final = 5

#: Status values.  ``resigned`` and ``timed_out`` are set from outside (:meth:`GameState.end`).
PLAYING: Final = "playing"
WON: Final = "won"
BLOCKED: Final = "blocked"
RESIGNED: Final = "resigned"
TIMED_OUT: Final = "timed_out"
ENDINGS: Final = (RESIGNED, TIMED_OUT)
STATUSES: Final = (PLAYING, WON, BLOCKED, RESIGNED, TIMED_OUT)

_MODE_CODES: Final = {"top-or-whole": 0, "whole-pile": 1, "any-run": 2}
_TOP_OR_WHOLE, _WHOLE_PILE, _ANY_RUN = 0, 1, 2
_COLOUR_WORD: Final = {True: "red", False: "black"}


class StateError(ValueError):
    """A serialised state that is not a valid position (message says what is wrong)."""


@lru_cache(maxsize=64)
def fit_table(build: str, wrap: str, base: int) -> bytes:
    """``table[c * 52 + t]`` is 1 when card ``c`` may be built on tableau card ``t``.

    RULES.md 3.3 and the ``build`` and ``tableau_wrap`` options of section 4.
    """
    table = bytearray(52 * 52)
    for c in range(52):
        for t in range(52):
            if (RANK_OF[c] + 1) % 13 != RANK_OF[t]:
                continue
            if wrap == "base-relative" and RANK_OF[t] == base:
                continue
            if build == "alternate-colour" and IS_RED[c] == IS_RED[t]:
                continue
            if build == "same-suit" and SUIT_OF[c] != SUIT_OF[t]:
                continue
            table[c * 52 + t] = 1
    return bytes(table)


class GameState:
    """One player's Canfield position under a set of :class:`Rules`.

    Build one with :func:`games.engine.new_game` or :func:`layout`; do not
    mutate the lists directly.  Errors: :meth:`play` raises
    :class:`~games.engine.moves.MoveParseError` (malformed text),
    :class:`~games.engine.moves.IllegalMoveError` (with the rule's reason) or
    :class:`~games.engine.moves.GameOverError`.
    """

    __slots__ = (
        "rules",
        "base",
        "reserve",
        "tableau",
        "found",
        "stock",
        "waste",
        "redeals_used",
        "ended",
        "history",
        "_fit",
        "_draw",
        "_redeals",
        "_autofill",
        "_empty_any",
        "_mode",
    )

    def __init__(
        self,
        rules: Rules,
        base: int,
        reserve: list[int],
        tableau: list[list[int]],
        found: list[int],
        stock: list[int],
        waste: list[int],
        redeals_used: int = 0,
        ended: str | None = None,
    ) -> None:
        self.rules = rules
        self.base = base
        self.reserve = reserve
        self.tableau = tableau
        self.found = found
        self.stock = stock
        self.waste = waste
        self.redeals_used = redeals_used
        self.ended = ended
        self.history: list[tuple[int, ...]] = []
        self._fit = fit_table(rules.build, rules.tableau_wrap, base)
        self._draw = rules.draw
        self._redeals = rules.redeals
        self._autofill = rules.autofill
        self._empty_any = rules.empty_pile == "any"
        self._mode = _MODE_CODES[rules.tableau_moves]

    # ------------------------------------------------------------------ basics

    def copy(self, rules: Rules | None = None) -> GameState:
        """An independent copy of the position (the undo history is copied too).

        ``rules``: play the copy under other rules (same cards in the same
        places; the solver's restricted game); ``None`` keeps this game's.
        """
        other = GameState(
            self.rules if rules is None else rules,
            self.base,
            self.reserve[:],
            [p[:] for p in self.tableau],
            self.found[:],
            self.stock[:],
            self.waste[:],
            self.redeals_used,
            self.ended,
        )
        other.history = self.history[:]
        return other

    def key(self) -> tuple[Any, ...]:
        """A hashable key of the whole position (rules included, history excluded)."""
        return (
            self.rules,
            self.base,
            tuple(self.reserve),
            tuple(tuple(p) for p in self.tableau),
            tuple(self.found),
            tuple(self.stock),
            tuple(self.waste),
            self.redeals_used,
            self.ended,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<GameState {self.status()} home={self.cards_home} moves={len(self.history)}>"

    def last_autofill(self) -> tuple[int, str] | None:
        """The auto-fill of the last move played on this object (RULES.md 3.7): ``(pile
        1-4, the reserve card's code)`` when that move emptied a tableau pile and the
        reserve's top card filled it, else ``None`` (also for a position loaded with
        :meth:`from_dict`, which keeps no history).  The card was face up on the reserve
        before the move, so naming it shows nothing hidden (RULES.md 7)."""
        if not self.history:
            return None
        rec = self.history[-1]
        if rec[0] != CARD or not rec[5]:
            return None
        pile = rec[2]
        return pile + 1, CARD_NAMES[self.tableau[pile][0]]

    def last_draw(self) -> list[str] | None:
        """The cards the last move played on this object turned onto the waste (RULES.md
        3.6): their codes in the order turned, the last one now the waste's top card
        (``["4C", "9D", "7H"]``; one to three cards), when that move was ``draw``, else
        ``None`` (also for a position loaded with :meth:`from_dict`, which keeps no
        history).  They lie face up on the waste, so naming them shows nothing hidden
        (RULES.md 7)."""
        if not self.history:
            return None
        rec = self.history[-1]
        if rec[0] != DRAW:
            return None
        return [CARD_NAMES[c] for c in self.waste[len(self.waste) - rec[1] :]]

    @property
    def cards_home(self) -> int:
        """Cards on the foundations, 1..52 (RULES.md 6; the dealt base card counts)."""
        f = self.found
        return f[0] + f[1] + f[2] + f[3]

    @property
    def casino_score(self) -> int:
        """Canfield's house score ``5 * cards_home - 52``, from -47 to +208 (RULES.md 6)."""
        return 5 * self.cards_home - 52

    @property
    def redeals_left(self) -> int | None:
        """Redeals still allowed, or ``None`` when unlimited."""
        if self._redeals is None:
            return None
        return max(0, self._redeals - self.redeals_used)

    def _can_redeal(self) -> bool:
        return self._redeals is None or self.redeals_used < self._redeals

    def foundation_cards(self, suit: int) -> list[int]:
        """Cards on the foundation of ``suit`` (0..3), bottom (base rank) to top."""
        return [suit * 13 + (self.base + k) % 13 for k in range(self.found[suit])]

    def face_down_count(self) -> int:
        """Reserve cards the player cannot see (RULES.md 7)."""
        if self.rules.reserve_face_up or not self.reserve:
            return 0
        return len(self.reserve) - 1

    # ------------------------------------------------------------- legal moves

    def legal_moves(self) -> list[str]:
        """Every legal move in canonical notation, in a stable order.

        Order: moves to the foundations (reserve, waste, t1..t4), then moves to
        the tableau by source (reserve, waste, then each pile t1..t4 from its
        top card down) and destination t1..t4, then ``draw`` or ``redeal``.
        An ended game (resigned, timed out) has no legal move; a won game has
        none left by the rules.
        """
        if self.ended is not None:
            return []
        out: list[str] = []
        found = self.found
        base = self.base
        fit = self._fit
        reserve = self.reserve
        waste = self.waste
        tableau = self.tableau
        singles: list[int] = []
        if reserve:
            singles.append(reserve[-1])
        if waste:
            singles.append(waste[-1])
        tops = [p[-1] if p else -1 for p in tableau]
        for t in tops:
            if t >= 0:
                singles.append(t)
        for c in singles:
            n = found[SUIT_OF[c]]
            if n < 13 and RANK_OF[c] == (base + n) % 13:
                out.append(MOVE_NAMES[c][0])
        can_fill = not self._autofill or not reserve
        empty_any = self._empty_any
        if reserve:
            c = reserve[-1]
            names = MOVE_NAMES[c]
            c52 = c * 52
            for j in range(4):
                t = tops[j]
                if (t < 0 and can_fill and empty_any) or (t >= 0 and fit[c52 + t]):
                    out.append(names[j + 1])
        if waste:
            c = waste[-1]
            names = MOVE_NAMES[c]
            c52 = c * 52
            for j in range(4):
                t = tops[j]
                if (t < 0 and can_fill) or (t >= 0 and fit[c52 + t]):
                    out.append(names[j + 1])
        fill_from_tableau = can_fill and empty_any
        mode = self._mode
        for i in range(4):
            pile = tableau[i]
            size = len(pile)
            if not size:
                continue
            if mode == _ANY_RUN:
                idxs: range | tuple[int, ...] = range(size - 1, -1, -1)
            elif mode == _TOP_OR_WHOLE and size > 1:
                idxs = (size - 1, 0)
            else:
                idxs = (0,)
            for k in idxs:
                c = pile[k]
                names = MOVE_NAMES[c]
                c52 = c * 52
                for j in range(4):
                    if j == i:
                        continue
                    t = tops[j]
                    if (t < 0 and fill_from_tableau) or (t >= 0 and fit[c52 + t]):
                        out.append(names[j + 1])
        if self.stock:
            out.append("draw")
        elif waste and self._can_redeal():
            out.append("redeal")
        return out

    # -------------------------------------------------------------------- play

    def play(self, move: str) -> str:
        """Apply ``move`` (any accepted spelling) in place, auto-fill included.

        Returns the move's canonical text.

        Raises ``MoveParseError``, ``IllegalMoveError`` (nothing changes) or
        ``GameOverError`` when the game was resigned or timed out.
        """
        if self.ended is not None:
            raise GameOverError(f"the game is over ({self.ended.replace('_', ' ')})")
        kind, card, dest = parse_move(move)
        if kind == CARD:
            self._play_card(card, dest)
            return MOVE_NAMES[card][dest + 1]
        if kind == DRAW:
            stock = self.stock
            if not stock:
                if not self.waste:
                    raise IllegalMoveError(
                        "stock and waste are empty: there is nothing to draw", "nothing_to_draw"
                    )
                if self._can_redeal():
                    raise IllegalMoveError("stock is empty: redeal first", "redeal_first")
                raise IllegalMoveError("stock is empty and no redeals left", "stock_done")
            n = self._draw if len(stock) >= self._draw else len(stock)
            waste = self.waste
            for _ in range(n):
                waste.append(stock.pop())
            self.history.append((DRAW, n))
            return "draw"
        if self.stock:
            raise IllegalMoveError(
                "stock is not empty: redeal only when the stock is empty", "stock_not_empty"
            )
        if not self.waste:
            raise IllegalMoveError("waste is empty: there is nothing to redeal", "waste_empty")
        if not self._can_redeal():
            raise IllegalMoveError(
                f"no redeals left (this game allows {self._redeals})",
                "no_redeals",
                allowed=self._redeals or 0,
            )
        waste = self.waste
        waste.reverse()
        self.stock = waste
        self.waste = []
        self.redeals_used += 1
        self.history.append((REDEAL,))
        return "redeal"

    def _play_card(self, card: int, dest: int) -> None:
        reserve = self.reserve
        waste = self.waste
        tableau = self.tableau
        count = 1
        if reserve and reserve[-1] == card:
            src = SRC_RESERVE
        elif waste and waste[-1] == card:
            src = SRC_WASTE
        else:
            for src in range(4):
                pile = tableau[src]
                if card in pile:
                    idx = pile.index(card)
                    count = len(pile) - idx
                    break
            else:
                raise self._unavailable(card)
            if dest == src:
                raise IllegalMoveError(
                    f"{CARD_NAMES[card]} is already on t{src + 1}",
                    "already_there",
                    card=CARD_NAMES[card],
                    pile=src + 1,
                )
            if count > 1:
                if dest == FOUNDATION:
                    raise IllegalMoveError(
                        f"{CARD_NAMES[card]} is not the top card of t{src + 1}: "
                        "only a pile's top card goes to a foundation",
                        "not_top",
                        card=CARD_NAMES[card],
                        pile=src + 1,
                    )
                mode = self._mode
                if mode == _TOP_OR_WHOLE and idx != 0:
                    raise IllegalMoveError(
                        f"{CARD_NAMES[card]} is neither the top nor the bottom card of "
                        f"t{src + 1}: part of a pile never moves",
                        "part_of_pile",
                        card=CARD_NAMES[card],
                        pile=src + 1,
                    )
                if mode == _WHOLE_PILE and idx != 0:
                    raise self._whole_piles_only(card, src)
            elif self._mode == _WHOLE_PILE and dest != FOUNDATION and len(tableau[src]) > 1:
                raise self._whole_piles_only(card, src)
        if dest == FOUNDATION:
            s = SUIT_OF[card]
            n = self.found[s]
            if RANK_OF[card] != (self.base + n) % 13:
                name = CARD_NAMES[card]
                if n == 0:
                    raise IllegalMoveError(
                        f"{name} cannot start a foundation: the base rank is {RANKS[self.base]}",
                        "foundation_start",
                        card=name,
                        rank=RANKS[self.base],
                    )
                need = CARD_NAMES[s * 13 + (self.base + n) % 13]
                raise IllegalMoveError(
                    f"{name} cannot go to its foundation: it needs {need} next",
                    "foundation_next",
                    card=name,
                    need=need,
                )
            self.found[s] = n + 1
        else:
            target = tableau[dest]
            if target:
                top = target[-1]
                if not self._fit[card * 52 + top]:
                    raise self._build_refusal(card, top)
            else:
                if self._autofill and reserve:
                    raise IllegalMoveError(
                        f"t{dest + 1} is empty: the reserve fills it",
                        "reserve_fills",
                        pile=dest + 1,
                    )
                if src != SRC_WASTE and not self._empty_any:
                    raise IllegalMoveError(
                        f"t{dest + 1} is empty: only the waste top may fill an empty pile",
                        "waste_only",
                        pile=dest + 1,
                    )
        # The move is legal: apply it.
        if src == SRC_RESERVE:
            reserve.pop()
            moved = [card]
        elif src == SRC_WASTE:
            waste.pop()
            moved = [card]
        else:
            pile = tableau[src]
            if count == 1:
                moved = [pile.pop()]
            else:
                moved = pile[-count:]
                del pile[-count:]
        if dest != FOUNDATION:
            tableau[dest].extend(moved)
        filled = 0
        if src < 4 and not tableau[src] and self._autofill and reserve:
            tableau[src].append(reserve.pop())
            filled = 1
        self.history.append((CARD, card, src, dest, count, filled))

    def _unavailable(self, card: int) -> IllegalMoveError:
        name = CARD_NAMES[card]
        s = SUIT_OF[card]
        if (RANK_OF[card] - self.base) % 13 < self.found[s]:
            return IllegalMoveError(
                f"{name} is already on its foundation", "already_home", card=name
            )
        # One message for every other place, and without the card's name, so that a
        # refusal never tells whether a card is face down in the reserve or in the
        # stock, nor echoes a hidden card back to the client (RULES.md 7).
        return IllegalMoveError(
            "that card is not available: only the top cards of the reserve, the waste "
            "and the tableau piles can move",
            "not_available",
        )

    def _whole_piles_only(self, card: int, src: int) -> IllegalMoveError:
        return IllegalMoveError(
            f"{CARD_NAMES[card]} is not the bottom card of t{src + 1}: "
            "only whole piles move between tableau piles",
            "whole_piles_only",
            card=CARD_NAMES[card],
            pile=src + 1,
        )

    def _build_refusal(self, card: int, top: int) -> IllegalMoveError:
        name, top_name = CARD_NAMES[card], CARD_NAMES[top]
        need_rank = RANKS[(RANK_OF[card] + 1) % 13]
        build = self.rules.build
        # Under base-relative wrapping nothing is built on a card of the base rank
        # (RULES.md 4), so a card one below it fits no card at all: saying "needs a red
        # A" would send the player to a card that is refused too.
        if self.rules.tableau_wrap == "base-relative" and (RANK_OF[card] + 1) % 13 == self.base:
            return IllegalMoveError(
                f"{name} cannot go on {top_name}: no building across the base rank "
                f"{RANKS[self.base]}",
                "build_base",
                card=name,
                top=top_name,
                rank=RANKS[self.base],
            )
        if build == "alternate-colour":
            colour = _COLOUR_WORD[not IS_RED[card]]
            return IllegalMoveError(
                f"{name} cannot go on {top_name}: needs a {colour} {need_rank}",
                "build_colour",
                card=name,
                top=top_name,
                colour=colour,
                rank=need_rank,
            )
        if build == "same-suit":
            need = f"{need_rank}{SUITS[SUIT_OF[card]]}"
            return IllegalMoveError(
                f"{name} cannot go on {top_name}: needs the {need}",
                "build_suit",
                card=name,
                top=top_name,
                need=need,
            )
        return IllegalMoveError(
            f"{name} cannot go on {top_name}: needs a {need_rank}",
            "build_rank",
            card=name,
            top=top_name,
            rank=need_rank,
        )

    # -------------------------------------------------------------------- undo

    def undo(self) -> None:
        """Restore the position before the last :meth:`play` exactly (face-up cards included).

        Raises ``IllegalMoveError`` when there is nothing to undo and
        ``GameOverError`` when the game was resigned or timed out.
        """
        if self.ended is not None:
            raise GameOverError(f"the game is over ({self.ended.replace('_', ' ')})")
        if not self.history:
            raise IllegalMoveError("nothing to undo", "nothing_to_undo")
        rec = self.history.pop()
        kind = rec[0]
        if kind == DRAW:
            stock, waste = self.stock, self.waste
            for _ in range(rec[1]):
                stock.append(waste.pop())
        elif kind == REDEAL:
            stock = self.stock
            stock.reverse()
            self.waste = stock
            self.stock = []
            self.redeals_used -= 1
        else:
            _, card, src, dest, count, filled = rec
            tableau = self.tableau
            if filled:
                self.reserve.append(tableau[src].pop())
            if dest == FOUNDATION:
                self.found[SUIT_OF[card]] -= 1
                moved = [card]
            else:
                pile = tableau[dest]
                moved = pile[-count:]
                del pile[-count:]
            if src == SRC_RESERVE:
                self.reserve.append(card)
            elif src == SRC_WASTE:
                self.waste.append(card)
            else:
                tableau[src].extend(moved)

    # ------------------------------------------------------------------ status

    def end(self, how: str) -> None:
        """Mark the game ended from outside: ``"resigned"`` or ``"timed_out"`` (RULES.md 3.9)."""
        if how not in ENDINGS:
            raise ValueError(f"a game is ended as one of {', '.join(ENDINGS)}, not {how!r}")
        if self.ended is None:
            self.ended = how

    def status(self) -> str:
        """``won``, ``blocked``, ``resigned``, ``timed_out`` or ``playing`` (RULES.md 3.9).

        Blocked: no move other than draw and redeal exists in any position that
        draw and redeal alone can reach.
        """
        if self.ended is not None:
            return self.ended
        if self.cards_home == 52:
            return WON
        if self._blocked():
            return BLOCKED
        return PLAYING

    def _blocked(self) -> bool:
        for move in self.legal_moves():
            if move != "draw" and move != "redeal":
                return False
        # Only the waste top changes under draw and redeal: try every card that
        # can reach the waste top.  Pass 1 runs the current stock out; after a
        # redeal the stock is the whole waste again, and one full pass from
        # there visits every position further redeals can reach.
        # Every such card is tried, even after one is found playable: the work
        # (and so the time of the answer) must not depend on where a playable
        # card lies in the hidden stock (RULES.md 7).
        stock = self.stock[:]
        waste = self.waste[:]
        draw = self._draw
        passes = 2 if (self._redeals is None or self.redeals_used < self._redeals) else 1
        playable = False
        for p in range(passes):
            if p == 1:
                if not waste:
                    break
                waste.reverse()
                stock, waste = waste, []
            while stock:
                for _ in range(min(draw, len(stock))):
                    waste.append(stock.pop())
                playable |= self._waste_card_playable(waste[-1])
        return not playable

    def _waste_card_playable(self, c: int) -> bool:
        n = self.found[SUIT_OF[c]]
        if n < 13 and RANK_OF[c] == (self.base + n) % 13:
            return True
        can_fill = not self._autofill or not self.reserve
        for pile in self.tableau:
            if pile:
                if self._fit[c * 52 + pile[-1]]:
                    return True
            elif can_fill:
                return True
        return False

    # ---------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """The whole position as JSON-ready data (format ``canfield-state``, version 1).

        Shape: ``rules`` (options), ``base_rank``, ``reserve`` (bottom to top),
        ``foundations`` (suit letter to cards, base first), ``tableau`` (four
        lists, bottom to top), ``stock`` (draw order: first card drawn first),
        ``waste`` (bottom to top), ``redeals_used``, ``ended``.  This holds
        hidden cards: never send it to a player; use :func:`player_view`.
        """
        names = CARD_NAMES
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "rules": self.rules.to_dict(),
            "base_rank": RANKS[self.base],
            "reserve": [names[c] for c in self.reserve],
            "foundations": {
                SUITS[s]: [names[c] for c in self.foundation_cards(s)] for s in range(4)
            },
            "tableau": [[names[c] for c in p] for p in self.tableau],
            "stock": [names[c] for c in reversed(self.stock)],
            "waste": [names[c] for c in self.waste],
            "redeals_used": self.redeals_used,
            "ended": self.ended,
        }

    def to_json(self) -> str:
        """Stable JSON text of :meth:`to_dict` (sorted keys, no spaces)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_dict` output; raises :class:`StateError` if invalid."""
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise StateError(f"not a {STATE_FORMAT} document")
        if data.get("version") != STATE_VERSION:
            raise StateError(f"unsupported state version {data.get('version')!r}")
        try:
            rules = Rules.from_dict(dict(data["rules"]))
            base_text = str(data["base_rank"]).replace("10", "T")
            if len(base_text) != 1 or base_text not in RANKS:
                raise StateError(f"invalid base rank {data['base_rank']!r}")
            base = RANKS.index(base_text)
            if rules.fixed_base is not None and rules.fixed_base != base:
                raise StateError(f"base rank {base_text} differs from the rules' base {rules.base}")
            reserve = [parse_card(c) for c in data["reserve"]]
            tableau = [[parse_card(c) for c in p] for p in data["tableau"]]
            stock = [parse_card(c) for c in reversed(data["stock"])]
            waste = [parse_card(c) for c in data["waste"]]
            found = [0, 0, 0, 0]
            home: list[int] = []
            for letter, cards in data["foundations"].items():
                s = SUITS.index(letter)
                expect = [s * 13 + (base + k) % 13 for k in range(len(cards))]
                got = [parse_card(c) for c in cards]
                if got != expect or len(got) > 13:
                    raise StateError(f"foundation {letter} is not built up in suit from the base")
                found[s] = len(got)
                home.extend(got)
            redeals_used = int(data["redeals_used"])
            ended = data.get("ended")
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, CardError) as exc:
            raise StateError(f"invalid state: {exc}") from exc
        if len(tableau) != 4:
            raise StateError("the tableau has four piles")
        every = reserve + stock + waste + home + [c for p in tableau for c in p]
        if sorted(every) != list(range(52)):
            raise StateError("a state holds each of the 52 cards exactly once")
        if ended is not None and ended not in ENDINGS:
            raise StateError(f"invalid ended value {ended!r}")
        return cls(rules, base, reserve, tableau, found, stock, waste, redeals_used, ended)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Inverse of :meth:`to_json`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(f"invalid JSON: {exc}") from exc
        return cls.from_dict(data)


def layout(order: list[int], rules: Rules) -> GameState:
    """Lay out a deck in deal order (card numbers) as RULES.md 2.2 says.

    With ``base`` ``dealt``: reserve ``D[0..12]`` (``D[12]`` on top), first
    foundation ``D[13]``, tableau ``D[14..17]``, stock ``D[18..51]`` with
    ``D[18]`` drawn first.  With a fixed base rank (storehouse), the four
    cards of that rank start the foundations and the other 48 are dealt in
    order: reserve 13, tableau 4, stock 31.
    """
    fixed = rules.fixed_base
    found = [0, 0, 0, 0]
    if fixed is None:
        reserve = order[0:13]
        base_card = order[13]
        base = RANK_OF[base_card]
        found[SUIT_OF[base_card]] = 1
        rest = order[14:]
    else:
        base = fixed
        found = [1, 1, 1, 1]
        dealt = [c for c in order if RANK_OF[c] != fixed]
        reserve = dealt[0:13]
        rest = dealt[13:]
    tableau = [[rest[0]], [rest[1]], [rest[2]], [rest[3]]]
    stock = rest[4:]
    stock.reverse()
    return GameState(rules, base, list(reserve), tableau, found, stock, [])


def layout_dict(state: GameState) -> dict[str, Any]:
    """The position in the shape of ``vectors/deals.json``: foundations list only started suits."""
    d = state.to_dict()
    return {
        "base_rank": d["base_rank"],
        "reserve": d["reserve"],
        "foundations": {k: v for k, v in d["foundations"].items() if v},
        "tableau": d["tableau"],
        "stock": d["stock"],
        "waste": d["waste"],
    }


def player_view(state: GameState) -> dict[str, Any]:
    """What the player may see of ``state`` (RULES.md 7): hidden cards appear only as counts.

    Shape::

        {"status": "playing", "cards_home": 1, "casino_score": -47,
         "base_rank": "5",
         "reserve": {"count": 13, "face_down": 12, "cards": ["6S"]},
         "foundations": {"C": [], "D": [], "H": [], "S": ["5S"]},
         "tableau": [["3C"], ["4S"], ["9C"], ["TD"]],
         "stock": {"count": 34},
         "waste": {"count": 0, "cards": []},
         "redeals_used": 0, "redeals_left": null,
         "legal_moves": ["draw", ...]}

    ``reserve.cards`` are the visible reserve cards, bottom to top: the top
    card only, or all of them when the rules say ``reserve_face_up``.  The
    stock's cards and order are never included.
    """
    names = CARD_NAMES
    reserve = state.reserve
    visible = reserve if state.rules.reserve_face_up else reserve[-1:]
    return {
        "status": state.status(),
        "cards_home": state.cards_home,
        "casino_score": state.casino_score,
        "base_rank": RANKS[state.base],
        "reserve": {
            "count": len(reserve),
            "face_down": state.face_down_count(),
            "cards": [names[c] for c in visible],
        },
        "foundations": {SUITS[s]: [names[c] for c in state.foundation_cards(s)] for s in range(4)},
        "tableau": [[names[c] for c in p] for p in state.tableau],
        "stock": {"count": len(state.stock)},
        "waste": {"count": len(state.waste), "cards": [names[c] for c in state.waste]},
        "redeals_used": state.redeals_used,
        "redeals_left": state.redeals_left,
        "legal_moves": state.legal_moves(),
    }
