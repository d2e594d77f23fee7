"""Token authentication with the per-process token cache (api/authentication.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.authentication import forget_token
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def token_queries(client: APIClient) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/api/v1/games").status_code == 200
    return sum("authtoken_token" in q["sql"] for q in ctx.captured_queries)


def test_a_token_is_looked_up_once_per_ttl(player: APIClient) -> None:
    assert token_queries(player) == 1
    assert token_queries(player) == 0


def test_ttl_zero_looks_up_every_request(
    player: APIClient, settings: pytest.FixtureRequest
) -> None:
    settings.AUTH_TOKEN_CACHE_SECONDS = 0  # type: ignore[attr-defined]
    assert token_queries(player) == 1
    assert token_queries(player) == 1


def test_a_deleted_token_is_refused_at_once() -> None:
    user = create_user("zed")
    token = Token.objects.get(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/v1/games").status_code == 200
    token.delete()  # the post_delete signal drops it from the cache
    resp = client.get("/api/v1/games")
    assert resp.status_code == 401
    assert resp.json()["code"] == "authentication_failed"


def test_a_deactivated_user_is_refused_once_the_cache_expires(
    settings: pytest.FixtureRequest,
) -> None:
    settings.AUTH_TOKEN_CACHE_SECONDS = 0  # type: ignore[attr-defined]
    user = create_user("yan")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get(user=user).key}")
    assert client.get("/api/v1/games").status_code == 200
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert client.get("/api/v1/games").status_code == 401


def test_forget_token_drops_a_cached_token(player: APIClient) -> None:
    key = Token.objects.get(user=player.user).key  # type: ignore[attr-defined]
    assert token_queries(player) == 1
    forget_token(key)
    assert token_queries(player) == 1
