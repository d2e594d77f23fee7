"""The database cache of the login slots never culls a live counter.

Django's ``DatabaseCache`` deletes a third of its rows, by key order, before a write once
the table holds more than ``MAX_ENTRIES`` rows.  The login slots (``"login_slots"``: the
database itself without ``CACHE_URL``, its fallback while Redis is down) count the
attempts in flight there, so a spray of logins with distinct usernames erased other
accounts' counters mid-burst: every address's slots first (``login-slot:address:``
sorts before ``login-slot:username:``), and the lockout let the burst's guesses through.
``canfield_site.cache.DatabaseCounterCache`` culls expired rows only.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection
from django.test import RequestFactory

from canfield_site.cache import DATABASE_CACHE_TABLE, DatabaseCounterCache, cache_settings
from canfield_site.security import release_login_slot, reserve_login_slot, slot_cache, slot_key

pytestmark = pytest.mark.django_db

#: A small table, so a test fills it past the limit quickly.
MAX_ENTRIES = 20

#: An expiry long past (no wall clock read).
LONG_AGO = datetime(2000, 1, 1, tzinfo=UTC)


def _rows() -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {DATABASE_CACHE_TABLE}")  # noqa: S608
        (count,) = cursor.fetchone()
    return int(count)


def _expire(cache: Any, *keys: str) -> None:
    """Make ``keys`` expired (at :data:`LONG_AGO`)."""
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute(
                f"UPDATE {DATABASE_CACHE_TABLE} SET expires = %s WHERE cache_key = %s",  # noqa: S608
                [connection.ops.adapt_datetimefield_value(LONG_AGO), cache.make_key(key)],
            )


def test_culling_deletes_expired_rows_and_no_live_one() -> None:
    cache = DatabaseCounterCache(DATABASE_CACHE_TABLE, {"OPTIONS": {"MAX_ENTRIES": MAX_ENTRIES}})
    cache.clear()
    assert cache.add("a-live-counter", 0, 60)  # sorts before the rest: Django culled it first
    assert cache.incr("a-live-counter", 3) == 3
    for n in range(10):
        cache.set(f"old-{n:02}", n, 60)
    _expire(cache, *(f"old-{n:02}" for n in range(10)))
    for n in range(3 * MAX_ENTRIES):
        cache.add(f"spray-{n:03}", 0, 60)
    # Every live row is there (the limit is passed: nothing live is culled), the expired
    # ones were swept by the writes past the limit.
    assert cache.get("a-live-counter") == 3
    assert _rows() == 1 + 3 * MAX_ENTRIES
    assert all(cache.get(f"spray-{n:03}") == 0 for n in range(3 * MAX_ENTRIES))
    # Once the spray's rows expire, the next write past the limit sweeps them all.
    _expire(cache, *(f"spray-{n:03}" for n in range(3 * MAX_ENTRIES)))
    cache.set("after", 1, 60)
    assert _rows() == 2
    assert cache.get("a-live-counter") == 3


def test_a_spray_of_usernames_leaves_another_accounts_slots_in_flight(settings: Any) -> None:
    """Two attempts of ``victim`` in flight from one address; then 3 x MAX_ENTRIES failed
    logins with distinct usernames from another address fill the table past its limit.
    The victim's counters (its address's, its username's there) still say 2."""
    caches = cache_settings("")
    caches["login_slots"] = {
        **caches["login_slots"],
        "OPTIONS": {"MAX_ENTRIES": MAX_ENTRIES},
    }
    settings.CACHES = caches
    slot_cache().clear()
    factory = RequestFactory()
    victim = [factory.post("/api/v1/auth/token", REMOTE_ADDR="198.51.100.7") for _ in range(2)]
    for request in victim:
        reserve_login_slot(request, username="victim", password="guess")
    for n in range(3 * MAX_ENTRIES):
        request = factory.post("/api/v1/auth/token", REMOTE_ADDR="203.0.113.9")
        reserve_login_slot(request, username=f"sprayed-{n}", password="guess")
        release_login_slot(request)  # the failure counted, as axes' receiver releases it
    assert slot_cache().get(slot_key("address", "198.51.100.7")) == 2
    assert slot_cache().get(slot_key("username+address", "victim\n198.51.100.7")) == 2
    assert _rows() == 2 + 3 * MAX_ENTRIES + 1  # the victim's, the spray's, its address
    for request in victim:
        release_login_slot(request)
    assert slot_cache().get(slot_key("username+address", "victim\n198.51.100.7")) == 0
