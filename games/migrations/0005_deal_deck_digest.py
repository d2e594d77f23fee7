"""Add Deal.deck_digest (SHA-256 of the deck) and fill it for existing deals.

A practice game asked for with the cards of a race that is not over is refused
by comparing deck digests, whichever way (seed or explicit deck) either deal
was made.
"""

import hashlib

from django.db import migrations, models


def fill_digests(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    for deal in Deal.objects.only("id", "deck").iterator():
        digest = hashlib.sha256(" ".join(deal.deck).encode()).hexdigest()
        Deal.objects.filter(pk=deal.pk).update(deck_digest=digest)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_deal_solver_verdict")]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="deck_digest",
            field=models.CharField(
                db_index=True,
                default="",
                help_text='hex(SHA-256("AC 2C ...")) of the deck',
                max_length=64,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_digests, migrations.RunPython.noop),
    ]
