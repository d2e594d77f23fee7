"""A login or a password change that overlaps a change of the account's credentials.

Checking a password takes a while (hashing), and the account was read before.  Two
holes followed from that stale read:

* ``POST /auth/token`` with the old password, checked just before the account holder
  changed it: the token was issued after the change had revoked every token, so the
  old password kept working through it (a script logging in over and over covers the
  hashing time of every login);
* a password change (``POST /auth/password``, ``/accounts/password/``) saved the whole
  account as read before the check: an organiser's deactivation committed meanwhile was
  undone (``is_active`` written back ``True``), and so was any other change of the row.

Now a token is issued only for the password and the active state the caller checked
(:func:`games.services.tokens.token_issue`, under the account's row lock), and the
password change writes the password alone.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from knox.models import AuthToken
from rest_framework.test import APIClient

import api.accounts
from games.services.accounts import account_password_set
from games.services.errors import CredentialsChanged
from games.services.tokens import token_issue
from tests.factories import create_user

pytestmark = pytest.mark.django_db

OLD = "correct-horse-battery"
NEW = "a-brand-new-long-passphrase"


def _change_password_elsewhere(user: User) -> None:
    """The account holder's change, from another request (its own copy of the row)."""
    account_password_set(account=User.objects.get(pk=user.pk), password=NEW)


def test_no_token_for_a_password_changed_since_it_was_checked() -> None:
    user = create_user("pat")  # the login's copy, read before the change
    _change_password_elsewhere(user)
    with pytest.raises(CredentialsChanged):
        token_issue(user=user)
    assert AuthToken.objects.filter(user=user).count() == 0


def test_no_token_for_an_account_deactivated_since_it_was_checked() -> None:
    user = create_user("pat")
    other = User.objects.get(pk=user.pk)
    other.is_active = False
    other.save()
    with pytest.raises(CredentialsChanged):
        token_issue(user=user)
    assert AuthToken.objects.filter(user=user).count() == 0


def test_a_fresh_copy_still_gets_its_token() -> None:
    user = create_user("pat")
    _change_password_elsewhere(user)
    token, row = token_issue(user=User.objects.get(pk=user.pk))
    assert len(token) == 64
    assert AuthToken.objects.filter(user=user).count() == 1


def test_the_api_login_overlapping_a_password_change_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The old password is right when checked; the holder's change commits before the
    token is issued: 400 invalid_credentials, and no token exists."""
    user = create_user("pat")
    real = api.accounts.authenticate  # type: ignore[attr-defined]

    def check_then_change(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        _change_password_elsewhere(user)
        return found

    monkeypatch.setattr(api.accounts, "authenticate", check_then_change)
    answer = APIClient().post(
        "/api/v1/auth/token", {"username": "pat", "password": OLD}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_credentials"
    assert AuthToken.objects.filter(user=user).count() == 0


def test_a_password_change_keeps_a_deactivation_made_meanwhile() -> None:
    stale = create_user("pat")  # the password page's copy
    ban = User.objects.get(pk=stale.pk)
    ban.is_active = False
    ban.save()
    account_password_set(account=stale, password=NEW)
    stored = User.objects.get(pk=stale.pk)
    assert stored.is_active is False
    assert stored.check_password(NEW)


def test_a_password_change_keeps_a_rename_made_meanwhile() -> None:
    stale = create_user("pat")
    User.objects.filter(pk=stale.pk).update(username="patricia")
    account_password_set(account=stale, password=NEW)
    assert User.objects.get(pk=stale.pk).username == "patricia"


def test_the_api_password_change_of_an_account_deactivated_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deactivated while the passwords were checked: 401 as its next request would be,
    the account stays inactive, the password unchanged and no token is issued."""
    user = create_user("pat")
    token, _ = token_issue(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    real = api.accounts.current_password_check  # type: ignore[attr-defined]

    def check_then_ban(*args: Any, **kwargs: Any) -> Any:
        outcome = real(*args, **kwargs)
        User.objects.filter(pk=user.pk).update(is_active=False)
        return outcome

    monkeypatch.setattr(api.accounts, "current_password_check", check_then_ban)
    answer = client.post(
        "/api/v1/auth/password",
        {"current_password": OLD, "new_password": NEW},
        format="json",
    )
    assert answer.status_code == 401
    stored = User.objects.get(pk=user.pk)
    assert stored.is_active is False
    assert stored.check_password(OLD)
    assert AuthToken.objects.filter(user=user).count() == 1  # the request's own, untouched


def test_the_checked_password_does_not_pass_a_new_password() -> None:
    """``token_issue``'s ``password`` lets a re-hash of the same password through, never a
    new password: the old one does not verify the stored hash."""
    user = create_user("pat")
    _change_password_elsewhere(user)
    with pytest.raises(CredentialsChanged):
        token_issue(user=user, password=OLD)
    assert AuthToken.objects.filter(user=user).count() == 0
