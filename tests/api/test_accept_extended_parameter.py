"""An ``Accept`` parameter in RFC 2231 notation is ignored, as any extension parameter is.

``Accept: text/html; x*=bogus''a`` (or ``application/json; q*=utf-8''%ff``) was a handled
500 on every API endpoint (DRF's negotiation parses media ranges with Django's
``parse_header_parameters``, which decodes ``x*`` as MIME does and raised ``ValueError``
for an unknown charset) and on the language switch (``set_language`` asks
``request.accepts("text/html")``).  HTTP's ``Accept`` has no such notation, so ``x*`` is
an extension parameter and the request is negotiated as without it
(``canfield_site.middleware.readable_accept_middleware``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, RequestFactory

from canfield_site.middleware import _read_accept, readable_accept
from tests.web.test_request_building_attacks import asgi, wsgi

pytestmark = pytest.mark.django_db

#: ``(header sent, the header it is negotiated as)``.
HEADERS = [
    ("text/html; x*=bogus''a", "text/html"),
    ("application/json; q*=utf-8''%ff", "application/json"),
    ("application/json; x*=idna''a", "application/json"),
    ("application/json; x*0*=bogus''a; x*1=b", "application/json; x*1=b"),
    ("application/json, text/html; x*=bogus''a", "application/json, text/html"),
    ("application/problem+json; charset*=bogus''utf-8", "application/problem+json"),
    ("text/html; x *=bogus''a", "text/html"),
    ("text/html,*/*;q=0.8;x*=bogus''a", "text/html, */*;q=0.8"),
]

#: What browsers send: a ``*`` in ``*/*``, no parameter in RFC 2231 notation.
BROWSER_HEADERS = [
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "application/json, text/plain, */*",
    "text/html;q=0.9,  text/*;q=0.5",
]

API_PATHS = ["/api/v1/health", "/api/v1/races", "/api/v1/me", "/api/v1/nowhere"]


@pytest.mark.parametrize(("sent", "read"), HEADERS)
def test_readable_accept_drops_only_the_extended_parameters(sent: str, read: str) -> None:
    assert readable_accept(sent) == read


def test_a_plain_accept_is_left_as_it_is() -> None:
    for header in ("*/*", "text/html;q=0.9, application/json", "application/json; x=1"):
        assert readable_accept(header) == header


@pytest.mark.parametrize("header", BROWSER_HEADERS)
def test_a_browser_accept_is_left_byte_for_byte(header: str) -> None:
    """The quick check took the ``*`` of ``*/*`` for an extended parameter, and the
    header was rewritten (``text/html,application/xhtml+xml`` became
    ``text/html, application/xhtml+xml``)."""
    request = RequestFactory().get("/", HTTP_ACCEPT=header)
    _read_accept(request)
    assert request.META["HTTP_ACCEPT"] == header


@pytest.mark.parametrize(("sent", "read"), HEADERS)
def test_an_extended_parameter_is_still_dropped_from_the_request(sent: str, read: str) -> None:
    request = RequestFactory().get("/", HTTP_ACCEPT=sent)
    _read_accept(request)
    assert request.META["HTTP_ACCEPT"] == read
    assert request.headers["Accept"] == read


def _answer(path: str, accept: str) -> tuple[int, str, bytes]:
    resp = Client().get(path, HTTP_ACCEPT=accept)
    return resp.status_code, resp["Content-Type"], resp.content


@pytest.mark.parametrize(("sent", "read"), HEADERS)
@pytest.mark.parametrize("path", API_PATHS)
def test_the_api_answers_as_without_the_extended_parameter(path: str, sent: str, read: str) -> None:
    """The old code raised ``ValueError`` out of the negotiation (the test client
    re-raises it; the server answered 500 ``server_error``)."""
    status, kind, body = _answer(path, sent)
    assert status < 500, body[:300]
    assert (status, kind) == _answer(path, read)[:2]


def test_a_json_request_with_a_bogus_extended_parameter_gets_json() -> None:
    status, kind, body = _answer("/api/v1/health", "application/json; q*=utf-8''%ff")
    assert (status, kind) == (200, "application/json")
    assert json.loads(body)["status"] == "ok"
    status, kind, body = _answer("/api/v1/races", "text/csv; x*=bogus''a")
    assert (status, kind) == (406, "application/problem+json")
    assert json.loads(body)["code"] == "not_acceptable"


@pytest.mark.parametrize(("sent", "read"), HEADERS)
def test_pages_and_the_language_switch_answer_as_usual(sent: str, read: str) -> None:
    """The language switch without ``next`` asks ``request.accepts("text/html")``
    (a redirect for a browser, ``204`` otherwise): it raised ``ValueError``."""
    client = Client()
    for path in ("/", "/leaderboards/", "/accounts/login/"):
        assert client.get(path, HTTP_ACCEPT=sent).status_code == 200, path
    resp = client.post("/i18n/setlang/", {"language": "fr"}, HTTP_ACCEPT=sent)
    expected = 302 if "text/html" in read else 204
    assert resp.status_code == expected
    assert client.cookies["django_language"].value == "fr"


@pytest.mark.parametrize("server", [wsgi, asgi], ids=["wsgi", "asgi"])
@pytest.mark.django_db(transaction=True)
def test_the_event_streams_answer_as_usual(server: Any) -> None:
    """An unknown race's stream: 404 on the ASGI server, 503 ``live_unavailable`` on the
    WSGI one, with the header or without it; never a 500."""
    path = "/api/v1/races/00000000-0000-0000-0000-000000000000/events"
    answers = []
    for accept in ("text/event-stream", "text/event-stream; x*=bogus''a"):
        status, kind, _body = server(path, "", "text/plain", accept=accept)
        answers.append((status, kind))
    assert answers[0] == answers[1]
    assert answers[0][0] in (404, 503)
