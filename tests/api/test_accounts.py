"""Accounts: register, token, strict input, session auth for the browser."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from knox.crypto import hash_token
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import make_user

pytestmark = pytest.mark.django_db

User = get_user_model()
GOOD = "correct-horse-battery"


def register(client: APIClient, **body: object) -> Any:
    return client.post("/api/v1/auth/register", body, format="json")


def test_register_returns_a_working_token(anon: APIClient) -> None:
    resp = register(anon, username="alice", password=GOOD, email="alice@example.test")
    assert resp.status_code == 201
    body = resp.json()
    user = User.objects.get(username="alice")
    assert body["username"] == "alice"
    assert body["expiry"] is None
    assert AuthToken.objects.get(user=user).digest == hash_token(body["token"])
    assert "no-store" in resp["Cache-Control"]
    assert user.check_password(GOOD)
    assert user.email == "alice@example.test"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    resp = client.post("/api/v1/games", {"seed": "1"}, format="json")
    assert resp.status_code == 201
    assert client.get("/api/v1/games").json()["results"][0]["id"] == resp.json()["id"]


@pytest.mark.parametrize(
    ("password", "needle"),
    [
        ("short", "too short"),
        ("password123", "too common"),
        ("83920174652", "entirely numeric"),
        ("alice-the-great", "too similar"),
    ],
)
def test_weak_passwords_are_refused(anon: APIClient, password: str, needle: str) -> None:
    resp = register(anon, username="alice-the-great", password=password)
    assert resp.status_code == 400
    assert resp["Content-Type"] == "application/problem+json"
    problem = resp.json()
    assert problem["code"] == "validation_error"
    assert any(needle in message for message in problem["errors"]["password"])
    assert not User.objects.exists()
    assert not AuthToken.objects.exists()


@pytest.mark.parametrize(
    ("username", "why"),
    [
        ("no spaces!", "Enter a valid username"),
        (".", "dots only"),  # /players/./ and /players/../ resolve away in a browser
        ("..", "dots only"),
        ("...", "dots only"),
    ],
)
def test_bad_username_is_refused(anon: APIClient, username: str, why: str) -> None:
    resp = register(anon, username=username, password=GOOD)
    assert resp.status_code == 400
    assert resp.json()["code"] == "validation_error"
    assert list(resp.json()["errors"]) == ["username"]
    assert any(why in message for message in resp.json()["errors"]["username"])
    assert not User.objects.exists()


def test_dots_within_a_username_are_fine(anon: APIClient) -> None:
    resp = register(anon, username="a.b..", password=GOOD)
    assert resp.status_code == 201
    # The account exists under that exact name, and its token works.
    assert resp.json()["username"] == "a.b.."
    assert list(User.objects.values_list("username", flat=True)) == ["a.b.."]
    anon.credentials(HTTP_AUTHORIZATION=f"Token {resp.json()['token']}")
    assert anon.post("/api/v1/auth/logout").status_code == 204


@pytest.mark.parametrize("username", ["alice", "ALICE", "Alice"])
def test_duplicate_username_is_409_case_insensitive(anon: APIClient, username: str) -> None:
    assert register(anon, username="alice", password=GOOD).status_code == 201
    resp = register(anon, username=username, password=GOOD + "x")
    assert resp.status_code == 409
    assert resp.json()["code"] == "username_taken"
    assert User.objects.count() == 1
    assert User.objects.get().check_password(GOOD)


def test_token_endpoint(anon: APIClient) -> None:
    user = make_user(username="bob")
    resp = anon.post("/api/v1/auth/token", {"username": "bob", "password": GOOD}, format="json")
    assert resp.status_code == 200
    assert resp.json()["username"] == "bob"
    assert AuthToken.objects.get(user=user).digest == hash_token(resp.json()["token"])
    assert "no-store" in resp["Cache-Control"]
    # A new token at every login; the first one keeps working.
    again = anon.post("/api/v1/auth/token", {"username": "bob", "password": GOOD}, format="json")
    assert again.json()["token"] != resp.json()["token"]
    assert AuthToken.objects.filter(user=user).count() == 2


def test_bad_credentials_give_one_identical_answer(anon: APIClient) -> None:
    make_user(username="bob")
    wrong = anon.post("/api/v1/auth/token", {"username": "bob", "password": "nope"}, format="json")
    unknown = anon.post(
        "/api/v1/auth/token", {"username": "nobody", "password": GOOD}, format="json"
    )
    assert wrong.status_code == unknown.status_code == 400
    assert wrong.json() == unknown.json()
    assert wrong.json()["code"] == "invalid_credentials"
    assert wrong.content == unknown.content
    headers = {k: v for k, v in wrong.headers.items() if k.lower() not in {"date"}}
    assert headers == {k: v for k, v in unknown.headers.items() if k.lower() not in {"date"}}


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("register", {"username": "a", "password": GOOD, "admin": True}, "unknown_field"),
        ("register", {"username": "a", "password": GOOD, "is_staff": True}, "unknown_field"),
        ("token", {"username": "a", "password": GOOD, "scope": "all"}, "unknown_field"),
        ("register", {"username": 7, "password": GOOD}, "validation_error"),
        ("register", {"username": "a"}, "validation_error"),
        ("token", {"username": "a", "password": ["x"]}, "validation_error"),
        ("token", ["a", GOOD], "malformed_request"),
    ],
)
def test_strict_input(anon: APIClient, path: str, body: Any, code: str) -> None:
    resp = anon.post(f"/api/v1/auth/{path}", body, format="json")
    assert resp.status_code == 400
    assert resp.json()["code"] == code
    assert not User.objects.exists()


def test_session_auth_works_for_the_browser() -> None:
    make_user(username="carol")
    browser = APIClient(enforce_csrf_checks=True)
    assert browser.get("/api/v1/games").status_code == 401
    assert browser.login(username="carol", password=GOOD)
    resp = browser.get("/api/v1/games")
    assert resp.status_code == 200
    assert resp.json()["results"] == []
    # Unsafe methods with a session need the CSRF token (DRF SessionAuthentication).
    refused = browser.post("/api/v1/games", {"seed": "1"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "csrf_failed"
