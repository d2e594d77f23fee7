"""The OpenAPI schema: valid, complete, and documenting every stable problem code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

from api.errors import SERVICE_ERROR_STATUS, ProblemSerializer
from api.problem_codes import PROBLEM_CODES
from games.services import errors as service_errors

API = Path(__file__).resolve().parents[2] / "api"


def generate(tmp_path: Path) -> dict:  # type: ignore[type-arg]
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    return dict(yaml.safe_load(out.read_text()))


def api_paths() -> set[str]:
    """Every /api/v1 route except the schema and its viewers, in OpenAPI path syntax."""
    resolver = get_resolver()
    found: set[str] = set()

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            else:
                found.add("/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))

    walk(resolver.url_patterns, "")
    return {
        p
        for p in found
        # The documentation pages and the catch-all 404 are regular expressions, not API paths.
        if p.startswith("/api/v1/") and "^" not in p
    }


def test_schema_validates_and_has_every_path(tmp_path: Path) -> None:
    schema = generate(tmp_path)
    assert schema["openapi"].startswith("3.")
    paths = set(schema["paths"])
    expected = api_paths()
    assert "/api/v1/games/{game_id}/moves" in expected
    assert len(expected) >= 16
    assert expected <= paths, expected - paths


def test_problem_codes_are_documented_in_the_schema(tmp_path: Path) -> None:
    schema = generate(tmp_path)
    description = schema["info"]["description"]
    for code, meaning in PROBLEM_CODES.items():
        assert f"\n- `{code}`: {meaning}\n" in description
    enums = [
        s["enum"]
        for s in schema["components"]["schemas"].values()
        if s.get("enum") and "stale_move_number" in s["enum"]
    ]
    assert enums == [list(PROBLEM_CODES)]
    code_field: Any = ProblemSerializer().fields["code"]
    assert list(code_field.choices) == list(PROBLEM_CODES)


def test_every_code_in_use_is_in_problem_codes() -> None:
    used = set(SERVICE_ERROR_STATUS)
    # Codes of the service errors that can reach the API (abstract bases excluded).
    for klass in vars(service_errors).values():
        if (
            isinstance(klass, type)
            and issubclass(klass, service_errors.ServiceError)
            and klass not in (service_errors.ServiceError, service_errors.RaceError)
        ):
            used.add(klass.code)
    literal = re.compile(r"""ProblemError\(\s*["']([a-z_]+)["']""")
    keyword = re.compile(r"""\bcode\s*=\s*["']([a-z_]+)["']""")
    for source in [*API.glob("*.py"), API.parent / "canfield_site" / "middleware.py"]:
        text = source.read_text()
        used |= set(literal.findall(text)) | set(keyword.findall(text))
    from api.errors import _DRF_CODES
    from api.refusals import STATUS_CODES

    used |= set(_DRF_CODES.values()) | set(STATUS_CODES.values())
    # Sanity: the grep found the codes raised in api/*.py.
    assert {"username_taken", "invalid_credentials", "unknown_field", "payload_too_large"} <= used
    assert used - set(PROBLEM_CODES) == set()
    # ... and every documented code is one the code base uses.
    assert set(PROBLEM_CODES) - used == set()


@pytest.mark.django_db
def test_docs_pages_load_their_assets_from_this_server() -> None:
    """Swagger UI and ReDoc come from drf-spectacular-sidecar: no CDN is needed."""
    from django.test import Client

    client = Client()
    for path, asset in (
        ("/api/v1/docs/", "/static/drf_spectacular_sidecar/"),
        ("/api/v1/redoc/", "/api/v1/redoc/redoc.standalone.js"),
    ):
        resp = client.get(path)
        assert resp.status_code == 200
        html = resp.content.decode()
        assert "cdn.jsdelivr" not in html
        assert "fonts.googleapis" not in html
        assert asset in html
    bundle = client.get("/api/v1/redoc/redoc.standalone.js")
    assert bundle.status_code == 200
    assert bundle["Content-Type"].startswith("text/javascript")
    body = bundle.content
    assert b"cdn.redoc.ly" not in body
    assert b"Redoc" in body


def test_undo_documents_expected_move_number(tmp_path: Path) -> None:
    """Undo's ``expected_move_number`` is described as the moves' is: the 409 it answers
    on a mismatch, and why to send it."""
    schema = generate(tmp_path)
    undo = schema["paths"]["/api/v1/games/{game_id}/undo"]["post"]
    assert "expected_move_number" in undo["description"]
    assert "stale_move_number" in undo["description"]
    assert "stale_move_number" in undo["responses"]["409"]["description"]
    field = schema["components"]["schemas"]["ExpectedMoveInput"]["properties"]
    assert "stale_move_number" in field["expected_move_number"]["description"]
