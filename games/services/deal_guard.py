"""The one check that compares a player's deal with a running race's deal (RULES.md 7).

A practice game may not be played on the cards of a race that is not over
(no deal of a running race can be practised).  The check compares **only the
cards every entrant sees at the start** of the race, the *opening* of the
laid-out deal (RULES.md 2.2), through :func:`opening_digest`: the top reserve
card, the cards that start the foundations and the four tableau cards.  With
the base dealt these are ``D[12]``, ``D[13]`` and ``D[14..17]``; with a fixed
base rank (``storehouse``, or any ``base`` option) the four cards of that rank
start the foundations and the other 48 are dealt, so the top reserve card and
the tableau come from other places of the deck, and the opening is read off
the layout, never off fixed deck positions (positions 12..17 of such a deck
hold face-down reserve or stock cards).

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

from games.engine import Rules, layout, parse_deck
from games.engine.cards import CARD_NAMES, RANKS, SUITS
from games.models import Deal, Race


def opening_cards(deck: Sequence[str], rules: Rules) -> list[str]:
    """The cards every entrant sees when ``deck`` is dealt under ``rules`` (RULES.md 2.2, 7).

    ``deck``: 52 card names in deal order.  Returns card names: the top reserve
    card, the cards that start the foundations (the base card ``D[13]`` when the
    base is dealt; the four cards of a fixed base rank, in suit order C, D, H, S),
    then the tableau cards t1..t4: 6 cards with a dealt base (``D[12..17]``),
    9 with a fixed one.  Only the top reserve card is taken even when the
    rules show the whole reserve: comparing fewer seen cards is still safe.
    """
    state = layout(parse_deck(list(deck)), rules)
    started = [RANKS[state.base] + suit for s, suit in enumerate(SUITS) if state.found[s]]
    tableau = [CARD_NAMES[pile[0]] for pile in state.tableau]
    return [CARD_NAMES[state.reserve[-1]], *started, *tableau]


def opening_digest(deck: Sequence[str], rules: Rules) -> str:
    """``hex(SHA-256)`` of the space-joined :func:`opening_cards` of ``deck`` under ``rules``.

    Decks that differ only in hidden cards (face-down reserve, stock order)
    have equal digests.  With a dealt base this is
    ``SHA-256("<D[12]> <D[13]> <D[14]> <D[15]> <D[16]> <D[17]>")``, the digest
    stored since migration 0009.
    """
    return hashlib.sha256(" ".join(opening_cards(deck, rules)).encode()).hexdigest()


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
