"""compose.yaml cannot run here (no Docker engine), so it is checked as data."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import ROOT, settings_env_vars

APP_SERVICES = ("migrate", "web", "worker", "solver", "beat")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """compose.yaml, parsed (YAML anchors and merge keys resolved)."""
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def _argv(service: dict[str, Any]) -> list[str]:
    command = service["command"]
    return command.split() if isinstance(command, str) else [str(part) for part in command]


def test_services_present(compose: dict[str, Any]) -> None:
    """PostgreSQL, Redis, migrate, web, worker and beat are all there."""
    assert set(compose["services"]) >= {"postgres", "redis", *APP_SERVICES}


def test_server_healthchecks_and_volume(compose: dict[str, Any]) -> None:
    """PostgreSQL and Redis have health checks; PostgreSQL keeps data in a named volume."""
    services = compose["services"]
    assert "pg_isready" in str(services["postgres"]["healthcheck"]["test"])
    assert "ping" in str(services["redis"]["healthcheck"]["test"])
    assert "/api/v1/health" in str(services["web"]["healthcheck"]["test"])
    volume = services["postgres"]["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]


def test_app_services_wait_for_healthy_dependencies(compose: dict[str, Any]) -> None:
    """Web, worker and beat start after migrate succeeded and their servers are healthy."""
    services = compose["services"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "worker", "beat"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["redis"]["condition"] == "service_healthy"
    assert services["beat"]["deploy"]["replicas"] == 1


def test_commands_point_at_real_modules(compose: dict[str, Any]) -> None:
    """gunicorn's ASGI app and worker class, the Celery app, beat's scheduler and manage.py."""
    services = compose["services"]

    migrate = _argv(services["migrate"])
    assert migrate[:3] == ["python", "manage.py", "migrate"]
    assert (ROOT / "manage.py").is_file()

    web = _argv(services["web"])
    assert web[0] == "gunicorn"
    module, _, attr = web[1].partition(":")
    assert callable(getattr(importlib.import_module(module), attr or "application"))
    # The event streams need the ASGI app under uvicorn workers (the WSGI one refuses them).
    assert module == "canfield_site.asgi"
    worker = next(a for a in web if a.startswith("--worker-class="))
    module, _, attr = worker.split("=", 1)[1].rpartition(".")
    assert isinstance(getattr(importlib.import_module(module), attr), type)

    for name, subcommand in (("worker", "worker"), ("solver", "worker"), ("beat", "beat")):
        argv = _argv(services[name])
        assert argv[:2] == ["celery", "-A"]
        assert argv[3] == subcommand
        package = importlib.import_module(argv[2])
        assert package.celery_app.main == "canfield_site"

    # Solver work has its own workers; the default worker never takes it.
    solver = _argv(services["solver"])
    assert solver[solver.index("-Q") + 1] == "solver"
    default_worker = _argv(services["worker"])
    assert default_worker[default_worker.index("-Q") + 1] == "celery"

    scheduler = next(a for a in _argv(services["beat"]) if a.startswith("--scheduler="))
    module, _, attr = scheduler.split("=", 1)[1].partition(":")
    assert isinstance(getattr(importlib.import_module(module), attr), type)


def test_environment_matches_settings(compose: dict[str, Any]) -> None:
    """Every variable given to the app is one the settings read, and the vital ones are set."""
    known = settings_env_vars()
    for name in APP_SERVICES:
        env = compose["services"][name]["environment"]
        assert set(env) <= known, f"{name}: unknown variables {sorted(set(env) - known)}"
        assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG"} <= set(env)
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"].startswith("redis://redis:")


def test_image_installs_from_the_lock_file() -> None:
    """The image the app services build installs the same pinned lock file."""
    dockerfile = Path(ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements-lock.txt" in dockerfile
