# mypy: disable-error-code="no-untyped-call, attr-defined, assignment"
"""API tokens that end (issue 12 item 7): django-rest-knox tokens, revocable (this token;
everywhere), rotated on password change and deactivation at once in every process,
optionally expiring; ``Authorization: Token ...`` unchanged; ``Cache-Control: no-store``."""

from __future__ import annotations

import binascii
import os
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from api.authentication import legacy_token_row
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GOOD = "correct-horse-battery"
NEW = "a-brand-new-long-passphrase"


def login(username: str, password: str = GOOD) -> Any:
    return APIClient().post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json"
    )


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def works(token: str) -> bool:
    status = with_token(token).get("/api/v1/games").status_code
    assert status in (200, 401)
    return bool(status == 200)


@pytest.fixture
def bob() -> User:
    user: User = UserFactory(username="bob")
    return user


def test_login_issues_a_new_hashed_token_with_no_store(bob: User) -> None:
    resp = login("bob")
    assert resp.status_code == 200
    assert "no-store" in resp["Cache-Control"]
    token = resp.json()["token"]
    assert len(token) == 64
    assert works(token)
    row = AuthToken.objects.get(user=bob)
    assert token not in (row.digest, row.token_key)  # only a digest and a prefix are kept
    assert login("bob").json()["token"] != token


def test_login_takes_the_username_in_any_case(bob: User) -> None:
    """Sign-up refuses ``BOB`` beside ``bob``, so ``BOB`` logs in as ``bob``."""
    resp = login("BoB")
    assert resp.status_code == 200, resp.json()
    assert AuthToken.objects.get(user=bob)
    assert login("BOB", "wrong").json()["code"] == "invalid_credentials"
    assert login("bobby").json()["code"] == "invalid_credentials"


def test_any_case_is_the_lockouts_folding_not_the_databases(bob: User) -> None:
    """PostgreSQL's iexact (UPPER) matches a dotless i to "I": "bob" spelt "b\u0131b"-like
    names logged in to the account under a lockout count of their own.  Only names that
    casefold (after NFKC) as the stored one does log in."""
    from django.contrib.auth import authenticate
    from django.test import RequestFactory

    victim: User = UserFactory(username="victim")
    request = RequestFactory().post("/api/v1/auth/token")
    assert authenticate(request, username="VICTIM", password=GOOD) == victim
    assert authenticate(request, username="\uff56ictim", password=GOOD) is None  # full-width v
    assert authenticate(request, username="v\u0131ct\u0131m", password=GOOD) is None
    assert authenticate(request, username="v\u0131ctim", password=GOOD) is None


def test_the_token_endpoint_folds_a_username_as_the_web_login_does(bob: User) -> None:
    """``POST /api/v1/auth/token`` found the account with the database's iexact first and
    passed its stored name on, so on PostgreSQL "b\u0131b"-like spellings (dotless i)
    logged in over the API where the web login refused them.  Both now take only names
    that casefold (after NFKC) as the stored one does."""
    UserFactory(username="victim")
    assert login("VICTIM").status_code == 200
    for spelling in ("v\u0131ct\u0131m", "v\u0131ctim"):
        resp = login(spelling)
        assert resp.status_code == 400, spelling
        assert resp.json()["code"] == "invalid_credentials"
    assert AuthToken.objects.filter(user__username="victim").count() == 1  # VICTIM's only


def test_logout_revokes_this_token_only(bob: User) -> None:
    first, second = login("bob").json()["token"], login("bob").json()["token"]
    resp = with_token(first).post("/api/v1/auth/logout")
    assert resp.status_code == 204
    assert not works(first)
    assert works(second)
    again = with_token(first).post("/api/v1/auth/logout")
    assert again.status_code == 401
    assert again.json()["code"] == "authentication_failed"


def test_logout_everywhere_revokes_every_token(bob: User) -> None:
    tokens = [login("bob").json()["token"] for _ in range(3)]
    UserFactory(username="other")
    theirs = login("other").json()["token"]
    assert with_token(tokens[0]).post("/api/v1/auth/logout-all").status_code == 204
    assert not any(works(t) for t in tokens)
    assert works(theirs)


def test_password_change_rotates_the_tokens(bob: User) -> None:
    old = [login("bob").json()["token"] for _ in range(2)]
    c = with_token(old[0])
    wrong = c.post(
        "/api/v1/auth/password", {"current_password": "nope", "new_password": NEW}, format="json"
    )
    assert wrong.status_code == 400
    assert list(wrong.json()["errors"]) == ["current_password"]
    weak = c.post(
        "/api/v1/auth/password", {"current_password": GOOD, "new_password": "123"}, format="json"
    )
    assert weak.status_code == 400
    assert list(weak.json()["errors"]) == ["new_password"]
    assert all(works(t) for t in old)

    resp = c.post(
        "/api/v1/auth/password", {"current_password": GOOD, "new_password": NEW}, format="json"
    )
    assert resp.status_code == 200
    assert "no-store" in resp["Cache-Control"]
    assert not any(works(t) for t in old)
    assert works(resp.json()["token"])
    assert login("bob", GOOD).status_code == 400
    assert login("bob", NEW).status_code == 200


@pytest.mark.parametrize("how", ["set_password", "deactivate"])
def test_a_change_made_anywhere_revokes_at_once(bob: User, how: str) -> None:
    """The admin, ``changepassword`` or another process saving the user: the next request
    with the old token is refused, though this process used the token a moment ago (the
    fault: a 30 s per-process cache kept it working)."""
    token = login("bob").json()["token"]
    assert works(token)
    user = User.objects.get(pk=bob.pk)  # another copy, as another process would hold
    if how == "set_password":
        user.set_password(NEW)
    else:
        user.is_active = False
    user.save()
    assert not AuthToken.objects.filter(user=bob).exists()
    assert not works(token)


def test_a_token_deleted_by_another_process_is_refused_at_once(bob: User) -> None:
    token = login("bob").json()["token"]
    assert works(token)
    with connection.cursor() as cursor:  # no signal, no model: as another process would
        cursor.execute("DELETE FROM knox_authtoken")
    assert not works(token)


def test_one_query_finds_token_and_user(bob: User) -> None:
    client = with_token(login("bob").json()["token"])
    for _ in range(2):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/api/v1/games").status_code == 200
        lookups = [q["sql"] for q in ctx.captured_queries if "knox_authtoken" in q["sql"]]
        assert len(lookups) == 1
        assert "auth_user" in lookups[0]  # the user comes in the same query


@override_settings(AUTH_TOKEN_TTL_SECONDS=3600)
def test_tokens_expire_when_configured(bob: User) -> None:
    before = timezone.now()
    body = login("bob").json()
    after = timezone.now()
    expiry = AuthToken.objects.get(user=bob).expiry
    assert expiry is not None
    # Issued between before and after, it lives 3600 s (however long the login took).
    assert before + timedelta(seconds=3600) <= expiry <= after + timedelta(seconds=3600)
    assert body["expiry"] is not None
    assert works(body["token"])
    AuthToken.objects.filter(user=bob).update(expiry=timezone.now() - timedelta(seconds=1))
    assert not works(body["token"])
    assert not AuthToken.objects.filter(user=bob).exists()  # the expired row is deleted


def test_without_a_ttl_tokens_have_no_expiry(bob: User) -> None:
    assert login("bob").json()["expiry"] is None


@override_settings(AUTH_TOKENS_PER_USER=2)
def test_an_account_keeps_at_most_the_configured_number_of_tokens(bob: User) -> None:
    tokens = [login("bob").json()["token"] for _ in range(3)]
    assert [works(t) for t in tokens] == [False, True, True]


def test_a_drf_token_moved_by_the_migration_keeps_working(bob: User) -> None:
    legacy = binascii.hexlify(os.urandom(20)).decode()  # DRF's key format
    token_key, digest = legacy_token_row(legacy)
    AuthToken.objects.bulk_create(
        [AuthToken(digest=digest, token_key=token_key, user=bob, expiry=None)]
    )
    assert works(legacy)
    assert not works(legacy[:-1] + ("0" if legacy[-1] != "0" else "1"))


@pytest.mark.parametrize(
    "header", ["Token", "Token a b", "Token \u00e9\u00e9", "Token " + "z" * 64, "Token " + "0" * 3]
)
def test_malformed_tokens_are_401_problems(header: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    resp = client.get("/api/v1/games")
    assert resp.status_code == 401
    assert resp["Content-Type"] == "application/problem+json"
    assert resp.json()["code"] == "authentication_failed"


def test_the_migration_moves_drf_tokens_into_knox(bob: User) -> None:
    """An upgraded database: every key of ``authtoken_token`` works unchanged afterwards,
    and the old table no longer holds it in clear."""
    import importlib
    from types import SimpleNamespace

    from django.apps import apps

    migration = importlib.import_module("api.migrations.0001_knox_tokens_from_drf_tokens")
    legacy = binascii.hexlify(os.urandom(20)).decode()
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id integer NOT NULL)"
            if connection.vendor == "postgresql"
            else "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created datetime NOT NULL, user_id integer NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
            [legacy, timezone.now(), bob.pk],
        )
    assert not works(legacy)
    migration.forwards(apps, SimpleNamespace(connection=connection))
    assert works(legacy)
    assert AuthToken.objects.get(user=bob).expiry is None
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0
        cursor.execute("DROP TABLE authtoken_token")


@pytest.mark.parametrize(
    ("scheme", "named"),
    [("Bearer", "the 'Bearer' scheme"), ("bearer", "the 'bearer' scheme"), ("", "that scheme")],
)
def test_another_authorization_scheme_is_told_to_use_token(
    bob: User, scheme: str, named: str
) -> None:
    """A valid token sent with another scheme (or none) is not accepted, and the 401 says
    which scheme is: ``Authorization: Token <key>``.  A bare key is not repeated back."""
    token = login("bob").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {token}".strip())
    resp = client.get("/api/v1/games")
    assert (resp.status_code, resp["WWW-Authenticate"]) == (401, "Token")
    assert resp.json()["code"] == "not_authenticated"
    assert resp.json()["detail"] == (
        f"Authentication credentials were not provided: {named} is not accepted here. "
        "Use 'Authorization: Token <key>' with a key from POST /api/v1/auth/token."
    )
    assert token not in resp.content.decode()
    # Nothing else changes: without a header the text is DRF's, a public endpoint ignores
    # the header, and the same key with the Token scheme works.
    assert APIClient().get("/api/v1/games").json()["detail"] == (
        "Authentication credentials were not provided."
    )
    assert client.get("/api/v1/races").status_code == 200
    assert works(token)
