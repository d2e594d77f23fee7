"""Races of a draft tournament are not rated (reason ``draft_tournament``).

Before, a race an organiser rehearsed in a draft tournament was rated like any other,
so its rating changes reached the public ratings while the race itself was hidden.
This marks every finished race of a draft tournament that was processed as rated
stale (``Race.rating_stale``): the ratings sweep re-rates it, now as ``not_rated``,
and replays its pool from there without it.  Going back leaves the marks (the sweep
clears them).
"""

from django.db import migrations, models


def mark_draft_races_stale(apps, schema_editor):
    race_model = apps.get_model("games", "Race")
    race_model.objects.filter(
        tournament__status="draft", status="finished", rating__status="rated"
    ).update(rating_stale=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_deal_preset"),
    ]

    operations = [
        migrations.AlterField(
            model_name="racerating",
            name="reason",
            field=models.CharField(
                blank=True,
                help_text="not rated: unrated (by an organiser), too_few_entries, draft_tournament",
                max_length=32,
            ),
        ),
        migrations.RunPython(mark_draft_races_stale, migrations.RunPython.noop),
    ]
