"""Settings are read from the environment; each case loads them in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
REAL_KEY = "k3y-" + "x9QpL2mZ7vR4tY8wB1nC6dF0gH5jK3sA" * 2

_PROBE = """
import json, django
from django.conf import settings
django.setup()
from canfield_site.celery import app
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST", ""),
    "debug": settings.DEBUG, "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "app_eager": app.conf.task_always_eager, "broker": app.conf.broker_url,
    "backend": str(app.conf.result_backend), "hosts": settings.ALLOWED_HOSTS,
    "accept": list(app.conf.accept_content), "acks_late": app.conf.task_acks_late,
    "time_limit": app.conf.task_time_limit,
    "visibility": app.conf.broker_transport_options.get("visibility_timeout"),
    "conn_max_age": db["CONN_MAX_AGE"], "pool": db.get("OPTIONS", {}).get("pool"),
}))
"""


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a subprocess whose environment is exactly ``env``."""
    clean = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", str(ROOT))}
    clean["DJANGO_SETTINGS_MODULE"] = "canfield_site.settings"
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def loaded(**env: str) -> dict[str, Any]:
    """Load settings with ``env`` and return the probe's JSON, failing on error."""
    result = load_settings(**env)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


def test_embedded_default_needs_no_server() -> None:
    """Nothing configured: SQLite beside manage.py, a SQLite-file broker beside it, DEBUG on.

    Tasks are not eager: they go through the broker to a real worker (dev.py serve).
    """
    data = loaded()
    assert data["engine"] == "django.db.backends.sqlite3"
    assert data["name"] == str(ROOT / "db.sqlite3")
    assert data["eager"] is False
    assert data["app_eager"] is False
    assert data["broker"] == f"sqlite-broker+sqlite:///{ROOT / 'db-broker.sqlite3'}"
    assert data["backend"] == f"db+sqlite:///{ROOT / 'db-broker.sqlite3'}"
    assert data["debug"] is True
    assert "127.0.0.1" in data["hosts"]


def test_each_sqlite_database_has_its_own_broker_file(tmp_path: Path) -> None:
    """A SQLite DATABASE_URL (the demo's own file) gets a broker file beside it."""
    data = loaded(DATABASE_URL=f"sqlite:///{tmp_path / 'demo.sqlite3'}", DEBUG="true")
    assert data["broker"] == f"sqlite-broker+sqlite:///{tmp_path / 'demo-broker.sqlite3'}"
    assert data["eager"] is False


def test_postgres_and_redis_from_environment() -> None:
    """DATABASE_URL and REDIS_URL switch to PostgreSQL (psycopg 3) and Redis."""
    data = loaded(
        DATABASE_URL="postgres://u:p@db.example:5432/canfield",
        REDIS_URL="redis://cache.example:6379/2",
        SECRET_KEY=REAL_KEY,
        ALLOWED_HOSTS="api.example,localhost",
    )
    assert data["engine"] == "django.db.backends.postgresql"
    assert data["name"] == "canfield"
    assert data["host"] == "db.example"
    assert data["eager"] is False
    assert data["app_eager"] is False
    assert data["broker"] == "redis://cache.example:6379/2"
    assert data["backend"] == "redis://cache.example:6379/2"
    assert data["debug"] is False
    assert data["hosts"] == ["api.example", "localhost"]


def test_database_pool_from_environment() -> None:
    """DATABASE_POOL_MAX_SIZE gives PostgreSQL a psycopg pool (the ASGI server's connections)."""
    postgres = {"DATABASE_URL": "postgres://u:p@db.example:5432/canfield", "DEBUG": "true"}
    assert loaded(**postgres)["pool"] is None
    data = loaded(**postgres, DATABASE_POOL_MAX_SIZE="8", DATABASE_POOL_TIMEOUT="2.5")
    assert data["pool"] == {"min_size": 1, "max_size": 8, "timeout": 2.5}
    assert data["conn_max_age"] == 0
    # SQLite has no pool: the setting is ignored there.
    assert loaded(DATABASE_POOL_MAX_SIZE="8")["pool"] is None


def test_database_pool_excludes_persistent_connections() -> None:
    """A pool with CONN_MAX_AGE > 0 is refused at start, naming both settings."""
    result = load_settings(
        DATABASE_URL="postgres://u:p@db.example:5432/canfield",
        DEBUG="true",
        DATABASE_POOL_MAX_SIZE="8",
        CONN_MAX_AGE="60",
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DATABASE_POOL_MAX_SIZE and CONN_MAX_AGE" in result.stderr


def test_a_race_reserve_under_one_is_refused() -> None:
    """Races with require_winnable draw from the reserve, and a batch of them adds at
    most that many: 0 would refuse every batch, so the settings refuse it at start."""
    result = load_settings(WINNABLE_RACE_RESERVE="0")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "WINNABLE_RACE_RESERVE must be 1 or more" in result.stderr
    assert load_settings(WINNABLE_RACE_RESERVE="1").returncode == 0


@pytest.mark.parametrize(
    "env",
    [
        {"LOGIN_FAILURE_LIMIT": "0"},
        {"LOGIN_ADDRESS_FAILURE_LIMIT": "0"},
        {"LOGIN_FAILURE_LIMIT": "5", "LOGIN_ADDRESS_FAILURE_LIMIT": "4"},
    ],
)
def test_login_limits_under_one_or_the_address_under_the_username_are_refused(
    env: dict[str, str],
) -> None:
    """0 locked out at the first failure; an address's limit under a username's locked
    out every player behind the address first, whatever the username."""
    result = load_settings(**env)
    assert result.returncode != 0
    assert "LOGIN_ADDRESS_FAILURE_LIMIT at least LOGIN_FAILURE_LIMIT" in result.stderr
    equal = load_settings(LOGIN_FAILURE_LIMIT="5", LOGIN_ADDRESS_FAILURE_LIMIT="5")
    assert equal.returncode == 0, equal.stderr


def test_celery_broker_url_alone_disables_eager() -> None:
    """CELERY_BROKER_URL works without REDIS_URL and takes tasks out of process."""
    data = loaded(CELERY_BROKER_URL="redis://broker.example:6379/0")
    assert data["eager"] is False
    assert data["broker"] == "redis://broker.example:6379/0"
    assert data["engine"] == "django.db.backends.sqlite3"


def test_empty_values_from_a_copied_env_example_mean_unset() -> None:
    """``CELERY_BROKER_URL=`` and friends left empty fall back to REDIS_URL, not to memory."""
    data = loaded(
        REDIS_URL="redis://cache.example:6379/2",
        CELERY_BROKER_URL="",
        CELERY_RESULT_BACKEND="",
        CELERY_TASK_ALWAYS_EAGER="",
    )
    assert data["broker"] == "redis://cache.example:6379/2"
    assert data["backend"] == "redis://cache.example:6379/2"
    assert data["eager"] is False
    assert loaded(CELERY_TASK_ALWAYS_EAGER="")["eager"] is False
    assert loaded(CELERY_TASK_ALWAYS_EAGER="true")["eager"] is True
    assert loaded(REDIS_URL="redis://x:6379/0", CELERY_TASK_ALWAYS_EAGER="true")["eager"] is True


def test_celery_is_json_only_with_limits() -> None:
    """JSON only, time limits, late acks and a broker visibility timeout."""
    data = loaded()
    assert data["accept"] == ["json"]
    assert data["acks_late"] is True
    assert data["time_limit"] > 0
    assert data["visibility"] >= 3600


def test_psycopg3_is_the_postgres_driver() -> None:
    """Django's PostgreSQL backend runs on psycopg 3."""
    import importlib

    import psycopg

    psycopg_any = importlib.import_module("django.db.backends.postgresql.psycopg_any")
    assert psycopg_any.is_psycopg3
    assert psycopg.__version__.startswith("3.")


@pytest.mark.parametrize(
    ("env", "complaint"),
    [
        ({"DEBUG": "false"}, "SECRET_KEY"),
        ({"DEBUG": "false", "ALLOWED_HOSTS": "x.example"}, "SECRET_KEY"),
        ({"DEBUG": "false", "SECRET_KEY": "short", "ALLOWED_HOSTS": "x.example"}, "SECRET_KEY"),
        (
            {
                "DEBUG": "false",
                "SECRET_KEY": "django-insecure-" + "a1b2c3d4e5" * 6,
                "ALLOWED_HOSTS": "x.example",
            },
            "SECRET_KEY",
        ),
        ({"DEBUG": "false", "SECRET_KEY": REAL_KEY}, "ALLOWED_HOSTS"),
        # DEBUG defaults to off once a real database is configured.
        ({"DATABASE_URL": "postgres://u@h/db"}, "SECRET_KEY"),
    ],
)
def test_debug_off_refuses_to_start_without_secrets(env: dict[str, str], complaint: str) -> None:
    """DEBUG off without a real SECRET_KEY and ALLOWED_HOSTS is ImproperlyConfigured."""
    result = load_settings(**env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert complaint in result.stderr


def test_debug_off_starts_with_real_secrets() -> None:
    """DEBUG off with a real key and hosts loads."""
    data = loaded(DEBUG="false", SECRET_KEY=REAL_KEY, ALLOWED_HOSTS="api.example")
    assert data["debug"] is False
    assert data["hosts"] == ["api.example"]


def test_env_example_and_readme_document_every_variable() -> None:
    """Every variable settings.py reads is in .env.example and the README, and no more."""
    from tests.helpers import env_example_vars, settings_env_vars

    read = settings_env_vars()
    example = env_example_vars()
    assert read <= example, f"missing from .env.example: {sorted(read - example)}"
    assert example <= read, f".env.example lists unknown variables: {sorted(example - read)}"
    readme = (ROOT / "README.md").read_text()
    missing = sorted(name for name in read if f"`{name}`" not in readme)
    assert not missing, f"missing from README configuration table: {missing}"


def test_start_up_logs_no_axes_banner() -> None:
    """django-axes' verbose start-up line ("AXES: BEGIN version ...") came once per
    process, four times in the served log: ``AXES_VERBOSE`` is off."""
    clean = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", str(ROOT))}
    clean["DJANGO_SETTINGS_MODULE"] = "canfield_site.settings"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout
    assert "AXES: BEGIN" not in result.stdout + result.stderr
