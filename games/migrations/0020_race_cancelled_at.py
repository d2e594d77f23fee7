"""``Race.cancelled_at``: when the organisers cancelled the race (set by
``games.services.races.races_cancel``), which the race page and the API show instead
of its scheduled end.  Races cancelled before stay NULL (nothing recorded when; their
page shows no end time).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_race_rating_draft_tournament"),
    ]

    operations = [
        migrations.AddField(
            model_name="race",
            name="cancelled_at",
            field=models.DateTimeField(
                blank=True,
                help_text="when the organisers cancelled it (games.services.races.races_cancel); empty for a race not cancelled, or cancelled before this was recorded",
                null=True,
            ),
        ),
    ]
