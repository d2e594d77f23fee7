"""A database that cannot be reached is a ``503`` with ``Retry-After``, never a ``500``.

The connection error is injected (``django.db.OperationalError`` raised where the
request first reads the database), as psycopg raises it when PostgreSQL is down or a
connection was terminated: the API answers ``503 database_unavailable`` problem+json, a
page a plain ``503`` page, both with ``Retry-After``; the log keeps the exception (with
its traceback) and the answer shows none of it (no host, port or SQL).
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client

from games.services import games as game_services
from tests.api.conftest import client_for
from tests.factories import create_user

DOWN = 'connection failed: connection to server at "10.0.0.7", port 5439 failed: Connection refused'


def _down(*args: Any, **kwargs: Any) -> Any:
    raise OperationalError(DOWN)


@pytest.mark.django_db
def test_a_move_while_the_database_is_down_is_503_database_unavailable(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    client = client_for(create_user("outage"))
    game = client.post("/api/v1/games", {"seed": "0"}).json()
    monkeypatch.setattr(game_services, "move_play", _down)
    caplog.set_level(logging.ERROR)
    response = client.post(
        f"/api/v1/games/{game['id']}/moves", {"move": "draw", "expected_move_number": 0}
    )
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["code"] == "database_unavailable"
    assert body["instance"] == f"/api/v1/games/{game['id']}/moves"
    assert "5439" not in response.content.decode()
    logged = [r for r in caplog.records if r.exc_info and r.exc_info[1] is not None]
    assert [str(r.exc_info[1]) for r in logged if r.exc_info] == [DOWN]
    assert f"POST /api/v1/games/{game['id']}/moves" in logged[0].getMessage()
    monkeypatch.undo()
    # Nothing was played.
    assert client.get(f"/api/v1/games/{game['id']}").json()["move_number"] == 0


@pytest.mark.django_db
def test_a_lost_connection_on_a_page_is_a_503_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import web.views.lobby

    def lost(*args: Any, **kwargs: Any) -> Any:
        raise InterfaceError("connection already closed")

    monkeypatch.setattr(web.views.lobby, "tournament_list", lost)
    response = Client().get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.content.decode()
    assert "Service briefly unavailable" in page
    # The failed request was not done (it did not commit); it is not "nothing was lost".
    assert "so what you just sent was not done; everything done before it is kept." in page
    assert "connection already closed" not in page


@pytest.mark.django_db
def test_the_page_says_it_in_the_visitors_language(monkeypatch: pytest.MonkeyPatch) -> None:
    import web.views.lobby

    monkeypatch.setattr(web.views.lobby, "tournament_list", _down)
    response = Client(headers={"Accept-Language": "fr"}).get("/")
    assert response.status_code == 503
    assert "Service momentanément indisponible" in response.content.decode()
    assert "ce que vous venez d\u2019envoyer n\u2019a pas été fait" in response.content.decode()


@pytest.mark.django_db
def test_other_errors_are_still_500(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the database's connection errors are 503: a bug stays a 500."""
    client = client_for(create_user("bug"))
    game = client.post("/api/v1/games", {"seed": "0"}).json()

    def bug(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("x")

    monkeypatch.setattr(game_services, "move_play", bug)
    client.raise_request_exception = False
    response = client.post(f"/api/v1/games/{game['id']}/moves", {"move": "draw"})
    assert response.status_code == 500
    assert response.json()["code"] == "internal_error"


@pytest.mark.django_db
def test_a_500_under_the_api_is_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, settings: Any
) -> None:
    """Django logs the exception with its traceback; with ``DEBUG`` on (``dev.py
    serve``) the problem+json made of its debug page was logged a second time ("Internal
    Server Error: <path>", no traceback), so each failure showed up twice."""
    settings.DEBUG = True
    client = client_for(create_user("twice"))
    game = client.post("/api/v1/games", {"seed": "0"}).json()

    def bug(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("x")

    monkeypatch.setattr(game_services, "move_play", bug)
    client.raise_request_exception = False
    caplog.set_level(logging.ERROR, logger="django.request")
    response = client.post(f"/api/v1/games/{game['id']}/moves", {"move": "draw"})
    assert response.status_code == 500
    logged = [r for r in caplog.records if r.name == "django.request"]
    assert [r.getMessage() for r in logged] == [
        f"Internal Server Error: /api/v1/games/{game['id']}/moves"
    ]
    assert logged[0].exc_info is not None
