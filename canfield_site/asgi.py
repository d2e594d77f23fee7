"""ASGI entry point (``uvicorn canfield_site.asgi:application`` or similar)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

django_application = get_asgi_application()

# A Content-Type Django cannot read broke its request before any middleware ran
# (canfield_site.middleware.asgi_charset_guard); imported once Django is set up.
from canfield_site.middleware import asgi_charset_guard  # noqa: E402

application = asgi_charset_guard(django_application)
