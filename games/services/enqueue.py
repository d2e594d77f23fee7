"""Sending Celery tasks from services: after commit, and never failing the caller.

A service that needs background work records it first (a row the work will
complete, such as a pending :class:`~games.models.Solve`), then calls
:func:`enqueue_now` once the transaction commits (``transaction.on_commit``, as
:func:`games.services.solver.solve_request` does).
If the broker is down the failure is logged and swallowed: the caller's write
is already committed and its answer stands (nothing accepted is lost), and a
beat sweeper finds the recorded work and sends it again
(:func:`games.services.solver.solves_resend`).

With ``CELERY_TASK_ALWAYS_EAGER`` the task runs in-process at that moment, with the
same API; its failure is logged and swallowed too, and told to whoever watches with
:func:`task_failures_here` (the admin's actions, so that a task that raised is not
reported as done).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TaskFailure:
    """A task that ran in this process (:func:`tasks_run_here`) and raised: its name
    (``games.race_rate``), its keyword arguments, and ``reason``, the exception's class
    and message (``RuntimeError: boom``)."""

    task: str
    kwargs: dict[str, Any]
    reason: str


_watching: ContextVar[list[TaskFailure] | None] = ContextVar("task_failures", default=None)


@contextmanager
def task_failures_here() -> Iterator[list[TaskFailure]]:
    """Collect, in the list it yields, every task run in this process during the block
    (eager tasks, :func:`tasks_run_here`) that raised, in the order they ran.  Each is
    still logged and swallowed by :func:`enqueue_now` (the caller's committed write
    stands); the caller says so instead of "done".  Empty where tasks go to a worker (a
    task that fails there fails after the caller's answer).  Blocks nest: the innermost
    one collects."""
    seen: list[TaskFailure] = []
    token = _watching.set(seen)
    try:
        yield seen
    finally:
        _watching.reset(token)


def tasks_run_here() -> bool:
    """Whether a task queued now runs inside this process at once
    (``CELERY_TASK_ALWAYS_EAGER=true``, the test suite's default), rather than on a worker
    (the embedded default's and production's): what a message may promise after queueing."""
    from canfield_site.celery import app

    return bool(app.conf.task_always_eager)


def enqueue_now(task_name: str, *, kwargs: dict[str, Any]) -> bool:
    """Send ``task_name`` with ``kwargs`` now; ``False`` (logged) when it could not be sent.

    The task's queue comes from ``CELERY_TASK_ROUTES``.  A broker that is down fails
    at once (one that does not answer, after ``WEB_BROKER_TIMEOUT_SECONDS``, 1 s, per
    reply), and the sweeper sends the work later: one connection attempt (kombu's
    default kept retrying for ``broker_connection_timeout``, about 6 s) and no publish
    retries.  Sent with ``ignore_result``: nobody reads these results, and with the
    Redis result backend the sender otherwise subscribed to each one before publishing,
    retrying 20 times a second apart while Redis was down (a web request waited 20 s).
    """
    import games.tasks  # noqa: F401 - registers the tasks on the app (the web never autodiscovers)
    from canfield_site.celery import app, connection_for_web

    task = app.tasks[task_name]
    try:
        if app.conf.task_always_eager:
            try:
                task.apply_async(kwargs=kwargs, ignore_result=True)
            except Exception as exc:
                watching = _watching.get()
                if watching is not None:
                    reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                    watching.append(TaskFailure(task_name, dict(kwargs), reason))
                raise
        else:
            # A broker that accepts the connection but never answers gives up after
            # WEB_BROKER_TIMEOUT_SECONDS (it held the request until the server killed it).
            with connection_for_web(app) as conn:
                conn.ensure_connection(max_retries=0, interval_start=0, interval_step=0)
                # As Celery's own send_task makes one for a connection it is given.
                producer = app.amqp.Producer(conn, auto_declare=False)
                task.apply_async(kwargs=kwargs, retry=False, ignore_result=True, producer=producer)
    except Exception:
        logger.exception("could not run or send %s %s (the sweeper will retry)", task_name, kwargs)
        return False
    return True
