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
        ``django.contrib.admin``'s own ``ready``, has registered them all by now.

        Deleting an account marks the rated races it ran in stale first, in the
        deletion's transaction (:func:`games.services.ratings.player_races_mark_stale`):
        its entries go with it, so those races are rated again without it."""
        from django.contrib import admin
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete

        from games.admin.common import guard_every_admin
        from games.services.ratings import mark_races_stale_on_user_delete

        guard_every_admin(admin.site)
        pre_delete.connect(
            mark_races_stale_on_user_delete,
            sender=get_user_model(),
            dispatch_uid="ratings-stale-on-user-delete",
        )
