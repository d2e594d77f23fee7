"""A broker that accepts connections but never answers fails a web call quickly.

Seen by an operator (Redis stopped with SIGSTOP, as in a network partition): the
health check and ``GET /games/{id}/solution`` (which queues a solve) waited on the
socket until gunicorn killed the sync worker after 30 s, answering ``500`` with no
problem body, and compose's health check (5 s) timed out instead of reading ``503``.
Here a listening socket that never accepts stands for that Redis: the kernel completes
each connection, and no reply ever comes.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery import Celery
from django.conf import settings

import canfield_site.celery
from canfield_site import health
from games.services.enqueue import enqueue_now

# Generous: the calls give up after WEB_BROKER_TIMEOUT_SECONDS (1 s) per reply; before, never.
WAIT_SECONDS = 15.0


@pytest.fixture
def hung_broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Celery]:
    """The project's Celery configuration with its broker on a socket that never answers."""
    import games.tasks  # noqa: F401 - registers the shared tasks on the new app

    project_app = canfield_site.celery.app
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)  # connections complete in the backlog; nothing is ever read
    url = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    app = Celery("hung", broker=url, set_as_current=False)
    app.conf.update(
        task_always_eager=False,
        task_serializer="json",
        accept_content=["json"],
        # The project's broker options (timeouts included), as every process gets them.
        broker_transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS,
    )
    assert not app.conf.task_always_eager
    monkeypatch.setattr(canfield_site.celery, "app", app)
    try:
        yield app
    finally:
        listener.close()  # resets the waiting connections: a call still blocked ends
        app.close()
        project_app.set_current()
        project_app.set_default()


def _within(seconds: float, call: Callable[[], Any]) -> tuple[bool, Any]:
    """Run ``call`` in a thread; ``(True, its result)`` if it returned in time, else
    ``(False, None)``."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    return (not thread.is_alive() and bool(out)), (out[0] if out else None)


def test_health_broker_check_fails_when_the_broker_never_answers(hung_broker: Celery) -> None:
    done, result = _within(WAIT_SECONDS, lambda: health.broker_check(hung_broker))
    assert done, "the broker check waited on a broker that never answers"
    assert result.ok is False


def test_queueing_a_task_gives_up_when_the_broker_never_answers(hung_broker: Celery) -> None:
    done, sent = _within(WAIT_SECONDS, lambda: enqueue_now("games.ping", kwargs={"echo": "x"}))
    assert done, "enqueue_now waited on a broker that never answers"
    assert sent is False


def test_workers_and_beat_time_out_on_a_broker_that_never_answers() -> None:
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"] == 5
