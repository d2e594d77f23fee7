"""Django app configuration for the game domain."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The ``games`` app: deals, games, moves, races and tournaments."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Canfield games and races"

    def ready(self) -> None:
        """Register the ratings admin (a module of its own; see ``games.ratings_admin``)."""
        from games import ratings_admin  # noqa: F401
