"""Game.moves_accepted: every move ever accepted (undone ones included), which
GAME_MOVE_LIMIT caps; existing games are counted from their Move rows."""

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_moves(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    rows = (
        Move.objects.filter(game=OuterRef("pk"))
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Game.objects.update(moves_accepted=Coalesce(Subquery(rows), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0024_race_rating_not_rated_label"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="moves_accepted",
            field=models.PositiveIntegerField(
                default=0,
                help_text="moves ever accepted, undone ones included (its Move rows; capped "
                "by GAME_MOVE_LIMIT)",
            ),
        ),
        migrations.RunPython(count_moves, migrations.RunPython.noop, elidable=True),
    ]
