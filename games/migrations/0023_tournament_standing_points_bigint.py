"""TournamentStanding.points is a 64-bit integer column.

A tournament's total is a sum over its races without a bound on their number: at the
largest scheme the services accept (100,000 points per card and for a win, 5,300,000
for a won race) 406 won races passed the 32-bit column's 2,147,483,647, and PostgreSQL
refused the re-score ("integer out of range") with a 500 from the race close.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0022_tournament_points_per_card_integer'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournamentstanding',
            name='points',
            field=models.BigIntegerField(default=0),
        ),
    ]
