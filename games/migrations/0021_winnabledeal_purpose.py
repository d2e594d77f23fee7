"""Winnable deals come in two shares: the races' reserve and the players' pool.

Practice games (``winnable: true``) and races (``require_winnable``) drew from one pool,
so a player drawing practice games emptied it and organisers were refused (``503
no_winnable_deal``).  Each pooled deal now says whose it is (``purpose``); the deals
already pooled stay the players' (``practice``), and the next refill fills the reserve
(``games.services.winnable_pool``).
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0020_race_cancelled_at'),
    ]

    operations = [
        migrations.AddField(
            model_name='winnabledeal',
            name='purpose',
            field=models.CharField(choices=[('race', 'Race'), ('practice', 'Practice')], default='practice', help_text="race: the races' reserve; practice: the players' pool", max_length=16),
        ),
    ]
