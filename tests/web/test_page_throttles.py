"""The pages count against the API's rate limits (web.throttling), found by an attack:
60 moves a second through /play/<id>/move, 130 practice games and 40 sign-ups in a row
went through while the API refused all but its rate."""

# mypy: disable-error-code="no-untyped-call, arg-type, misc"
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from games.models import Game
from games.services.games import game_start
from games.services.tokens import token_issue
from tests.tournaments.factories import running_race
from tests.web.conftest import PASSWORD, PageClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three of each a minute."""
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"moves": "3/min", "games": "3/min", "auth": "3/min"}
    )


def draw(pages: PageClient, game: Game, number: int, *, htmx: bool = True) -> Any:
    return pages.post(
        f"/play/{game.id}/move", {"move": "draw", "expected_move_number": number}, htmx=htmx
    )


def test_moves_past_the_rate_are_refused_and_change_nothing(
    rates: None, pages: PageClient, player: Any
) -> None:
    game = game_start(player=player, seed="7")
    pages.get("/")
    for n in range(3):
        assert "Refused" not in draw(pages, game, n).content.decode()
    refused = draw(pages, game, 3)
    assert refused.status_code == 200  # htmx swaps the board, which says why
    assert "Too many moves at once: wait " in refused.content.decode()
    assert 1 <= int(refused["Retry-After"]) <= 60
    plain = draw(pages, game, 3, htmx=False)
    assert plain.status_code == 429
    assert Game.objects.get(id=game.id).move_number == 3


def test_the_api_and_the_pages_share_one_count(rates: None, pages: PageClient, player: Any) -> None:
    from rest_framework.test import APIClient

    game = game_start(player=player, seed="7")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=player)[0]}")
    for n in range(2):
        url = f"/api/v1/games/{game.id}/moves"
        body = {"move": "draw", "expected_move_number": n}
        assert api.post(url, body, format="json").status_code == 201
    pages.get("/")
    assert "Refused" not in draw(pages, game, 2).content.decode()
    assert "Too many moves at once" in draw(pages, game, 3).content.decode()
    after = api.post(f"/api/v1/games/{game.id}/moves", {"move": "draw"}, format="json")
    assert after.status_code == 429


def test_practice_games_past_the_rate_are_refused(
    rates: None, pages: PageClient, player: Any
) -> None:
    pages.get("/")
    for _ in range(3):
        assert pages.post("/practice", {"variant": "classic"}).status_code == 302
    refused = pages.post("/practice", {"variant": "classic"})
    assert refused.status_code == 429
    assert "Too many requests at once: wait " in refused.content.decode()
    assert Game.objects.filter(player=player).count() == 3


def test_joining_races_past_the_rate_is_refused(
    rates: None, pages: PageClient, player: Any
) -> None:
    races = [running_race(name=f"r{n}", late_join_s=None) for n in range(4)]
    pages.get("/")
    for race in races[:3]:
        assert pages.post(f"/races/{race.id}/join", {}).status_code == 302
    assert pages.post(f"/races/{races[3].id}/join", {}).status_code == 429
    assert not races[3].entries.exists()


def test_sign_ups_and_logins_past_the_rate_are_refused(rates: None) -> None:
    signer = PageClient()
    for n in range(3):
        signer.client = Client(enforce_csrf_checks=True)  # a fresh session, one address
        signer.get("/accounts/signup/")
        body = {"username": f"new{n}", "password1": PASSWORD, "password2": PASSWORD}
        assert signer.post("/accounts/signup/", body).status_code == 302
    signer.client = Client(enforce_csrf_checks=True)
    signer.get("/accounts/signup/")  # showing the form is not counted
    body = {"username": "new3", "password1": PASSWORD, "password2": PASSWORD}
    refused = signer.post("/accounts/signup/", body)
    assert (refused.status_code, User.objects.filter(username="new3").exists()) == (429, False)
    login = PageClient()
    login.get("/accounts/login/")
    tried = login.post("/accounts/login/", {"username": "new0", "password": PASSWORD})
    assert tried.status_code == 429  # the same address's auth count, as the API's


def test_password_changes_and_admin_logins_past_the_rate_are_refused(
    rates: None, pages: PageClient, player: Any
) -> None:
    """Both check a password: an attack guessed 35 old passwords in a row through the
    password page, and logged in 35 times through the admin's login."""
    pages.get("/accounts/password/")
    wrong = {"old_password": "guess", "new_password1": "x-7Yq!pw", "new_password2": "x-7Yq!pw"}
    for _ in range(3):
        assert pages.post("/accounts/password/", wrong).status_code == 200  # the form again
    assert pages.post("/accounts/password/", wrong).status_code == 429
    assert pages.get("/accounts/password/").status_code == 200  # showing it is not counted
    admin = PageClient()
    # Another address: the wrong old passwords above count as failed logins of this one
    # (canfield_site.security.current_password_check), which the lockout would refuse.
    admin.client.defaults["REMOTE_ADDR"] = "203.0.113.9"
    admin.get("/admin/login/")
    for _ in range(3):
        tried = admin.post("/admin/login/", {"username": "nobody", "password": "x"})
        assert tried.status_code == 200
    assert admin.post("/admin/login/", {"username": "nobody", "password": "x"}).status_code == 429
