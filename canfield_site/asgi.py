"""ASGI entry point (``uvicorn canfield_site.asgi:application`` or similar)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

# As django.core.asgi.get_asgi_application(), with the handler whose requests decode
# nothing while they are built (canfield_site.handlers).
django.setup(set_prefix=False)

# A Content-Type Django cannot read broke its request before any middleware ran
# (canfield_site.middleware.asgi_charset_guard); imported once Django is set up.
from canfield_site.handlers import ASGIHandler  # noqa: E402
from canfield_site.middleware import asgi_charset_guard  # noqa: E402

django_application = ASGIHandler()

application = asgi_charset_guard(django_application)
