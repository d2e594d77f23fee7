# mypy: disable-error-code="no-untyped-call"
"""The login attempts in flight are counted once for every server process, Redis up or
down (``canfield_site.security.reserve_login_slot``, ``canfield_site.cache``).

While Redis was down each process counted its own attempts in its own memory, so with
N workers a burst of guesses got N times the slots past the lockout.  Here a second,
real process (``python -c``) logs in while this one holds attempts in flight, both
with the shared cache on a Redis that does not answer: they must share the count,
through the database.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from axes.models import AccessAttempt
from django.db import connection, connections
from django.test import RequestFactory

from canfield_site.cache import DatabaseCounterCache, FallbackRedisCache, cache_settings
from canfield_site.security import (
    release_login_slot,
    reserve_login_slot,
    slot_cache,
    slot_key,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]

#: One login attempt in a process of its own: prints ``user``, ``wrong`` or ``locked_out``.
ATTEMPT = """
import sys
import django
django.setup()
from django.contrib.auth import authenticate
from django.test import RequestFactory
request = RequestFactory().post("/api/v1/auth/token", REMOTE_ADDR=sys.argv[2])
user = authenticate(request, username=sys.argv[1], password="guess")
locked = getattr(request, "axes_locked_out", False)
print("locked_out" if locked else ("user" if user is not None else "wrong"))
"""


def _dead_redis_url() -> str:
    """A Redis URL on a port nothing listens on (Redis "down")."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def redis_down(settings: Any) -> Iterator[str]:
    """The project's caches (``cache_settings``) on a Redis that does not answer."""
    url = _dead_redis_url()
    settings.CACHES = cache_settings(url, retry_seconds=0)
    settings.AXES_FAILURE_LIMIT = 3
    yield url
    slot_cache().clear()


def _other_process(redis_url: str, username: str, address: str) -> str:
    """Run :data:`ATTEMPT` in a new Python process on this test's database."""
    db = connection.settings_dict
    user, password = quote(db["USER"] or "", safe=""), quote(db.get("PASSWORD") or "", safe="")
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    url = f"postgres://{user}:{password}@{host}:{port}/{db['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "canfield_site.settings",
        "DATABASE_URL": url,
        "CACHE_URL": redis_url,
        "CACHE_RETRY_SECONDS": "0",
        "LOGIN_FAILURE_LIMIT": "3",
        "DEBUG": "true",
    }
    done = subprocess.run(
        [sys.executable, "-c", ATTEMPT, username, address],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _request(address: str) -> Any:
    return RequestFactory().post("/api/v1/auth/token", REMOTE_ADDR=address)


def test_two_processes_share_the_attempts_in_flight_while_redis_is_down(
    redis_down: str,
) -> None:
    cache = slot_cache()
    assert isinstance(cache, FallbackRedisCache)
    # Three guesses at "victim" are in flight in this process (its password checks
    # have not ended): the limit of 3.
    held = [_request("203.0.113.7") for i in range(3)]
    for request in held:
        reserve_login_slot(request, username="victim", password="guess")
    assert cache.degraded  # Redis did not answer: the count went to the fallback
    assert cache.get(slot_key("username+address", "victim\n203.0.113.7")) == 3

    # Another process's guess would be the fourth in flight: refused, unchecked, and
    # counted as a failure.  Each process counting alone let it through ("wrong").
    assert _other_process(redis_down, "victim", "203.0.113.7") == "locked_out"
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == 1
    # The refused attempt released its slot: this process's three are left.
    assert cache.get(slot_key("username+address", "victim\n203.0.113.7")) == 3

    for request in held:
        release_login_slot(request)
    assert cache.get(slot_key("username+address", "victim\n203.0.113.7")) == 0
    # Once they are done (as failures they would be counted too) the other process
    # logs in as usual: one failure and one attempt in flight are under the limit.
    assert _other_process(redis_down, "victim", "203.0.113.7") == "wrong"
    assert cache.get(slot_key("username+address", "victim\n203.0.113.7")) == 0
    assert cache.get(slot_key("address", "203.0.113.7")) == 0


def test_the_database_counter_loses_no_increment_under_concurrency(redis_down: str) -> None:
    """Eight connections increment one key 25 times each, at once: 200.  Django's own
    ``DatabaseCache.incr`` reads then writes, so concurrent increments overwrote each
    other (two attempts in flight counted as one)."""
    from django.core.cache import caches

    caches["database"].set("counter", 0, 60)
    workers, rounds = 8, 25
    barrier = threading.Barrier(workers)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            cache = caches["database"]  # this thread's own instance and connection
            assert isinstance(cache, DatabaseCounterCache)
            barrier.wait(timeout=10)
            for _ in range(rounds):
                cache.incr("counter")
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert caches["database"].get("counter") == workers * rounds
    caches["database"].decr("counter", workers * rounds)
    assert caches["database"].get("counter") == 0
    caches["database"].delete("counter")


def test_incr_keeps_the_expiry_and_refuses_a_missing_key(redis_down: str) -> None:
    from django.core.cache import caches

    cache = caches["database"]
    with pytest.raises(ValueError, match="not found"):
        cache.incr("nothing-here")
    assert cache.add("slot", 0, 60)
    assert not cache.add("slot", 5, 60)  # present: unchanged
    assert cache.incr("slot", 2) == 2
    assert cache.decr("slot") == 1
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT expires - now() FROM canfield_cache WHERE cache_key = %s",
            [cache.make_key("slot")],
        )
        (left,) = cursor.fetchone()
    # Still about the 60 s of the add (Django's incr reset it to the 300 s default).
    assert 0 < left.total_seconds() <= 60
    cache.delete("slot")


def test_migrate_makes_the_database_cache_table() -> None:
    """The migration names the table the settings use, and ``createcachetable`` finds
    nothing left to make after ``migrate``."""
    import importlib
    from io import StringIO

    from django.core.management import call_command

    from canfield_site.cache import DATABASE_CACHE_TABLE

    migration = importlib.import_module("api.migrations.0002_database_cache_table")
    assert migration.TABLE == DATABASE_CACHE_TABLE
    assert DATABASE_CACHE_TABLE in connection.introspection.table_names()
    out = StringIO()
    call_command("createcachetable", "--dry-run", stdout=out)
    assert "CREATE TABLE" not in out.getvalue()
