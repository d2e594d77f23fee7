"""Rewrite Deal.opening_digest as the opening up to the game's symmetries.

The practice check against running races (games/services/deal_guard.py) compared
the opening cards as they are: a running race's deck with two tableau cards
swapped, suits renamed throughout or every rank moved by one step deals the same
game under other names, and was accepted as a practice game (with hints).  The
digest is now of ``opening_form``: ranks as distances above the base rank, suits
lettered the way that gives the smallest text, the foundation and tableau cards
sorted.  Written out here (migrations do not import the application's code): the
opening of a dealt base is D[12..17]; with a fixed base rank, the top reserve card,
the four base cards and the four tableau cards of the 48 cards dealt (0013).
"""

import hashlib
from itertools import permutations

from django.db import migrations

RANKS = "A23456789TJQK"
SUITS = "CDHS"


def opening(deck, base):
    """The opening card names of ``deck`` (deal order) with base ``base`` (``"dealt"``
    or a rank)."""
    if base == "dealt":
        return list(deck[12:18])
    dealt = [card for card in deck if card[0] != base]
    return [dealt[12], *(base + suit for suit in SUITS), *dealt[13:17]]


def form(cards):
    """``games.services.deal_guard.opening_form`` of the opening ``cards``."""
    base = RANKS.index(cards[1][0])
    steps = [f"{(RANKS.index(card[0]) - base) % 13:02d}" for card in cards]

    def written(letters):
        named = dict(zip(SUITS, letters))
        rel = [step + named[card[1]] for step, card in zip(steps, cards)]
        return " ".join([rel[0], *sorted(rel[1:-4]), *sorted(rel[-4:])])

    return min(written(letters) for letters in permutations("abcd"))


def rewrite_openings(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    batch = []
    for deal in Deal.objects.only("id", "deck", "options").iterator(chunk_size=2000):
        cards = opening(deal.deck, (deal.options or {}).get("base", "dealt"))
        deal.opening_digest = hashlib.sha256(form(cards).encode()).hexdigest()
        batch.append(deal)
        if len(batch) >= 2000:
            Deal.objects.bulk_update(batch, ["opening_digest"])
            batch = []
    if batch:
        Deal.objects.bulk_update(batch, ["opening_digest"])


class Migration(migrations.Migration):
    dependencies = [("games", "0026_tournament_scoring_entry_labels")]

    operations = [migrations.RunPython(rewrite_openings, migrations.RunPython.noop)]
