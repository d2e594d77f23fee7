"""Add Deal.opening_digest (the six cards every player sees at the start) and fill it.

The practice-deck-versus-running-race check compares only these cards
(RULES.md 7; games/services/deal_guard.py).
"""

import hashlib

from django.db import migrations, models

OPENING_POSITIONS = (12, 13, 14, 15, 16, 17)


def fill_openings(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    for deal in Deal.objects.only("id", "deck").iterator():
        opening = " ".join(deal.deck[i] for i in OPENING_POSITIONS)
        digest = hashlib.sha256(opening.encode()).hexdigest()
        Deal.objects.filter(pk=deal.pk).update(opening_digest=digest)


class Migration(migrations.Migration):
    dependencies = [("games", "0008_race_late_join")]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="opening_digest",
            field=models.CharField(
                db_index=True,
                default="",
                help_text="hex(SHA-256) of the six cards every player sees at the start "
                "(games.services.deal_guard)",
                max_length=64,
            ),
        ),
        migrations.RunPython(fill_openings, migrations.RunPython.noop),
    ]
