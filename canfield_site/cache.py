"""A Redis cache that degrades to a per-process cache while Redis is down (issue 12 item 2).

The shared cache holds only what may be lost: throttle counters and other
short-lived values.  Nothing a player does may fail because it is down, so
:class:`FallbackRedisCache` answers every operation from Redis while Redis
answers, and from a local in-memory cache of this process when a Redis call
fails (connection refused, timeout, ...).  The failure is logged once per
outage (a warning, then an info line when Redis is back).  For
``retry_seconds`` after a failure the process does not try Redis again, so an
outage costs each request nothing; then the next call tries Redis again.

Effect while Redis is down: throttles count per web process instead of
across all of them (they fail *open* by at most the number of processes), and
cached values are recomputed per process.  ``/api/v1/health`` still reports
the cache as failed (it pings Redis itself: :func:`canfield_site.health.cache_check`).

Settings (``CACHES["default"]``)::

    {"BACKEND": "canfield_site.cache.FallbackRedisCache", "LOCATION": "redis://...",
     "OPTIONS": {"retry_seconds": 5, "socket_connect_timeout": 0.5, "socket_timeout": 0.5}}

``retry_seconds`` (default 5) is this backend's; the other options go to redis-py.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: Cache operations that fall back (the others are built on these by BaseCache).
_OPERATIONS = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "decr",
    "set_many",
    "delete_many",
    "clear",
)


class FallbackRedisCache(RedisCache):
    """Django's ``RedisCache`` that falls back to a local cache while Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        """Read ``retry_seconds`` from ``OPTIONS``; the rest configures ``RedisCache``."""
        options = dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(options.pop("retry_seconds", 5))
        options.setdefault("socket_connect_timeout", 0.5)
        options.setdefault("socket_timeout", 0.5)
        super().__init__(server, {**params, "OPTIONS": options})
        self.local = LocMemCache(
            f"fallback-{id(self)}",
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": 10_000}},
        )
        self._down_until = 0.0
        self._down = False
        self._lock = threading.Lock()

    @property
    def degraded(self) -> bool:
        """Whether the last Redis call failed (this process uses its local cache)."""
        return self._down

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() >= self._down_until:
            try:
                result = getattr(RedisCache, name)(self, *args, **kwargs)
            except RedisError as exc:
                with self._lock:
                    self._down_until = time.monotonic() + self.retry_seconds
                    if not self._down:
                        logger.warning(
                            "cache: Redis is unavailable (%s: %s); using this process's local "
                            "cache (throttles count per process) and retrying every %g s",
                            type(exc).__name__,
                            exc,
                            self.retry_seconds,
                        )
                    self._down = True
            else:
                if self._down:
                    with self._lock:
                        self._down = False
                    logger.info("cache: Redis is back; the shared cache is in use again")
                return result
        return getattr(self.local, name)(*args, **kwargs)

    def ping(self) -> None:
        """PING Redis itself (no fallback); raises ``RedisError`` when it does not answer."""
        self._cache.get_client(write=True).ping()  # type: ignore[attr-defined]


def _make(name: str) -> Any:
    def operation(self: FallbackRedisCache, *args: Any, **kwargs: Any) -> Any:
        return self._call(name, *args, **kwargs)

    operation.__name__ = name
    operation.__doc__ = f"``{name}`` on Redis, or on the local cache while Redis fails."
    return operation


for _name in _OPERATIONS:
    setattr(FallbackRedisCache, _name, _make(_name))
