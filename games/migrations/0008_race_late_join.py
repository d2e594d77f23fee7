"""Per-race ``late_join_s``: how long after the start joining stays open (issue 13 item 2).

New scheduled races default to 0 (joining closes at the start).  Races that exist
when this migration runs keep the rule they were announced with (joining until
``ends_at``): their ``late_join_s`` is set to NULL.
"""

from django.db import migrations, models


def keep_announced_rule(apps, schema_editor):
    apps.get_model("games", "Race").objects.update(late_join_s=None)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_ratings'),
    ]

    operations = [
        migrations.AddField(
            model_name='race',
            name='late_join_s',
            field=models.PositiveIntegerField(blank=True, default=0, help_text='seconds after starts_at that joining stays open (0: joining closes at the start; empty: until ends_at)', null=True),
        ),
        migrations.RunPython(keep_announced_rule, migrations.RunPython.noop),
    ]
