"""A problem document is JSON whatever renderer a view negotiated (``ProblemResponse``).

An attack asked ``GET /api/v1/races?phase=bogus`` with ``Accept: text/html`` on the
embedded default (``DEBUG`` on): ``400``, ``Content-Type: application/problem+json``,
and a body that was the browsable API's HTML page.  The schema endpoint answered its
problems in YAML under the same type."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

BROWSABLE = {
    **settings.REST_FRAMEWORK,
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}


@override_settings(REST_FRAMEWORK=BROWSABLE)
@pytest.mark.parametrize(
    ("path", "code"),
    [("/api/v1/races?phase=bogus", "invalid_filter"), ("/api/v1/games", "not_authenticated")],
)
def test_a_problem_asked_for_as_html_is_json(path: str, code: str) -> None:
    resp: Any = Client().get(path, HTTP_ACCEPT="text/html")
    assert resp["Content-Type"] == "application/problem+json"
    assert json.loads(resp.content)["code"] == code


@override_settings(REST_FRAMEWORK=BROWSABLE)
def test_the_browsable_api_still_shows_answers_as_html() -> None:
    resp: Any = Client().get("/api/v1/races", HTTP_ACCEPT="text/html")
    assert resp.status_code == 200
    assert resp["Content-Type"].startswith("text/html")
    assert b"<html" in resp.content


@pytest.mark.parametrize(
    ("path", "accept", "status", "code"),
    [
        ("/api/v1/schema", "text/html", 406, "not_acceptable"),
        ("/api/v1/schema?format=bogus", "*/*", 404, "not_found"),
    ],
)
def test_the_schema_endpoints_problems_are_json(
    path: str, accept: str, status: int, code: str
) -> None:
    resp: Any = Client().get(path, HTTP_ACCEPT=accept)
    assert (resp.status_code, resp["Content-Type"]) == (status, "application/problem+json")
    assert json.loads(resp.content)["code"] == code


def test_the_schema_is_still_yaml_by_default() -> None:
    resp: Any = Client().get("/api/v1/schema")
    assert resp.status_code == 200
    assert resp["Content-Type"].startswith("application/vnd.oai.openapi")
    assert resp.content.startswith(b"openapi: 3.0.3")
