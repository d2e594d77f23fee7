"""Django app configuration for the game domain."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """The ``games`` app: deals, games, moves, races and tournaments."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Canfield games and races")
