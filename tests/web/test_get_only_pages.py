"""A POST to a page that only shows something is 405 with ``Allow``, not the CSRF 403.

``POST /races/<id>/results`` (and ``/results/``) met Django's CSRF check, whose 403 page
blamed a missing form token, before the view's own 405: every ``GET``-only page of
``web/urls.py`` did the same.  The CSRF middleware now answers a method the page never
accepts ``405`` first (``canfield_site.middleware.CsrfViewMiddleware``); every page that
accepts a ``POST`` is still CSRF-checked.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.models import Game
from games.services.games import game_start
from tests.factories import make_user
from tests.tournaments.factories import Result, TournamentFactory, finished_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

#: Every page of ``web/urls.py`` that answers GET (and HEAD) only (URL name -> the Allow
#: header).
GET_ONLY = {
    "lobby": "GET, HEAD",
    "lobby_live": "GET, HEAD",
    "password_change_done": "GET, HEAD, OPTIONS",
    "play": "GET, HEAD",
    "board": "GET, HEAD",
    "solution": "GET, HEAD",
    "solution_slash": "GET, HEAD",
    "race": "GET, HEAD",
    "race_live": "GET, HEAD",
    "results": "GET, HEAD",
    "results_slash": "GET, HEAD",
    "replay": "GET, HEAD",
    "tournaments": "GET, HEAD",
    "tournament": "GET, HEAD",
    "player": "GET, HEAD",
    "leaderboards": "GET, HEAD",
    "leaderboard": "GET, HEAD",
}

#: The pages that take a POST (a form or an action): CSRF-checked as before.
TAKES_POST = {
    "signup",
    "login",
    "logout",
    "password_change",
    "practice",
    "move",
    "undo",
    "resign",
    "hint",
    "join",
    "start",
}


def web_url_names() -> set[str]:
    """The names of every URL of ``web/urls.py`` (the ``web`` namespace)."""
    resolver = get_resolver()
    (web,) = [
        p for p in resolver.url_patterns if isinstance(p, URLResolver) and p.namespace == "web"
    ]
    return {p.name for p in web.url_patterns if isinstance(p, URLPattern) and p.name}


def addresses(game: Game, race_id: Any, tournament_id: Any) -> dict[str, str]:
    """An address of each page, with objects that exist."""
    return {
        "lobby": "/",
        "lobby_live": "/lobby/races",
        "signup": "/accounts/signup/",
        "login": "/accounts/login/",
        "logout": "/accounts/logout/",
        "password_change": "/accounts/password/",
        "password_change_done": "/accounts/password/done/",
        "practice": "/practice",
        "play": f"/play/{game.id}/",
        "board": f"/play/{game.id}/board",
        "move": f"/play/{game.id}/move",
        "undo": f"/play/{game.id}/undo",
        "resign": f"/play/{game.id}/resign",
        "solution": f"/play/{game.id}/solution",
        "solution_slash": f"/play/{game.id}/solution/",
        "hint": f"/play/{game.id}/hint",
        "race": f"/races/{race_id}/",
        "race_live": f"/races/{race_id}/live",
        "join": f"/races/{race_id}/join",
        "start": f"/races/{race_id}/start",
        "results": f"/races/{race_id}/results",
        "results_slash": f"/races/{race_id}/results/",
        "replay": f"/replay/{game.id}/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{tournament_id}/",
        "player": "/players/ann/",
        "leaderboards": "/leaderboards/",
        "leaderboard": "/leaderboards/classic/",
    }


@pytest.fixture
def site() -> tuple[Any, Any]:
    """A finished tournament race of ann and bob: ``(race, ann's game)``."""
    cup: Any = TournamentFactory()  # type: ignore[no-untyped-call]
    race = finished_race(cup, Result("ann", 30, 4000), Result("bob", 12, 2500))
    ann = race.entries.get(player__username="ann")
    assert ann.game is not None
    return race, ann.game


@pytest.fixture
def urls(site: tuple[Any, Any]) -> dict[str, str]:
    race, game = site
    return addresses(game, race.id, race.tournament_id)


def test_every_page_is_listed_as_get_only_or_taking_a_post() -> None:
    """A page added to web/urls.py must be sorted into one of the two lists."""
    assert not GET_ONLY.keys() & TAKES_POST
    assert web_url_names() == GET_ONLY.keys() | TAKES_POST


@pytest.mark.parametrize("name", sorted(GET_ONLY))
def test_a_post_to_a_get_only_page_is_405_with_allow(name: str, urls: dict[str, str]) -> None:
    """A visitor's POST without a CSRF token, and a player's with one: 405, not 403."""
    anonymous = Client(enforce_csrf_checks=True)
    resp = anonymous.post(urls[name], {"x": "1"})
    assert (resp.status_code, resp["Allow"]) == (405, GET_ONLY[name])
    assert "Location" not in resp
    player = PageClient(make_user(username="cat"))
    resp = player.post(urls[name], {"x": "1"})
    assert (resp.status_code, resp["Allow"]) == (405, GET_ONLY[name])
    for method in ("put", "delete", "patch"):
        resp = getattr(player.client, method)(urls[name], HTTP_X_CSRFTOKEN=player.token)
        assert (resp.status_code, resp["Allow"]) == (405, GET_ONLY[name]), method


def test_the_solution_page_typed_with_a_slash_is_sent_to_the_page(
    urls: dict[str, str],
) -> None:
    """``/play/<id>/solution/`` was a 404 where ``/races/<id>/results/`` is sent to its
    page: now a 301 to ``/play/<id>/solution`` (the query kept), for anyone (the page
    itself asks to log in and says 404 to a player whose game it is not)."""
    game_id = urls["solution"].split("/")[2]
    for client in (Client(), PageClient(User.objects.get(username="ann")).client):
        resp = client.get(urls["solution_slash"])
        assert (resp.status_code, resp["Location"]) == (301, f"/play/{game_id}/solution")
        resp = client.get(urls["solution_slash"] + "?x=1")
        assert resp["Location"] == f"/play/{game_id}/solution?x=1"
    # A game that does not exist: the redirect, then the page's own 404 (to a player).
    bea = Client()
    bea.force_login(make_user(username="bea"))
    resp = bea.get("/play/00000000-0000-0000-0000-000000000000/solution/", follow=True)
    assert resp.redirect_chain == [("/play/00000000-0000-0000-0000-000000000000/solution", 301)]
    assert resp.status_code == 404
    # Not a UUID: 404 as before (no address to send it to).
    assert bea.get("/play/nope/solution/").status_code == 404


def test_the_results_page_answers_get_and_refuses_post(urls: dict[str, str]) -> None:
    """The report's page: GET shows the results, POST (either address) is 405."""
    c = Client(enforce_csrf_checks=True)
    assert c.get(urls["results"]).status_code == 200
    assert c.get(urls["results_slash"]).status_code == 301
    for url in (urls["results"], urls["results_slash"]):
        resp = c.post(url)
        assert resp.status_code == 405
        assert b"CSRF" not in resp.content


@pytest.mark.parametrize("name", sorted(TAKES_POST))
def test_a_page_taking_a_post_still_checks_its_csrf_token(name: str, site: tuple[Any, Any]) -> None:
    """No page that accepts a POST lost its CSRF check: without the token, 403, and
    nothing done (dan's game, the game of these addresses, is untouched)."""
    race, _ann_game = site
    dan = make_user(username="dan")
    game = game_start(player=dan, seed="7")
    c = Client(enforce_csrf_checks=True)
    c.force_login(dan)
    url = addresses(game, race.id, race.tournament_id)[name]
    resp = c.post(url, {"move": "draw", "expected_move_number": "0", "confirmed": "1"})
    assert resp.status_code == 403
    assert b"CSRF" in resp.content
    game.refresh_from_db()
    assert (game.move_number, game.status) == (0, Game.Status.PLAYING)
    assert Game.objects.filter(player=dan).count() == 1


@pytest.mark.parametrize("name", sorted(n for n in GET_ONLY if n != "password_change_done"))
def test_head_on_a_get_only_page_answers_as_get_without_a_body(
    name: str, urls: dict[str, str]
) -> None:
    """HEAD was 405 on the pages that answer GET (RFC 9110 9.3.2: a server answering GET
    should answer HEAD with the same headers): it now has GET's status and no body."""
    player = PageClient(User.objects.get(username="ann"))  # her game's pages too
    got = player.client.get(urls[name])
    head = player.client.head(urls[name])
    assert head.status_code == got.status_code, (name, got.status_code)
    # The moved addresses redirect; the solution is being computed (the race's deal, just
    # revealed); no rated race yet, so no classic leaderboard.  Every other page: 200.
    expected = {"results_slash": 301, "solution_slash": 301, "solution": 202, "leaderboard": 404}
    expected_status = expected.get(name, 200)
    assert head.status_code == expected_status, name
    assert head.content == b""
    assert head.get("Content-Type") == got.get("Content-Type")
