"""WSGI entry point (``gunicorn canfield_site.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

django_application = get_wsgi_application()

# A Content-Type Django cannot read broke its request before any middleware ran
# (canfield_site.middleware.wsgi_charset_guard); imported once Django is set up.
from canfield_site.middleware import wsgi_charset_guard  # noqa: E402

application = wsgi_charset_guard(django_application)
