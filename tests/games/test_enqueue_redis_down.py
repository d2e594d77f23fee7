"""Sending a task while Redis is down fails at once, never waiting on the result backend.

A web request that queued a solve job (``GET /games/{id}/solution``) during a Redis
outage answered after about 20 s: Celery's Redis result backend subscribes the sender to
the task's result before publishing, and retried that subscription 20 times a second
apart ("Connection to Redis lost: Retry (n/20)", then "Retry limit exceeded ... The
Celery application must be restarted").  Nobody reads those results, so tasks are sent
with ``ignore_result`` (no subscription) and without publish retries; the work stays
recorded and a beat sweeper sends it again.  The broker connection is tried once
(kombu retried it for about 6 s).  The Redis here is a port nothing listens on; the
backend's subscription and kombu's retry sleeps are spied on, not timed.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import kombu.utils.functional
import pytest
from celery import Celery
from django.db import transaction

import canfield_site.celery
from games.services.enqueue import enqueue_now
from games.services.ratings import pool_recompute_enqueue, race_rating_enqueue


def _dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    return f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def redis_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The project's Celery conventions on a Redis that is down; yields what the sender
    waited on: task ids the result backend was asked to subscribe to, and kombu's
    connection retry sleeps (``"sleep <seconds>"``)."""
    import games.tasks  # noqa: F401 - registers the shared tasks on the new app

    project_app = canfield_site.celery.app
    url = _dead_url()
    app = Celery("down", broker=url, backend=url, set_as_current=False)
    app.conf.update(
        task_always_eager=False,
        task_serializer="json",
        accept_content=["json"],
        broker_transport_options={"socket_connect_timeout": 1},
        result_backend_transport_options={"socket_connect_timeout": 1},
    )
    subscribed: list[str] = []

    def spy(producer: Any, task_id: str) -> None:
        subscribed.append(task_id)
        raise AssertionError("the sender subscribed to a result nobody reads")

    monkeypatch.setattr(app.backend, "on_task_call", spy)

    # kombu's connection retries sleep here (about 6 s in all, by default): recorded
    # (enqueue_now swallows any exception, so the spies must not rely on raising).
    monkeypatch.setattr(
        kombu.utils.functional, "sleep", lambda seconds: subscribed.append(f"sleep {seconds}")
    )
    monkeypatch.setattr(canfield_site.celery, "app", app)
    try:
        yield subscribed
    finally:
        app.close()
        project_app.set_current()
        project_app.set_default()


def test_enqueue_now_fails_at_once_without_touching_the_result_backend(
    redis_down: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    assert enqueue_now("games.solve", kwargs={"solve_id": "x"}) is False
    assert redis_down == []
    assert any("the sweeper will retry" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_rating_tasks_are_sent_the_same_way(
    redis_down: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    """``race_rate`` (a race finished, an organiser's re-score) and the pool recompute
    went out with ``delay``: a result subscription and publish retries on every call."""
    with transaction.atomic():
        race_rating_enqueue(race_id="00000000-0000-4000-8000-000000000000")
        pool_recompute_enqueue(pool_id=7)
    assert redis_down == []
    sends = [r.getMessage() for r in caplog.records if "the sweeper will retry" in r.getMessage()]
    assert len(sends) == 2


def test_the_broker_connection_is_tried_once(
    redis_down: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``max_retries=1`` was one *retry*: two attempts, each of which may wait the
    broker's connect timeout on a host that does not answer (a web request paid it
    twice)."""
    import kombu.connection

    attempts: list[int] = []
    connect = kombu.connection.Connection._connection_factory

    def counted(self: Any) -> Any:
        attempts.append(1)
        return connect(self)

    monkeypatch.setattr(kombu.connection.Connection, "_connection_factory", counted)
    assert enqueue_now("games.solve", kwargs={"solve_id": "x"}) is False
    assert len(attempts) == 1
