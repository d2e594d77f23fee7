"""WSGI entry point (``gunicorn canfield_site.wsgi``)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

# As django.core.wsgi.get_wsgi_application(), with the handler whose requests decode
# nothing while they are built (canfield_site.handlers).
django.setup(set_prefix=False)

# A Content-Type Django cannot read broke its request before any middleware ran
# (canfield_site.middleware.wsgi_charset_guard); imported once Django is set up.
from canfield_site.handlers import WSGIHandler  # noqa: E402
from canfield_site.middleware import wsgi_charset_guard  # noqa: E402

django_application = WSGIHandler()

application = wsgi_charset_guard(django_application)
