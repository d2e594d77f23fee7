"""Account services: registration (issue 18.6), and what deleting an account re-scores.

Usernames are unique without regard to case.  The database enforces it (a unique
index on ``LOWER(username)``, migration ``games.0007_username_case_insensitive_unique``),
so two concurrent registrations of ``Alice`` and ``alice`` cannot both succeed: the
check below gives the friendly error, the index settles the race.

Deleting an account (one account's page, the admin's "delete selected", any code that
deletes users) deletes its games, race entries, tournament standings and rating history
with it.  Two receivers of the user model's delete signals (``games.apps``) keep what
those entries counted for in step, in the deletion's transaction: before the delete,
:func:`account_delete_prepare` locks the races it ran in or created, then their
tournaments (race rows first, then tournament rows: the project's lock order) and
marks the rated ones stale; after it,
:func:`account_delete_rescore` ranks each finished one again without the player and
recomputes its tournament's standings, as a disqualification does.

Every other write that inserts a row pointing at an account (a practice game, a race
entry, an API token, a race, tournament or solve it creates, an admission) locks the
account's row first (:func:`player_lock`), as the deletion does before anything else
(:func:`games.services.race_admin.players_lock`): the write runs wholly before the
deletion, which then deletes what it wrote, or after it, and finds no account
(:class:`~games.services.errors.AccountDeleted`, a 404), never an ``IntegrityError``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import User
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from games.services.errors import AccountDeleted, UsernameTaken

#: What :func:`player_lock` says of an account deleted meanwhile.
ACCOUNT_DELETED = "no such player: the account was deleted"


def accounts_lock(accounts: Iterable[Any]) -> None:
    """Lock the rows of ``accounts`` (users; ``None`` skipped) in id order, waiting for
    each (``FOR NO KEY UPDATE``), for a write that inserts rows pointing at them, first
    of that transaction's locks.

    The deletion of an account locks the same rows first
    (:func:`games.services.race_admin.players_lock`, id order too), so the write runs
    wholly before the deletion (which then deletes or unlinks what it wrote) or after
    it.  No key update: the foreign key checks of other transactions (``KEY SHARE``) do
    not wait for it.  Must run in a transaction.  Raises :class:`AccountDeleted` when
    one of them was deleted meanwhile (the caller read it before the deletion
    committed).
    """
    ids = sorted({a.pk for a in accounts if a is not None})
    if not ids:
        return
    users = get_user_model()._default_manager
    found = users.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")
    if len(list(found.values_list("pk", flat=True))) != len(ids):
        raise AccountDeleted(ACCOUNT_DELETED)


def player_lock(*, player: Any) -> None:
    """Lock the player's account row: :func:`accounts_lock` of that one account.  Raises
    :class:`AccountDeleted` when it was deleted meanwhile."""
    accounts_lock([player])


def username_validate(username: str) -> None:
    """The username rules of the API and the sign-up page; raises Django's ``ValidationError``.

    ASCII letters, digits and ``@.+-_`` only (Django's ``ASCIIUsernameValidator``:
    no look-alike letters from other scripts in public standings), and not made
    of dots alone: ``.`` and ``..`` are path segments that browsers resolve away,
    so ``/players/../`` led to the lobby instead of the player's page.
    """
    ASCIIUsernameValidator()(username)
    if username.strip(".") == "":
        raise ValidationError(_("A username cannot be made of dots only."), code="dots_only")


def user_register(*, username: str, password: str, email: str = "") -> User:
    """Create a player account with ``password`` (hashed) in one transaction.

    ``username`` must already be normalised and validated (the API does both,
    with field-by-field messages); ``password`` is stored hashed.  Raises
    :class:`UsernameTaken` when another account has the same username in any
    case, also when a concurrent registration wins the race.
    """
    user_model = get_user_model()
    try:
        with transaction.atomic():
            if user_model.objects.filter(username__iexact=username).exists():
                raise UsernameTaken(f"The username {username!r} is taken.")
            user = user_model(username=username, email=email)
            user.set_password(password)
            user.save()
    except IntegrityError:
        raise UsernameTaken(f"The username {username!r} is taken.") from None
    assert isinstance(user, User)
    return user


def password_check(*, account: Any, password: str) -> bool:
    """Whether ``password`` is ``account``'s (a login's check), with Django's upgrade of an
    outdated hash written only over the hash that was checked.

    Django's own check stores the same password again when its hasher is outdated
    (``set_password``, ``save(update_fields=["password"])``) whatever is stored by then: a
    login that overlapped the holder's password change wrote the old password back over
    the new one (and got a token for it), and of two logins that both upgraded, the
    second save replaced a hash that was no longer outdated, was taken for a new password
    and revoked every API token of the account.  Here the new hash is written by one
    ``UPDATE`` where the stored hash is still the one checked (no save signals: the
    password is the same).  Where it is not, another login stored the same password again
    (the stored hash verifies ``password``: ``account.password`` takes it, one more hash)
    or the password changed meanwhile: ``False``, as for a wrong password.  Returns
    ``False`` for a wrong password; ``account.password`` is the stored hash on ``True``.
    """
    checked = account.password
    changed = False

    def upgrade(raw: str) -> None:
        nonlocal changed
        account.set_password(raw)
        account._password = None  # the same password: nothing to tell the validators
        users = type(account)._default_manager
        if users.filter(pk=account.pk, password=checked).update(password=account.password):
            return
        stored = users.filter(pk=account.pk).values_list("password", flat=True).first()
        if stored is not None and check_password(raw, stored):
            account.password = stored
        else:
            account.password = checked
            changed = True

    return check_password(password, checked, upgrade) and not changed


def account_password_set(*, account: Any, password: str) -> None:
    """Set ``account``'s password to ``password`` (hashed) and save it, in one transaction
    under the account's row lock (:func:`player_lock`, the deletion's first lock): the API's
    ``POST /auth/password`` and the pages' password change (``/accounts/password/``, the
    admin's).

    ``password`` must already be validated (Django's password validators) and the current
    one checked by the caller.  Saving revokes every API token of the account
    (:func:`games.services.tokens.revoke_on_credential_change`, connected in
    ``games.apps``, so any save does, whoever makes it); ``account`` is updated in place
    and only its password is written (the rest of the row stays as stored: a deactivation
    made while the passwords were checked holds).
    Raises :class:`AccountDeleted` when the account was deleted meanwhile (while the
    passwords were hashed): the lock finds no row, so nothing is saved (``save()`` would
    have inserted the account again).
    """
    with transaction.atomic():
        player_lock(player=account)
        account.set_password(password)
        # The password alone: ``account`` was read before the passwords were hashed, and
        # saving every field wrote back what changed meanwhile (an organiser's
        # deactivation was undone: ``is_active`` saved as ``True`` again).
        account.save(update_fields=["password"])


# ------------------------------------------------------------------ deletion

#: Where :func:`account_delete_prepare` leaves the deleted account's races for
#: :func:`account_delete_rescore` (an attribute of the instance being deleted).
_RESULTS = "_canfield_results_to_rescore"


#: Where :func:`account_delete_prepare` notes, on a deletion's ``origin`` (the queryset
#: deleted), that every account of it is locked already.
_LOCKED = "_canfield_accounts_locked"


def account_delete_prepare(
    sender: Any, instance: Any, using: str | None = None, **kwargs: Any
) -> None:
    """``pre_delete`` receiver of the user model (connected in ``games.apps``).

    Every deletion of an account goes through it, one account's page, the admin's
    "delete selected" (a queryset delete) or a service, in the deletion's transaction
    and before the account's race entries are deleted with it: locks what the deletion
    writes to (:func:`games.services.race_admin.players_lock`: rating pools, races,
    tournaments) and marks the rated races it ran in stale
    (:func:`games.services.race_admin.player_results_lock`), and keeps what to re-score
    on ``instance`` for :func:`account_delete_rescore`.  A queryset delete
    (``kwargs["origin"]``, the queryset of users deleted) locks for all its accounts
    at the first one, in one order: account after account took a tournament before the
    next account's races (a deadlock with a race closing meanwhile).  Raises nothing of
    its own.
    """
    from games.services.race_admin import player_results_lock, players_lock

    origin = kwargs.get("origin")
    locked = False
    if isinstance(origin, QuerySet) and issubclass(origin.model, sender):
        locked = getattr(origin, _LOCKED, False)
        if not locked:
            ids = {*origin.values_list("pk", flat=True), instance.pk}
            players_lock(player_ids=sorted(ids), using=using)
            setattr(origin, _LOCKED, True)
            locked = True
    setattr(
        instance,
        _RESULTS,
        player_results_lock(player_id=instance.pk, using=using, locked=locked),
    )


def account_delete_rescore(
    sender: Any, instance: Any, using: str | None = None, **kwargs: Any
) -> None:
    """``post_delete`` receiver of the user model (connected in ``games.apps``).

    In the deletion's transaction, once the account's entries are gone: re-ranks the
    finished races it ran in and recomputes the standings of their tournaments
    (:func:`games.services.race_admin.player_results_rescore`), so the published ranks
    have no gap and the standings are those without the player.  Raises nothing of
    its own.
    """
    from games.services.race_admin import player_results_rescore

    results = instance.__dict__.pop(_RESULTS, None)
    if results is not None:
        player_results_rescore(results)
