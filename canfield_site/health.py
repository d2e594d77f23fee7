"""Liveness checks of the service's dependencies: the database, the Celery broker and the cache."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from celery import Celery
from django.db import connections

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CheckResult:
    """Outcome of one dependency check: ``ok`` plus a short, non-secret description."""

    ok: bool
    detail: str


def database_check(alias: str = "default") -> CheckResult:
    """Run ``SELECT 1`` on the database ``alias``."""
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        logger.warning("health: database %s failed: %s", alias, exc)
        return CheckResult(ok=False, detail=type(exc).__name__)
    return CheckResult(ok=True, detail=connections[alias].vendor)


def broker_check(app: Celery | None = None) -> CheckResult:
    """Connect to the Celery broker: a Redis PING, or opening the embedded SQLite broker file.

    ``detail`` is the transport's driver: ``"redis"``, or ``"sqlite"`` for the embedded
    broker (``canfield_site/broker.py``).  In eager mode (``task_always_eager``, the test
    suite) no broker is used: that counts as healthy, with detail ``"in-process"``.
    """
    if app is None:
        from canfield_site.celery import app as default_app

        app = default_app
    if app.conf.task_always_eager:
        return CheckResult(ok=True, detail="in-process")
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=3)
            transport = conn.transport.driver_type
            probe = getattr(conn.default_channel, "probe", None)
            if probe is not None:  # the embedded SQLite broker: open the file
                probe()
    except Exception as exc:
        logger.warning("health: broker failed: %s", exc)
        return CheckResult(ok=False, detail=type(exc).__name__)
    return CheckResult(ok=True, detail=str(transport))


def cache_check(alias: str = "default") -> CheckResult:
    """PING the shared cache's Redis (``redis``), bypassing the local fallback.

    A per-process memory cache (no ``CACHE_URL``) has nothing to reach: healthy,
    with detail ``"local"``.  While Redis is down requests keep working on the
    local fallback (``canfield_site/cache.py``), but this check fails.
    """
    from django.core.cache import caches

    from canfield_site.cache import FallbackRedisCache

    cache = caches[alias]
    if not isinstance(cache, FallbackRedisCache):
        return CheckResult(ok=True, detail="local")
    try:
        cache.ping()
    except Exception as exc:
        logger.warning("health: cache failed: %s", exc)
        return CheckResult(ok=False, detail=type(exc).__name__)
    return CheckResult(ok=True, detail="redis")
