"""The one check that compares a player's deal with a running race's deal (RULES.md 7).

A practice game may not be played on the cards of a race that is not over
(no deal of a running race can be practised).  The check compares **only the
cards every entrant sees at the start** of the race: the top reserve card
(``D[12]``), the base card (``D[13]``) and the four tableau cards
(``D[14..17]``), the *opening* of RULES.md 2.2, through
:func:`opening_digest`.

Why this is safe: the answer (``201`` or ``409 deal_in_race``, its body, and
the work done to reach it) is a function of the six opening cards of the
player's deal and of the openings of the races not over, and of nothing else.
An entrant already sees those six cards, so the answer tells them nothing new;
in particular it cannot confirm a guess about the face-down reserve or the
stock order (two decks that differ only in hidden cards get the same answer).
Comparing the whole deck instead would let a player test guesses of the hidden
order one request at a time (the same deck with two hidden cards swapped was
accepted, the exact deck refused: issue 12 item 3).  A seed sent by a player
is judged by the opening of the deck it deals, the same way; a race's seed
itself is only ever checked against its public commitment.

The query is one indexed lookup of the opening digest, run for every seeded
or explicit-deck practice game, so its timing does not depend on the answer's
hidden cards either.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from games.models import Deal, Race

#: Deal-order positions of the cards every entrant sees at the start (RULES.md 2.2):
#: the top reserve card, the base card and the four tableau cards.
OPENING_POSITIONS: tuple[int, ...] = (12, 13, 14, 15, 16, 17)


def opening_digest(deck: Sequence[str]) -> str:
    """``hex(SHA-256("<top reserve> <base> <t1> <t2> <t3> <t4>"))`` of a deck in deal order.

    ``deck`` is 52 card names in deal order; only the six opening cards enter
    the digest, so decks that differ only in hidden cards have equal digests.
    """
    return hashlib.sha256(" ".join(deck[i] for i in OPENING_POSITIONS).encode()).hexdigest()


def deal_in_open_race(deal: Deal) -> bool:
    """Whether a race that is not over opens with the same visible cards as ``deal``.

    Compares :func:`opening_digest` only (see the module: the answer depends on
    no hidden card).  Finished and cancelled races do not count.
    """
    return (
        Race.objects.filter(deal__opening_digest=deal.opening_digest)
        .exclude(status__in=[Race.Status.FINISHED, Race.Status.CANCELLED])
        .exists()
    )
