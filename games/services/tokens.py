"""API token services (django-rest-knox rows): issue, revoke one, revoke all of an account.

Every write of a token row goes through here; the API (``api.authentication``,
``api.accounts``) only calls these.  A token is returned once, when issued; the database
keeps a SHA-512 digest of it and its first 15 characters for the look-up.  Settings:
``AUTH_TOKEN_TTL_SECONDS`` (0: tokens last until revoked) and ``AUTH_TOKENS_PER_USER``
(issuing one more deletes the oldest).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken

from games.services.accounts import player_lock


def token_issue(*, user: User) -> tuple[str, AuthToken]:
    """A new API token for ``user`` and its row (the token is returned once, stored only
    as a digest).

    Deletes the user's expired tokens and, past ``AUTH_TOKENS_PER_USER``, the oldest.
    Locks the account first (:func:`games.services.accounts.player_lock`, as the deletion
    of an account does): raises :class:`~games.services.errors.AccountDeleted` when it was
    deleted meanwhile (the token, committed while the deletion ran or after it, pointed
    at an account gone: an IntegrityError).
    """
    ttl = settings.AUTH_TOKEN_TTL_SECONDS
    with transaction.atomic():
        player_lock(player=user)
        tokens = AuthToken.objects.filter(user=user)
        tokens.filter(expiry__lte=timezone.now()).delete()
        keep = max(settings.AUTH_TOKENS_PER_USER - 1, 0)
        stale = list(tokens.order_by("-created").values_list("digest", flat=True)[keep:])
        if stale:
            AuthToken.objects.filter(digest__in=stale).delete()
        row, token = AuthToken.objects.create(
            user=user, expiry=timedelta(seconds=ttl) if ttl > 0 else None
        )
    return str(token), row


def token_revoke(*, token: AuthToken) -> None:
    """Delete one API token row (``POST /auth/logout``, or a token found expired when it
    was used); a row already deleted is no error."""
    token.delete()


def tokens_revoke(*, user: User) -> int:
    """Delete every API token of ``user``; returns how many there were."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return int(deleted)
