# mypy: disable-error-code="no-untyped-call, assignment"
"""Django's upgrade of an outdated password hash at login does not log the account's bots out.

When a login checks a hash made by an older hasher or iteration count (every Django
release raises PBKDF2's), Django stores the same password again with the preferred
hasher.  The user model's ``post_save`` receiver revoked every API token on any change of
the stored hash, so the first login after an upgrade (on the API or the web page) killed
every other token of the account.  ``games.services.tokens.is_hash_upgrade`` tells the
upgrade from a new password.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.test import override_settings
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GOOD = "correct-horse-battery"
#: The preferred hasher now has 2 iterations; hashes of the test hasher (1) are outdated.
UPGRADED = [
    "tests.hashers.TwoIterationPBKDF2PasswordHasher",
    "tests.hashers.QuickPBKDF2PasswordHasher",
]


def token_of(username: str, password: str = GOOD) -> str:
    resp = APIClient().post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json"
    )
    assert resp.status_code == 200
    return str(resp.json()["token"])


def works(token: str) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    status = client.get("/api/v1/games").status_code
    assert status in (200, 401)
    return bool(status == 200)


@pytest.fixture
def bot() -> User:
    user: User = UserFactory(username="bot")  # password: GOOD
    return user


def test_the_stored_hash_is_the_old_hashers_before_the_login(bot: User) -> None:
    assert User.objects.get(pk=bot.pk).password.startswith("pbkdf2_sha256$1$")


def test_an_api_login_that_upgrades_the_hash_keeps_the_other_tokens(bot: User) -> None:
    first = token_of("bot")
    with override_settings(PASSWORD_HASHERS=UPGRADED):
        second = token_of("bot")
    assert User.objects.get(pk=bot.pk).password.startswith("pbkdf2_sha256$2$")
    assert works(first)
    assert works(second)
    assert AuthToken.objects.filter(user=bot).count() == 2


def test_a_web_login_that_upgrades_the_hash_keeps_the_api_tokens(bot: User) -> None:
    first = token_of("bot")
    with override_settings(PASSWORD_HASHERS=UPGRADED):
        assert APIClient().login(username="bot", password=GOOD)
    assert User.objects.get(pk=bot.pk).password.startswith("pbkdf2_sha256$2$")
    assert works(first)


def test_a_new_password_set_while_the_hasher_changed_still_revokes(bot: User) -> None:
    first = token_of("bot")
    with override_settings(PASSWORD_HASHERS=UPGRADED):
        user = User.objects.get(pk=bot.pk)
        user.set_password("a-brand-new-long-passphrase")
        user.save(update_fields=["password"])
    assert not works(first)


def test_a_hash_written_unusable_still_revokes(bot: User) -> None:
    first = token_of("bot")
    with override_settings(PASSWORD_HASHERS=UPGRADED):
        user = User.objects.get(pk=bot.pk)
        user.set_unusable_password()
        user._password = None  # type: ignore[attr-defined]  # as a hash upgrade leaves it
        user.save(update_fields=["password"])
    assert not works(first)


def test_the_same_hasher_writing_a_new_password_still_revokes(bot: User) -> None:
    first = token_of("bot")
    user = User.objects.get(pk=bot.pk)
    user.password = make_password("a-brand-new-long-passphrase")
    user.save(update_fields=["password"])
    assert not works(first)


def test_two_logins_that_both_upgrade_the_hash_both_get_a_token(
    bot: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots of one account logging in at once after an upgrade: each login checks the
    outdated hash and stores the same password again, each with its own salt.  The login
    whose upgrade was overwritten by the other's found a stored hash other than its own
    and was refused ``400 invalid_credentials`` with the right password; the stored hash
    still verifies that password, so it gets its token."""
    import django.contrib.auth

    import api.accounts

    other_login = User.objects.get(pk=bot.pk)  # read before either upgrade
    real = django.contrib.auth.authenticate

    def then_the_other_login_upgrades(*args: Any, **kwargs: Any) -> Any:
        user = real(*args, **kwargs)  # this login's upgrade is saved
        assert other_login.check_password(GOOD)  # the other's, saved over it
        return user

    monkeypatch.setattr(api.accounts, "authenticate", then_the_other_login_upgrades)
    with override_settings(PASSWORD_HASHERS=UPGRADED):
        token = token_of("bot")
    assert works(token)
    assert User.objects.get(pk=bot.pk).password == other_login.password


def _meanwhile(monkeypatch: pytest.MonkeyPatch, action: Any) -> None:
    """Run ``action`` once, after the next login read the account and before it checks
    the password (the first PBKDF2 verification: the hashing's time)."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    real = PBKDF2PasswordHasher.verify
    pending = [action]

    def verify(self: Any, password: str, encoded: str) -> bool:
        if pending:
            pending.pop()()
        return bool(real(self, password, encoded))

    monkeypatch.setattr(PBKDF2PasswordHasher, "verify", verify)


def test_two_overlapping_upgrades_revoke_nothing(
    bot: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bots log in at once after an upgrade: both read the outdated hash, the other
    stores its upgrade and gets its token, then this one's upgrade came.  Saved over a
    hash that was no longer outdated, it was taken for a new password and revoked every
    token, the other bot's fresh one too."""
    other: list[str] = []
    _meanwhile(monkeypatch, lambda: other.append(token_of("bot")))
    with override_settings(PASSWORD_HASHERS=UPGRADED):
        mine = token_of("bot")
    assert [works(other[0]), works(mine)] == [True, True]
    assert AuthToken.objects.filter(user=bot).count() == 2


def test_an_upgrade_never_writes_the_old_password_over_a_new_one(
    bot: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The holder changes the password while a login with the old one is being checked:
    Django's upgrade stored the old password again over the new one (and the login got
    a token), so the change was undone.  The change holds and the login is refused."""
    from games.services.accounts import account_password_set

    new = "a-brand-new-long-passphrase"
    _meanwhile(
        monkeypatch,
        lambda: account_password_set(account=User.objects.get(pk=bot.pk), password=new),
    )
    with override_settings(PASSWORD_HASHERS=UPGRADED):
        refused = APIClient().post(
            "/api/v1/auth/token", {"username": "bot", "password": GOOD}, format="json"
        )
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_credentials"
    stored = User.objects.get(pk=bot.pk)
    assert [stored.check_password(new), stored.check_password(GOOD)] == [True, False]
    assert AuthToken.objects.filter(user=bot).count() == 0
