"""Fixtures for API tests: players with token-authenticated clients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.services.tokens import token_issue
from tests.factories import OrganiserFactory, UserFactory


def client_for(user: object) -> APIClient:
    """An APIClient that sends ``Authorization: Token <key>`` for ``user``."""
    client = APIClient()
    token, _ = token_issue(user=user)  # type: ignore[arg-type]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    client.token = token  # type: ignore[attr-defined]
    return client


@pytest.fixture
def make_client(db: None) -> Callable[..., APIClient]:
    """Factory: ``make_client("alice")`` -> a client authenticated as a new player."""

    def make(username: str | None = None, *, staff: bool = False) -> APIClient:
        factory: Any = OrganiserFactory if staff else UserFactory
        user = factory(username=username) if username else factory()
        client = client_for(user)
        client.user = user  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def player(make_client: Callable[..., APIClient]) -> APIClient:
    """A client authenticated as one player."""
    return make_client("alice")


@pytest.fixture
def anon() -> APIClient:
    """An unauthenticated client."""
    return APIClient()
