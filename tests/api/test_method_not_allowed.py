"""``405 method_not_allowed`` names the methods the endpoint takes.

A new user sent ``POST /api/v1/games/{id}/hint`` and read DRF's ``Method "POST" not
allowed.``: nothing said the hint is a ``GET``.  Every 405 under ``/api/`` (the REST
views, the event streams, a bare 405 made problem+json by the middleware) now says
which methods are allowed, in ``detail``, in the ``allowed`` member and in ``Allow``,
with the same stable code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.http import HttpResponseNotAllowed
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from api.refusals import ProblemJsonMiddleware
from tests.api.test_schema import generate

ANY_ID = "00000000-0000-4000-8000-000000000000"


@pytest.mark.django_db
def test_posting_for_a_hint_names_get(player: APIClient) -> None:
    game = player.post("/api/v1/games", {"seed": "0"}, format="json").json()["id"]
    path = f"/api/v1/games/{game}/hint"

    resp = player.post(path, {}, format="json")

    assert resp.status_code == 405
    assert resp["Content-Type"] == "application/problem+json"
    assert resp["Allow"] == "GET, HEAD, OPTIONS"
    body = resp.json()
    assert body["code"] == "method_not_allowed"
    assert body["detail"] == (
        "POST is not allowed on /api/v1/games/{id}/hint; allowed: GET, HEAD, OPTIONS."
    )
    assert body["allowed"] == ["GET", "HEAD", "OPTIONS"]
    assert body["instance"] == path


@pytest.mark.django_db
def test_a_get_on_a_post_only_endpoint_names_post(anon: APIClient) -> None:
    resp = anon.get("/api/v1/auth/token")

    assert (resp.status_code, resp["Allow"]) == (405, "POST, OPTIONS")
    body = resp.json()
    assert body["detail"] == "GET is not allowed on /api/v1/auth/token; allowed: POST, OPTIONS."
    assert body["allowed"] == ["POST", "OPTIONS"]


@pytest.mark.django_db
def test_a_stream_names_get() -> None:
    path = f"/api/v1/races/{ANY_ID}/events"

    resp = APIClient(enforce_csrf_checks=True).put(path)

    assert (resp.status_code, resp["Allow"]) == (405, "GET")
    body = resp.json()
    assert body["code"] == "method_not_allowed"
    assert body["detail"] == (
        "PUT is not allowed on /api/v1/races/{id}/events; allowed: GET. "
        "An event stream is only read."
    )
    assert body["allowed"] == ["GET"]


@pytest.mark.django_db
def test_path_parameters_other_than_ids_are_named(anon: APIClient) -> None:
    """The detail names the endpoint, not the address asked for: the same words for
    every player (and a draft's race answers exactly as a missing one)."""
    resp = anon.delete("/api/v1/players/someone/history")

    assert resp.status_code == 405
    assert resp.json()["detail"] == (
        "DELETE is not allowed on /api/v1/players/{username}/history; allowed: GET, HEAD, OPTIONS."
    )


def test_a_bare_405_under_the_api_names_the_allowed_methods() -> None:
    """A Django view's own 405 (``HttpResponseNotAllowed``) gets the same body (with the
    request's path when no route matched it)."""
    bare: Callable[[Any], Any] = lambda request: HttpResponseNotAllowed(["GET", "HEAD"])  # noqa: E731
    request = RequestFactory().delete("/api/v1/somewhere?x=1")

    resp = ProblemJsonMiddleware(bare)(request)

    assert (resp.status_code, resp["Allow"]) == (405, "GET, HEAD")
    assert resp["Content-Type"] == "application/problem+json"
    body = json.loads(resp.content)
    assert body["code"] == "method_not_allowed"
    assert body["detail"] == "DELETE is not allowed on /api/v1/somewhere; allowed: GET, HEAD."
    assert body["allowed"] == ["GET", "HEAD"]


def test_the_problem_schema_documents_allowed(tmp_path: Path) -> None:
    problem = generate(tmp_path)["components"]["schemas"]["Problem"]
    allowed = problem["properties"]["allowed"]
    assert allowed["type"] == "array"
    assert allowed["items"] == {"type": "string"}
    assert "allowed" not in problem.get("required", [])


def test_the_redoc_bundle_answers_get_and_head_only() -> None:
    """``POST /api/v1/redoc/redoc.standalone.js`` answered 200 with the script."""
    c = Client()
    assert c.get("/api/v1/redoc/redoc.standalone.js").status_code == 200
    assert c.head("/api/v1/redoc/redoc.standalone.js").status_code == 200
    for method in ("post", "put", "delete"):
        resp = getattr(c, method)("/api/v1/redoc/redoc.standalone.js")
        assert (resp.status_code, resp["Allow"]) == (405, "GET, HEAD"), method
        assert resp["Content-Type"] == "application/problem+json"
        assert resp.json()["allowed"] == ["GET", "HEAD"]
