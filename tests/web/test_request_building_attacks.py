"""Defects a hostile tester found (the servers' request building, forms), each pinned by a test.

- A ``Content-Type`` charset naming a codec Python counts as a text encoding but that
  raises while the query string is decoded (``idna``, ``punycode``, ``undefined``) was the
  WSGI server's bare 500 on every page and endpoint (the ASGI server answered 200); so was
  ``charset*=utf-8''%00`` (the codec registry raised ``ValueError``), and, with any
  charset, a query of more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields, on both servers.
  Only UTF-8 and ISO-8859-1 are read now; every other codec Python knows is 415 on both.
- A form field sent twice was refused by the play page's move and undo forms only:
  ``confirmed=0&confirmed=1`` resigned a game, ``variant=classic&variant=one-pass`` started
  a one-pass game.  Every page form refuses it now (``web.middleware``), with a 400 page.
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


def wsgi(
    path: str, query: str, content_type: str, *, accept: str | None = None
) -> tuple[int, str, bytes]:
    """``GET path?query`` through ``canfield_site.wsgi.application`` (what gunicorn
    runs): status, content type and body.  An exception out of the application (the
    server's bare 500) fails the test."""
    from canfield_site.wsgi import application

    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ.update(
        PATH_INFO=path, QUERY_STRING=query, CONTENT_TYPE=content_type, HTTP_HOST="testserver"
    )
    if accept is not None:
        environ["HTTP_ACCEPT"] = accept
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


def asgi(
    path: str,
    query: str,
    content_type: str,
    *,
    method: str = "GET",
    body: bytes = b"",
    accept: str | None = None,
) -> tuple[int, str, bytes]:
    """``method path?query`` (with ``body``) through ``canfield_site.asgi.application``
    (what uvicorn runs): status, content type and body.  An exception out of the
    application fails the test."""
    from canfield_site.asgi import application

    sent: list[dict[str, Any]] = []
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode("latin-1"),
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", content_type.encode("latin-1")),
            (b"content-length", str(len(body)).encode()),
            *([(b"accept", accept.encode("latin-1"))] if accept is not None else []),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    asyncio.run(application(scope, receive, send))
    headers = {k.decode().lower(): v.decode() for k, v in sent[0].get("headers", [])}
    answer = b"".join(m.get("body", b"") for m in sent[1:])
    return sent[0]["status"], headers.get("content-type", ""), answer


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


# ------------------------------------------------------------------ a field sent twice


def _routes(patterns: list[Any], prefix: str = "") -> list[tuple[str, str]]:
    """``(route, name)`` of every URL pattern, includes walked (``name`` with its
    namespace, ``web:join``)."""
    from django.urls import URLPattern, URLResolver

    out: list[tuple[str, str]] = []
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            space = f"{p.namespace}:" if p.namespace else ""
            out += [(r, n and space + n) for r, n in _routes(p.url_patterns, route)]
        elif isinstance(p, URLPattern):
            out.append((route, p.name or ""))
    return out


def _page_routes() -> list[tuple[str, str]]:
    """The URL patterns of the pages: everything but the API and the admin."""
    from django.urls import get_resolver

    return [
        (r, n)
        for r, n in _routes(get_resolver().url_patterns)
        if not r.startswith(("api/", "admin/"))
    ]


class _World:
    """Everything the pages' forms act on: ``ada`` (logged in) with a practice game one
    move in, a running race to join, a window race she joined and may start, a
    tournament, and ``cy``, who may log in."""

    def __init__(self) -> None:
        from datetime import timedelta

        from django.utils import timezone

        from games.models import Race
        from games.services.games import game_start, move_play
        from games.services.races import race_create, race_join
        from tests.factories import make_user
        from tests.tournaments.factories import TournamentFactory
        from tests.web.conftest import PASSWORD, PageClient

        self.player = make_user(username="ada")
        self.player.set_password(PASSWORD)
        self.player.save()
        other = make_user(username="cy")
        other.set_password(PASSWORD)
        other.save()
        self.game = game_start(player=self.player, seed="1")
        move_play(game_id=self.game.id, player=self.player, move="draw", expected_move_number=0)
        now = timezone.now()  # races relative to now: running, joining open
        self.race = race_create(
            name="Evening race",
            opens_at=now - timedelta(minutes=1),
            starts_at=now - timedelta(seconds=5),
            ends_at=now + timedelta(hours=1),
            late_join_s=None,
        )
        self.window = race_create(
            name="Window race",
            mode=Race.Mode.WINDOW,
            time_limit_s=300,
            opens_at=now - timedelta(minutes=1),
            starts_at=now - timedelta(seconds=5),
            ends_at=now + timedelta(hours=1),
            late_join_s=None,
        )
        race_join(race_id=self.window.id, player=self.player)
        self.tournament: Any = TournamentFactory()  # type: ignore[no-untyped-call]
        self.pages = PageClient(self.player)
        self.pages.get("/")  # the CSRF cookie and token, as the browser has them
        self.visitor = PageClient()
        self.visitor.get("/accounts/login/")

    def url(self, route: str, name: str) -> str:
        """``route`` with its parameters filled in."""
        race = self.window if name == "web:start" else self.race
        values = {
            "<uuid:game_id>": str(self.game.id),
            "<uuid:race_id>": str(race.id),
            "<uuid:tournament_id>": str(self.tournament.id),
            "<str:username>": "ada",
            "<str:pool>": "classic",
        }
        for converter, value in values.items():
            route = route.replace(converter, value)
        assert "<" not in route, route
        return "/" + route


def _state(world: _World) -> dict[str, Any]:
    """Every row a page's form could change, and who the two clients are logged in as."""
    from django.contrib.auth.models import User

    from games.models import Deal, Game, Move, RaceEntry, Solve

    rows = {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (Deal, Game, Move, RaceEntry, Solve, User)
    }
    for who in ("pages", "visitor"):
        client = getattr(world, who).client
        rows[who] = client.session.get("_auth_user_id")
        rows[who + "_language"] = client.cookies.get("django_language")
    return rows


#: A valid body of each page form (``{}``: the CSRF token only), the field an attack
#: sends twice with its two values (the second is the one Django read), whether the
#: visitor (logged out) posts it, and whether the form, sent once, changes something.
FORMS: dict[str, tuple[dict[str, str], str, tuple[str, str], bool, bool]] = {
    "web:move": (
        {"move": "draw", "expected_move_number": "1"},
        "move",
        ("QH>t2", "draw"),
        False,
        True,
    ),
    "web:undo": ({"expected_move_number": "1"}, "expected_move_number", ("1", "1"), False, True),
    "web:resign": ({"confirmed": "1"}, "confirmed", ("0", "1"), False, True),
    "web:hint": ({}, "poll", ("1", "2"), False, False),  # a hint runs the solver: not sent once
    "web:practice": (
        {"variant": "classic", "seed": "1"},
        "variant",
        ("classic", "one-pass"),
        False,
        True,
    ),
    "web:join": ({}, "csrfmiddlewaretoken", ("", ""), False, True),
    "web:start": ({}, "csrfmiddlewaretoken", ("", ""), False, True),
    "web:signup": (
        {
            "username": "eve",
            "password1": "a-long-test-password-92",
            "password2": "a-long-test-password-92",
        },
        "username",
        ("eve", "ada2"),
        True,
        True,
    ),
    "web:login": (
        {"password": "a-long-test-password-91"},
        "username",
        ("nobody", "cy"),
        True,
        True,
    ),
    "web:logout": ({}, "next", ("/", "/leaderboards/"), False, True),
    "web:password_change": (
        {
            "old_password": "a-long-test-password-91",
            "new_password1": "another-long-password-93",
            "new_password2": "another-long-password-93",
        },
        "old_password",
        ("wrong", "a-long-test-password-91"),
        False,
        True,
    ),
    "set_language": ({"next": "/"}, "language", ("de", "fr"), False, True),
    "favicon": ({}, "x", ("1", "2"), False, False),  # a redirect that also takes POST
}


def _accepts_post(client: Any, url: str) -> bool:
    """Whether ``url`` takes a POST: an ``OPTIONS`` answer's ``Allow`` names POST, or, with
    no ``Allow``, the view answered it (a view not limited to some methods)."""
    resp = client.options(url)
    if resp.has_header("Allow"):
        return "POST" in str(resp["Allow"])
    return bool(resp.status_code != 405)


def test_the_forms_walked_are_every_page_url_taking_a_post() -> None:
    world = _World()
    taking = {
        name
        for route, name in _page_routes()
        if _accepts_post(world.pages.client, world.url(route, name))
    }
    assert taking == set(FORMS)


def _post(world: _World, name: str, repeat: bool) -> tuple[Any, Any]:
    """Post ``name``'s form (:data:`FORMS`), its field twice when ``repeat`` (else once,
    with the second value); the answer and the client."""
    from urllib.parse import urlencode

    route = {n: r for r, n in _page_routes()}[name]
    body, field, (first, second), as_visitor, _changes = FORMS[name]
    who = world.visitor if as_visitor else world.pages
    token = who.token
    pairs = [("csrfmiddlewaretoken", token), *((k, v) for k, v in body.items() if k != field)]
    if field == "csrfmiddlewaretoken":
        pairs += [("csrfmiddlewaretoken", token)] if repeat else []
    elif repeat:
        pairs += [(field, first), (field, second)]
    else:
        pairs += [(field, second)]
    resp = who.client.post(
        world.url(route, name),
        urlencode(pairs),
        content_type="application/x-www-form-urlencoded",
    )
    return resp, who


@pytest.mark.parametrize("name", sorted(FORMS))
def test_a_page_form_sending_a_field_twice_does_nothing(name: str) -> None:
    """``confirmed=0&confirmed=1`` resigned the game, ``variant=classic&variant=one-pass``
    started a one-pass game, and every other page form read the last of two values the
    same way: now each is a 400 page saying which field, and nothing changes (the CSRF
    token sent twice too).  Sent once, the same form does what it says."""
    world = _World()
    before = _state(world)
    resp, _who = _post(world, name, repeat=True)
    assert resp.status_code == 400, resp.content[:300]
    assert resp["Content-Type"] == "text/html; charset=utf-8"
    page = resp.content.decode()
    assert "<h1>Form not accepted</h1>" in page
    field = FORMS[name][1]
    assert f"The form was sent with a field more than once ({field}), so nothing was done." in page
    assert _state(world) == before
    if FORMS[name][4]:
        resp, _who = _post(world, name, repeat=False)
        assert resp.status_code in (200, 302), resp.content[:300]
        assert _state(world) != before


def test_the_refusal_page_is_in_the_visitors_language() -> None:
    world = _World()
    world.pages.client.cookies["django_language"] = "fr"
    resp, _who = _post(world, "web:resign", repeat=True)
    assert resp.status_code == 400
    page = resp.content.decode()
    assert "<h1>Formulaire refusé</h1>" in page
    assert "(confirmed)" in page


@pytest.mark.django_db(transaction=True)
def test_a_field_sent_twice_is_refused_on_the_asgi_server_too() -> None:
    """The middleware's async path: the page drawn in a thread (it reads the session)."""
    status, kind, body = asgi(
        "/practice",
        "",
        "application/x-www-form-urlencoded",
        method="POST",
        body=b"variant=classic&variant=one-pass&seed=1&seed=2",
    )
    assert (status, kind) == (400, "text/html; charset=utf-8")
    assert b"(seed, variant)" in body
