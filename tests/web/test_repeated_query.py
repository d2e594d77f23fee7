"""A query parameter a page reads, given twice, is a 400 page (``web.middleware``).

``/leaderboards/classic/?provisional=false&provisional=true`` listed every player (Django
reads the last value) where a reader taking the first would have hidden the provisional
ones; ``?step=1&step=9`` on a replay and ``?next=`` twice on sign up, log in, log out and
the language switch the same.  The API refuses such a query (``repeated_query_parameter``);
the pages now answer a 400 page naming the parameter, before the view runs.  A parameter
no page reads (``utm_source``, ``fbclid``) is ignored, once or repeated.

The walk covers every page that reads a query parameter: :data:`READS` is checked
against each page view's declaration (``reads_query``) and against what its code reads
(a scan of the view's source, the functions it calls and the Django views it runs), so
a page that starts reading a new parameter fails here until it is declared and walked.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.web.test_request_building_attacks import _page_routes, _World, asgi, wsgi

pytestmark = pytest.mark.django_db

#: Every page reading query parameters (URL name), the names it reads, and two valid
#: values of each (the second is the one Django's ``QueryDict.get`` read).
READS: dict[str, dict[str, tuple[str, str]]] = {
    "web:signup": {"next": ("/", "/leaderboards/")},
    "web:login": {"next": ("/", "/leaderboards/")},
    "web:logout": {"next": ("/", "/leaderboards/")},
    "set_language": {"next": ("/", "/leaderboards/")},
    "web:replay": {"step": ("0", "1")},
    "web:leaderboard": {"cursor": ("", ""), "provisional": ("false", "true")},
    "web:tournaments": {"finished_page": ("1", "2"), "cancelled_page": ("1", "2")},
}

#: Page code touching the query without reading a parameter by name, and why that is no
#: read: ``(function's qualified name, the text found)``.
NOT_READS = {
    # Copies the whole query to build the next page's link, changing only the cursor.
    ("web.views.ratings._page_url", ".GET"),
    # Passes the query on, unread, to the results or solution page (which read none).
    ("web.views.common.moved_to", "QUERY_STRING"),
    # Django's redirect passes the query on only with ``query_string = True`` (the
    # favicon's does not).
    ("django.views.generic.base.RedirectView", "QUERY_STRING"),
}

_TOUCH = re.compile(r"\.GET\b|QUERY_STRING|query_params")
_LITERAL = re.compile(r"""\.GET(?:\.get|\.getlist|\.pop|\.setdefault)?[(\[]\s*["']([^"']+)["']""")
_REDIRECT_FIELD = re.compile(r"\.GET\.get\(\s*self\.redirect_field_name\b")
_PROJECT = ("web.", "canfield_site.")


def _scan(source: str, owner: Any) -> tuple[set[str], list[str]]:
    """The parameter names ``source`` reads by name, and the query touches it has left
    (``owner``: the view class whose ``redirect_field_name`` a Django view reads)."""
    names = set(_LITERAL.findall(source))
    if owner is not None and _REDIRECT_FIELD.search(source):
        names.add(owner.redirect_field_name)
    rest = _REDIRECT_FIELD.sub("", _LITERAL.sub("", source))
    return names, _TOUCH.findall(rest)


def _names_used(source: str) -> set[str]:
    """The names ``source`` (a function's) uses in its code: not the words of its
    docstring or comments (the tournament page's docstring names ``/tournaments/``, no
    call of the index's view)."""
    return {
        node.id
        for node in ast.walk(ast.parse(textwrap.dedent(source)))
        if isinstance(node, ast.Name)
    }


def _code_reads(view: Any) -> tuple[set[str], set[tuple[str, str]]]:
    """What a page's view reads from the query: the names, and the touches that read no
    name (``(qualified name, text)``).  Walks its decorators (``__wrapped__``), its view
    class and that class's bases, and the project's functions and the views it names."""
    names: set[str] = set()
    touches: set[tuple[str, str]] = set()
    seen: set[int] = set()
    todo = [view]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if hasattr(obj, "__wrapped__"):
            todo.append(obj.__wrapped__)
        owner = getattr(obj, "view_class", None)
        if owner is not None:
            for cls in owner.__mro__[:-1]:
                found, left = _scan(inspect.getsource(cls), owner)
                names |= found
                touches |= {(f"{cls.__module__}.{cls.__qualname__}", t) for t in left}
            continue
        if not inspect.isfunction(obj):
            continue
        found, left = _scan(inspect.getsource(obj), None)
        names |= found
        touches |= {(f"{obj.__module__}.{obj.__qualname__}", t) for t in left}
        if obj.__module__.startswith(_PROJECT):
            for word in _names_used(inspect.getsource(obj)):
                target = obj.__globals__.get(word)
                if inspect.isfunction(target) or hasattr(target, "view_class"):
                    todo.append(target)
    return names, touches


def _views() -> dict[str, Any]:
    """Each page's URL name and view."""
    from django.urls import get_resolver

    world_routes = _page_routes()
    resolver = get_resolver()
    out: dict[str, Any] = {}
    for route, name in world_routes:
        path = "/" + re.sub(r"<[^>]+>", "00000000-0000-0000-0000-000000000000", route)
        out[name] = resolver.resolve(path).func
    return out


def test_every_page_declares_exactly_the_query_parameters_its_code_reads() -> None:
    views = _views()
    assert set(READS) <= set(views)
    all_touches: set[tuple[str, str]] = set()
    for name, view in views.items():
        declared = set(getattr(view, "query_parameters", ()))
        reads, touches = _code_reads(view)
        all_touches |= touches
        assert declared == set(READS.get(name, {})), name
        assert reads <= declared, (name, reads)
    assert all_touches == NOT_READS


def test_no_page_template_reads_the_query() -> None:
    templates = Path(__file__).resolve().parents[2] / "web" / "templates"
    for template in templates.rglob("*.html"):
        assert "request.GET" not in template.read_text(), template


def _world() -> _World:
    """:class:`_World` with the classic rating pool and ``ada``'s game resigned (its
    replay shown)."""
    from games.engine import PRESETS
    from games.models import RatingPool
    from games.services.games import game_end

    world = _World()
    RatingPool.objects.create(
        key="classic", variant="classic", options=PRESETS["classic"].to_dict()
    )
    game_end(game_id=world.game.id, player=world.player)
    return world


def _query(name: str, parameter: str, repeat: bool) -> str:
    first, second = READS[name][parameter]
    pairs = [(parameter, first), (parameter, second)] if repeat else [(parameter, second)]
    return urlencode(pairs)


WALK = [(name, parameter) for name in sorted(READS) for parameter in sorted(READS[name])]


def _url(world: _World, name: str) -> str:
    route = {n: r for r, n in _page_routes()}[name]
    return world.url(route, name)


@pytest.mark.parametrize(("name", "parameter"), WALK)
def test_a_query_parameter_a_page_reads_given_twice_is_a_400_page(
    name: str, parameter: str
) -> None:
    """Every page reading a query parameter: given twice, a 400 page naming it (the
    leaderboard answered 200 with every player for ``provisional=false&provisional=true``);
    given once, the page as before."""
    world = _world()
    client = world.pages if name != "web:signup" and name != "web:login" else world.visitor
    url = _url(world, name)
    resp = client.get(f"{url}?{_query(name, parameter, repeat=True)}")
    assert resp.status_code == 400, resp.content[:300]
    assert resp["Content-Type"] == "text/html; charset=utf-8"
    page = resp.content.decode()
    assert "<h1>Address not accepted</h1>" in page
    assert (
        f"The address gives a query parameter more than once ({parameter}), so the page "
        "cannot tell which value you meant and nothing was done." in page
    )
    resp = client.get(f"{url}?{_query(name, parameter, repeat=False)}")
    assert resp.status_code in (200, 302), resp.content[:300]


def test_a_post_with_next_twice_in_its_query_does_nothing() -> None:
    """Log out and sign up read ``next`` from the query of their post: refused, the
    session and the accounts unchanged."""
    from django.contrib.auth.models import User

    world = _world()
    query = _query("web:logout", "next", repeat=True)
    resp = world.pages.client.post(
        f"/accounts/logout/?{query}", {"csrfmiddlewaretoken": world.pages.token}
    )
    assert resp.status_code == 400
    assert world.pages.client.session.get("_auth_user_id") == str(world.player.pk)
    users = User.objects.count()
    resp = world.visitor.client.post(
        f"/accounts/signup/?{query}",
        {
            "csrfmiddlewaretoken": world.visitor.token,
            "username": "eve",
            "password1": "a-long-test-password-92",
            "password2": "a-long-test-password-92",
        },
    )
    assert resp.status_code == 400
    assert User.objects.count() == users


def test_parameters_no_page_reads_are_ignored_even_repeated() -> None:
    """Tracking tags added by others (a newsletter, a social network, a link tagged
    twice) do not break a page."""
    world = _world()
    tags = "utm_source=news&utm_source=feed&fbclid=x&gclid=y&step=1&step=2"
    for url in ("/", "/leaderboards/", _url(world, "web:leaderboard"), _url(world, "web:race")):
        resp = world.pages.get(f"{url}?{tags}")
        assert resp.status_code == 200, (url, resp.content[:300])
    resp = world.pages.get(f"{_url(world, 'web:leaderboard')}?utm_source=a&provisional=false")
    assert resp.status_code == 200


@pytest.mark.parametrize(
    ("language", "title", "words"),
    [
        ("fr", "Adresse refusée", "(provisional)"),
        ("es", "Dirección no aceptada", "(provisional)"),
        ("de", "Adresse nicht akzeptiert", "(provisional)"),
    ],
)
def test_the_refusal_page_is_in_the_visitors_language(
    language: str, title: str, words: str
) -> None:
    world = _world()
    world.pages.client.cookies["django_language"] = language
    resp = world.pages.get(f"{_url(world, 'web:leaderboard')}?provisional=false&provisional=1")
    assert resp.status_code == 400
    page = resp.content.decode()
    assert f"<h1>{title}</h1>" in page
    assert words in page
    assert "Address not accepted" not in page


@pytest.mark.parametrize("server", [wsgi, asgi], ids=["wsgi", "asgi"])
@pytest.mark.django_db(transaction=True)
def test_a_repeated_query_parameter_is_refused_on_both_servers(server: Any) -> None:
    """The middleware's sync and async paths."""
    status, kind, body = server("/leaderboards/classic/", "provisional=false&provisional=true", "")
    assert (status, kind) == (400, "text/html; charset=utf-8")
    assert b"(provisional)" in body
