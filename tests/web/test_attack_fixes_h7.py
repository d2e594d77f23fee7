"""Defects a hostile tester found (the servers' request building, forms), each pinned by a test.

- A ``Content-Type`` charset naming a codec Python counts as a text encoding but that
  raises while the query string is decoded (``idna``, ``punycode``, ``undefined``) was the
  WSGI server's bare 500 on every page and endpoint (the ASGI server answered 200); so was
  ``charset*=utf-8''%00`` (the codec registry raised ``ValueError``), and, with any
  charset, a query of more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields, on both servers.
  Only UTF-8 and ISO-8859-1 are read now; every other codec Python knows is 415 on both.
"""

from __future__ import annotations

import asyncio
import codecs
import encodings
import encodings.aliases
import json
import pkgutil
from collections.abc import Callable
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest
from django.core import signals
from django.db import close_old_connections

pytestmark = pytest.mark.django_db

#: Every codec name Python knows: the aliases, what they name, and the ``encodings``
#: package's modules (``undefined``, ``idna``, ``punycode`` and the like have no alias).
CODEC_NAMES = sorted(
    set(encodings.aliases.aliases)
    | set(encodings.aliases.aliases.values())
    | {m.name for m in pkgutil.iter_modules(encodings.__path__)}
)

#: A query with ``%``-escapes of bytes that are not UTF-8, of UTF-8, of a UTF-7 lone
#: surrogate (``+2AA-``) and of CESU's (``ED A0 80``).
HOSTILE = "x=%E9%FF%C3%A9%2B2AA-%ED%A0%80%41"


def _codec(name: str) -> str | None:
    """The codec's name (``codecs.lookup``), or ``None`` when the name is none."""
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def wsgi(path: str, query: str, content_type: str) -> tuple[int, str, bytes]:
    """``GET path?query`` through ``canfield_site.wsgi.application`` (what gunicorn
    runs): status, content type and body.  An exception out of the application (the
    server's bare 500) fails the test."""
    from canfield_site.wsgi import application

    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ.update(
        PATH_INFO=path, QUERY_STRING=query, CONTENT_TYPE=content_type, HTTP_HOST="testserver"
    )
    started: list[tuple[str, list[tuple[str, str]]]] = []
    # As Django's test client does: the test's transaction keeps its connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        chunks = application(environ, lambda line, headers: started.append((line, headers)))
        body = b"".join(chunks)
        getattr(chunks, "close", lambda: None)()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    line, headers = started[0]
    return int(line.split()[0]), dict(headers).get("Content-Type", ""), body


def asgi(path: str, query: str, content_type: str) -> tuple[int, str, bytes]:
    """``GET path?query`` through ``canfield_site.asgi.application`` (what uvicorn runs):
    status, content type and body.  An exception out of the application fails the test."""
    from canfield_site.asgi import application

    sent: list[dict[str, Any]] = []
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode("latin-1"),
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", content_type.encode("latin-1"))],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    asyncio.run(application(scope, receive, send))
    headers = {k.decode().lower(): v.decode() for k, v in sent[0].get("headers", [])}
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return sent[0]["status"], headers.get("content-type", ""), body


def _content_types(name: str) -> list[str]:
    """``name`` as a plain charset and in RFC 2231 form (Django reads both)."""
    return [f"text/plain; charset={name}", f"text/plain; charset*=utf-8''{name}"]


def _assert_refused(server: Callable[..., tuple[int, str, bytes]], content_type: str) -> None:
    status, kind, body = server("/api/v1/races", "mode=window", content_type)
    assert (status, kind) == (415, "application/problem+json"), (content_type, status, body)
    assert json.loads(body)["code"] == "unsupported_media_type"
    status, kind, body = server("/accounts/login/", "next=/", content_type)
    assert (status, kind) == (415, "text/plain; charset=utf-8"), (content_type, status, body)
    assert b"send utf-8" in body


def test_the_walk_covers_the_codecs_the_attack_named() -> None:
    assert {"undefined", "idna", "punycode", "rot13", "utf_16", "ascii", "latin_1", "utf8"} <= set(
        CODEC_NAMES
    )
    assert len({_codec(n) for n in CODEC_NAMES}) > 100


def test_every_codec_python_knows_is_read_or_415_on_the_wsgi_server(monkeypatch: Any) -> None:
    """UTF-8 and ISO-8859-1 (under every alias) answer the pages and the API, as does a
    name that is no codec (``aliases``, a module of the package: Django ignores it); any other
    codec is 415 before Django decodes the query with it.  ``idna``, ``punycode`` and
    ``undefined`` were the bare 500 (an exception out of the application); ``ascii``,
    ``cp1253`` and the CJK codecs were a 500 on the leaderboard (its page links encode the
    query back in the charset, which cannot hold the U+FFFD it decoded), ``utf-7`` on the
    login page (it decodes ``+2AA-`` to a lone surrogate, which no page can be written in)."""
    import web.views.ratings as ratings_views
    from games.services.ratings import race_rate
    from tests.ratings.helpers import Result, race_of

    monkeypatch.setattr(ratings_views, "PAGE_SIZE", 1)  # page links: QueryDict.urlencode
    assert race_rate(race_id=race_of(Result("ann", 30, 1000), Result("bob", 20, 1000)).id)
    read = 0
    for name in CODEC_NAMES:
        for content_type in _content_types(name):
            if _codec(name) not in ("utf-8", "iso8859-1", None):
                _assert_refused(wsgi, content_type)
                continue
            read += 1
            status, _kind, body = wsgi("/api/v1/races", "mode=window", content_type)
            assert status == 200, (content_type, body)
            status, _kind, body = wsgi("/leaderboards/classic/", HOSTILE, content_type)
            assert status == 200, (content_type, body)
            assert b'rel="next"' in body
            status, _kind, body = wsgi("/accounts/login/", "next=/" + HOSTILE, content_type)
            assert status == 200, (content_type, body)
    assert read >= 30  # utf8, u8, latin_1, l1, cp819, iso_ir_100... in both forms


@pytest.mark.django_db(transaction=True)  # the ASGI handler runs views in its own thread
def test_every_codec_python_knows_is_read_or_415_on_the_asgi_server() -> None:
    """The ASGI server agrees with the WSGI server: it answered 200 to ``idna``."""
    for name in CODEC_NAMES:
        for content_type in _content_types(name):
            if _codec(name) not in ("utf-8", "iso8859-1", None):
                _assert_refused(asgi, content_type)
                continue
            status, _kind, body = asgi("/api/v1/races", "mode=window", content_type)
            assert status == 200, (content_type, body)
            status, _kind, body = asgi("/accounts/login/", "next=/" + HOSTILE, content_type)
            assert status == 200, (content_type, body)


@pytest.mark.parametrize("server", [wsgi, asgi], ids=["wsgi", "asgi"])
@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain; charset=undefined",
        "text/plain; charset=idna",
        "text/plain; charset=punycode",
        "text/plain; charset*=utf-8''undefined",
        "text/plain; charset*=utf-8''%00",  # codecs.lookup raised ValueError
        "text/plain; charset*=utf-8''utf-8%00",
        "text/plain; x*=idna''%41",  # decoding the parameter raised UnicodeError
        "text/plain; x*=undefined''a",
    ],
)
@pytest.mark.django_db(transaction=True)
def test_the_attacks_charsets_are_415(
    server: Callable[..., tuple[int, str, bytes]], content_type: str
) -> None:
    for path in ("/api/v1/health", "/", "/api/v1/races"):
        status, kind, body = server(path, "x=%41", content_type)
        assert status == 415, (path, status, body)
    status, kind, body = server("/api/v1/health", "x=%41", content_type)
    assert kind == "application/problem+json"
    assert json.loads(body)["code"] == "unsupported_media_type"


@pytest.mark.parametrize("server", [wsgi, asgi], ids=["wsgi", "asgi"])
@pytest.mark.parametrize("content_type", ["text/plain; charset=utf-8", "application/json"])
@pytest.mark.django_db(transaction=True)
def test_a_query_of_too_many_fields_is_400_with_a_charset_too(
    server: Callable[..., tuple[int, str, bytes]], content_type: str, settings: Any
) -> None:
    """Django decoded the query while building the request when the Content-Type named a
    charset, so ``TooManyFieldsSent`` escaped the handler (the bare 500, on both servers)
    where the same request without a charset is Django's 400."""
    query = "&".join(["a=1"] * (settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    status, kind, body = server("/api/v1/health", query, content_type)
    assert (status, kind) == (400, "application/problem+json"), body
    assert json.loads(body)["code"] == "bad_request"
    status, _kind, _body = server("/accounts/login/", query, content_type)
    assert status == 400
