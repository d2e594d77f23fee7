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

        Deleting an account re-scores what its race entries, which go with it, counted
        for, in the deletion's transaction: before the delete the races it ran in are
        locked and the rated ones marked stale
        (:func:`games.services.accounts.account_delete_prepare`); after it the finished
        ones are ranked again and their tournaments' standings recomputed
        (:func:`games.services.accounts.account_delete_rescore`)."""
        from django.contrib import admin
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, pre_delete

        from games.admin.common import guard_every_admin
        from games.services.accounts import account_delete_prepare, account_delete_rescore

        guard_every_admin(admin.site)
        user_model = get_user_model()
        pre_delete.connect(
            account_delete_prepare, sender=user_model, dispatch_uid="account-delete-prepare"
        )
        post_delete.connect(
            account_delete_rescore, sender=user_model, dispatch_uid="account-delete-rescore"
        )
