"""Shared pytest configuration.

Server-backed tests are marked ``@pytest.mark.postgres`` and/or ``@pytest.mark.redis``.
Before such a test runs, the server it needs is probed (PostgreSQL: the configured
``DATABASE_URL`` must be PostgreSQL and accept a connection; Redis: the Celery broker
must be a Redis URL from ``REDIS_URL``/``CELERY_BROKER_URL`` that answers PING).
When it is missing the test is SKIPPED locally, but FAILS when ``CI=true``:
CI must never pass by skipping the real-server tests.
"""

from __future__ import annotations

import functools
import os

import pytest

IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@functools.cache
def redis_status() -> tuple[bool, str]:
    """Return ``(available, reason)`` for the Redis server the Celery broker points at."""
    import redis
    from django.conf import settings

    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return False, "no Redis configured (set REDIS_URL, e.g. redis://127.0.0.1:6379/0)"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except Exception as exc:
        return False, f"Redis at {url} did not answer PING: {exc}"
    return True, ""


@functools.cache
def postgres_status() -> tuple[bool, str]:
    """Return ``(available, reason)`` for the PostgreSQL server of ``DATABASE_URL``."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        return False, "no PostgreSQL configured (set DATABASE_URL=postgres://...)"
    import psycopg

    try:
        with psycopg.connect(
            host=db.get("HOST") or None,
            port=db.get("PORT") or None,
            user=db.get("USER") or None,
            password=db.get("PASSWORD") or None,
            dbname="postgres",
            connect_timeout=3,
        ):
            pass
    except Exception as exc:
        return False, f"PostgreSQL at {db.get('HOST')}:{db.get('PORT')} refused: {exc}"
    return True, ""


_PROBES = {"redis": redis_status, "postgres": postgres_status}


def pytest_configure(config: pytest.Config) -> None:
    """Run tasks in-process when no broker is configured (the embedded SQLite broker).

    The test suite has no worker of its own: on the embedded default its tasks run
    eagerly, as they did before the embedded broker existed.  With ``REDIS_URL`` (CI)
    they go to Redis as configured.  ``tests/games/test_embedded_worker.py`` runs the
    embedded broker with a real worker.
    """
    from django.conf import settings

    from canfield_site.broker import ALIAS

    if settings.configured and settings.CELERY_BROKER_URL.startswith(f"{ALIAS}+"):
        from canfield_site.celery import app

        settings.CELERY_TASK_ALWAYS_EAGER = True
        app.conf.task_always_eager = True


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (locally) or fail (CI=true) tests whose server is unavailable."""
    for marker, probe in _PROBES.items():
        if item.get_closest_marker(marker) is None:
            continue
        available, reason = probe()
        if available:
            continue
        if IN_CI:
            pytest.fail(f"CI=true and {marker} is required: {reason}", pytrace=False)
        pytest.skip(reason)


def pytest_report_header() -> list[str]:
    """Say, at the top of the run, which servers the marked tests will use."""
    from django.conf import settings

    return [
        f"database: {settings.DATABASES['default']['ENGINE']}; "
        f"celery broker: {settings.CELERY_BROKER_URL.split('@')[-1]}; "
        f"eager tasks: {settings.CELERY_TASK_ALWAYS_EAGER}; CI={IN_CI}"
    ]
