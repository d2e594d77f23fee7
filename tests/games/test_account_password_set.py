"""The password service shared by the API's ``POST /auth/password`` and the pages'
password change (``games.services.accounts.account_password_set``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from knox.models import AuthToken

from games.services.accounts import account_password_set
from games.services.errors import AccountDeleted
from games.services.tokens import token_issue
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def test_it_sets_the_password_and_revokes_every_token() -> None:
    user = create_user("pat")
    token_issue(user=user)
    token_issue(user=user)
    assert AuthToken.objects.filter(user=user).count() == 2
    account_password_set(account=user, password="a-new-long-passphrase")
    stored = User.objects.get(pk=user.pk)
    assert stored.check_password("a-new-long-passphrase")
    assert not stored.check_password("correct-horse-battery")
    assert AuthToken.objects.filter(user=user).count() == 0


def test_an_account_deleted_meanwhile_is_not_inserted_again() -> None:
    user = create_user("gone")
    User.objects.filter(pk=user.pk).delete()  # ``user`` is the page's stale instance
    with pytest.raises(AccountDeleted):
        account_password_set(account=user, password="a-new-long-passphrase")
    assert not User.objects.filter(username="gone").exists()
