# mypy: disable-error-code="no-untyped-call, assignment"
"""Every page answered to one client is ``Cache-Control: private``.

The pages of a logged-in player carried ``Vary: Cookie`` and no ``Cache-Control``, so a
shared cache (a proxy, a CDN) could keep one player's page (their game, their "Play"
buttons, their CSRF token) and hand it to another.  Now
:func:`canfield_site.middleware.private_pages_middleware` merges ``private`` into every
page answered to a request with a session cookie, or whose answer sets a cookie (the
CSRF cookie every page's token goes with); the polled parts keep their ``ETag`` and
``no-cache``, so an unchanged poll is still a ``304``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.utils.cache import patch_cache_control

from canfield_site.middleware import private_pages_middleware
from games.services.races import race_join
from tests.factories import make_user
from tests.tournaments.factories import running_race
from tests.web.conftest import PASSWORD, PageClient
from tests.web.test_get_only_pages import GET_ONLY, TAKES_POST, addresses

pytestmark = pytest.mark.django_db


def _directives(response: Any) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


@pytest.fixture
def urls() -> dict[str, str]:
    """An address of every page (``web/urls.py``), with objects that exist: a finished
    tournament race of ann and bob, ann's game."""
    from tests.tournaments.factories import Result, TournamentFactory, finished_race

    cup: Any = TournamentFactory()
    race = finished_race(cup, Result("ann", 30, 4000), Result("bob", 12, 2500))
    entry = race.entries.get(player__username="ann")
    assert entry.game is not None
    return addresses(entry.game, race.id, race.tournament_id)


@pytest.mark.parametrize("name", sorted(GET_ONLY | dict.fromkeys(TAKES_POST)))
def test_every_page_answered_to_a_player_is_private(name: str, urls: dict[str, str]) -> None:
    """GET and HEAD of every page (a POST-only action's GET is its redirect), as ann,
    whose game these addresses show."""
    ann = Client()
    ann.force_login(User.objects.get(username="ann"))
    for method in ("get", "head"):
        resp = getattr(ann, method)(urls[name])
        assert resp.status_code < 500, (name, method)
        assert "private" in _directives(resp), (name, method, resp.status_code)
        assert "public" not in _directives(resp)


def test_a_players_action_answer_is_private_too() -> None:
    """A form post's answer (here a join's redirect) is the player's as well."""
    race = running_race(name="Evening race")
    pages = PageClient(make_user(username="cal"))
    resp = pages.post(f"/races/{race.id}/join", {})
    assert resp.status_code == 302
    assert "private" in _directives(resp)


def test_an_anonymous_page_with_its_csrf_cookie_is_private() -> None:
    """An anonymous page sets the CSRF cookie its form token belongs to: a shared
    cache handing it on gave every visitor one CSRF secret."""
    resp = Client().get("/tournaments/")
    assert resp.status_code == 200
    assert "csrftoken" in resp.cookies
    assert _directives(resp) == {"private"}


def test_the_login_answer_that_sets_the_session_is_private(player: Any) -> None:
    client = Client()
    resp = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert resp.status_code == 302
    assert "sessionid" in resp.cookies
    assert "private" in _directives(resp)


def test_polled_parts_keep_their_etag_and_304_for_a_player() -> None:
    """The lobby's list and a race's live part: ``no-cache, private`` with the ETag on
    the 200 and on the 304 (RFC 9110 15.4.5: a 304 carries the 200's Cache-Control)."""
    eve = make_user(username="eve")
    race = running_race(name="Morning race")
    race_join(race_id=race.id, player=eve)
    pages = PageClient(eve)
    for url in ("/lobby/races", f"/races/{race.id}/live"):
        first = pages.get(url)
        assert first.status_code == 200
        assert _directives(first) == {"no-cache", "private"}
        again = pages.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, url
        assert again["ETag"] == first["ETag"]
        assert _directives(again) == {"no-cache", "private"}


def _public(request: Any) -> HttpResponse:
    response = HttpResponse("same for everyone")
    patch_cache_control(response, public=True, max_age=60)
    return response


def test_a_page_for_no_one_in_particular_stays_cacheable() -> None:
    """No session cookie, no cookie set: what the view said stays (a static-like page);
    with a session cookie, ``private`` takes the place of ``public``."""
    middleware = private_pages_middleware(_public)
    factory = RequestFactory()
    anonymous = middleware(factory.get("/about"))
    assert _directives(anonymous) == {"public", "max-age=60"}
    with_session = factory.get("/about")
    with_session.COOKIES["sessionid"] = "abc"
    assert _directives(middleware(with_session)) == {"private", "max-age=60"}
    # The API decides its own (api.query.ApiView).
    api = factory.get("/api/v1/races")
    api.COOKIES["sessionid"] = "abc"
    assert _directives(middleware(api)) == {"public", "max-age=60"}


def test_the_async_chain_marks_the_same() -> None:
    async def view(request: Any) -> HttpResponse:
        return HttpResponse("x")

    middleware = private_pages_middleware(view)
    request = RequestFactory().get("/")
    request.COOKIES["sessionid"] = "abc"
    response = asyncio.run(middleware(request))
    assert _directives(response) == {"private"}
