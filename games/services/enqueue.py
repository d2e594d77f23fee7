"""Sending Celery tasks from services: after commit, and never failing the caller.

A service that needs background work records it first (a row the work will
complete, such as a pending :class:`~games.models.Solve`), then calls
:func:`enqueue_now` once the transaction commits (``transaction.on_commit``, as
:func:`games.services.solver.solve_request` does).
If the broker is down the failure is logged and swallowed: the caller's write
is already committed and its answer stands (nothing accepted is lost), and a
beat sweeper finds the recorded work and sends it again
(:func:`games.services.solver.solves_resend`).

On the embedded default (``CELERY_TASK_ALWAYS_EAGER``) the task runs in-process
at that moment, with the same API; its failure is logged and swallowed too.
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)


def enqueue_now(task_name: str, *, kwargs: dict[str, Any]) -> bool:
    """Send ``task_name`` with ``kwargs`` now; ``False`` (logged) when it could not be sent.

    The task's queue comes from ``CELERY_TASK_ROUTES``.  No publish retries: a
    broker that is down fails at once (the sweeper sends the work later).
    """
    import games.tasks  # noqa: F401 - registers the tasks on the app (the web never autodiscovers)
    from canfield_site.celery import app

    try:
        app.tasks[task_name].apply_async(kwargs=kwargs, retry=False)
    except Exception:
        logger.exception("could not run or send %s %s (the sweeper will retry)", task_name, kwargs)
        return False
    return True
