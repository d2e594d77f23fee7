"""Liveness checks of the service's dependencies: the database, the Celery broker and the cache."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

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
    broker (``canfield_site/broker.py``).  A broker that does not answer within
    :data:`canfield_site.celery.WEB_BROKER_TIMEOUT_SECONDS` fails the check.  In eager
    mode (``task_always_eager``, the test suite) no broker is used: that counts as
    healthy, with detail ``"in-process"``.
    """
    if app is None:
        from canfield_site.celery import app as default_app

        app = default_app
    if app.conf.task_always_eager:
        return CheckResult(ok=True, detail="in-process")
    from canfield_site.celery import connection_for_web

    try:
        # Every reply waits at most WEB_BROKER_TIMEOUT_SECONDS: a Redis that accepts the
        # connection but never answers fails the check instead of holding the request.
        with connection_for_web(app) as conn:
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


def sweeper_grace_seconds() -> float:
    """Seconds past its end after which a race not closed counts as overdue: ten sweeps
    (``RACE_SWEEP_SECONDS``), at least a minute."""
    from django.conf import settings

    return max(60.0, 10 * float(settings.RACE_SWEEP_SECONDS))


#: Key, in the ``database`` cache (the table ``canfield_cache``, shared by every process
#: whatever is down), of the time the race sweeper last ran on a worker.
SWEEP_HEARTBEAT_KEY = "health:race-sweep:last-run"


def record_sweep(now: datetime | None = None) -> None:
    """Record that the race sweeper ran at ``now`` (default: the current time), for
    :func:`sweeper_check`; called by ``games.race_sweep`` on a worker.  Never raises (a
    failure is logged: the sweep itself matters more)."""
    from django.core.cache import caches
    from django.utils import timezone

    moment = now or timezone.now()
    try:
        caches["database"].set(SWEEP_HEARTBEAT_KEY, moment.timestamp(), timeout=None)
    except Exception as exc:
        logger.warning("health: could not record the race sweep: %s", exc)


def last_sweep_at() -> datetime | None:
    """When a worker last ran the race sweeper (:func:`record_sweep`), or ``None``: never
    recorded (a fresh database, eager tasks), or unreadable (logged)."""
    from datetime import UTC

    from django.core.cache import caches

    try:
        value = caches["database"].get(SWEEP_HEARTBEAT_KEY)
    except Exception as exc:
        logger.warning("health: could not read the last race sweep: %s", exc)
        return None
    return datetime.fromtimestamp(float(value), tz=UTC) if value is not None else None


def sweeper_check(now: datetime | None = None) -> CheckResult:
    """Whether the race sweeper keeps up: no race is still open more than
    :func:`sweeper_grace_seconds` after its end (:func:`games.selectors.races.races_overdue`),
    and the sweeper, once it has run on a worker, ran within that grace
    (:func:`last_sweep_at`): a worker or beat that stopped shows at once, not only when
    a race falls overdue (with no race due, health said ``ok`` while nothing ran).

    ``detail`` is the number of overdue races.  A late sweeper is logged (a warning that
    says what to look at) but is not a failure of this process: health stays ``200`` and
    says ``"sweeper": "late"``.  Raises nothing: a database error is ``ok=False``,
    ``detail`` ``"unknown"``.
    """
    from django.utils import timezone

    from games.selectors.races import races_overdue

    grace = sweeper_grace_seconds()
    moment = now or timezone.now()
    try:
        overdue = races_overdue(now=moment, grace_seconds=grace)
    except Exception as exc:
        logger.warning("health: race sweeper not checked: %s", exc)
        return CheckResult(ok=False, detail="unknown")
    last = last_sweep_at()
    stale = last is not None and (moment - last).total_seconds() > grace
    if stale:
        logger.warning(
            "health: the race sweeper last ran at %s, more than %.0f s ago: is a Celery "
            "worker of the default queue and exactly one beat running?",
            last.isoformat() if last else None,
            grace,
        )
    if overdue:
        logger.warning(
            "health: %d race(s) ended more than %.0f s ago and are not closed: is a Celery "
            "worker of the default queue and exactly one beat running, and does the race "
            "sweeper log errors (games.race_sweep)?",
            overdue,
            grace,
        )
    return CheckResult(ok=overdue == 0 and not stale, detail=str(overdue))
