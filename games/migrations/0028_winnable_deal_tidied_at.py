"""WinnableDeal.tidied_at: when the pooled line was shortened; existing rows stay empty
(pooled before the fill shortened lines: ``manage.py winnable_tidy`` shortens them)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0027_deal_opening_symmetries'),
    ]

    operations = [
        migrations.AddField(
            model_name='winnabledeal',
            name='tidied_at',
            field=models.DateTimeField(blank=True, help_text="when moves was shortened (games.engine.tidy); empty: the solver's line as found (pooled before lines were shortened: manage.py winnable_tidy)", null=True),
        ),
    ]
