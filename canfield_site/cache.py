"""A Redis cache that degrades to a fallback cache while Redis is down (issue 12 item 2).

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
cached values are recomputed per process; the login attempts in flight (alias
``"login_slots"``) are counted in the database instead, shared by every process.
``/api/v1/health`` still reports
the cache as failed (it pings Redis itself: :func:`canfield_site.health.cache_check`).

Settings (``CACHES["default"]``)::

    {"BACKEND": "canfield_site.cache.FallbackRedisCache", "LOCATION": "redis://...",
     "OPTIONS": {"retry_seconds": 5, "socket_connect_timeout": 0.5, "socket_timeout": 0.5}}

``retry_seconds`` (default 5) and ``fallback`` are this backend's; the other options go
to redis-py.  ``fallback`` names another cache alias to use while Redis is down in place
of the process's own memory: the login slots (``canfield_site.security``) fall back to
``"database"``, a :class:`DatabaseCounterCache` in the shared database, so every process
still counts the same attempts in flight.

:class:`DatabaseCounterCache` is Django's ``DatabaseCache`` whose ``incr``/``decr`` and
``add`` lock the row they change: Django's own ``incr`` reads then writes, so two processes
incrementing at once both wrote the same value.  Its table (:data:`DATABASE_CACHE_TABLE`)
is created by a migration (``api/migrations/0002_database_cache_table.py``), so ``migrate``
alone (``dev.py serve``, compose's ``migrate`` service, CI) makes it.

:func:`cache_settings` builds ``CACHES`` for a ``CACHE_URL`` (or none).
"""

from __future__ import annotations

import base64
import logging
import pickle
import threading
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router, transaction
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


#: The table of the ``"database"`` cache alias (:class:`DatabaseCounterCache`), made by
#: the migration ``api/migrations/0002_database_cache_table.py``.
DATABASE_CACHE_TABLE = "canfield_cache"


class FallbackRedisCache(RedisCache):
    """Django's ``RedisCache`` that falls back to another cache while Redis fails: the
    process's own memory, or the cache alias ``OPTIONS["fallback"]``."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        """Read ``retry_seconds`` and ``fallback`` from ``OPTIONS``; the rest configures
        ``RedisCache``."""
        options = dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(options.pop("retry_seconds", 5))
        self.fallback_alias: str | None = options.pop("fallback", None)
        options.setdefault("socket_connect_timeout", 0.5)
        options.setdefault("socket_timeout", 0.5)
        super().__init__(server, {**params, "OPTIONS": options})
        self._local = LocMemCache(
            f"fallback-{id(self)}",
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": 10_000}},
        )
        self._down_until = 0.0
        self._down = False
        self._lock = threading.Lock()

    @property
    def local(self) -> BaseCache:
        """The cache used while Redis fails: the alias ``fallback`` (this thread's
        instance of it), else this process's memory."""
        if self.fallback_alias is None:
            return self._local
        from django.core.cache import caches

        return caches[self.fallback_alias]

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
                            "cache: Redis is unavailable (%s: %s); using %s and retrying "
                            "every %g s",
                            type(exc).__name__,
                            exc,
                            (
                                f"the shared {self.fallback_alias!r} cache"
                                if self.fallback_alias
                                else "this process's local cache (throttles count per process)"
                            ),
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


class DatabaseCounterCache(DatabaseCache):
    """Django's ``DatabaseCache`` whose ``incr``, ``decr`` and ``add`` are atomic across
    processes: each first locks the key's row (an ``UPDATE`` that changes nothing: a row
    lock on PostgreSQL, the write lock on SQLite), then reads and writes it in the same
    transaction, so a concurrent call waits instead of writing the same value.

    ``incr``/``decr`` keep the key's expiry (as Redis' ``INCRBY`` does; Django's own
    reset it to the default timeout) and raise ``ValueError`` for a missing or expired
    key.  Values are Django's (base64 of a pickle), so ``get`` reads them as usual.

    Culling (:meth:`_cull`) deletes expired rows only, never a live one: Django's deletes
    a third of the rows by key order once the table holds more than ``MAX_ENTRIES``, so
    a spray of logins with distinct usernames (two rows each, a username's and an
    address's slots) erased the counters of attempts still in flight: every address's
    first (``login-slot:address:`` sorts before ``login-slot:username:``), then any
    username's below the cut, and the lockout forgot a burst it was counting.
    """

    def _cull(self, db: str, cursor: Any, now: Any, num: int) -> None:
        """Delete the rows expired at ``now``, and only those (``MAX_ENTRIES`` and
        ``CULL_FREQUENCY`` cull nothing live).

        Called by Django's ``set``/``add``/``touch`` when the table holds more than
        ``MAX_ENTRIES`` rows, before the write.  Without a cut the table holds what was
        written in the last :data:`canfield_site.security.LOGIN_SLOT_SECONDS` (every row
        here is a login slot living that long from its latest attempt), plus the expired
        rows each write over ``MAX_ENTRIES`` sweeps: it grows with the login attempts of
        one minute (two rows each at most), which the ``auth`` throttle bounds per client
        address, and shrinks back once they stop.
        """
        connection = connections[db]
        quote = connection.ops.quote_name
        table = quote(self._table)  # type: ignore[attr-defined]
        cursor.execute(
            f"DELETE FROM {table} WHERE {quote('expires')} < %s",  # noqa: S608
            [connection.ops.adapt_datetimefield_value(now)],
        )

    def _lock(self, cursor: Any, connection: Any, key: str) -> None:
        """Lock ``key``'s row until the transaction ends (an ``UPDATE`` that changes
        nothing); a missing row locks nothing."""
        quote = connection.ops.quote_name
        table, expires = quote(self._table), quote("expires")  # type: ignore[attr-defined]
        sql = f"UPDATE {table} SET {expires} = {expires} WHERE {quote('cache_key')} = %s"  # noqa: S608
        cursor.execute(sql, [key])

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        """Add ``delta`` to the number under ``key`` and return the sum; ``ValueError``
        when the key is missing or expired."""
        made = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        with transaction.atomic(using=db), connection.cursor() as cursor:
            self._lock(cursor, connection, made)
            value = self.get(key, self._missing_key, version=version)
            if value is self._missing_key:
                raise ValueError(f"Key '{key}' not found")
            new_value = value + delta
            encoded = base64.b64encode(pickle.dumps(new_value, self.pickle_protocol))
            quote = connection.ops.quote_name
            table = quote(self._table)  # type: ignore[attr-defined]
            sql = f"UPDATE {table} SET {quote('value')} = %s WHERE {quote('cache_key')} = %s"  # noqa: S608
            cursor.execute(sql, [encoded.decode("latin1"), made])
        return new_value

    def decr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        """:meth:`incr` by ``-delta``."""
        return self.incr(key, -delta, version=version)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        """Django's ``add`` with the key's row locked first: two processes adding over
        the same expired row both wrote it (the second over the first's count)."""
        made = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        with transaction.atomic(using=db), connection.cursor() as cursor:
            self._lock(cursor, connection, made)
            return bool(super().add(key, value, timeout, version))

    async def aincr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        """:meth:`incr` from async code."""
        return await sync_to_async(self.incr)(key, delta, version)

    async def adecr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        """:meth:`decr` from async code."""
        return await sync_to_async(self.incr)(key, -delta, version)

    async def aadd(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        """:meth:`add` from async code."""
        return await sync_to_async(self.add)(key, value, timeout, version)


def cache_settings(cache_url: str, *, retry_seconds: float = 5.0) -> dict[str, dict[str, Any]]:
    """``CACHES`` for a shared cache at ``cache_url`` (``""``: none).

    ``"default"`` (throttles, short-lived values): Redis falling back to each process's
    memory, or the process's memory without ``cache_url``.  ``"login_slots"`` (the login
    attempts in flight, ``canfield_site.security``): Redis falling back to
    ``"database"``, or ``"database"`` itself without ``cache_url``, so it is shared by every
    process whatever is down.  ``"database"``: :class:`DatabaseCounterCache` in
    :data:`DATABASE_CACHE_TABLE`.
    """
    database: dict[str, Any] = {
        "BACKEND": "canfield_site.cache.DatabaseCounterCache",
        "LOCATION": DATABASE_CACHE_TABLE,
        # Above this many rows a write first deletes the expired ones (never a live one:
        # DatabaseCounterCache._cull); Django's default is 300.
        "OPTIONS": {"MAX_ENTRIES": 10_000},
    }
    if not cache_url:
        return {
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "login_slots": database,
            "database": database,
        }
    redis: dict[str, Any] = {
        "BACKEND": "canfield_site.cache.FallbackRedisCache",
        "LOCATION": cache_url,
        "OPTIONS": {"retry_seconds": retry_seconds},
    }
    return {
        "default": redis,
        "login_slots": {**redis, "OPTIONS": {**redis["OPTIONS"], "fallback": "database"}},
        "database": database,
    }
