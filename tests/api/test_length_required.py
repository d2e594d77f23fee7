"""A body sent in chunks with no Content-Length: refused with 411, not read as empty.

An attacker's run found that under the served app such a body was treated as empty: a
game asked for with a seed started on a random deal, a move was refused as missing,
and the 413 size limit never applied."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from canfield_site.middleware import length_required_middleware
from games.models import Game
from tests.api.test_schema import generate

pytestmark = pytest.mark.django_db

CHUNKED: dict[str, Any] = {"HTTP_TRANSFER_ENCODING": "chunked", "CONTENT_LENGTH": ""}


def test_a_chunked_api_body_is_411_problem_json_and_starts_nothing(player: APIClient) -> None:
    resp = player.post("/api/v1/games", {"seed": "12345"}, format="json", **CHUNKED)
    assert resp.status_code == 411
    assert resp["Content-Type"] == "application/problem+json"
    assert resp.json()["code"] == "length_required"
    # Its own reason, not the bare status's "Length Required." the problem rewrite gave it.
    assert resp.json()["detail"] == (
        "A request body needs a Content-Length header and no Transfer-Encoding "
        "(chunked bodies are not read)."
    )
    assert not Game.objects.exists()
    # The same body with its length is read.
    ok = player.post("/api/v1/games", {"seed": "12345"}, format="json")
    assert ok.status_code == 201
    assert Game.objects.get(id=ok.json()["id"]).deal.seed == "12345"


def test_a_chunked_body_with_a_content_length_too_is_411(player: APIClient) -> None:
    """With both headers the length is not the body's: a ``Content-Length: 0`` beside a
    chunked body had the body read as empty (a game started without its seed)."""
    for length in ("0", "3"):
        resp = player.post(
            "/api/v1/games",
            {"seed": "12345"},
            format="json",
            HTTP_TRANSFER_ENCODING="chunked",
            CONTENT_LENGTH=length,
        )
        assert (resp.status_code, resp.json()["code"]) == (411, "length_required")
    assert not Game.objects.exists()


def test_a_chunked_form_post_is_411_on_the_pages_too() -> None:
    resp = Client().post("/accounts/login/", {"username": "x"}, **CHUNKED)
    assert resp.status_code == 411
    assert resp.content.startswith(b"A request body needs a Content-Length header")


def test_reads_and_bodies_with_a_length_pass() -> None:
    get = Client().get("/api/v1/health", HTTP_TRANSFER_ENCODING="chunked")
    assert get.status_code == 200


def test_the_async_path_refuses_without_a_thread_hop() -> None:
    async def downstream(request: Any) -> HttpResponse:
        return HttpResponse(b"read")

    middleware = length_required_middleware(downstream)
    assert asyncio.iscoroutinefunction(middleware)
    chunked = RequestFactory().post(
        "/api/v1/games", data=b"{}", content_type="application/json", **CHUNKED
    )
    sized = RequestFactory().post("/api/v1/games", data=b"{}", content_type="application/json")
    assert asyncio.run(middleware(chunked)).status_code == 411
    assert asyncio.run(middleware(sized)).content == b"read"


def test_every_operation_that_takes_a_body_documents_the_411(tmp_path: Path) -> None:
    """The code was in the list, but no operation had a 411 response; a POST or PUT
    without a declared body (join, start, resign, logout, ...) is refused the same way."""
    schema = generate(tmp_path)
    missing = [
        (method, path)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in ("post", "put", "patch")
        and "length_required" not in op["responses"].get("411", {}).get("description", "")
    ]
    assert missing == []
    assert "411" in schema["paths"]["/api/v1/races/{race_id}/join"]["post"]["responses"]
    assert "411" not in schema["paths"]["/api/v1/races"]["get"]["responses"]
