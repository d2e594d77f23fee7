"""Django app configuration for the HTTP API."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The ``api`` app: version 1 of the REST API under ``/api/v1/``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "REST API"
