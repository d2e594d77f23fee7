"""The seeded shuffle and deck checks (RULES.md section 2.1).

The shuffle is portable: block ``k`` of the random stream is
``SHA-256(utf8(seed) + ":" + decimal(k))``, read as four unsigned 64-bit
big-endian integers; ``below(n)`` rejects values at or above
``2**64 - 2**64 % n``; Fisher-Yates runs from index 51 down to 1.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections import Counter
from collections.abc import Iterator, Sequence

from .cards import CARD_NAMES, CardError, parse_card

SEED_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # use fullmatch: "$" would accept a final "\n"
_TWO64 = 1 << 64


class DeckError(ValueError):
    """A seed or explicit deck that cannot be dealt; the message says what is wrong."""


def check_seed(seed: str) -> str:
    """Return ``seed`` if it is 1 to 64 characters of ``[A-Za-z0-9_-]``.

    Raises :class:`DeckError` otherwise.
    """
    if not isinstance(seed, str) or not SEED_RE.fullmatch(seed):
        raise DeckError(
            f"invalid seed {seed!r}: a seed is 1 to 64 characters from A-Z, a-z, 0-9, '_' and '-'"
        )
    return seed


def random_stream(seed: str) -> Iterator[int]:
    """Yield the unsigned 64-bit integers of the seed's random stream, in order.

    RULES.md 2.1 step 2.
    """
    prefix = check_seed(seed).encode("utf-8") + b":"
    k = 0
    while True:
        yield from struct.unpack(">4Q", hashlib.sha256(prefix + str(k).encode("ascii")).digest())
        k += 1


def shuffle_order(seed: str) -> list[int]:
    """Card numbers of the deck in deal order for ``seed`` (RULES.md 2.1 steps 1-4)."""
    stream = random_stream(seed)
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        limit = _TWO64 - (_TWO64 % n)
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_deck(seed: str) -> list[str]:
    """The 52 card names in deal order for ``seed`` (position 0 is dealt first).

    Raises :class:`DeckError` for a malformed seed.  Example:
    ``deal_deck("0")[:3] == ["AH", "3D", "JH"]``.
    """
    return [CARD_NAMES[c] for c in shuffle_order(seed)]


def commitment(seed: str) -> str:
    """``hex(SHA-256(utf8(seed)))``: what a race publishes before it reveals its seed.

    RULES.md 7.
    """
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def parse_deck(deck: Sequence[str] | str) -> list[int]:
    """Parse an explicit deck (52 distinct card names in deal order) to card numbers.

    ``deck`` is a list of names or one whitespace/comma separated string.
    Raises :class:`DeckError` naming every bad, repeated and missing card.
    """
    if isinstance(deck, str):
        names = deck.replace(",", " ").split()
    else:
        names = list(deck)
    cards: list[int] = []
    bad: list[str] = []
    for name in names:
        try:
            cards.append(parse_card(name) if isinstance(name, str) else _not_a_card(name))
        except CardError:
            bad.append(repr(name))
    problems: list[str] = []
    if bad:
        problems.append("not cards: " + ", ".join(bad))
    counts = Counter(cards)
    repeated = [CARD_NAMES[c] for c in sorted(counts) if counts[c] > 1]
    missing = [CARD_NAMES[c] for c in range(52) if c not in counts]
    if repeated:
        problems.append("repeated: " + ", ".join(repeated))
    if missing and not bad:
        problems.append("missing: " + ", ".join(missing))
    if len(names) != 52:
        problems.insert(0, f"a deck has 52 cards, got {len(names)}")
    if problems:
        raise DeckError("invalid deck: " + "; ".join(problems))
    return cards


def _not_a_card(value: object) -> int:
    raise CardError(f"{value!r} is not a card name")
