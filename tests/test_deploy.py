"""Production settings (issue 12 item 9): ``manage.py check --deploy`` passes with no
warning under the README's production environment and under compose's defaults; plain
local HTTP is an explicit, documented override."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

import pytest
import yaml

from tests.helpers import ROOT

REAL_KEY = "k3y-" + "x9QpL2mZ7vR4tY8wB1nC6dF0gH5jK3sA" * 2
PLAIN_HTTP = {
    "SECURE_SSL_REDIRECT": "false",
    "SECURE_HSTS_SECONDS": "0",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
}


def readme_production_env() -> dict[str, str]:
    """The ``sh`` block under README's "### Production environment", placeholders filled."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### Production environment", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    env = dict(line.split("=", 1) for line in block.group(1).strip().splitlines())
    assert env["SECRET_KEY"].startswith("<")
    env["SECRET_KEY"] = REAL_KEY
    return {k: re.sub(r"<[^>]+>", "secret", v) for k, v in env.items()}


def compose_env() -> dict[str, str]:
    """The web service's environment with compose's ``${VAR:-default}`` defaults."""
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    env: dict[str, str] = {}
    for key, value in data["services"]["web"]["environment"].items():
        text = str(value)
        text = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", text)
        text = re.sub(r"\$\{SECRET_KEY:\?[^}]*\}", REAL_KEY, text)
        env[key] = text
    return env


def check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", str(ROOT))}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("source", ["readme", "compose"])
def test_check_deploy_passes_with_no_warning(source: str) -> None:
    env = readme_production_env() if source == "readme" else compose_env()
    assert env["DEBUG"] == "false"
    result = check_deploy(env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_plain_http_is_an_explicit_override() -> None:
    """The four documented lines turn HTTPS-only off; check --deploy then says so."""
    result = check_deploy({**compose_env(), **PLAIN_HTTP})
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout
    readme = (ROOT / "README.md").read_text()
    compose = (ROOT / "compose.yaml").read_text()
    for key, value in PLAIN_HTTP.items():
        assert f"{key}={value}" in readme
        assert f"{key}=" in (ROOT / ".env.example").read_text()
        assert f"${{{key}:-" in compose  # compose passes the override through


@pytest.mark.django_db
def test_production_answers_are_https_only(client: Any) -> None:
    """With the production flags, plain HTTP redirects (health exempt) and HTTPS answers
    carry HSTS with subdomains and preload."""
    from django.test import override_settings

    with override_settings(
        SECURE_SSL_REDIRECT=True,
        SECURE_REDIRECT_EXEMPT=[r"^api/v1/health$"],
        SECURE_HSTS_SECONDS=31_536_000,
        SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
        SECURE_HSTS_PRELOAD=True,
    ):
        plain = client.get("/api/v1/variants")
        assert plain.status_code == 301
        assert plain["Location"].startswith("https://")
        assert client.get("/api/v1/health").status_code in (200, 503)
        secure = client.get("/api/v1/variants", secure=True)
        assert secure.status_code == 200
        assert secure["Strict-Transport-Security"] == (
            "max-age=31536000; includeSubDomains; preload"
        )


def _routes(patterns: list[Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``(example path, view)`` of every ``path()`` route under ``patterns`` (converters
    filled with sample values; ``re_path`` routes are skipped: none is a stream)."""
    from django.urls import URLPattern, URLResolver
    from django.urls.resolvers import RoutePattern

    samples = {"uuid": "0b3c2d1e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", "int": "7", "path": "a/b"}
    out: list[tuple[str, Any]] = []
    for entry in patterns:
        if not isinstance(entry.pattern, RoutePattern):
            continue
        route = re.sub(
            r"<(?:(\w+):)?\w+>",
            lambda m: samples.get(m.group(1) or "str", "x"),
            str(entry.pattern),
        )
        if isinstance(entry, URLResolver):
            out += _routes(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            out.append(("/" + prefix + route, entry.callback))
    return out


def test_the_proxy_sends_exactly_the_event_streams_to_the_asgi_server() -> None:
    """deploy/nginx.conf's streams location matches every event-stream URL of the app
    and no other route (REST, pages, admin stay on the WSGI server), and keeps
    buffering off there."""
    from django.urls import get_resolver

    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    found = re.search(r"# EVENTS_PATH\n\s*location ~ (\S+) \{(.*?)\n    \}", conf, re.S)
    assert found is not None
    events_path, block = re.compile(found.group(1)), found.group(2)
    assert "proxy_pass http://canfield_live;" in block
    assert "proxy_buffering off;" in block

    routes = _routes(get_resolver().url_patterns)
    streams = {p for p, view in routes if view.__module__ == "api.streams"}
    assert streams == {
        "/api/v1/races/0b3c2d1e-4f5a-4b6c-8d7e-9f0a1b2c3d4e/events",
        "/api/v1/tournaments/0b3c2d1e-4f5a-4b6c-8d7e-9f0a1b2c3d4e/events",
        "/api/v1/games/0b3c2d1e-4f5a-4b6c-8d7e-9f0a1b2c3d4e/events",
    }
    assert len(routes) > 60  # the walk saw the API, the pages and the admin
    assert [p for p, _ in routes if bool(events_path.search(p)) != (p in streams)] == []
    # Near misses stay on the WSGI server.
    for path in ("/api/v1/races/x/events/", "/api/v1/races/x/standings", "/races/x/events"):
        assert not events_path.search(path)
