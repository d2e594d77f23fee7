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

from collections import Counter
from dataclasses import dataclass
from typing import Any, cast

from django.contrib import admin
from django.contrib.admin.utils import NestedObjects, quote
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User
from django.db import models, router
from django.db.models import Count
from django.db.models.deletion import Collector
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext

from games.admin.common import SelectionGuardAdmin
from games.models import Move, PlayerRating, RaceEntry, RatingChange, TournamentStanding
from games.services.accounts import username_validate
from games.words import USERNAME_HELP

#: Rows a deletion takes that the confirmation page counts instead of listing (a
#: prolific player's moves ran to hundreds of thousands of lines, each loaded to be
#: listed): leaves that nothing refers to, so no protection or permission hangs on them.
COUNTED_NOT_LISTED: tuple[type[models.Model], ...] = (Move,)


@dataclass(frozen=True)
class _Counted:
    """One line of the confirmation: ``count`` rows of ``model`` under ``parent``."""

    model: type[models.Model]
    parent: Any
    count: int

    def __str__(self) -> str:
        return gettext("%(models)s: %(count)d") % {
            "models": capfirst(str(self.model._meta.verbose_name_plural)),
            "count": self.count,
        }


class _CountingCollector(NestedObjects):
    """Django's admin collector, except that the rows of :data:`COUNTED_NOT_LISTED` are
    left as querysets (deleted in bulk, as the real deletion does) and counted, instead
    of being loaded to be listed one by one.

    Only a model that Django itself could delete in bulk qualifies (no signal receiver,
    no row referring to it): every relation that protects or restricts a deletion, and
    every other row, is collected as before, so the page's checks are unchanged.
    """

    def can_fast_delete(self, *args: Any, **kwargs: Any) -> bool:  # type: ignore[override]
        objs = args[0] if args else kwargs.get("objs")
        model = getattr(getattr(objs, "_meta", None), "model", None) or getattr(objs, "model", None)
        if model not in COUNTED_NOT_LISTED:
            return False  # the others are loaded, to be listed (NestedObjects)
        return bool(Collector.can_fast_delete(self, *args, **kwargs))

    def counted(self) -> tuple[Counter[type[models.Model]], list[_Counted]]:
        """Rows counted per model, and one :class:`_Counted` per parent row (one grouped
        query per bulk queryset)."""
        totals: Counter[type[models.Model]] = Counter()
        lines: list[_Counted] = []
        for qs in self.fast_deletes:
            model = qs.model
            fk = next(
                (
                    f
                    for f in model._meta.concrete_fields
                    if f.is_relation and f.related_model in self.data
                ),
                None,
            )
            if fk is None:  # no collected parent to hang the count on: the total only
                totals[model] += qs.count()
                continue
            parent_model: Any = fk.related_model
            parents = {obj.pk: obj for obj in self.data[parent_model]}
            rows = qs.order_by().values(fk.attname).annotate(n=Count("pk"))
            for row in rows:
                totals[model] += row["n"]
                lines.append(_Counted(model, parents.get(row[fk.attname]), row["n"]))
        return totals, lines


def deleted_objects_summary(objs: Any, request: HttpRequest, admin_site: Any) -> Any:
    """Django's ``get_deleted_objects`` (the list, the per-model counts, the permissions
    needed, the protected rows), with the rows of :data:`COUNTED_NOT_LISTED` counted:
    each parent row shows one line ``Moves: 42`` instead of its 42 moves, and the
    summary gives their total.  ``objs``: the accounts to delete."""
    objs = list(objs)
    if not objs:
        return [], {}, set(), []
    collector = _CountingCollector(using=router.db_for_write(objs[0]._meta.model), origin=objs)
    collector.collect(objs)
    perms_needed: set[Any] = set()

    def format_callback(obj: Any) -> str:
        if isinstance(obj, _Counted):
            return str(obj)
        opts = obj._meta
        no_edit_link = f"{capfirst(str(opts.verbose_name))}: {obj}"
        if not admin_site.is_registered(obj.__class__):
            return no_edit_link
        if not admin_site.get_model_admin(obj.__class__).has_delete_permission(request, obj):
            perms_needed.add(opts.verbose_name)
        try:
            url = reverse(
                f"{admin_site.name}:{opts.app_label}_{opts.model_name}_change",
                None,
                (quote(obj.pk),),
            )
        except NoReverseMatch:
            return no_edit_link
        return str(format_html('{}: <a href="{}">{}</a>', capfirst(opts.verbose_name), url, obj))

    totals, lines = collector.counted()
    for line in lines:
        if line.parent is not None:
            collector.add_edge(line.parent, line)  # type: ignore[arg-type]
    to_delete = collector.nested(format_callback)
    protected = [format_callback(obj) for obj in collector.protected]
    model_count: dict[Any, int] = {
        model._meta.verbose_name_plural: len(rows)
        for model, rows in cast(dict[Any, Any], collector.model_objs).items()
    }
    for model, n in totals.items():
        model_count[model._meta.verbose_name_plural] = n
    return to_delete, model_count, perms_needed, protected


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
    """The admin's "add user" form, with the players' username rules (and their help)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = USERNAME_HELP


class PlayerChangeForm(_UsernameRules, UserChangeForm):  # type: ignore[type-arg]
    """The admin's user form, with the players' username rules (and their help)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "username" in self.fields:
            self.fields["username"].help_text = USERNAME_HELP


class PlayerAdmin(SelectionGuardAdmin, UserAdmin):  # type: ignore[type-arg]
    """Django's user admin with :class:`PlayerCreationForm` and :class:`PlayerChangeForm`."""

    add_form = PlayerCreationForm
    form = PlayerChangeForm
    #: Django's, with the breadcrumbs' "Add a user" (games.admin.names).
    add_form_template = "admin/auth/user/named_add_form.html"

    #: What goes with an account and is re-scored by its deletion; their admins refuse
    #: deleting them one by one, which made every account that had raced undeletable
    #: (403 on the delete page and on "delete selected").
    GOES_WITH_THE_ACCOUNT = (RaceEntry, TournamentStanding, PlayerRating, RatingChange)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Django's list of what the deletion takes, with the moves counted rather than
        listed (:func:`deleted_objects_summary`), and without a delete permission needed
        on :attr:`GOES_WITH_THE_ACCOUNT` (every other related object still needs one)."""
        deleted, counts, perms_needed, protected = deleted_objects_summary(
            objs, request, self.admin_site
        )
        exempt = {str(model._meta.verbose_name) for model in self.GOES_WITH_THE_ACCOUNT}
        return deleted, counts, {p for p in perms_needed if str(p) not in exempt}, protected


admin.site.unregister(User)
admin.site.register(User, PlayerAdmin)
