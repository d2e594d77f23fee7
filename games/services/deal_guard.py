"""The one check that compares a player's deal with a running race's deal (RULES.md 7).

A practice game may not be played on the cards of a race that has started and is
not over (no deal of a running race can be practised; before its start nobody has
seen a race's opening, so it is not compared: :func:`deal_in_open_race`).  The check
compares **only the cards every entrant sees at the start** of the race, the *opening* of the
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
player's deal and of the openings of the races running, and of nothing else.
An entrant already sees those six cards, so the answer tells them nothing new;
in particular it cannot confirm a guess about the face-down reserve or the
stock order (two decks that differ only in hidden cards get the same answer).
Comparing the whole deck instead would let a player test guesses of the hidden
order one request at a time (the same deck with two hidden cards swapped was
accepted, the exact deck refused: issue 12 item 3).  A seed sent by a player
is judged by the opening of the deck it deals, the same way; a race's seed
itself is only ever checked against its public commitment.

The opening is compared up to the game's symmetries (:func:`opening_form`): the
four tableau piles are interchangeable, so are the suits, and ranks wrap (RULES.md
1, 3), so a deck with two tableau cards swapped, clubs and spades swapped
throughout, or every rank one higher deals the same game under other names.  An
attack practised a running ``superior`` race (whole reserve face up: the whole deck
is known after one pass through the stock) on its deck with t1 and t2 swapped,
accepted as another opening, and took the practice game's hints (the solver on the
whole deal) back to the race.  The form keeps only what every such renaming keeps;
suits are renamed in every way, not only the colour-keeping ones, so a few more
decks are refused than are strictly the same game, never fewer.

The query is one indexed lookup of the opening digest, run for every seeded
or explicit-deck practice game, so its timing does not depend on the answer's
hidden cards either.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from itertools import permutations

from django.utils import timezone

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


def opening_form(deck: Sequence[str], rules: Rules) -> str:
    """The :func:`opening_cards` of ``deck`` under ``rules`` written up to the game's
    symmetries (module doc): each card as its rank's distance above the base rank
    (``00`` to ``12``) and a suit letter ``a``..``d``, the top reserve card first, then
    the cards that start the foundations and the tableau cards, each group sorted, with
    the suits lettered in the way that gives the smallest text.

    Equal for decks that deal the same game under other names (tableau piles in
    another order, suits renamed throughout, every rank moved by the same step with the
    base), and for decks that differ only in hidden cards.  Example: the form of a
    classic deck whose opening is ``5S 7H 8C 9D TS AH`` is ``"11a 00b 01c 02d 03a 07b"``
    (the reserve card 11 above the base 7; clubs and spades one letter).  Reads the six
    (with a fixed base, nine) opening cards and nothing else; 24 letterings, the same
    work for every deck.
    """
    cards = opening_cards(deck, rules)
    base = RANKS.index(cards[1][0])  # every card that starts a foundation has the base rank
    steps = [f"{(RANKS.index(card[0]) - base) % 13:02d}" for card in cards]

    def written(letters: tuple[str, ...]) -> str:
        named = dict(zip(SUITS, letters, strict=True))
        rel = [step + named[card[1]] for step, card in zip(steps, cards, strict=True)]
        return " ".join([rel[0], *sorted(rel[1:-4]), *sorted(rel[-4:])])

    return min(written(letters) for letters in permutations("abcd"))


def opening_digest(deck: Sequence[str], rules: Rules) -> str:
    """``hex(SHA-256)`` of :func:`opening_form` of ``deck`` under ``rules``.

    Decks that differ only in hidden cards (face-down reserve, stock order), or that
    deal the same game under other names, have equal digests (migration 0027 rewrote
    the stored ones).
    """
    return hashlib.sha256(opening_form(deck, rules).encode()).hexdigest()


def deal_in_open_race(deal: Deal, *, now: datetime | None = None) -> bool:
    """Whether a race running at ``now`` (default: the clock) opens with the same visible
    cards as ``deal``, up to renaming.

    Compares :func:`opening_digest` only (see the module: the answer depends on
    no hidden card).  Races that have not started do not count: until the start nobody
    has seen their opening (RULES.md 7), so an answer on it would let anyone test
    guesses of an announced race's opening (and nobody can know that deal to practise
    it).  Finished and cancelled races do not count either.
    """
    now = now or timezone.now()
    return (
        Race.objects.filter(deal__opening_digest=deal.opening_digest, starts_at__lte=now)
        .exclude(status__in=[Race.Status.FINISHED, Race.Status.CANCELLED])
        .exists()
    )
