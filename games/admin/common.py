"""Shared pieces of the organisers' admin: the seed guard and the service-call wrapper.

Fairness rule: a race's seed and its deal's deck never appear in the admin
until the race is finished (no Deal or Game admin; the race pages show the
seed through :func:`seed_shown` only; no search field reaches the seed).
Every write goes through a service (``games.services``), which owns the
validation and the locks; a service refusal becomes a form error or a message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextvars import ContextVar
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import DataError, connection, transaction
from django.db.models import ForeignKey, Model, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.admin.names import NamedObjectsAdmin
from games.admin.refusals import admin_refusal
from games.models import Race, RaceEntry, Tournament, TournamentEntrant, TournamentStanding
from games.services.enqueue import TaskFailure, task_failures_here
from games.services.errors import ServiceError
from games.words import after_colon

if TYPE_CHECKING:  # the stubs' generics; plain classes at run time (no django-stubs-ext)
    _ModelForm_Tournament = forms.ModelForm[Tournament]
    _ModelAdmin_Any = admin.ModelAdmin[Any]
    _TabularInline_TournamentStanding_Tournament = admin.TabularInline[
        TournamentStanding, Tournament
    ]
    _TabularInline_Race_Tournament = admin.TabularInline[Race, Tournament]
    _TabularInline_TournamentEntrant_Tournament = admin.TabularInline[TournamentEntrant, Tournament]
    _ModelAdmin_Tournament = admin.ModelAdmin[Tournament]
    _ModelAdmin_TournamentStanding = admin.ModelAdmin[TournamentStanding]
    _ModelAdmin_TournamentEntrant = admin.ModelAdmin[TournamentEntrant]
    _TabularInline_RaceEntry_Race = admin.TabularInline[RaceEntry, Race]
    _ModelAdmin_Race = admin.ModelAdmin[Race]
    _ModelAdmin_RaceEntry = admin.ModelAdmin[RaceEntry]
else:
    _ModelForm_Tournament = forms.ModelForm
    _ModelAdmin_Any = admin.ModelAdmin
    _TabularInline_TournamentStanding_Tournament = admin.TabularInline
    _TabularInline_Race_Tournament = admin.TabularInline
    _TabularInline_TournamentEntrant_Tournament = admin.TabularInline
    _ModelAdmin_Tournament = admin.ModelAdmin
    _ModelAdmin_TournamentStanding = admin.ModelAdmin
    _ModelAdmin_TournamentEntrant = admin.ModelAdmin
    _TabularInline_RaceEntry_Race = admin.TabularInline
    _ModelAdmin_Race = admin.ModelAdmin
    _ModelAdmin_RaceEntry = admin.ModelAdmin

M = TypeVar("M", bound=Model)

SEED_HIDDEN = _("hidden until the race is finished or cancelled")


def object_or_404(queryset: QuerySet[M], object_id: str) -> M:
    """The row of ``queryset`` whose primary key is ``object_id`` (from an admin URL).

    Raises ``Http404`` when there is none, and also when ``object_id`` is not a valid
    key at all (every model here has a UUID key): the admin's own change view does the
    same, where ``get_object_or_404`` would let the ``ValidationError`` become a 500.
    """
    try:
        return queryset.get(pk=queryset.model._meta.pk.to_python(object_id))
    except (ObjectDoesNotExist, ValidationError, ValueError) as exc:
        raise Http404 from exc


def is_key(model: type[Model], value: Any) -> bool:
    """Whether ``value`` (a string from a form) can be a primary key of ``model``: a UUID
    for a UUID key, an integer in the column's range for an integer key."""
    pk = model._meta.pk
    assert pk is not None
    # A one-to-one key (RaceRating's) takes its target's type.
    field: Any = pk.target_field if isinstance(pk, ForeignKey) else pk
    try:
        key = field.to_python(value)
    except (ValidationError, ValueError, TypeError, OverflowError):
        return False
    if key is None or key == "":
        return False
    if isinstance(key, int):
        try:
            low, high = connection.ops.integer_field_range(field.get_internal_type())
        except KeyError:
            low, high = -(2**63), 2**63 - 1
        return (low is None or key >= low) and (high is None or key <= high)
    return True


class LookupGuardChangeList(ChangeList):
    """Django's changelist, whose filter the database cannot run is a filter refused.

    The admin lets a list be filtered by any of the model's own fields from its address
    (``lookup_allowed``), with any lookup: ``?starts_at__year=0`` raised ``ValueError``
    while the query was built (no year 0 or 10000), and ``?name__regex=(`` an invalid
    regular expression in PostgreSQL (a ``DataError``); both were a 500.  The counts run
    in a savepoint (PostgreSQL aborts a transaction after an error), and such an error
    is :class:`IncorrectLookupParameters`, which the changelist answers as for a filter it
    refuses itself: a redirect to ``?e=1``.
    """

    def get_results(self, request: HttpRequest) -> None:
        try:
            with transaction.atomic():
                super().get_results(request)
        except (ValueError, OverflowError, DataError) as exc:
            raise IncorrectLookupParameters(exc) from exc


class SelectionGuardAdmin(NamedObjectsAdmin):
    """A model admin whose changelist drops the selected ids (``_selected_action``) that
    cannot be keys of its model before any action sees them.  Every admin of ours is one,
    so each also names its model with its article (:class:`NamedObjectsAdmin`: "Add a
    race", "Ajouter une course").

    Django filters ``pk__in`` with the ids as posted, so one malformed id (``not-a-uuid``,
    ``""``, an integer past the column's range) became a 500.  The action runs on the
    well-formed ids; with none left, the admin says that nothing was selected.

    Its list is a :class:`LookupGuardChangeList`: a filter in the address that the
    database cannot run is refused (``?e=1``), not a 500.
    """

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return LookupGuardChangeList

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if request.method == "POST" and ACTION_CHECKBOX_NAME in request.POST:
            selected = request.POST.getlist(ACTION_CHECKBOX_NAME)
            kept = [v for v in selected if is_key(self.model, v)]
            if len(kept) != len(selected):
                post = request.POST.copy()
                post.setlist(ACTION_CHECKBOX_NAME, kept)
                request.POST = post  # type: ignore[assignment]
        return super().changelist_view(request, extra_context)


def guard_every_admin(site: admin.AdminSite) -> list[str]:
    """Give every model admin registered on ``site`` that is not yet a
    :class:`SelectionGuardAdmin` the guard (re-registered as a subclass of both), so
    the third-party admins (django-axes', django-celery-beat's, Django's groups) drop
    malformed selected ids too.  Called once, from ``games.apps.GamesConfig.ready``
    (after the admin's autodiscovery).  Returns the labels of the models guarded here.
    """
    guarded = []
    for model, model_admin in list(site._registry.items()):
        if isinstance(model_admin, SelectionGuardAdmin):
            continue
        base = type(model_admin)
        guard = type(f"Guarded{base.__name__}", (SelectionGuardAdmin, base), {})
        guard.__module__ = base.__module__
        site.unregister(model)
        site.register(model, guard)
        guarded.append(model._meta.label)
    return guarded


def seed_shown(race: Race) -> str:
    """The race's seed once it is finished or cancelled; a placeholder before."""
    return (race.deal.seed or "") if race.seed_revealed() else str(SEED_HIDDEN)


#: A game's or an entry's status in words, as the pages say it
#: (``web/templates/web/_status.html``); the admin starts it with a capital.
STATUS_WORDS = {
    "playing": _("playing"),
    "won": _("won"),
    "blocked": _("blocked"),
    "resigned": _("resigned"),
    "timed_out": _("timed out"),
    "disqualified": _("disqualified"),
    "did_not_start": _("did not start"),
    "not_started": _("not started"),
    # A game its race's cancellation ended (stored as timed out), as the pages say it.
    "cancelled": _("race cancelled"),
}


def status_words(status: str | None) -> str:
    """A game status in words for the admin: ``"timed_out"`` -> ``"Timed out"``; ``"-"``
    for none."""
    if not status:
        return "-"
    words = STATUS_WORDS.get(status)
    return capfirst(str(words)) if words is not None else status.replace("_", " ").capitalize()


#: A race's phase by the clock (:meth:`games.models.Race.phase`) in words.
PHASE_WORDS = {
    "upcoming": pgettext_lazy("race phase", "upcoming"),
    "open": pgettext_lazy("race phase", "open"),
    "running": pgettext_lazy("race phase", "running"),
    "closing": pgettext_lazy("race phase", "closing"),
    "finished": pgettext_lazy("race phase", "finished"),
    "cancelled": pgettext_lazy("race phase", "cancelled"),
}


#: The phase's column name: where the race is now by the clock, beside the race's
#: ``stored status`` (scheduled until it is closed, so "scheduled" while it runs).
PHASE_NOW = _("phase now")


def phase_words(race: Race, now: Any = None) -> str:
    """The race's phase at ``now`` (default: the current time), in words (``"running"``)."""
    phase = race.phase(now)
    return str(PHASE_WORDS.get(phase, phase))


def confirm_page(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    template: str,
    *,
    title: str,
    action: str,
    selected: Iterable[Model],
    **extra: Any,
) -> TemplateResponse:
    """The page an admin action shows before it acts (``template`` extends
    ``admin/games/action_confirm.html``): the admin's own context, ``title``, and a form
    that posts ``action`` again for the ``selected`` objects with ``apply=1``, which the
    action reads as "asked and confirmed".  ``extra``: the template's own context."""
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "opts": model_admin.model._meta,
        "action": action,
        "selected": [obj.pk for obj in selected],
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        **extra,
    }
    return TemplateResponse(request, template, context)


class ServiceRun:
    """What :func:`run_service` did: true when the service's write was made (log it),
    and ``clean`` when besides no task it started in this process raised (count it
    among those done: a task that failed was told in an error message instead)."""

    def __init__(self, *, done: bool, failed: list[TaskFailure] | None = None) -> None:
        self.done = done
        self.failed = failed or []

    def __bool__(self) -> bool:
        return self.done

    @property
    def clean(self) -> bool:
        """Done, and no task it ran here raised."""
        return self.done and not self.failed


#: What a task that raised in the web process left, by task name: the object's words
#: (``%(object)s``) and the exception (``%(reason)s``).  Each task is atomic, so what it
#: would have changed is as it was.
TASK_FAILED = {
    "games.race_rate": _(
        "%(object)s: saved, but rating the race failed (%(reason)s). The ratings are as "
        "they were; Recompute pool (under Rating pools) brings them up to date once the "
        "cause is fixed."
    ),
    "games.rating_pool_recompute": _(
        "%(object)s: recomputing the pool failed (%(reason)s). Its ratings are as they were."
    ),
}


def say_task_failures(
    model_admin: admin.ModelAdmin[Any], request: HttpRequest, obj: Any, failed: list[TaskFailure]
) -> None:
    """One error message per task that raised in this process (:func:`task_failures_here`)
    while an action acted on ``obj``: what failed, why, and what the data is then
    (:data:`TASK_FAILED`; else the task's name)."""
    for failure in failed:
        words = TASK_FAILED.get(failure.task)
        if words is None:
            said = gettext("%(object)s: saved, but its task %(task)s failed (%(reason)s).") % {
                "object": obj,
                "task": failure.task,
                "reason": failure.reason,
            }
        else:
            said = str(words) % {"object": obj, "reason": failure.reason}
        model_admin.message_user(request, said, messages.ERROR)


def run_service(
    model_admin: admin.ModelAdmin[Any], request: HttpRequest, obj: Any, fn: Any
) -> ServiceRun:
    """Run one service call for ``obj``; a service refusal becomes an error message (not
    done), and so does each task the call ran in this process that raised (done, not
    ``clean``: :func:`say_task_failures`)."""
    with task_failures_here() as failed:
        try:
            fn()
        except ServiceError as exc:
            model_admin.message_user(
                request,
                gettext("%(object)s: %(detail)s")
                % {"object": obj, "detail": after_colon(admin_refusal(exc))},
                messages.ERROR,
            )
            return ServiceRun(done=False)
    say_task_failures(model_admin, request, obj, failed)
    return ServiceRun(done=True, failed=failed)


def when(value: Any) -> str:
    """A date-time as ``YYYY-MM-DD HH:MM:SS`` plus the time-zone name (``UTC``); "-" if unset."""
    if value is None:
        return "-"
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S %Z")


def when_cell(value: Any) -> str:
    """:func:`when` for a list's narrow column: the date and the time with its zone each
    kept whole (``2026-12-05`` / ``05:27:00 UTC``, at most two lines), where the browser
    broke the text at its hyphens and spaces into three or four ("2026-12-" / "05" /
    "05:27:00" / "UTC"); "-" if unset."""
    if value is None:
        return "-"
    moment = timezone.localtime(value)
    return format_html(
        '<span class="nowrap">{}</span> <span class="nowrap">{}</span>',
        moment.strftime("%Y-%m-%d"),
        moment.strftime("%H:%M:%S %Z"),
    )


def short_hash(value: str, *, keep: int = 12) -> str:
    """A long hex string cut to ``keep`` characters, the whole value in its tooltip."""
    if not value or len(value) <= keep:
        return value or "-"
    return format_html('<span title="{}">{}…</span>', value, value[:keep])


class ParentRowsFormSet(BaseInlineFormSet):  # type: ignore[type-arg]
    """An inline formset whose posted rows must be rows of the object on the page.

    Django pairs each posted row with the object whose id it carries among the parent's
    rows; a row carrying another parent's id (a race of another tournament), a
    malformed id or none was given a new blank object instead: nothing was saved, but
    nothing was said either, and the blank object broke the page that showed the form
    again (a 500).  Such a row is now the inline's error, and the whole save is refused.
    """

    def clean(self) -> None:
        super().clean()
        if any(form.instance._state.adding for form in self.initial_forms):
            raise ValidationError(
                gettext(
                    "A row of this list is not one of its rows (changed since the page "
                    "was shown?): reload the page and try again."
                ),
                code="not_a_row",
            )


class ServiceWritesAdmin(_ModelAdmin_Any):
    """A model admin whose saves call services; a refusal the form could not foresee
    (the service's checks under its locks, e.g. a tournament that filled up meanwhile)
    rolls the whole save back and comes back as an error message on the same page."""

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ServiceError as exc:
            self.message_user(
                request,
                gettext("Nothing was saved: %(detail)s")
                % {"detail": after_colon(admin_refusal(exc))},
                messages.ERROR,
            )
            return HttpResponseRedirect(request.get_full_path())

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:
            return super().delete_view(request, object_id, extra_context)
        except ServiceError as exc:
            self.message_user(
                request,
                gettext("Nothing was deleted: %(detail)s")
                % {"detail": after_colon(admin_refusal(exc))},
                messages.ERROR,
            )
            return HttpResponseRedirect(request.get_full_path())


class LiveFormAdmin(_ModelAdmin_Any):
    """A model admin whose change form shows live race values (ranks, counts), computed
    once per race for the whole page (:func:`with_live`)."""

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        return with_live(
            lambda: super(LiveFormAdmin, self).changeform_view(
                request, object_id, form_url, extra_context
            )
        )


def minutes_seconds(value: timedelta) -> str:
    """A non-negative duration as text: ``M:SS`` (minutes, then seconds, two digits:
    ``7:30`` is 7 minutes 30 seconds), or ``H:MM:SS`` from an hour on (``1:05:00``).

    Whole seconds: a fraction of a second is dropped (``timedelta(seconds=90.9)`` is
    ``1:30``).  The form that reads it back is :class:`DurationMinutesSecondsField`.
    Raises nothing.
    """
    total = int(value.total_seconds())
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


#: One part of a duration: 1 to 9 ASCII digits.
_PART = re.compile(r"[0-9]{1,9}")


class DurationMinutesSecondsField(forms.Field):
    """A duration typed as ``minutes:seconds`` (``7:30``), ``H:MM:SS`` (``1:05:00``)
    or a bare number: whole minutes (``10``), or whole seconds (``450``) with
    ``bare_seconds=True`` (a field that took plain seconds before it took the other
    forms, the add-races form's time limit); cleaned to a :class:`~datetime.timedelta`.
    Each part is 1 to 9 ASCII digits; anything else is the ``invalid`` form error."""

    default_error_messages = {
        "invalid": _("Enter minutes:seconds (e.g. 7:30), H:MM:SS or whole minutes."),
        "invalid_seconds": _("Enter minutes:seconds (e.g. 7:30), H:MM:SS or whole seconds."),
        "min_value": _("Enter at least %(limit)s."),
    }

    def __init__(
        self, *, min_value: timedelta = timedelta(0), bare_seconds: bool = False, **kwargs: Any
    ) -> None:
        self.min_value = min_value
        self.bare_seconds = bare_seconds
        kwargs.setdefault("widget", forms.TextInput(attrs={"size": 8, "placeholder": "M:SS"}))
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        return minutes_seconds(value) if isinstance(value, timedelta) else value

    def to_python(self, value: Any) -> timedelta | None:
        if isinstance(value, timedelta):
            return value
        text = str(value or "").strip()
        if not text:
            return None
        parts = text.split(":")
        # ASCII digits only, at most 9 a part: str.isdigit() let "²" through to int() (a
        # ValueError) and Arabic-Indic or fullwidth 3 in as 3; a long run of digits overflowed
        # timedelta.
        invalid = forms.ValidationError(
            self.error_messages["invalid_seconds" if self.bare_seconds else "invalid"],
            code="invalid",
        )
        if len(parts) > 3 or not all(_PART.fullmatch(p) for p in parts):
            raise invalid
        numbers = [int(p) for p in parts]
        if len(parts) == 1:
            if self.bare_seconds:
                return timedelta(seconds=numbers[0])
            return timedelta(minutes=numbers[0])
        if numbers[-1] >= 60 or (len(parts) == 3 and numbers[1] >= 60):
            raise invalid
        if len(parts) == 2:
            return timedelta(minutes=numbers[0], seconds=numbers[1])
        return timedelta(hours=numbers[0], minutes=numbers[1], seconds=numbers[2])

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value is not None and value < self.min_value:
            raise forms.ValidationError(
                self.error_messages["min_value"],
                code="min_value",
                params={"limit": minutes_seconds(self.min_value)},
            )


class PlayerByUsernameField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """An account picked by its username, typed in a text box (``alice``; any case, as
    logging in takes it, ``canfield_site.security.UsernameAnyCaseBackend``), instead of
    Django's box for the account's numeric id (``raw_id_fields``), which refused
    ``alice`` as "Select a valid choice".  An organiser may not view the accounts (no
    ``auth.view_user``), so the admin's autocomplete, which needs that, is not used; nor
    is a list of every account.

    Cleans to the :class:`~django.contrib.auth.models.User`; a name no active account
    has is the form error ``no_such_player``.
    """

    default_error_messages = {
        "invalid_choice": _("No player is named “%(value)s”: check the spelling of the username."),
    }

    def __init__(self, **kwargs: Any) -> None:
        from django.contrib.auth.models import User

        kwargs.setdefault("queryset", User.objects.filter(is_active=True))
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={"size": 20, "autocomplete": "off", "placeholder": _("username")}
            ),
        )
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if hasattr(value, "_meta"):
            return value.get_username()
        if isinstance(value, int):  # a saved row's initial value is the account's id
            assert self.queryset is not None
            user = self.queryset.model._default_manager.filter(pk=value).first()
            return user.get_username() if user is not None else value
        return value

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        if hasattr(value, "_meta"):
            return value
        name = str(value).strip()
        assert self.queryset is not None
        found = list(self.queryset.filter(username__iexact=name)[:2])
        exact = [u for u in found if u.get_username() == name]
        if len(found) == 1 or len(exact) == 1:
            return (exact or found)[0]
        raise ValidationError(
            self.error_messages["invalid_choice"],
            code="no_such_player",
            params={"value": name},
        )

    def has_changed(self, initial: Any, data: Any) -> bool:
        if self.disabled:
            return False
        return str(self.prepare_value(initial) or "") != str(data or "").strip()


def csv_download(text: str, filename: str) -> HttpResponse:
    """A CSV attachment (UTF-8) named ``filename``."""
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class LiveResults:
    """Live standings rows by race and player, read once per race per request.

    During a race the stored result columns of an entry are empty; the admin
    shows the live values of :func:`games.selectors.races.race_standings` instead
    (the one live ranking, RULES.md 6).
    """

    def __init__(self) -> None:
        self._by_race: dict[Any, dict[str, dict[str, Any]]] = {}

    def row(self, entry: RaceEntry) -> dict[str, Any] | None:
        """The live standings row of ``entry`` (``None`` if it has none)."""
        from games.selectors.races import race_standings

        race = entry.race
        if race.pk not in self._by_race:
            self._by_race[race.pk] = {r["player"]: r for r in race_standings(race=race)}
        return self._by_race[race.pk].get(entry.player.get_username())


_live: ContextVar[LiveResults | None] = ContextVar("admin_live_results", default=None)


def live_results() -> LiveResults:
    """The current request's :class:`LiveResults` (a fresh one outside :func:`with_live`)."""
    return _live.get() or LiveResults()


def with_live(render: Any) -> HttpResponse:
    """Run ``render()`` (a view returning a response) with one :class:`LiveResults` for it,
    rendering a lazy ``TemplateResponse`` before the cache is dropped."""
    token = _live.set(LiveResults())
    try:
        response = render()
        if hasattr(response, "render") and not getattr(response, "is_rendered", True):
            response.render()
        return response  # type: ignore[no-any-return]
    finally:
        _live.reset(token)


def entry_result(entry: RaceEntry) -> dict[str, Any]:
    """What the admin shows of an entry's result: the stored result once the race is
    finished, the live one before (``live`` tells which).

    Keys: ``rank``, ``status``, ``cards_home``, ``moves``, ``elapsed_ms``, ``won``, ``live``.
    """
    if entry.race.status == Race.Status.FINISHED:
        return {
            "rank": entry.rank,
            "status": "disqualified" if entry.disqualified else entry.status,
            "cards_home": entry.cards_home,
            "moves": entry.moves,
            "elapsed_ms": entry.elapsed_ms,
            "won": entry.won,
            "live": False,
        }
    row = live_results().row(entry) or {}
    home = row.get("cards_home")
    # "cancelled" ("race cancelled", not "timed out") for a game the race's cancellation
    # ended, as race_standings says it.
    status = row.get("status", "not_started")
    return {
        "rank": row.get("rank"),
        "status": status,
        "cards_home": home,
        "moves": row.get("moves"),
        "elapsed_ms": row.get("elapsed_ms"),
        "won": home == 52,
        "live": entry.race.status != Race.Status.CANCELLED,
    }


def dash(value: Any) -> Any:
    """``value``, or "-" when it is ``None``."""
    return "-" if value is None else value


def rank_words(rank: Any, live: bool) -> str:
    """A rank as the entry columns show it: ``"2"``, ``"2 (live)"`` while the race runs,
    ``"-"`` for none."""
    return gettext("%(rank)s (live)") % {"rank": dash(rank)} if live else str(dash(rank))


def quoted_names(names: Iterable[str]) -> str:
    """Names in the language's quotes, comma-separated, for a message naming what an
    action left alone: ``["Spring", "Cup"]`` -> ``"“Spring”, “Cup”"`` (French
    ``« Spring », « Cup »``)."""
    return ", ".join(pgettext("a name in quotes", "“%(name)s”") % {"name": n} for n in names)
