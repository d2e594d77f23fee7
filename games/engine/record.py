"""A self-contained game record: deal, variant options and moves (format ``canfield-record``).

The API's export endpoint writes it and ``python -m games.engine replay``
reads it.  Shape (JSON)::

    {"format": "canfield-record", "version": 1,
     "variant": "classic",            # preset name, or null when options match none
     "options": {...all nine options...},
     "seed": "12345",                 # or null when the deal came from an explicit deck
     "deck": ["9D", ...],             # the 52 cards in deal order (always present)
     "moves": ["draw", "QH>t2", ...], # canonical notation, in play order
     "ended": null}                   # "resigned" or "timed_out" when the game ended so
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from .cards import CARD_NAMES
from .deal import DeckError, deal_deck, parse_deck
from .rules import Rules, RulesError, make_rules, variant_name
from .state import ENDINGS, GameState, layout

RECORD_FORMAT: Final = "canfield-record"
RECORD_VERSION: Final = 1


class RecordError(ValueError):
    """A record that cannot be read (message says what is wrong)."""


@dataclass(frozen=True)
class GameRecord:
    """Deal + rules + moves; :meth:`replay` rebuilds the final position."""

    rules: Rules
    deck: tuple[str, ...]
    seed: str | None = None
    moves: tuple[str, ...] = field(default_factory=tuple)
    ended: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict in the shape documented in this module."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "variant": variant_name(self.rules),
            "options": self.rules.to_dict(),
            "seed": self.seed,
            "deck": list(self.deck),
            "moves": list(self.moves),
            "ended": self.ended,
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record; checks the deck against the seed when both are given.

        Raises :class:`RecordError`.
        """
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a {RECORD_FORMAT} document")
        if data.get("version") != RECORD_VERSION:
            raise RecordError(f"unsupported record version {data.get('version')!r}")
        try:
            rules = make_rules(data.get("variant") or "classic", **(data.get("options") or {}))
            seed = data.get("seed")
            deck = data.get("deck")
            if deck is None:
                if seed is None:
                    raise RecordError("a record needs a seed or a deck")
                deck = deal_deck(seed)
            # Canonical names (a deck may be one string, say 10H or qh): the
            # record stores and compares the names the engine writes.
            deck = [CARD_NAMES[c] for c in parse_deck(deck)]
            if seed is not None and list(deck) != deal_deck(seed):
                raise RecordError("the deck does not match the seed")
            moves = data.get("moves") or []
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise RecordError("moves must be a list of strings")
            ended = data.get("ended")
            if ended not in (None, *ENDINGS):
                raise RecordError(f"ended is null, 'resigned' or 'timed_out', not {ended!r}")
        except (RulesError, DeckError) as exc:
            raise RecordError(str(exc)) from exc
        return cls(rules=rules, deck=tuple(deck), seed=seed, moves=tuple(moves), ended=ended)

    def new_state(self) -> GameState:
        """The dealt position, before any move."""
        return layout(parse_deck(list(self.deck)), self.rules)

    def replay(self) -> GameState:
        """The position after every move, ended as recorded (raises the first move's error)."""
        from . import MoveError

        state = self.new_state()
        for number, move in enumerate(self.moves, 1):
            try:
                state.play(move)
            except MoveError as exc:
                raise type(exc)(f"move {number} ({move}): {exc.reason}") from None
        if self.ended is not None:
            state.end(self.ended)
        return state
