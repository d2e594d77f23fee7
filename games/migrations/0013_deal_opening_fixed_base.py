"""Recompute Deal.opening_digest of the deals with a fixed base rank.

Migration 0009 took the opening as deck positions 12..17 for every deal.  With
a fixed base rank (``storehouse``, or any ``base`` option) the four cards of
that rank start the foundations and the other 48 are dealt (RULES.md 4), so
positions 12..17 held face-down reserve or stock cards, and the practice check
against running races could answer on a hidden card.  The opening is now the
top reserve card, the four base cards and the four tableau cards of the
layout (games/services/deal_guard.py ``opening_cards``); deals with a dealt
base keep their digest.
"""

import hashlib

from django.db import migrations, models


def fixed_base_opening(deck, base):
    """The opening of ``deck`` (card names, deal order) dealt with fixed base rank ``base``."""
    dealt = [card for card in deck if card[0] != base]
    return [dealt[12], *(base + suit for suit in "CDHS"), *dealt[13:17]]


def fill_openings(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    for deal in (
        Deal.objects.exclude(options__base="dealt").only("id", "deck", "options").iterator()
    ):
        base = deal.options.get("base", "dealt")
        if base == "dealt":
            continue
        opening = " ".join(fixed_base_opening(deal.deck, base))
        digest = hashlib.sha256(opening.encode()).hexdigest()
        Deal.objects.filter(pk=deal.pk).update(opening_digest=digest)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_game_hints")]

    operations = [
        migrations.AlterField(
            model_name="deal",
            name="opening_digest",
            field=models.CharField(
                db_index=True,
                default="",
                help_text="hex(SHA-256) of the cards every player sees at the start "
                "(games.services.deal_guard)",
                max_length=64,
            ),
        ),
        migrations.RunPython(fill_openings, migrations.RunPython.noop),
    ]
