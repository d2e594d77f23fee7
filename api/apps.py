"""Django app configuration for the HTTP API."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    """The ``api`` app: version 1 of the REST API under ``/api/v1/``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        """Forget a username's failed logins when it logs in; release a failed login's
        slot (``canfield_site.security.reserve_login_slot``).  (A password change or a
        deactivation revokes the account's API tokens through receivers connected in
        ``games.apps``.)"""
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from canfield_site.security import (
            forget_failed_logins_on_login,
            release_login_slot_on_failure,
        )

        user_logged_in.connect(forget_failed_logins_on_login, dispatch_uid="forget-failed-logins")
        # After django-axes' receiver (its app comes first in INSTALLED_APPS): the failure
        # is counted before the attempt's slot is released.
        user_login_failed.connect(release_login_slot_on_failure, dispatch_uid="login-slot")


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
