"""Cancel the races a cancelled tournament left unfinished.

Cancelling a tournament now cancels its races not finished yet
(``games.services.tournaments.tournament_set_status``); a tournament cancelled before
kept them, and one still running would close later and re-score the cancelled
tournament.  This does to those races what ``race_cancel`` does: their games still
playing end as timed out now, and the races become ``cancelled``.  The standings of
those tournaments do not change (only finished races count).  Not reversible in
meaning; going back leaves the rows as they are.
"""

from django.db import migrations
from django.utils import timezone


def cancel_unfinished(apps, schema_editor):
    race_model = apps.get_model("games", "Race")
    game_model = apps.get_model("games", "Game")
    races = race_model.objects.filter(
        tournament__status="cancelled", status__in=["scheduled", "closing"]
    )
    ids = list(races.values_list("id", flat=True))
    if not ids:
        return
    now = timezone.now()
    game_model.objects.filter(race_entry__race_id__in=ids, status="playing").update(
        status="timed_out", finished_at=now, updated_at=now
    )
    race_model.objects.filter(id__in=ids).update(status="cancelled")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_race_rating_stale"),
    ]

    operations = [
        migrations.RunPython(cancel_unfinished, migrations.RunPython.noop),
    ]
