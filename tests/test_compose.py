"""compose.yaml cannot run here (no Docker engine), so it is checked as data."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import ROOT, settings_env_vars

APP_SERVICES = ("migrate", "web", "live", "worker", "solver", "beat")


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
    for name in ("web", "live"):
        assert "/api/v1/health" in str(services[name]["healthcheck"]["test"])
    volume = services["postgres"]["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]


def test_app_services_wait_for_healthy_dependencies(compose: dict[str, Any]) -> None:
    """Web, live, worker and beat start after migrate succeeded and their servers are healthy."""
    services = compose["services"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "live", "worker", "beat"):
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

    for name in ("web", "live"):
        argv = _argv(services[name])
        assert argv[0] == "gunicorn"
        module, _, attr = argv[1].partition(":")
        assert callable(getattr(importlib.import_module(module), attr or "application"))
    # The event streams need the ASGI app under uvicorn workers (the WSGI one refuses them).
    worker = next(a for a in _argv(services["live"]) if a.startswith("--worker-class="))
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


def test_app_services_read_every_variable_of_dot_env(compose: dict[str, Any]) -> None:
    """Seen by an operator: .env (copied from .env.example, which lists every setting)
    was read only for compose's own ${...} values, so THROTTLE_MOVES=10/s there changed
    nothing in the app.  Each app service now gets .env's variables, optional as
    compose itself starts without it; its own ``environment`` still wins."""
    for name in APP_SERVICES:
        service = compose["services"][name]
        assert service["env_file"] == [{"path": ".env", "required": False}]
        # What .env could set and compose must decide per service is set here.
        assert {"CONN_MAX_AGE", "DATABASE_POOL_MAX_SIZE", "DEBUG"} <= set(service["environment"])


def test_image_installs_from_the_lock_file() -> None:
    """The image the app services build installs the same pinned lock file."""
    dockerfile = Path(ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements-lock.txt" in dockerfile


def test_compose_file_follows_the_compose_specification(compose: dict[str, Any]) -> None:
    """compose.yaml validates against the Compose Specification's JSON schema
    (tests/data/compose-spec.json, from github.com/compose-spec/compose-spec,
    schema/compose-spec.json, Apache-2.0): a misspelt key or a wrong type fails here
    instead of at ``docker compose up``."""
    import json

    import jsonschema  # type: ignore[import-untyped]

    schema = json.loads((ROOT / "tests" / "data" / "compose-spec.json").read_text())
    validator = jsonschema.Draft7Validator(schema)
    assert [e.message for e in validator.iter_errors(compose)] == []
    broken = {**compose, "services": {**compose["services"], "web": {"imgae": "x"}}}
    assert any("imgae" in e.message for e in validator.iter_errors(broken))


def test_proxy_routes_streams_to_asgi_and_the_rest_to_wsgi(compose: dict[str, Any]) -> None:
    """proxy (nginx) publishes port 8000 with deploy/nginx.conf; its upstreams are the
    web (WSGI, sync workers) and live (ASGI, uvicorn workers) services on their port."""
    services = compose["services"]
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert proxy["ports"] == ["${PROXY_BIND:-127.0.0.1}:8000:8000"]  # this host by default
    mounts = {v.split(":")[1]: v.split(":") for v in proxy["volumes"]}
    for target, name in (
        ("/etc/nginx/conf.d/default.conf", "nginx.conf"),
        ("/etc/nginx/nginx.conf", "nginx-main.conf"),
    ):
        source, _, mode = mounts[target]
        assert (ROOT / source).resolve() == ROOT / "deploy" / name
        assert mode == "ro"
    main = (ROOT / "deploy" / "nginx-main.conf").read_text()
    assert "include /etc/nginx/conf.d/*.conf;" in main
    assert "worker_connections 16384;" in main
    # Healthy first; restarted when web or live is recreated (nginx resolves them once).
    assert proxy["depends_on"] == {
        "web": {"condition": "service_healthy", "restart": True},
        "live": {"condition": "service_healthy", "restart": True},
    }
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "server web:8000;" in conf
    assert "server live:8000;" in conf
    assert "listen 8000;" in conf

    web, live = _argv(services["web"]), _argv(services["live"])
    assert web[1] == "canfield_site.wsgi:application"
    assert not any(a.startswith("--worker-class") for a in web)  # gunicorn's sync workers
    assert live[1] == "canfield_site.asgi:application"
    assert "--worker-class=uvicorn_worker.UvicornWorker" in live
    for argv in (web, live):
        assert "--bind=0.0.0.0:8000" in argv
    # WSGI keeps one persistent connection per worker; ASGI uses a pool instead (its
    # threads would each open one and leave it behind).
    assert services["web"]["environment"]["CONN_MAX_AGE"] == "60"
    assert services["live"]["environment"]["CONN_MAX_AGE"] == "0"
    assert int(services["live"]["environment"]["DATABASE_POOL_MAX_SIZE"]) > 0
    for name in ("web", "live"):
        assert "ports" not in services[name]  # reached through the proxy only
        assert services[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully"
        )
    # The proxy appends the client's address: the app trusts exactly that one hop.
    assert services["web"]["environment"]["TRUSTED_PROXY_COUNT"] == "${TRUSTED_PROXY_COUNT:-1}"
