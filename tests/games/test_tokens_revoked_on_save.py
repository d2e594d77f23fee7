"""A changed password or a deactivation revokes every API token of the account whoever
saves it (a service, the admin, ``changepassword``, a script): the user model's
``pre_save``/``post_save`` receivers live in ``games.services.tokens`` and the games
app connects them (``games.apps.GamesConfig.ready``), with the dispatch_uids
``token-creds`` and ``token-rotate``.  They were connected by the API's app only, so
the revocation that ``account_password_set`` promises hung on ``api`` being loaded."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db.models.signals import post_save, pre_save
from knox.models import AuthToken

from games.services.tokens import token_issue
from tests.factories import create_user

pytestmark = pytest.mark.django_db

NEW = "a-new-long-passphrase"


@pytest.fixture
def only_the_games_app() -> Iterator[None]:
    """The token receivers disconnected, then connected again by the games app alone
    (as in a process where no other app connects them); restored afterwards."""
    saved = {signal: list(signal.receivers) for signal in (pre_save, post_save)}
    try:
        assert pre_save.disconnect(sender=User, dispatch_uid="token-creds")
        assert post_save.disconnect(sender=User, dispatch_uid="token-rotate")
        apps.get_app_config("games").ready()
        yield
    finally:
        for signal, receivers in saved.items():
            with signal.lock:
                signal.receivers = receivers
                signal.sender_receivers_cache.clear()


def tokens_of(user: User) -> int:
    return int(AuthToken.objects.filter(user=user).count())


def test_the_games_app_connects_them_under_the_same_dispatch_uids(
    only_the_games_app: None,
) -> None:
    from games.services import tokens

    assert tokens.remember_credentials in pre_save._live_receivers(User)[0]
    assert tokens.revoke_on_credential_change in post_save._live_receivers(User)[0]
    # The same ids: connecting again replaces, never adds a second receiver.
    before = (len(pre_save.receivers), len(post_save.receivers))
    apps.get_app_config("games").ready()
    assert (len(pre_save.receivers), len(post_save.receivers)) == before


def test_a_script_changing_the_password_revokes_every_token(only_the_games_app: None) -> None:
    user = create_user("pat")
    token_issue(user=user)
    token_issue(user=user)
    script_copy = User.objects.get(pk=user.pk)
    script_copy.set_password(NEW)
    script_copy.save()
    assert tokens_of(user) == 0


def test_a_deactivation_revokes_every_token(only_the_games_app: None) -> None:
    user = create_user("pat")
    token_issue(user=user)
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert tokens_of(user) == 0


def test_a_save_that_changes_neither_keeps_the_tokens(only_the_games_app: None) -> None:
    user = create_user("pat")
    token_issue(user=user)
    user.email = "pat@example.org"
    user.save()
    user.is_active = True  # already active: no change
    user.save()
    assert tokens_of(user) == 1
