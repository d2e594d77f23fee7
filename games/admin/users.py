"""Accounts in the admin: Django's user admin with the players' username rules.

The API and the sign-up page refuse usernames made of dots only and letters from
other scripts (:func:`games.services.accounts.username_validate`); staff adding or
renaming an account in the admin get the same rules, so no account has a name
whose page a browser cannot reach (``/players/../`` resolves to the lobby).
The user admin drops malformed selected ids before an action
(:class:`~games.admin.common.SelectionGuardAdmin`), as every admin of ours does (the
groups' and the other third-party admins get it from
:func:`~games.admin.common.guard_every_admin`).

Deleting an account (its page, or "delete selected") deletes its race entries,
tournament standings rows and rating rows with it, records whose own admins refuse
every delete (results change only through the services); the deletion re-scores the
races and tournaments they counted for (:mod:`games.services.accounts`), so
:meth:`PlayerAdmin.get_deleted_objects` does not ask for a delete permission on them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User
from django.http import HttpRequest

from games.admin.common import SelectionGuardAdmin
from games.models import PlayerRating, RaceEntry, RatingChange, TournamentStanding
from games.services.accounts import username_validate


class _UsernameRules:
    """``clean_username`` with the players' rules (a mixin for the two admin forms)."""

    cleaned_data: dict[str, Any]

    def clean_username(self) -> str | None:
        # The creation form's own check (taken in any case) runs first; it returns None
        # when it has already put an error on the field.
        parent = getattr(super(), "clean_username", None)
        username: str | None = parent() if parent is not None else self.cleaned_data["username"]
        if username:
            username_validate(username)
        return username


class PlayerCreationForm(_UsernameRules, AdminUserCreationForm):  # type: ignore[misc]
    """The admin's "add user" form, with the players' username rules."""


class PlayerChangeForm(_UsernameRules, UserChangeForm):  # type: ignore[type-arg]
    """The admin's user form, with the players' username rules."""


class PlayerAdmin(SelectionGuardAdmin, UserAdmin):  # type: ignore[type-arg]
    """Django's user admin with :class:`PlayerCreationForm` and :class:`PlayerChangeForm`."""

    add_form = PlayerCreationForm
    form = PlayerChangeForm

    #: What goes with an account and is re-scored by its deletion; their admins refuse
    #: deleting them one by one, which made every account that had raced undeletable
    #: (403 on the delete page and on "delete selected").
    GOES_WITH_THE_ACCOUNT = (RaceEntry, TournamentStanding, PlayerRating, RatingChange)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Django's list of what the deletion takes, without a delete permission needed on
        :attr:`GOES_WITH_THE_ACCOUNT` (every other related object still needs one)."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        exempt = {str(model._meta.verbose_name) for model in self.GOES_WITH_THE_ACCOUNT}
        return deleted, counts, {p for p in perms_needed if str(p) not in exempt}, protected


admin.site.unregister(User)
admin.site.register(User, PlayerAdmin)
