"""The Celery application.

Run a worker with ``celery -A canfield_site worker`` and exactly one scheduler with
``celery -A canfield_site beat``. All ``CELERY_*`` Django settings configure it
(see ``canfield_site/settings.py``).
"""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import beat_init

import canfield_site.broker  # noqa: F401 - registers the embedded SQLite broker with kombu
from canfield_site.log_filters import QUIET_SWEEP_LOGGERS, QuietIdleRaceSweeps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

logger = logging.getLogger(__name__)

# An idle race sweep (every RACE_SWEEP_SECONDS) writes no line in beat's and the
# worker's logs (canfield_site.log_filters.QuietIdleRaceSweeps).
for _name in QUIET_SWEEP_LOGGERS:
    logging.getLogger(_name).addFilter(QuietIdleRaceSweeps())

app = Celery("canfield_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: Seconds a web process waits for the broker (connect, and each reply) when it sends a
#: task or checks the broker's health.  A Redis that accepts connections but never
#: answers (stopped, overloaded, a network partition) held the request until gunicorn
#: killed its worker (30 s, a 500 with no body); ``/api/v1/health`` must answer within
#: compose's 5 s health-check timeout.
WEB_BROKER_TIMEOUT_SECONDS = 1.0


def connection_for_web(celery_app: Celery | None = None) -> Any:
    """A write connection to ``celery_app``'s broker (default: this project's) whose
    connect and every reply time out after :data:`WEB_BROKER_TIMEOUT_SECONDS`, for calls
    made while a request waits; a ``kombu.Connection`` (use it as a context manager).
    The broker's other transport options (``CELERY_BROKER_TRANSPORT_OPTIONS``) still apply."""
    timeouts = {
        "socket_timeout": WEB_BROKER_TIMEOUT_SECONDS,
        "socket_connect_timeout": WEB_BROKER_TIMEOUT_SECONDS,
    }
    return (celery_app or app).connection_for_write(transport_options=timeouts)


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
