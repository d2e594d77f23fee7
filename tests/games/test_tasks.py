"""Celery tasks: in-process, and one real round trip through a worker on Redis."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from canfield_site.celery import app
from games.tasks import ping


@pytest.mark.django_db
def test_ping_in_process() -> None:
    """Run in-process (as the eager default does), the task echoes and names the database."""
    assert ping.apply(args=("hi",)).get() == {"echo": "hi", "database": connection.vendor}


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_ping_round_trip_through_a_real_worker() -> None:
    """A message goes through Redis to a real worker and the result comes back."""
    import celery.contrib.testing.tasks  # noqa: F401 - registers celery.ping for the ping check
    from celery.contrib.testing.worker import start_worker

    assert app.conf.task_always_eager is False
    queue = f"test-{uuid.uuid4().hex}"  # a private queue: no other worker can steal it
    with start_worker(
        app, pool="solo", perform_ping_check=False, queues=[queue], shutdown_timeout=30
    ):
        result = ping.apply_async(args=("round trip",), queue=queue)
        assert result.get(timeout=30) == {"echo": "round trip", "database": connection.vendor}


def test_the_scheduler_asks_for_the_pools_at_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Right after a first start the winnable pools were empty for a whole refill interval
    (a new user's POST /games {"winnable": true} answered 503): beat_init asks at once."""
    from celery.signals import beat_init

    from canfield_site import celery as celery_app

    sent: list[str] = []
    monkeypatch.setattr(celery_app.app, "send_task", lambda name, **kw: sent.append(name))
    beat_init.send(sender=None)
    assert sent == ["games.winnable_pool_refill"]

    def down(name: str, **kw: object) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(celery_app.app, "send_task", down)
    beat_init.send(sender=None)  # logged, never raised: beat starts anyway
    assert "could not ask for the winnable pools' refill at start" in caplog.text


@pytest.mark.django_db
def test_beat_rows_carry_each_schedule_entrys_expiry(monkeypatch: pytest.MonkeyPatch) -> None:
    """django-celery-beat's DatabaseScheduler copies ``CELERY_BEAT_SCHEDULE`` into
    ``PeriodicTask`` rows and sends from the rows; it keeps ``options.expire_seconds`` and
    drops ``options.expires``.  With the expiry dropped, beat queued a race sweep every
    2 s while the workers were down and hundreds ran when one came back."""
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import DatabaseScheduler

    # The scheduler calls close_old_connections(), which closes a connection whose
    # autocommit differs from the settings': the test's own transaction on PostgreSQL.
    monkeypatch.setattr("django_celery_beat.schedulers.close_old_connections", lambda: None)
    scheduler = DatabaseScheduler(app=app)  # syncs the settings' schedule into the rows
    expiries = {
        row.name: row.expire_seconds
        for row in PeriodicTask.objects.filter(name__in=list(app.conf.beat_schedule))
    }
    assert expiries == {
        "race-sweeper": 10,  # 5 times RACE_SWEEP_SECONDS (2 s)
        "ratings-sweeper": 300,
        "solver-sweeper": 60,
        "winnable-pool": 60,  # WINNABLE_POOL_REFILL_SECONDS
    }
    # What beat sends: each entry's apply_async options carry the expiry in seconds.
    sent = {name: scheduler.schedule[name].options.get("expires") for name in expiries}
    assert sent == expiries
