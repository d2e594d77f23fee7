"""``GET /api/v1/health``: 200 when the database and broker answer, 503 naming the failure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.db import OperationalError, connections
from rest_framework.test import APIClient

import canfield_site.celery
from canfield_site.broker import embedded_broker_url
from canfield_site.celery import app as celery_app

URL = "/api/v1/health"


@pytest.fixture
def client() -> APIClient:
    """An anonymous API client."""
    return APIClient()


@pytest.fixture
def no_recorded_sweep(db: None) -> None:
    """No race sweep recorded: the cache table is not emptied between tests (it is no
    model's), and a test running a real worker (tests/test_outage.py) records one."""
    from django.core.cache import caches

    from canfield_site.health import SWEEP_HEARTBEAT_KEY

    caches["database"].delete(SWEEP_HEARTBEAT_KEY)


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every new cursor on the default database fail like a lost server."""

    def broken_cursor(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused (simulated)")

    monkeypatch.setattr(connections["default"], "cursor", broken_cursor)


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Swap in a non-eager Celery app whose Redis port has nothing listening."""
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    monkeypatch.delenv("CELERY_BROKER_WRITE_URL", raising=False)
    broken = Celery("broken", broker="redis://127.0.0.1:1/0", set_as_current=False)
    monkeypatch.setattr(canfield_site.celery, "app", broken)


@pytest.mark.django_db
def test_health_ok(client: APIClient) -> None:
    """Both dependencies answer: 200 and a plain JSON body, no authentication needed."""
    response = client.get(URL)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["broker"] == "ok"
    expected_mode = "in-process" if celery_app.conf.task_always_eager else "redis"
    assert body["broker_mode"] == expected_mode


@pytest.mark.django_db
def test_health_reports_the_embedded_sqlite_broker(
    client: APIClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The embedded default's broker (a SQLite file, not eager) is reported as ``sqlite``."""
    embedded = Celery(
        "embedded",
        broker=embedded_broker_url(tmp_path / "db-broker.sqlite3"),
        set_as_current=False,
    )
    monkeypatch.setattr(canfield_site.celery, "app", embedded)
    response = client.get(URL)
    assert response.status_code == 200, response.content
    assert response.json()["broker"] == "ok"
    assert response.json()["broker_mode"] == "sqlite"
    assert (tmp_path / "db-broker.sqlite3").exists()


@pytest.mark.django_db
def test_health_embedded_broker_unusable(
    client: APIClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A broker file that cannot be opened (its directory is missing) is a 503, not ``ok``."""
    embedded = Celery(
        "embedded",
        broker=embedded_broker_url(tmp_path / "missing" / "db-broker.sqlite3"),
        set_as_current=False,
    )
    monkeypatch.setattr(canfield_site.celery, "app", embedded)
    response = client.get(URL)
    assert response.status_code == 503
    assert response.json()["broker"] == "error"
    assert response.json()["database"] == "ok"


@pytest.mark.django_db
@pytest.mark.usefixtures("database_down")
def test_health_database_down(client: APIClient) -> None:
    """The database fails: 503 problem+json naming the database."""
    response = client.get(URL)
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "service_unavailable"
    assert body["status"] == 503
    assert body["database"] == "error"
    assert body["broker"] == "ok"
    assert "database" in body["detail"]


@pytest.mark.django_db
@pytest.mark.usefixtures("broker_down")
def test_health_broker_down(client: APIClient) -> None:
    """The broker fails (a real refused connection): 503 naming the broker."""
    response = client.get(URL)
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] == "error"
    assert body["detail"] == "Unavailable: broker."


@pytest.mark.django_db
@pytest.mark.usefixtures("database_down", "broker_down")
def test_health_both_down(client: APIClient) -> None:
    """Both fail: both named."""
    response = client.get(URL)
    assert response.status_code == 503
    body = response.json()
    assert (body["database"], body["broker"]) == ("error", "error")


@pytest.mark.django_db
def test_schema_and_docs_are_served(client: APIClient) -> None:
    """The OpenAPI schema, Swagger UI and ReDoc answer without authentication."""
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/v1/health" in schema.json()["paths"]
    assert client.get("/api/v1/docs/").status_code == 200
    assert client.get("/api/v1/redoc/").status_code == 200


def test_schema_generates_without_warnings() -> None:
    """drf-spectacular generates and validates the schema with no warning or error."""
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


@pytest.mark.django_db
def test_admin_login_page(client: APIClient) -> None:
    """The admin is mounted."""
    assert client.get("/admin/login/").status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("no_recorded_sweep")
def test_health_says_when_the_race_sweeper_is_late(
    client: APIClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A race past its end by more than ten sweeps (at least 60 s) and not closed means
    no worker or no beat runs: reported (and logged), without failing the check."""
    from datetime import UTC, datetime, timedelta

    from django.utils import timezone

    from games.models import Race
    from tests.tournaments.factories import running_race

    race = running_race(name="nobody closes me")
    now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)
    Race.objects.filter(id=race.id).update(
        starts_at=now - timedelta(minutes=5), ends_at=now - timedelta(seconds=60)
    )
    on_time = client.get(URL).json()
    assert (on_time["sweeper"], on_time["races_overdue"]) == ("ok", 0)

    Race.objects.filter(id=race.id).update(ends_at=now - timedelta(seconds=61))
    response = client.get(URL)
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["sweeper"], body["races_overdue"]) == ("ok", "late", 1)
    assert any("is a Celery worker" in r.getMessage() for r in caplog.records)

    Race.objects.filter(id=race.id).update(status=Race.Status.FINISHED)
    closed = client.get(URL).json()
    assert (closed["sweeper"], closed["races_overdue"]) == ("ok", 0)


@pytest.mark.django_db
@pytest.mark.usefixtures("no_recorded_sweep")
def test_health_says_when_the_race_sweeper_stopped_running(
    client: APIClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Seen by an operator: with the worker stopped and no race due, health said the
    sweeper was ``ok`` until a race ended more than a minute ago.  Once a worker has
    run the sweeper, a last run older than the grace (ten sweeps, at least 60 s) is
    ``late`` at once, with no race at all."""
    from datetime import UTC, datetime, timedelta

    from django.utils import timezone

    from canfield_site.health import record_sweep

    now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)
    never = client.get(URL).json()
    assert (never["sweeper"], never["last_sweep_at"]) == ("ok", None)

    record_sweep(now - timedelta(seconds=60))
    recent = client.get(URL).json()
    assert (recent["sweeper"], recent["races_overdue"]) == ("ok", 0)
    assert recent["last_sweep_at"] == "2030-01-01T11:59:00Z"

    record_sweep(now - timedelta(seconds=61))
    response = client.get(URL)
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["sweeper"], body["races_overdue"]) == ("ok", "late", 0)
    assert body["last_sweep_at"] == "2030-01-01T11:58:59Z"
    assert any("race sweeper last ran" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db
@pytest.mark.usefixtures("no_recorded_sweep")
def test_only_a_worker_run_of_the_sweeper_is_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A direct call or an eager run (tests, tools) records nothing; a worker's does."""
    from datetime import UTC, datetime

    from django.utils import timezone

    import games.tasks
    from canfield_site.health import last_sweep_at
    from games.tasks import race_sweep

    now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)
    race_sweep()
    race_sweep.apply()
    assert last_sweep_at() is None

    monkeypatch.setattr(games.tasks, "_last_sweep_record", [float("-inf")])
    push_request: Any = race_sweep.push_request  # celery's stubs list no context fields

    def worker_sweep() -> None:
        push_request(called_directly=False, is_eager=False)  # as a worker runs it
        try:
            assert race_sweep.run() == []
        finally:
            race_sweep.pop_request()

    worker_sweep()
    assert last_sweep_at() == now
    # At most one database write per SWEEP_RECORD_SECONDS per worker process.
    now = datetime(2030, 1, 1, 12, 0, 5, tzinfo=UTC)
    worker_sweep()
    assert last_sweep_at() == datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    games.tasks._last_sweep_record[0] -= games.tasks.SWEEP_RECORD_SECONDS
    worker_sweep()
    assert last_sweep_at() == now
