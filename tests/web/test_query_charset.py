"""The query string reads the same on both servers, whatever charset the Content-Type names.

With ``Content-Type: text/plain; charset=latin-1`` (or any ISO-8859-1 alias, which the
charset guard lets through), Django's WSGI request decoded the query's ``%``-escapes in
that charset and its ASGI request in UTF-8: ``?next=/%E9`` was ``/é`` under gunicorn and
``/\ufffd`` under uvicorn, the same request answering differently.  Both read the query as
UTF-8 now (``canfield_site.handlers.WSGIRequest.GET``): the charset is the body's.

A byte outside ``%``-escapes that is not UTF-8 (``?next=/\xe9``, which no browser sends)
split them too, with or without a charset: ``200`` and ``/é`` under gunicorn, Django's
bare HTML ``400`` under uvicorn (even under ``/api/``).  Both answer the same ``400``
now, before Django (``canfield_site.middleware.unreadable_query``).
"""

from __future__ import annotations

import io
import json
import re
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest

from tests.web.test_request_building_attacks import asgi, wsgi

pytestmark = pytest.mark.django_db

#: The ISO-8859-1 charsets the guard reads (each alias), plain and in RFC 2231 form, and
#: UTF-8 and none for comparison.
CONTENT_TYPES = [
    *(
        f"text/plain; charset={name}"
        for name in ("latin-1", "latin1", "iso-8859-1", "ISO_8859-1", "l1", "cp819", "iso_ir_100")
    ),
    "text/plain; charset*=utf-8''latin-1",
    "application/json; charset=iso-8859-1",
    "text/plain; charset=utf-8",
    "text/plain",
]

#: ``%E9`` (ISO-8859-1's é, no UTF-8), ``%C3%A9`` (UTF-8's é), ``%FF`` and a ``+``.
QUERY = "next=/%E9&x=%C3%A9&y=%FF+z"
#: How both servers read :data:`QUERY`: a byte that is not UTF-8 is U+FFFD.
READ = {"next": ["/\ufffd"], "x": ["é"], "y": ["\ufffd z"]}


def _wsgi_request(content_type: str) -> Any:
    from canfield_site.handlers import WSGIRequest

    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ.update(QUERY_STRING=QUERY, CONTENT_TYPE=content_type, PATH_INFO="/accounts/login/")
    return WSGIRequest(environ)


def _asgi_request(content_type: str) -> Any:
    from canfield_site.handlers import ASGIRequest

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/accounts/login/",
        "query_string": QUERY.encode(),
        "headers": [(b"content-type", content_type.encode("latin-1"))],
    }
    return ASGIRequest(scope, io.BytesIO())


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_both_requests_read_the_query_as_utf8(content_type: str) -> None:
    """The old WSGI request read ``%E9`` as é under every ISO-8859-1 alias."""
    wsgi_request = _wsgi_request(content_type)
    asgi_request = _asgi_request(content_type)
    assert dict(wsgi_request.GET.lists()) == READ
    assert dict(asgi_request.GET.lists()) == READ
    assert wsgi_request.GET.urlencode() == asgi_request.GET.urlencode()


def test_the_charset_still_names_the_body_encoding() -> None:
    """Only the query stops following the charset: the request's encoding (the body's)
    is still the one the Content-Type names, on both servers."""
    assert _wsgi_request("text/plain; charset=latin-1").encoding == "latin-1"
    assert _asgi_request("text/plain; charset=latin-1").encoding == "latin-1"


def _next_value(body: bytes) -> bytes:
    """The login page's hidden ``next`` field."""
    match = re.search(rb'name="next" value="([^"]*)"', body)
    assert match, body[:300]
    return match.group(1)


@pytest.mark.django_db(transaction=True)  # the ASGI handler runs views in its own thread
def test_both_servers_answer_the_same_login_page() -> None:
    """End to end through ``canfield_site.wsgi`` and ``canfield_site.asgi`` (charset guard
    and all): the page's ``next`` field is the same, with the charset or without it."""
    answers = set()
    for content_type in CONTENT_TYPES:
        for server in (wsgi, asgi):
            status, _kind, body = server("/accounts/login/", "next=/%E9x", content_type)
            assert status == 200, (server.__name__, content_type, body[:300])
            answers.add(_next_value(body))
    assert answers == {"/\ufffdx".encode()}


@pytest.mark.django_db(transaction=True)
def test_both_servers_answer_the_same_api_filter() -> None:
    """An API filter value with a ``%E9`` under ``charset=latin-1``: the same refusal
    on both servers (it named ``é`` under gunicorn)."""
    answers = set()
    for server in (wsgi, asgi):
        status, kind, body = server("/api/v1/races", "phase=%E9", "text/plain; charset=latin-1")
        answers.add((status, kind, body))
    assert len(answers) == 1
    ((status, _kind, body),) = answers
    assert status == 400
    assert "\ufffd".encode() in body or b"\\ufffd" in body


@pytest.mark.parametrize("content_type", ["text/plain; charset=latin-1", "text/plain", ""])
@pytest.mark.django_db(transaction=True)
def test_a_query_byte_that_is_not_utf8_is_the_same_400_on_both_servers(content_type: str) -> None:
    """The query's raw bytes (the WSGI environ holds them as ISO-8859-1 characters, the
    helpers send the same bytes to both servers)."""
    for path, kind in (
        ("/accounts/login/", "text/plain; charset=utf-8"),
        ("/api/v1/races", "application/problem+json"),
    ):
        answers = {server(path, "next=/\xe9x", content_type) for server in (wsgi, asgi)}
        assert len(answers) == 1, answers
        ((status, got, body),) = answers
        assert (status, got) == (400, kind)
        if kind == "application/problem+json":
            assert json.loads(body)["code"] == "bad_request"
        else:
            assert b"not UTF-8" in body


@pytest.mark.django_db(transaction=True)
def test_raw_utf8_in_the_query_reads_the_same_on_both_servers() -> None:
    """UTF-8 bytes outside ``%``-escapes (a client that sends ``é`` as is) are read."""
    answers = {
        _next_value(server("/accounts/login/", "next=/\xc3\xa9x", "text/plain; charset=latin-1")[2])
        for server in (wsgi, asgi)
    }
    assert answers == {"/éx".encode()}
