"""API token services (django-rest-knox rows): issue, revoke one, revoke all of an account.

Every write of a token row goes through here; the API (``api.authentication``,
``api.accounts``) only calls these.  A token is returned once, when issued; the database
keeps a SHA-512 digest of it and its first 15 characters for the look-up.  Settings:
``AUTH_TOKEN_TTL_SECONDS`` (0: tokens last until revoked) and ``AUTH_TOKENS_PER_USER``
(issuing one more deletes the oldest).

A changed password or a deactivation revokes every token of the account, however the
account is saved (a service, the admin, ``changepassword``, a script's ``user.save()``):
:func:`remember_credentials` and :func:`revoke_on_credential_change`, the user model's
``pre_save`` and ``post_save`` receivers, connected in ``games.apps`` so that they hold
whichever app saves the account.  Django's upgrade of an outdated hash at login (the same
password, stored again) is not a change (:func:`is_hash_upgrade`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import (
    check_password,
    get_hasher,
    identify_hasher,
    is_password_usable,
)
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken

from games.services.accounts import player_lock
from games.services.errors import CredentialsChanged


def token_issue(*, user: User, password: str | None = None) -> tuple[str, AuthToken]:
    """A new API token for ``user`` and its row (the token is returned once, stored only
    as a digest).

    Deletes the user's expired tokens and, past ``AUTH_TOKENS_PER_USER``, the oldest.
    Locks the account first (:func:`games.services.accounts.player_lock`, as the deletion
    of an account does): raises :class:`~games.services.errors.AccountDeleted` when it was
    deleted meanwhile (the token, committed while the deletion ran or after it, pointed
    at an account gone: an IntegrityError).

    ``user`` is the caller's copy of the account, whose password it checked: under the
    lock the stored password hash must still be ``user.password`` and the account
    active, else :class:`~games.services.errors.CredentialsChanged` (nothing issued).  A
    login with the old password checked just before the holder changed it (or an
    organiser deactivated the account) got a token after the change had revoked every
    token, so the old password kept working through it.  ``password``: the password the
    caller checked (a login's), or ``None``.  When given, a stored hash other than
    ``user.password`` that still verifies it is the same password hashed again (another
    login's hash upgrade, :func:`is_hash_upgrade`, saved over this one's, each with its
    own salt), not a change: the token is issued (one more hash, only then).
    """
    ttl = settings.AUTH_TOKEN_TTL_SECONDS
    with transaction.atomic():
        player_lock(player=user)
        stored = _credentials_of(user)
        if stored is None or not stored[1] or not _same_password(user, stored[0], password):
            raise CredentialsChanged(
                "the account's password or state changed while it was checked: log in again"
            )
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


def _same_password(user: User, stored: str, password: str | None) -> bool:
    """Whether the stored hash ``stored`` is still the password ``user`` was checked with:
    the hash the caller read, or (``password`` given) a hash that verifies ``password``."""
    if stored == user.password:
        return True
    return password is not None and check_password(password, stored)


def token_revoke(*, token: AuthToken) -> None:
    """Delete one API token row (``POST /auth/logout``, or a token found expired when it
    was used); a row already deleted is no error."""
    token.delete()


def tokens_revoke(*, user: User) -> int:
    """Delete every API token of ``user``; returns how many there were."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return int(deleted)


# ------------------------------------------------------------------ revocation on save


def _credentials_of(user: User) -> tuple[str, bool] | None:
    """``(password hash, is_active)`` as stored for ``user``; ``None`` for an account not
    saved yet (or deleted meanwhile)."""
    if user.pk is None:
        return None
    return User.objects.filter(pk=user.pk).values_list("password", "is_active").first()


def remember_credentials(sender: Any, instance: User, raw: bool = False, **kwargs: Any) -> None:
    """``pre_save`` receiver of the user model (connected in ``games.apps``, dispatch_uid
    ``token-creds``): note the stored password hash and ``is_active`` on ``instance`` for
    :func:`revoke_on_credential_change`.  Does nothing for a fixture's raw save."""
    if raw:
        return
    instance._credentials_before = _credentials_of(instance)  # type: ignore[attr-defined]


def revoke_on_credential_change(
    sender: Any, instance: User, created: bool = False, raw: bool = False, **kwargs: Any
) -> None:
    """``post_save`` receiver of the user model (connected in ``games.apps``, dispatch_uid
    ``token-rotate``): a changed password hash or a deactivation (active before, inactive
    now) revokes every API token of the account (:func:`tokens_revoke`).  Nothing for a new
    account, a fixture's raw save, a save that changed neither, or a hash upgrade
    (:func:`is_hash_upgrade`: the same password stored again by the preferred hasher, which
    Django does when a login checks a hash of an older hasher or iteration count, as after
    every Django upgrade; revoking then logged every bot of the account out)."""
    before = getattr(instance, "_credentials_before", None)
    instance._credentials_before = None  # type: ignore[attr-defined]
    if raw or created or before is None:
        return
    password, active = before
    deactivated = active and not instance.is_active
    if deactivated or (
        password != instance.password
        and not is_hash_upgrade(password, instance, kwargs.get("update_fields"))
    ):
        tokens_revoke(user=instance)


def is_hash_upgrade(before: str, user: User, update_fields: Iterable[str] | None) -> bool:
    """Whether the save of ``user`` that replaced the stored hash ``before`` is Django's
    hash upgrade, not a new password.

    Django's ``check_password`` upgrades a hash that its hasher says must be updated (an
    older algorithm, fewer iterations) by storing the *same* password again with the
    preferred hasher: ``set_password``, then ``_password = None`` (its mark that the
    password did not change), then ``save(update_fields=["password"])``.  A password
    change through ``set_password`` keeps the new password in ``_password`` until the save
    is over, so it is never taken for an upgrade.  Returns ``True`` only when all of these
    hold: ``_password`` is ``None``, the save wrote the password alone, ``before`` is a
    usable hash whose hasher asks for an update, and the new hash is usable and the
    preferred hasher's.  (A hash written without ``set_password`` over an outdated one,
    with ``update_fields=["password"]``, would pass too; nothing in this project does so.)
    """
    if getattr(user, "_password", None) is not None:
        return False
    if update_fields is None or set(update_fields) != {"password"}:
        return False
    if not (is_password_usable(before) and is_password_usable(user.password)):
        return False
    try:
        old = identify_hasher(before)
        new = identify_hasher(user.password)
    except ValueError:
        return False
    preferred = get_hasher("default")
    return new.algorithm == preferred.algorithm and (
        old.algorithm != preferred.algorithm or preferred.must_update(before)
    )
