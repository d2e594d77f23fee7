"""The ``web`` app: pages for people (templates in ``web/templates``, assets in ``web/static``)."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    """Django app config of the browser front end."""

    name = "web"
    verbose_name = "Web pages"
