"""Pages whose account is deleted while the request runs (it read the account before the
deletion committed).

The API answers such a request 404 ``not_found`` ("no such player: the account was
deleted").  The join page showed it as its usual refusal (the race page, 409, "no such
player"); the practice form and the hint and solution pages ended in an IntegrityError
(a 500) or wrote a row for the account gone; the password change inserted the account
again.  Each now answers what Django answers the
session's next request: the account is gone, so ``django.contrib.auth.get_user`` finds
nobody, the request is anonymous, and ``login_required`` sends it to the login page with
``next`` (an htmx request gets the address in ``HX-Redirect``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Game, RaceEntry, Solve
from games.services import games as game_services
from games.services import solver
from games.services.games import game_end, game_start
from games.services.races import race_join, race_start
from games.services.solver import game_solution_request
from tests.factories import make_user
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def deleting_first(real: Callable[..., Any], user: User) -> Callable[..., Any]:
    """``real``, called once the deletion of ``user``'s account has committed."""

    def first_delete(*args: Any, **kwargs: Any) -> Any:
        User.objects.filter(pk=user.pk).delete()
        return real(*args, **kwargs)

    return first_delete


def login_of(path: str) -> str:
    """Where ``login_required`` sends an anonymous request for ``path``."""
    return f"/accounts/login/?next={path}"


@pytest.fixture
def bob() -> Any:
    return make_user(username="bob")


@pytest.mark.parametrize(("action", "service"), [("join", race_join), ("start", race_start)])
def test_a_join_for_an_account_deleted_meanwhile_goes_to_login_as_the_next_request_does(
    monkeypatch: pytest.MonkeyPatch, bob: User, action: str, service: Callable[..., Any]
) -> None:
    """``POST /races/<id>/join`` (and ``/start``): the race page with "no such player"
    (409) before; now the login page, the answer Django gives the same session next."""
    race = running_race()
    pages = PageClient(bob)
    pages.get(f"/races/{race.id}/")
    monkeypatch.setattr(f"web.views.races.race_{action}", deleting_first(service, bob))
    path = f"/races/{race.id}/{action}"
    meanwhile = pages.post(path, {})
    assert (meanwhile.status_code, meanwhile.get("Location")) == (302, login_of(path))
    assert not RaceEntry.objects.filter(race=race).exists()
    # The session's next request: the account is gone, Django treats it as anonymous.
    monkeypatch.undo()
    after = pages.post(path, {})
    assert (after.status_code, after.get("Location")) == (302, meanwhile["Location"])
    assert pages.get(after["Location"]).status_code == 200  # the login page


def test_a_practice_game_for_an_account_deleted_meanwhile_goes_to_login(
    monkeypatch: pytest.MonkeyPatch, bob: User
) -> None:
    """``POST /practice``: the game pointed at the account gone (an IntegrityError)."""
    pages = PageClient(bob)
    pages.get("/")
    monkeypatch.setattr(game_services, "game_start", deleting_first(game_start, bob))
    resp = pages.post("/practice", {"variant": "classic", "seed": "7"})
    assert (resp.status_code, resp.get("Location")) == (302, login_of("/practice"))
    assert not Game.objects.filter(player_id=bob.pk).exists()
    monkeypatch.undo()
    after = pages.post("/practice", {"variant": "classic", "seed": "7"})
    assert (after.status_code, after.get("Location")) == (302, resp["Location"])


def test_a_hint_for_an_account_deleted_meanwhile_sends_htmx_to_login(
    monkeypatch: pytest.MonkeyPatch, bob: User, queued: list[Any]
) -> None:
    """The board's hint (htmx): the solve asked for pointed at the account gone; now a
    full page load of the login page (``HX-Redirect``), not the login page in the board."""
    game = game_start(player=bob, seed="7")
    pages = PageClient(bob)
    pages.get(f"/play/{game.id}/")
    monkeypatch.setattr(
        "games.services.hints.solve_request", deleting_first(solver.solve_request, bob)
    )
    path = f"/play/{game.id}/hint"
    resp = pages.post(path, {}, htmx=True)
    assert (resp.status_code, resp.get("HX-Redirect")) == (204, login_of(path))
    assert not Solve.objects.exists()
    assert queued == []


def test_a_solution_for_an_account_deleted_meanwhile_goes_to_login(
    monkeypatch: pytest.MonkeyPatch, bob: User, queued: list[Any]
) -> None:
    """``GET /play/<id>/solution`` of a resigned game: the solve it asks for pointed at
    the account gone."""
    game = game_start(player=bob, seed="7")
    game_end(game_id=game.id, player=bob)
    pages = PageClient(bob)
    monkeypatch.setattr(
        "web.views.play.game_solution_request", deleting_first(game_solution_request, bob)
    )
    path = f"/play/{game.id}/solution"
    resp = pages.get(path)
    assert (resp.status_code, resp.get("Location")) == (302, login_of(path))
    assert not Solve.objects.exists()
    monkeypatch.undo()
    after = pages.get(path)
    assert (after.status_code, after.get("Location")) == (302, resp["Location"])


def test_a_password_change_of_an_account_deleted_meanwhile_does_not_bring_it_back(
    monkeypatch: pytest.MonkeyPatch, bob: User
) -> None:
    """``POST /accounts/password/``: the account was deleted while the old password was
    checked; ``user.save()`` found no row to update and inserted the account again."""
    pages = PageClient(bob)
    pages.get("/accounts/password/")

    def check(request: Any, user: User, password: str) -> str:
        User.objects.filter(pk=user.pk).delete()
        return "ok"

    monkeypatch.setattr("canfield_site.security.current_password_check", check)
    new = "another long password 42"
    path = "/accounts/password/"
    resp = pages.post(path, {"old_password": "x", "new_password1": new, "new_password2": new})
    assert (resp.status_code, resp.get("Location")) == (302, login_of(path))
    assert not User.objects.filter(pk=bob.pk).exists()
    monkeypatch.undo()
    after = pages.post(path, {"old_password": "x", "new_password1": new, "new_password2": new})
    assert (after.status_code, after.get("Location")) == (302, resp["Location"])
