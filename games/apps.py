"""Django app configuration for the game domain."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """The ``games`` app: deals, games, moves, races and tournaments."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Canfield games and races")

    def ready(self) -> None:
        """Guard every model admin on the site against malformed selected ids
        (:func:`games.admin.common.guard_every_admin`); the admin's autodiscovery, in
        ``django.contrib.admin``'s own ``ready``, has registered them all by now."""
        from django.contrib import admin

        from games.admin.common import guard_every_admin

        guard_every_admin(admin.site)
