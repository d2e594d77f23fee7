"""Django app configuration for the HTTP API."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    """The ``api`` app: version 1 of the REST API under ``/api/v1/``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        """Revoke every API token of an account whose password changes or that is
        deactivated; forget a username's failed logins when it logs in; release a failed
        login's slot (``canfield_site.security.reserve_login_slot``)."""
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_in, user_login_failed
        from django.db.models.signals import post_save, pre_save

        from api.authentication import remember_credentials, revoke_on_credential_change
        from canfield_site.security import (
            forget_failed_logins_on_login,
            release_login_slot_on_failure,
        )

        user_logged_in.connect(forget_failed_logins_on_login, dispatch_uid="forget-failed-logins")
        # After django-axes' receiver (its app comes first in INSTALLED_APPS): the failure
        # is counted before the attempt's slot is released.
        user_login_failed.connect(release_login_slot_on_failure, dispatch_uid="login-slot")

        user_model = get_user_model()
        pre_save.connect(remember_credentials, sender=user_model, dispatch_uid="token-creds")
        post_save.connect(
            revoke_on_credential_change, sender=user_model, dispatch_uid="token-rotate"
        )


class KnoxConfig(AppConfig):
    """django-rest-knox's app (``knox``, the API tokens) as the admin names it, in the
    admin's language: the heading "API access" over "API tokens" (fr "Accès à l'API",
    "Jetons d'API"), where knox, which has no app config nor translations of its own,
    showed "Knox" and "Auth tokens" in every language.

    Installed in ``INSTALLED_APPS`` in place of ``"knox"`` (Django's way to rename a
    third-party app: the same ``name`` and label, so its tables, migrations and
    permissions are knox's own).  The token model's names are set on its ``_meta`` when
    the app is ready; its migration state (``Meta`` as knox declares it) is unchanged, so
    ``makemigrations`` finds nothing to write, in knox or here.
    """

    name = "knox"
    label = "knox"
    default = False  # "api" in INSTALLED_APPS still means ApiConfig
    verbose_name = _("API access")

    def ready(self) -> None:
        """Name knox's token model ("API token", "API tokens") in the active language."""
        from knox.models import AuthToken

        opts = AuthToken._meta
        opts.verbose_name = _("API token")
        opts.verbose_name_plural = _("API tokens")
