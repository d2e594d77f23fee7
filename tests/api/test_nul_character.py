# mypy: disable-error-code="no-untyped-call"
"""A NUL character (``%00``) in a path or a query: 400, never a 500.

An attack found ``/api/v1/players/a%00b``, ``/api/v1/leaderboards/a%00b``, a history's
``?pool=a%00b`` and the pages ``/players/a%00b/`` and ``/leaderboards/a%00b/`` answering
500 on PostgreSQL, whose text columns refuse a NUL (``DataError``); SQLite answered
404.  The suite runs on both (CI on PostgreSQL)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from canfield_site.middleware import nul_character_middleware
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

API_PATHS = [
    "/api/v1/players/a%00b",
    "/api/v1/players/a%00b/history",
    "/api/v1/leaderboards/a%00b",
    "/api/v1/players/ann/history?pool=a%00b",
    "/api/v1/races?phase=running%00",
    "/api/v1/races?x%00=1",
]


@pytest.mark.parametrize("path", API_PATHS)
def test_the_api_answers_400_nul_character(anon: APIClient, path: str) -> None:
    UserFactory(username="ann")
    resp = anon.get(path)
    assert resp.status_code == 400, resp.content
    assert resp["Content-Type"] == "application/problem+json"
    body = resp.json()
    assert (body["code"], body["status"]) == ("nul_character", 400)


@pytest.mark.parametrize("path", ["/players/a%00b/", "/leaderboards/a%00b/", "/?q=%00"])
def test_the_pages_answer_400(path: str) -> None:
    resp = Client().get(path)
    assert resp.status_code == 400
    assert resp.content.startswith(b"The path or the query holds a NUL character")


def test_the_same_requests_without_the_nul_are_answered_as_before(anon: APIClient) -> None:
    UserFactory(username="ann")
    assert anon.get("/api/v1/players/ab").status_code == 404
    assert anon.get("/api/v1/players/ann/history").status_code == 200
    assert anon.get("/api/v1/leaderboards/ab").status_code == 404
    assert Client().get("/players/ann/").status_code == 200


def test_the_async_path_refuses_too() -> None:
    async def downstream(request: Any) -> HttpResponse:
        return HttpResponse(b"read")

    middleware = nul_character_middleware(downstream)
    assert asyncio.iscoroutinefunction(middleware)
    factory = RequestFactory()
    assert asyncio.run(middleware(factory.get("/api/v1/players/a%00b"))).status_code == 400
    assert asyncio.run(middleware(factory.get("/api/v1/players/ab"))).content == b"read"
