"""API requests whose account is deleted while they run (read before the deletion
committed): a refusal, never an IntegrityError (a 500) or an account inserted again.

The threaded PostgreSQL tests of the services are in
``tests/tournaments/test_account_delete_writes.py``; here each endpoint's answer.  The
deletion is made to commit inside the request, after the request read its account.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from api import accounts
from api.accounts import player_of
from games.models import Game, Race, Tournament
from tests.api.conftest import client_for
from tests.factories import OrganiserFactory, make_user

pytestmark = pytest.mark.django_db

GONE = "No such player: the account was deleted."
PASSWORD = "correct-horse-battery"  # tests.factories.UserFactory's


def deleting_first(real: Callable[..., Any], user: User) -> Callable[..., Any]:
    """``real``, called once the deletion of ``user``'s account has committed."""

    def first_delete(*args: Any, **kwargs: Any) -> Any:
        User.objects.filter(pk=user.pk).delete()
        return real(*args, **kwargs)

    return first_delete


def deleting_after(real: Callable[..., Any], user: User) -> Callable[..., Any]:
    """``real``, then the deletion of ``user``'s account (committed before the caller
    goes on)."""

    def then_delete(*args: Any, **kwargs: Any) -> Any:
        answer = real(*args, **kwargs)
        User.objects.filter(pk=user.pk).delete()
        return answer

    return then_delete


def gone_404(resp: Any) -> None:
    assert resp.status_code == 404, resp.content
    assert resp["Content-Type"] == "application/problem+json"
    assert (resp.json()["code"], resp.json()["detail"]) == ("not_found", GONE)


def test_a_practice_game_for_an_account_deleted_meanwhile_is_404(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``POST /api/v1/games``: the game pointed at the deleted account (an
    IntegrityError at the commit, a 500)."""
    bob = make_user(username="bob")
    client = client_for(bob)
    monkeypatch.setattr("api.games.player_of", deleting_first(player_of, bob))
    gone_404(client.post("/api/v1/games", {"variant": "classic", "seed": "7"}, format="json"))
    assert not Game.objects.filter(player_id=bob.pk).exists()
    assert not User.objects.filter(pk=bob.pk).exists()


def race_body() -> dict[str, Any]:
    now = timezone.now()
    return {"name": "R", "starts_at": now + timedelta(hours=1), "ends_at": now + timedelta(hours=2)}


@pytest.mark.parametrize(
    ("module", "url", "body", "model"),
    [
        ("api.races", "/api/v1/races", race_body, Race),
        ("api.tournaments", "/api/v1/tournaments", lambda: {"name": "Cup"}, Tournament),
    ],
)
def test_an_organiser_deleted_while_creating_a_race_or_tournament_gets_404(
    monkeypatch: pytest.MonkeyPatch,
    module: str,
    url: str,
    body: Callable[[], dict[str, Any]],
    model: Any,
) -> None:
    """``created_by`` pointed at the deleted account: an IntegrityError at the commit."""
    organiser: Any = OrganiserFactory(username="olga")  # type: ignore[no-untyped-call]
    client = client_for(organiser)
    monkeypatch.setattr(f"{module}.player_of", deleting_first(player_of, organiser))
    gone_404(client.post(url, body(), format="json"))
    assert not model.objects.exists()


def test_a_login_whose_account_is_deleted_once_its_password_is_checked_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``POST /api/v1/auth/token``: the token pointed at the deleted account (a 500); now
    the answer an unknown username gets."""
    bob = make_user(username="bob")
    monkeypatch.setattr("api.accounts.authenticate", deleting_after(authenticate, bob))
    resp = APIClient().post(
        "/api/v1/auth/token", {"username": "bob", "password": PASSWORD}, format="json"
    )
    assert resp.status_code == 400
    assert (resp.json()["code"], resp.json()["detail"]) == (
        "invalid_credentials",
        "Unknown username or wrong password.",
    )
    assert not AuthToken.objects.exists()
    assert not User.objects.filter(pk=bob.pk).exists()


def test_a_password_change_of_an_account_deleted_meanwhile_does_not_bring_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``POST /api/v1/auth/password``: ``user.save()`` found no row to update and
    inserted the account again (with the new password and a new token); now 404."""
    bob = make_user(username="bob")
    client = client_for(bob)

    def check(request: Any, user: User, password: str) -> str:
        User.objects.filter(pk=user.pk).delete()
        return "ok"

    monkeypatch.setattr(accounts, "current_password_check", check)
    gone_404(
        client.post(
            "/api/v1/auth/password",
            {"current_password": PASSWORD, "new_password": "another long password 42"},
            format="json",
        )
    )
    assert not User.objects.filter(pk=bob.pk).exists()
    assert not AuthToken.objects.exists()
