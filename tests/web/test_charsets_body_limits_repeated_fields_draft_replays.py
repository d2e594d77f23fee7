"""Defects a hostile tester found (pages, forms, streams), each pinned by a test.

- A page's form post in a charset other than UTF-8 (with the CSRF cookie a browser
  holds) was a 500: Django's own 400 and 500 pages read the unreadable body again.
- A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` made of a multipart file was read whole and
  answered 200 (Django counts only a form's fields against the limit): now 413.
- A ``Content-Type`` charset that names a codec but no text encoding (``rot13``, ``zlib``)
  broke Django's request before any middleware (any GET with a query string, on the WSGI
  server the API and pages run on) and a multipart body's fields: now 415.  So did a
  parameter in RFC 2231 form naming an unknown encoding (``x*=bogus''a``), on the WSGI
  and the ASGI servers alike.
- A finished race of a draft tournament: its entrants' replays answered anyone with the
  game's id while its race and results answered 404.
- A board form field sent twice (``move=draw&move=redeal``) played its last value: now
  refused, as the API refuses a JSON key named twice.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest
from django.core import signals
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import close_old_connections
from django.test import Client

from games.models import Game
from games.services.games import game_start
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

UTF16_FORM = "application/x-www-form-urlencoded; charset=utf-16"


@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/", "/practice", "/"])
def test_a_form_post_in_another_charset_is_415_not_500(path: str) -> None:
    pages = PageClient()
    pages.get("/accounts/login/")  # the CSRF cookie and token, as a browser has them
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies = pages.client.cookies
    resp = client.post(path, b"a=b", content_type=UTF16_FORM, HTTP_X_CSRFTOKEN=pages.token)
    assert resp.status_code == 415
    assert resp["Content-Type"] == "text/plain; charset=utf-8"
    assert b"UTF-8" in resp.content


def test_a_move_posted_in_another_charset_changes_nothing(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="1")
    pages.get(f"/play/{game.id}/")
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies = pages.client.cookies
    body = "move=draw&expected_move_number=0"  # the test client encodes it in UTF-16
    resp = client.post(
        f"/play/{game.id}/move", body, content_type=UTF16_FORM, HTTP_X_CSRFTOKEN=pages.token
    )
    assert resp.status_code == 415
    assert Game.objects.get(id=game.id).move_number == 0
    utf8 = client.post(
        f"/play/{game.id}/move",
        b"move=draw&expected_move_number=0",
        content_type="application/x-www-form-urlencoded; charset=UTF-8",
        HTTP_X_CSRFTOKEN=pages.token,
    )
    assert utf8.status_code == 302
    assert Game.objects.get(id=game.id).move_number == 1


def test_an_api_form_post_in_another_charset_is_problem_json() -> None:
    resp = Client(raise_request_exception=False).post(
        "/api/v1/auth/token", b"username=a", content_type=UTF16_FORM
    )
    assert resp.status_code == 415
    assert resp["Content-Type"].startswith("application/problem+json")
    assert resp.json()["code"] == "unsupported_media_type"


def test_a_body_over_the_limit_is_413_before_anything_reads_it(settings: Any) -> None:
    """Django counted only a form's fields against the limit: a file in a multipart body
    (no form here takes one) was read whole by the CSRF check, and the login page
    answered 200."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    pages = PageClient()
    pages.get("/accounts/login/")
    big = SimpleUploadedFile("big.bin", b"x" * 5000)
    resp = pages.client.post(
        "/accounts/login/",
        {"username": "ada", "password": "wrong", "f": big},
        HTTP_X_CSRFTOKEN=pages.token,
    )
    assert resp.status_code == 413
    assert resp["Content-Type"] == "text/plain; charset=utf-8"
    small = pages.client.post(
        "/accounts/login/", {"username": "ada", "password": "wrong"}, HTTP_X_CSRFTOKEN=pages.token
    )
    assert small.status_code == 200  # the form again, with its error


def test_an_api_body_over_the_limit_is_problem_json(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    resp = Client().post("/api/v1/auth/token", {"f": SimpleUploadedFile("big.bin", b"x" * 5000)})
    assert resp.status_code == 413
    assert resp.json()["code"] == "payload_too_large"


def _wsgi_get(app: Any, path: str, content_type: str) -> tuple[str, bytes]:
    """``GET path?mode=window`` through the WSGI application ``app``: its status line and
    body (``mode`` is a parameter of ``/api/v1/races``, which refuses undeclared ones)."""
    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ.update(
        PATH_INFO=path,
        QUERY_STRING="mode=window",
        CONTENT_TYPE=content_type,
        HTTP_HOST="testserver",
    )
    status: list[str] = []
    # As Django's test client does: the test's transaction keeps its connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        body = b"".join(app(environ, lambda line, headers: status.append(line)))
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    return status[0], body


@pytest.mark.parametrize("charset", ["rot13", "zlib", "hex", "bz2"])
def test_a_charset_that_is_no_text_encoding_is_415_on_the_wsgi_server(charset: str) -> None:
    from canfield_site.wsgi import application

    content_type = f"text/plain; charset={charset}"
    status, body = _wsgi_get(application, "/", content_type)
    assert status.startswith("415 ")
    assert b"charset this server does not read" in body
    status, body = _wsgi_get(application, "/api/v1/races", content_type)
    assert status.startswith("415 ")
    assert json.loads(body)["code"] == "unsupported_media_type"
    # A charset Python does not know is ignored, as Django does.
    status, _body = _wsgi_get(application, "/api/v1/races", "text/plain; charset=nonesuch")
    assert status.startswith("200 ")


@pytest.mark.parametrize("charset", ["rot13", "zlib", "latin-1"])
def test_a_multipart_form_in_another_charset_is_415(charset: str) -> None:
    pages = PageClient()
    pages.get("/accounts/login/")
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies = pages.client.cookies
    body = b'--xx\r\nContent-Disposition: form-data; name="username"\r\n\r\nada\r\n--xx--\r\n'
    resp = client.generic(
        "POST",
        "/accounts/login/",
        body,
        content_type=f"multipart/form-data; boundary=xx; charset={charset}",
        HTTP_X_CSRFTOKEN=pages.token,
    )
    assert resp.status_code == 415


@pytest.mark.parametrize(
    "body",
    [
        "move=draw&move=redeal&expected_move_number=0",
        "move=draw&expected_move_number=0&expected_move_number=0",
    ],
)
def test_a_move_field_sent_twice_plays_nothing(pages: PageClient, player: Any, body: str) -> None:
    """The last of two values was played (``QueryDict.get``), not the first a reader of
    the body would see; the API refuses a JSON key named twice the same way."""
    game = game_start(player=player, seed="1")
    pages.get(f"/play/{game.id}/")
    resp = pages.client.post(
        f"/play/{game.id}/move",
        body,
        content_type="application/x-www-form-urlencoded",
        HTTP_X_CSRFTOKEN=pages.token,
    )
    assert resp.status_code == 400
    assert "sent with a field more than once" in resp.content.decode()
    assert Game.objects.get(id=game.id).move_number == 0


def test_an_undo_number_sent_twice_undoes_nothing(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="1")
    pages.post(f"/play/{game.id}/move", {"move": "draw", "expected_move_number": 0})
    resp = pages.client.post(
        f"/play/{game.id}/undo",
        "expected_move_number=1&expected_move_number=1",
        content_type="application/x-www-form-urlencoded",
        HTTP_X_CSRFTOKEN=pages.token,
    )
    assert resp.status_code == 400
    assert Game.objects.get(id=game.id).move_number == 1


@pytest.mark.parametrize("content_type", ["text/plain; x*=bogus''a", "a/b; charset*=nope''%ff"])
def test_a_content_type_parameter_in_an_unknown_encoding_is_415_on_the_wsgi_server(
    content_type: str,
) -> None:
    from canfield_site.wsgi import application

    status, body = _wsgi_get(application, "/", content_type)
    assert status.startswith("415 ")
    assert b"cannot be read" in body
    status, body = _wsgi_get(application, "/api/v1/races", content_type)
    assert status.startswith("415 ")
    assert json.loads(body)["code"] == "unsupported_media_type"


@pytest.mark.parametrize("content_type", [b"text/plain; x*=bogus''a", b"text/plain; charset=rot13"])
def test_an_unreadable_content_type_is_415_on_the_asgi_server(content_type: bytes) -> None:
    """Django's ASGI handler raised ValueError building the request (uvicorn's bare 500)."""
    from canfield_site.asgi import application

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/api/v1/races",
        "query_string": b"x=1",
        "headers": [(b"host", b"testserver"), (b"content-type", content_type)],
    }
    asyncio.run(application(scope, receive, send))
    assert sent[0]["status"] == 415
    assert json.loads(sent[1]["body"])["code"] == "unsupported_media_type"


def test_readable_content_types_pass() -> None:
    from canfield_site.middleware import unreadable_content_type

    for content_type in (
        "",
        "application/json",
        "application/json; charset=utf-8",
        "text/plain; charset=nonesuch",
        "text/plain; charset*=UTF-8''utf-8",
        "multipart/form-data; boundary=xx",
    ):
        assert unreadable_content_type(content_type) is None, content_type


def test_a_draft_tournament_race_game_has_no_public_replay() -> None:
    """Its race and results answer 404 to players until the tournament is published; its
    entrants' replays (the deal and every move) answered anyone with the game's id."""
    from games.models import Race, RaceEntry, Tournament
    from tests.tournaments.factories import Result, TournamentFactory, finished_race

    race = finished_race(None, Result("ann", 10, 1000), Result("bob", 12, 2000))
    draft: Any = TournamentFactory(status=Tournament.Status.DRAFT)  # type: ignore[no-untyped-call]
    Race.objects.filter(id=race.id).update(tournament=draft)
    game_id = RaceEntry.objects.filter(race=race).values_list("game_id", flat=True)[0]
    assert Client().get(f"/races/{race.id}/results").status_code == 404
    assert Client().get(f"/replay/{game_id}/").status_code == 404
    Tournament.objects.filter(id=draft.id).update(status=Tournament.Status.OPEN)
    assert Client().get(f"/replay/{game_id}/").status_code == 200
