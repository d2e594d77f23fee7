"""Django app configuration for the HTTP API."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The ``api`` app: version 1 of the REST API under ``/api/v1/``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        """Drop a deleted API token from this process's token cache at once."""
        from django.db.models.signals import post_delete
        from rest_framework.authtoken.models import Token

        from api.authentication import forget_deleted_token

        post_delete.connect(forget_deleted_token, sender=Token, dispatch_uid="forget-token")
