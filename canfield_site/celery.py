"""The Celery application.

Run a worker with ``celery -A canfield_site worker`` and exactly one scheduler with
``celery -A canfield_site beat``. All ``CELERY_*`` Django settings configure it
(see ``canfield_site/settings.py``).
"""

import logging
import os

from celery import Celery
from celery.signals import beat_init

import canfield_site.broker  # noqa: F401 - registers the embedded SQLite broker with kombu

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

logger = logging.getLogger(__name__)

app = Celery("canfield_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@beat_init.connect
def refill_pools_at_start(sender: object = None, **kwargs: object) -> None:
    """Ask for the preset pools' refill when the scheduler starts, not one
    ``WINNABLE_POOL_REFILL_SECONDS`` later: right after a first start the pools are
    empty, and ``POST /games {"winnable": true}`` answered ``503`` until then (seen by a
    new user).  A broker that is down is logged; beat's own schedule retries."""
    try:
        app.send_task("games.winnable_pool_refill")
    except Exception:  # never stop the scheduler for this
        logger.warning("could not ask for the winnable pools' refill at start", exc_info=True)
