"""``GET /accounts/logout/`` (a typed address) answered a blank 405 page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def test_get_logout_asks_to_confirm_with_a_button(pages: PageClient) -> None:
    resp = pages.get("/accounts/logout/")
    assert resp.status_code == 200
    html = resp.content.decode()
    assert "You are logged in as ada." in html
    assert 'form method="post" action="/accounts/logout/"' in html
    assert '<button type="submit" class="primary">Log out</button>' in html
    # Still logged in until the button is pressed; then logged out, to the lobby.
    assert pages.get("/").context["user"].is_authenticated
    resp = pages.post("/accounts/logout/", {})
    assert (resp.status_code, resp["Location"]) == (302, "/")
    assert not pages.get("/").context["user"].is_authenticated


def test_get_logout_when_logged_out_goes_to_the_lobby() -> None:
    resp = Client().get("/accounts/logout/")
    assert (resp.status_code, resp["Location"]) == (302, "/")


def test_the_french_page(player: Any) -> None:
    html = PageClient(player).get("/accounts/logout/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    # No participle that gives the reader a gender ("connecté").
    assert "Vous utilisez le compte ada." in html
    assert "connecté" not in html
