"""Cards and their names (RULES.md section 1).

A card is an ``int`` from 0 to 51: ``suit * 13 + rank`` where ``rank`` is 0 for
the ace up to 12 for the king and ``suit`` is 0..3 for clubs, diamonds, hearts,
spades.  Hearts and diamonds are red.  On the wire a card is written rank then
suit (``"QH"``, ``"TD"``, ``"AS"``); input is case-insensitive and accepts
``10`` for ``T``.
"""

from __future__ import annotations

from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
SUIT_SYMBOLS: Final = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}

#: Card name by card number, e.g. ``CARD_NAMES[0] == "AC"``.
CARD_NAMES: Final[tuple[str, ...]] = tuple(r + s for s in SUITS for r in RANKS)
#: Rank (0 = ace .. 12 = king) by card number.
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52))
#: Suit (0 = clubs .. 3 = spades) by card number.
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
#: True for red cards (diamonds and hearts).
IS_RED: Final[tuple[bool, ...]] = tuple(c // 13 in (1, 2) for c in range(52))

_BY_NAME: dict[str, int] = {}
for _c, _n in enumerate(CARD_NAMES):
    _BY_NAME[_n] = _c
    _BY_NAME[_n.lower()] = _c
    _BY_NAME[_n[0].lower() + _n[1]] = _c
    _BY_NAME[_n[0] + _n[1].lower()] = _c
    if _n[0] == "T":
        for _s in (_n[1], _n[1].lower()):
            _BY_NAME["10" + _s] = _c


#: Upper-cases ASCII letters and nothing else (``str.upper`` maps "\u017f" to "S").
_ASCII_UPPER: Final = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class CardError(ValueError):
    """A string that does not name a card (message says why).

    ``why``: the kind of mistake, a stable key (``"card_form"``: not a rank then a suit;
    ``"card_rank"``: an unknown rank; ``"card_suit"``: an unknown suit; ``"card_error"``
    otherwise); ``facts``: what the message names (``text``, and ``letter``, the rank
    or suit it does not know), so that a page can say the same in another language
    (``web.refusals``).
    """

    def __init__(self, message: str, why: str = "card_error", **facts: str) -> None:
        super().__init__(message)
        self.why = why
        self.facts: dict[str, str] = facts


def parse_card(text: str) -> int:
    """Return the card number for ``text`` (``"QH"``, ``"qh"``, ``"10d"``).

    Raises :class:`CardError` when ``text`` is not a card name.
    """
    card = _BY_NAME.get(text) if isinstance(text, str) else None
    if card is not None:
        return card
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card: a card is a string such as QH, TD, 10D")
    # ASCII letters only change case: Unicode maps some other letters onto the
    # notation's ("\u017f", the long s, upper-cases to "S"), and RULES.md 1 and 5
    # name the ranks and suits by their ASCII letters alone.
    t = text.strip().translate(_ASCII_UPPER)
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2:
        raise CardError(
            f"{text!r} is not a card: write rank then suit, e.g. QH, TD, 10D",
            "card_form",
            text=text.strip(),
        )
    if t[0] not in RANKS:
        raise CardError(
            f"{text!r} is not a card: unknown rank {t[0]!r} (ranks are {RANKS})",
            "card_rank",
            text=text.strip(),
            letter=t[0],
        )
    if t[1] not in SUITS:
        raise CardError(
            f"{text!r} is not a card: unknown suit {t[1]!r} (suits are {SUITS})",
            "card_suit",
            text=text.strip(),
            letter=t[1],
        )
    return _BY_NAME[t]


def parse_rank(text: str) -> int:
    """Return the rank number (0 = ace .. 12 = king) for ``"A"``..``"K"`` or ``"10"``.

    Raises :class:`CardError` for anything else.
    """
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANKS:
        raise CardError(f"{text!r} is not a rank (ranks are {RANKS}, 10 for T)")
    return RANKS.index(t)


def card_name(card: int) -> str:
    """Canonical name of card number ``card`` (``0 -> "AC"``)."""
    return CARD_NAMES[card]


def pretty(card: int) -> str:
    """Card with a Unicode suit symbol, e.g. ``"Q\u2665"``; ten is written ``10``."""
    name = CARD_NAMES[card]
    rank = "10" if name[0] == "T" else name[0]
    return rank + SUIT_SYMBOLS[name[1]]
