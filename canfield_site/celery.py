"""The Celery application.

Run a worker with ``celery -A canfield_site worker`` and exactly one scheduler with
``celery -A canfield_site beat``. All ``CELERY_*`` Django settings configure it
(see ``canfield_site/settings.py``).
"""

import os

from celery import Celery

import canfield_site.broker  # noqa: F401 - registers the embedded SQLite broker with kombu

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

app = Celery("canfield_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
