"""Account services: registration (issue 18.6).

Usernames are unique without regard to case.  The database enforces it (a unique
index on ``LOWER(username)``, migration ``games.0007_username_case_insensitive_unique``),
so two concurrent registrations of ``Alice`` and ``alice`` cannot both succeed: the
check below gives the friendly error, the index settles the race.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from games.services.errors import UsernameTaken


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
