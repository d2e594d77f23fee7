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
import hashlib
import itertools
import os
from collections.abc import Iterator
from typing import Any

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
    """Hash test passwords cheaply; run tasks in-process when no broker is configured.

    The test suite has no worker of its own: on the embedded default its tasks run
    eagerly, as they did before the embedded broker existed.  With ``REDIS_URL`` (CI)
    they go to Redis as configured.  ``tests/games/test_embedded_worker.py`` runs the
    embedded broker with a real worker.
    """
    from django.conf import settings

    from canfield_site.broker import ALIAS

    # Key stretching is not under test: see tests/hashers.py (servers started in another
    # process keep the production hashers and still verify these hashes).
    if settings.configured:
        settings.PASSWORD_HASHERS = ["tests.hashers.QuickPBKDF2PasswordHasher"]

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


def _race_seeds() -> Iterator[str]:
    """Race seeds for in-process tests, in a fixed order: 32 hex digits like a real
    draw, each with the property :func:`tests.helpers.race_seed_ok` checks."""
    from tests.helpers import race_seed_ok

    for i in itertools.count():
        seed = hashlib.sha256(f"race-{i}".encode()).hexdigest()[:32]
        if race_seed_ok(seed):
            yield seed


@pytest.fixture(autouse=True)
def _throttles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fresh throttle counters and generous rates, for the API and the pages alike (they
    share the counts); ``tests/api/test_throttle.py`` and the page throttle tests set
    their own.  DRF binds the rates at import, so the class attribute is patched."""
    from django.core.cache import cache
    from rest_framework.throttling import ScopedRateThrottle

    cache.clear()
    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        {"moves": "10000/s", "games": "10000/s", "auth": "10000/s"},
    )


@pytest.fixture(autouse=True)
def deterministic_race_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Races and practice games created in-process without a seed draw it from
    :func:`_race_seeds` (a fresh sequence per test) instead of :func:`secrets.token_hex`:
    about 4% of random seeds block the scripted play of the race tests, which made them
    flake.  Servers a test starts in another process draw real seeds: tests against
    them give every game they play a seed of their own."""
    seeds = _race_seeds()
    monkeypatch.setattr("games.services.races.random_seed", lambda: next(seeds), raising=False)
    # Practice games created without a seed too: the service already skips deals
    # blocked at the deal (games.services.seeds), and these also survive scripted play.
    practice = _race_seeds()
    monkeypatch.setattr("games.services.games.random_seed", lambda: next(practice), raising=False)


@pytest.fixture(autouse=True)
def no_stray_pool_refill(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test ends only when the winnable-pool refill threads it started have ended.

    On the embedded default a draw from the winnable pool starts a refill thread
    (``games.services.winnable_pool``).  Left running, it solved into the next test:
    it drew that test's patched seeds and wrote rows into its pool, which failed
    ``test_pool_keeps_only_proven_winnable_deals`` in one random order.  Waiting here
    (before ``monkeypatch`` is undone, so the thread still sees the test's patches)
    keeps every test's pool its own.
    """
    import threading

    yield
    from games.services.winnable_pool import FILL_THREAD

    for thread in threading.enumerate():
        if thread.name == FILL_THREAD:
            thread.join(timeout=120)
            assert not thread.is_alive(), "a winnable-pool refill thread outlived its test"


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Tasks are sent to a broker no worker reads yet: recorded ``(task name, kwargs)``,
    not run (solver jobs and winnable-pool refills, as with a real worker)."""
    from canfield_site.celery import app
    from games.services import solver as solver_services
    from games.services import winnable_pool

    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", False)
    sent: list[tuple[str, dict[str, Any]]] = []

    def record(task_name: str, *, kwargs: dict[str, Any]) -> bool:
        sent.append((task_name, kwargs))
        return True

    monkeypatch.setattr(solver_services, "enqueue_now", record)
    monkeypatch.setattr(winnable_pool, "enqueue_now", record)
    return sent


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Every test starts and ends in the default language (English).

    A request asking for another language (``Accept-Language: fr``) activates it for the
    thread, and ``LocaleMiddleware`` never deactivates it: the lazily translated words
    read after such a test (the admin's action descriptions in ``test_readme.py``) came
    out in French.
    """
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@functools.cache
def _winnable_seeds() -> tuple[str, ...]:
    """Eight 32-hex seeds whose classic deal the solver wins within 20,000 positions."""
    from games.engine import new_game
    from games.engine.solver import solve

    out: list[str] = []
    for i in itertools.count():
        seed = hashlib.sha256(f"winnable-{i}".encode()).hexdigest()[:32]
        res = solve(new_game("classic", seed=seed), max_nodes=20_000, max_seconds=None)
        if res.result == "won":
            out.append(seed)
        if len(out) == 8:
            return tuple(out)
    raise AssertionError("unreachable")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print the random test order's seed (pytest-randomly) even under ``-q``, so any
    failure can be re-run in the same order: ``pytest --randomly-seed=N``."""
    seed = getattr(config.option, "randomly_seed", None)
    if seed is not None and config.pluginmanager.hasplugin("randomly"):
        terminalreporter.write_line(
            f"random order: --randomly-seed={seed} (re-run the same order with it; "
            "-p no:randomly for file order)"
        )
