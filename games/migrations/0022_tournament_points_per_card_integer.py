"""Tournament.points_per_card is an integer column, as win_bonus is.

The services take 0 to 100,000 points per card (``scoring_validate``); the smallint
column stopped at 32,767, so PostgreSQL refused 32,768 to 100,000 with a 500.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_winnabledeal_purpose'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='points_per_card',
            field=models.PositiveIntegerField(default=1, help_text='cards home scheme: points per card home'),
        ),
    ]
