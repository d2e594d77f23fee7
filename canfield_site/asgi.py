"""ASGI entry point (``uvicorn canfield_site.asgi:application`` or similar)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

application = get_asgi_application()
