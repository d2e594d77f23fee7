"""Move notation, the wire format (RULES.md section 5).

A move is ``draw``, ``redeal`` or ``<card>><dest>`` where ``<dest>`` is ``f``
(the card's foundation) or ``t1``..``t4``.  Input is case-insensitive, may
write ``10`` for ``T`` and may carry spaces around the parts; output is
canonical (``QH>t2``, ``5S>f``, ``draw``).

Parsed moves are tuples ``(kind, card, dest)``: ``kind`` is :data:`DRAW`,
:data:`REDEAL` or :data:`CARD`; ``card`` is a card number (``-1`` for draw
and redeal); ``dest`` is :data:`FOUNDATION` (``-1``) or a tableau index 0..3.
"""

from __future__ import annotations

from typing import Final

from .cards import CARD_NAMES, CardError, parse_card

DRAW: Final = 0
REDEAL: Final = 1
CARD: Final = 2
FOUNDATION: Final = -1
MAX_MOVE_LENGTH: Final = 16

ParsedMove = tuple[int, int, int]

#: Canonical notation by ``(card, dest + 1)``: ``MOVE_NAMES[c][0]`` is ``"XX>f"``.
MOVE_NAMES: Final[tuple[tuple[str, ...], ...]] = tuple(
    (n + ">f", n + ">t1", n + ">t2", n + ">t3", n + ">t4") for n in CARD_NAMES
)

_CACHE: dict[str, ParsedMove] = {}
_CACHE_LIMIT: Final = 20_000


class MoveError(ValueError):
    """Base of the move errors.

    ``code``: the stable API error code; ``reason``: the human text (English);
    ``why``: a stable key of the kind of refusal (``"foundation_next"``, ...; the
    class's own when the raise names none); ``facts``: what the reason names, as
    data (card codes such as ``"QH"``, pile numbers 1..4, a rank letter, a count),
    so that a page can say the same in another language (``web.refusals``).  The
    facts never hold more than the reason says (no hidden card, RULES.md 7).
    """

    code = "move_error"
    why = "move_error"

    def __init__(self, reason: str, why: str = "", **facts: str | int) -> None:
        super().__init__(reason)
        self.reason = reason
        if why:
            self.why = why
        self.facts: dict[str, str | int] = facts


class MoveParseError(MoveError):
    """The text is not a move in the notation of RULES.md section 5 (the reason says why)."""

    code = "malformed_move"
    why = "malformed_move"


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow here (the reason says why)."""

    code = "illegal_move"
    why = "illegal_move"


class GameOverError(IllegalMoveError):
    """A move or undo on a game that has ended (resigned or timed out)."""

    code = "game_over"
    why = "game_over"


def parse_move(text: str) -> ParsedMove:
    """Parse ``text`` into ``(kind, card, dest)``.

    Raises :class:`MoveParseError` with the reason.
    """
    try:
        hit = _CACHE.get(text)
    except TypeError:  # unhashable, so not a string either
        hit = None
    if hit is not None:
        return hit
    if not isinstance(text, str):
        raise MoveParseError(
            f"a move is a string such as 'QH>t2', 'draw' or 'redeal', not {text!r}"
        )
    if len(text) > MAX_MOVE_LENGTH:
        raise MoveParseError(
            f"a move is at most {MAX_MOVE_LENGTH} characters long",
            "move_too_long",
            most=MAX_MOVE_LENGTH,
        )
    t = text.strip()
    low = t.lower()
    parsed: ParsedMove
    if low == "draw":
        parsed = (DRAW, -1, 0)
    elif low == "redeal":
        parsed = (REDEAL, -1, 0)
    elif not t:
        raise MoveParseError(
            "empty move: write draw, redeal or CARD>DEST such as QH>t2 or 5S>f", "move_empty"
        )
    elif ">" not in t:
        raise MoveParseError(
            f"{t!r} is not a move: write draw, redeal or CARD>DEST such as QH>t2 or 5S>f",
            "move_form",
            text=t,
        )
    else:
        card_text, _, dest_text = t.partition(">")
        try:
            card = parse_card(card_text.strip())
        except CardError as exc:
            raise MoveParseError(str(exc), exc.why, **exc.facts) from None
        dest_text = dest_text.strip().lower()
        if dest_text == "f":
            dest = FOUNDATION
        elif len(dest_text) == 2 and dest_text[0] == "t" and dest_text[1] in "1234":
            dest = int(dest_text[1]) - 1
        else:
            raise MoveParseError(
                f"{dest_text!r} is not a destination: use f (foundation) or t1, t2, t3, t4",
                "move_destination",
                dest=dest_text,
            )
        parsed = (CARD, card, dest)
    if len(_CACHE) < _CACHE_LIMIT:
        _CACHE[text] = parsed
    return parsed


def format_move(parsed: ParsedMove) -> str:
    """Canonical notation of a parsed move (``(CARD, 50, 1) -> "QS>t2"``)."""
    kind, card, dest = parsed
    if kind == DRAW:
        return "draw"
    if kind == REDEAL:
        return "redeal"
    return MOVE_NAMES[card][dest + 1]


def canonical(text: str) -> str:
    """Canonical notation of move text (``"10h > T3" -> "TH>t3"``).

    Raises :class:`MoveParseError`.
    """
    return format_move(parse_move(text))
