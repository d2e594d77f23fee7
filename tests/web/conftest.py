"""Fixtures for page tests: a logged-in Django test client that enforces CSRF."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import make_user

PASSWORD = "a-long-test-password-91"


def csrf_of(html: str) -> str:
    """The CSRF token of a page (the csrf-token meta tag every page carries)."""
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match, "page has no csrf-token meta"
    return match.group(1)


class PageClient:
    """A browser-like client: CSRF checks on, the token taken from the pages it loads."""

    def __init__(self, user: Any = None) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.user = user
        if user is not None:
            self.client.force_login(user)
        self.token = ""

    def get(self, url: str, **extra: Any) -> Any:
        resp = self.client.get(url, **extra)
        if resp.status_code == 200 and b"csrf-token" in resp.content:
            self.token = csrf_of(resp.content.decode())
        return resp

    def post(self, url: str, data: dict[str, Any], *, htmx: bool = False, **extra: Any) -> Any:
        if not self.token:
            self.get("/")
        extra["HTTP_X_CSRFTOKEN"] = self.token
        if htmx:
            extra["HTTP_HX_REQUEST"] = "true"
        return self.client.post(url, data, **extra)


@pytest.fixture
def player() -> Any:
    """A player with :data:`PASSWORD`."""
    user = make_user(username="ada")
    user.set_password(PASSWORD)
    user.save()
    return user


@pytest.fixture
def pages(player: Any) -> PageClient:
    """A :class:`PageClient` logged in as :func:`player`."""
    return PageClient(player)
