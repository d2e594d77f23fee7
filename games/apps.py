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
        (:func:`games.services.accounts.account_delete_rescore`).

        Saving an account with a changed password or deactivated revokes every API token
        of it, whoever saves it (a service, the admin, ``changepassword``, a script):
        :func:`games.services.tokens.remember_credentials` before the save notes the
        stored credentials, :func:`games.services.tokens.revoke_on_credential_change`
        after it compares."""
        from django.contrib import admin
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save, pre_delete, pre_save

        from games.admin.common import guard_every_admin
        from games.services.accounts import account_delete_prepare, account_delete_rescore
        from games.services.tokens import remember_credentials, revoke_on_credential_change

        guard_every_admin(admin.site)
        user_model = get_user_model()
        pre_delete.connect(
            account_delete_prepare, sender=user_model, dispatch_uid="account-delete-prepare"
        )
        post_delete.connect(
            account_delete_rescore, sender=user_model, dispatch_uid="account-delete-rescore"
        )
        pre_save.connect(remember_credentials, sender=user_model, dispatch_uid="token-creds")
        post_save.connect(
            revoke_on_credential_change, sender=user_model, dispatch_uid="token-rotate"
        )
