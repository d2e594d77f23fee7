"""The organisers' admin: tournaments, races, entries and standings (README "Tournaments").

Fairness rule: a race's seed and its deal's deck never appear in the admin
until the race is finished (no Deal or Game admin; the race pages show the
seed through :func:`seed_shown` only; no search field reaches the seed).
Custom actions go through the services and are logged with ``LogEntry``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from games.engine import PRESETS
from games.models import Race, RaceEntry, Tournament, TournamentEntrant, TournamentStanding
from games.selectors.races import race_standings
from games.services.errors import ServiceError
from games.services.race_admin import (
    race_cancel_now,
    race_close_now,
    race_entry_disqualify,
    race_entry_reinstate,
    race_open_now,
    race_rescore_all,
)
from games.services.tournaments import (
    RaceSchedule,
    scoring_validate,
    tournament_races_add,
    tournament_rescore,
    tournament_set_status,
)

if TYPE_CHECKING:  # the stubs' generics; plain classes at run time (no django-stubs-ext)
    _ModelForm_Tournament = forms.ModelForm[Tournament]
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
    _TabularInline_TournamentStanding_Tournament = admin.TabularInline
    _TabularInline_Race_Tournament = admin.TabularInline
    _TabularInline_TournamentEntrant_Tournament = admin.TabularInline
    _ModelAdmin_Tournament = admin.ModelAdmin
    _ModelAdmin_TournamentStanding = admin.ModelAdmin
    _ModelAdmin_TournamentEntrant = admin.ModelAdmin
    _TabularInline_RaceEntry_Race = admin.TabularInline
    _ModelAdmin_Race = admin.ModelAdmin
    _ModelAdmin_RaceEntry = admin.ModelAdmin


SEED_HIDDEN = "hidden until the race is finished"


def seed_shown(race: Race) -> str:
    """The race's seed once it is finished; a placeholder before."""
    return (race.deal.seed or "") if race.status == Race.Status.FINISHED else SEED_HIDDEN


def _run(model_admin: admin.ModelAdmin[Any], request: HttpRequest, obj: Any, fn: Any) -> bool:
    """Run one service call for ``obj``; a service refusal becomes an error message."""
    try:
        fn()
    except ServiceError as exc:
        model_admin.message_user(request, f"{obj}: {exc.detail}", messages.ERROR)
        return False
    return True


# ------------------------------------------------------------------ tournaments


class TournamentForm(_ModelForm_Tournament):
    """Validates the scoring scheme and its parameters with the service's rules."""

    class Meta:
        model = Tournament
        fields = [
            "name",
            "description",
            "status",
            "scoring",
            "points_table",
            "points_per_card",
            "win_bonus",
            "entry",
            "max_entrants",
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            data["points_table"] = scoring_validate(
                scoring=data.get("scoring", ""),
                points_table=data.get("points_table"),
                points_per_card=data.get("points_per_card"),
                win_bonus=data.get("win_bonus"),
            )
        except ServiceError as exc:
            raise forms.ValidationError(exc.detail) from None
        return data


class AddRacesForm(forms.Form):
    """N races: the first starts at ``first_starts_at``, each lasts ``duration_minutes``,
    the next starts ``gap_minutes`` after the previous one ends."""

    count = forms.IntegerField(min_value=1, max_value=100, initial=3)
    first_starts_at = forms.DateTimeField(
        help_text="YYYY-MM-DD HH:MM (server time zone)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    duration_minutes = forms.IntegerField(min_value=1, initial=10)
    gap_minutes = forms.IntegerField(min_value=0, initial=5)
    opens_before_minutes = forms.IntegerField(
        min_value=0, initial=10, help_text="joining opens this long before each start"
    )
    variant = forms.ChoiceField(choices=[(p, p) for p in PRESETS], initial="classic")
    mode = forms.ChoiceField(choices=Race.Mode.choices, initial=Race.Mode.SCHEDULED)
    time_limit_s = forms.IntegerField(
        min_value=1, required=False, help_text="window mode: seconds each player gets"
    )
    allow_undo = forms.BooleanField(required=False)
    require_winnable = forms.BooleanField(
        required=False, help_text="draw seeds until the solver proves the deal winnable"
    )


class StandingInline(_TabularInline_TournamentStanding_Tournament):
    """Live standings (recomputed whenever a race result changes)."""

    model = TournamentStanding
    fields = [
        "rank",
        "player",
        "points",
        "wins",
        "races_played",
        "disqualifications",
        "cards_home_total",
        "time_ms_total",
    ]
    readonly_fields = fields  # type: ignore[assignment]
    extra = 0
    can_delete = False
    verbose_name_plural = "standings"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RaceInline(_TabularInline_Race_Tournament):
    """The tournament's races (seed shown once finished)."""

    model = Race
    fields = ["name", "status", "mode", "opens_at", "starts_at", "ends_at", "commitment", "seed"]
    readonly_fields = fields  # type: ignore[assignment]
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ["starts_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="seed")
    def seed(self, race: Race) -> str:
        return seed_shown(race)


class EntrantInline(_TabularInline_TournamentEntrant_Tournament):
    """Admitted players; add players here to invite them (invite-only tournaments)."""

    model = TournamentEntrant
    fields = ["player", "invited_by", "created_at"]
    readonly_fields = ["invited_by", "created_at"]
    raw_id_fields = ["player"]
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(_ModelAdmin_Tournament):
    """Tournaments: scheme, entry rules, races (add N at once), entrants, live standings."""

    form = TournamentForm
    list_display = ["name", "status", "scoring", "entry", "max_entrants", "races", "created_at"]
    list_filter = ["status", "scoring", "entry", "created_at"]
    search_fields = ["name", "description"]
    readonly_fields = ["add_races_link", "created_by", "created_at", "scored_at"]
    inlines = [StandingInline, RaceInline, EntrantInline]
    actions = ["rescore", "publish", "finish", "cancel"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).annotate(race_total=Count("races"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        return [*fields, "status"] if obj is not None else fields

    @admin.display(description="races", ordering="race_total")
    def races(self, t: Tournament) -> int:
        return int(getattr(t, "race_total", 0))

    @admin.display(description="add races")
    def add_races_link(self, t: Tournament) -> str:
        if t.pk is None:
            return "save the tournament first"
        url = reverse("admin:games_tournament_add_races", args=[t.pk])
        return format_html('<a class="button" href="{}">Add scheduled races…</a>', url)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)
        scoring_fields = {"scoring", "points_table", "points_per_card", "win_bonus"}
        if change and scoring_fields & set(form.changed_data):
            tournament_rescore(tournament_id=obj.pk)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        instances = formset.save(commit=False)
        for inst in instances:
            if isinstance(inst, TournamentEntrant) and inst.invited_by_id is None:
                inst.invited_by = request.user  # type: ignore[assignment]
            inst.save()
        for obj in formset.deleted_objects:
            obj.delete()
        formset.save_m2m()

    def get_urls(self) -> list[URLPattern]:
        custom = [
            path(
                "<path:object_id>/add-races/",
                self.admin_site.admin_view(self.add_races_view),
                name="games_tournament_add_races",
            )
        ]
        return custom + super().get_urls()

    def add_races_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Add N scheduled races, each with a fresh secret seed and its commitment."""
        t = get_object_or_404(Tournament, pk=object_id)
        if not (self.has_change_permission(request, t) and request.user.has_perm("games.add_race")):
            raise PermissionDenied
        form = AddRacesForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            try:
                races = tournament_races_add(
                    tournament_id=t.pk,
                    schedule=RaceSchedule(
                        count=d["count"],
                        first_starts_at=d["first_starts_at"],
                        duration=timedelta(minutes=d["duration_minutes"]),
                        gap=timedelta(minutes=d["gap_minutes"]),
                        opens_before=timedelta(minutes=d["opens_before_minutes"]),
                    ),
                    variant=d["variant"],
                    mode=d["mode"],
                    time_limit_s=d["time_limit_s"],
                    allow_undo=d["allow_undo"],
                    require_winnable=d["require_winnable"],
                    created_by=request.user,  # type: ignore[arg-type]
                )
            except ServiceError as exc:
                form.add_error(None, exc.detail)
            else:
                names = ", ".join(r.name for r in races)
                self.log_change(request, t, f"Added {len(races)} scheduled races: {names}")
                self.message_user(request, f"Added {len(races)} races: {names}")
                return HttpResponseRedirect(reverse("admin:games_tournament_change", args=[t.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Add races to {t}",
            "opts": self.model._meta,
            "original": t,
            "form": form,
        }
        return TemplateResponse(request, "admin/games/tournament/add_races.html", context)

    def _transition(self, request: HttpRequest, queryset: QuerySet[Tournament], to: str) -> None:
        done = 0
        for t in queryset:
            if _run(
                self, request, t, lambda t=t: tournament_set_status(tournament_id=t.pk, status=to)
            ):
                self.log_change(request, t, f"Status set to {to}")
                done += 1
        if done:
            self.message_user(request, f"{done} tournament(s) now {to}.")

    @admin.action(description="Re-score standings from race results", permissions=["change"])
    def rescore(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            rows = tournament_rescore(tournament_id=t.pk)
            self.log_change(request, t, f"Re-scored: {rows} standings rows")
        self.message_user(request, f"Re-scored {queryset.count()} tournament(s).")

    @admin.action(description="Publish (draft → open)", permissions=["change"])
    def publish(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._transition(request, queryset, Tournament.Status.OPEN)

    @admin.action(description="Finish (final re-score)", permissions=["change"])
    def finish(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._transition(request, queryset, Tournament.Status.FINISHED)

    @admin.action(description="Cancel", permissions=["change"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._transition(request, queryset, Tournament.Status.CANCELLED)


@admin.register(TournamentStanding)
class TournamentStandingAdmin(_ModelAdmin_TournamentStanding):
    """Read-only standings across tournaments."""

    list_display = ["tournament", "rank", "player", "points", "wins", "races_played"]
    list_filter = ["tournament"]
    search_fields = ["player__username", "tournament__name"]
    list_select_related = ["tournament", "player"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TournamentEntrant)
class TournamentEntrantAdmin(_ModelAdmin_TournamentEntrant):
    """Players admitted to tournaments."""

    list_display = ["tournament", "player", "invited_by", "created_at"]
    list_filter = ["tournament", "created_at"]
    search_fields = ["player__username", "tournament__name"]
    raw_id_fields = ["player"]
    readonly_fields = ["invited_by", "created_at"]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if obj.invited_by_id is None:
            obj.invited_by = request.user
        super().save_model(request, obj, form, change)


# ------------------------------------------------------------------ races


class EntryInline(_TabularInline_RaceEntry_Race):
    """Entries with their stored results (ranks appear when the race is scored)."""

    model = RaceEntry
    fields = [
        "player",
        "status",
        "cards_home",
        "moves",
        "elapsed_ms",
        "won",
        "rank",
        "disqualified",
        "disqualified_reason",
    ]
    readonly_fields = fields  # type: ignore[assignment]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Race)
class RaceAdmin(_ModelAdmin_Race):
    """Races: open now, close now, cancel, re-score; the seed stays hidden until finished.

    Races are created with a fresh secret seed by the tournament's "add races"
    form or the staff API, never typed in here.
    """

    list_display = [
        "name",
        "tournament",
        "status",
        "phase_now",
        "mode",
        "starts_at",
        "ends_at",
        "entrants",
        "commitment",
    ]
    list_filter = ["status", "mode", "tournament", "starts_at"]
    search_fields = ["name", "commitment", "tournament__name"]  # never the seed
    list_select_related = ["tournament"]
    fields = [
        "name",
        "tournament",
        "mode",
        "status",
        "phase_now",
        "variant",
        "opens_at",
        "starts_at",
        "ends_at",
        "time_limit_s",
        "allow_undo",
        "require_winnable",
        "commitment",
        "seed",
        "created_by",
        "created_at",
        "closed_at",
        "scored_at",
        "live_standings",
    ]
    readonly_fields = [f for f in fields if f not in ("name", "tournament")]  # type: ignore[misc]
    inlines = [EntryInline]
    actions = ["open_now", "close_now", "cancel", "rescore"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Race]:
        return super().get_queryset(request).annotate(entry_total=Count("entries"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is not None and obj.status != Race.Status.SCHEDULED:
            return [*self.readonly_fields, "tournament"]
        return list(self.readonly_fields)

    @admin.display(description="phase")
    def phase_now(self, race: Race) -> str:
        return race.phase()

    @admin.display(description="entrants", ordering="entry_total")
    def entrants(self, race: Race) -> int:
        return int(getattr(race, "entry_total", 0))

    @admin.display(description="variant")
    def variant(self, race: Race) -> str:
        return race.deal.variant

    @admin.display(description="seed")
    def seed(self, race: Race) -> str:
        return seed_shown(race)

    @admin.display(description="standings (live until finished)")
    def live_standings(self, race: Race) -> str:
        rows = race_standings(race=race)
        if not rows:
            return "no entrants yet"
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    r["rank"] if r["rank"] is not None else "-",
                    r["player"],
                    r["cards_home"] if r["cards_home"] is not None else "-",
                    r["moves"] if r["moves"] is not None else "-",
                    r["elapsed_ms"] if r["elapsed_ms"] is not None else "-",
                    r["status"],
                )
                for r in rows
            ),
        )
        return format_html(
            "<table><tr><th>rank</th><th>player</th><th>cards home</th><th>moves</th>"
            "<th>ms</th><th>status</th></tr>{}</table>",
            body,
        )

    def save_model(self, request: HttpRequest, obj: Race, form: Any, change: bool) -> None:
        old = Race.objects.get(pk=obj.pk).tournament_id if change else None
        super().save_model(request, obj, form, change)
        if change and old != obj.tournament_id:
            for tid in {old, obj.tournament_id} - {None}:
                tournament_rescore(tournament_id=tid)

    def _each(self, request: HttpRequest, queryset: QuerySet[Race], fn: Any, message: str) -> None:
        done = 0
        for race in queryset:
            if _run(self, request, race, lambda race=race: fn(race)):
                self.log_change(request, race, message)
                done += 1
        if done:
            self.message_user(request, f"{message}: {done} race(s).")

    @admin.action(description="Open joining now", permissions=["change"])
    def open_now(self, request: HttpRequest, queryset: QuerySet[Race]) -> None:
        self._each(request, queryset, lambda r: race_open_now(race_id=r.pk), "Opened now")

    @admin.action(description="Close now (end, time out, score)", permissions=["change"])
    def close_now(self, request: HttpRequest, queryset: QuerySet[Race]) -> None:
        now = timezone.now()
        self._each(request, queryset, lambda r: race_close_now(race_id=r.pk, now=now), "Closed now")

    @admin.action(description="Cancel", permissions=["change"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Race]) -> None:
        self._each(request, queryset, lambda r: race_cancel_now(race_id=r.pk), "Cancelled")

    @admin.action(description="Re-score (race and tournament)", permissions=["change"])
    def rescore(self, request: HttpRequest, queryset: QuerySet[Race]) -> None:
        self._each(request, queryset, lambda r: race_rescore_all(race_id=r.pk), "Re-scored")


class DisqualifyForm(forms.Form):
    """The reason the entrant will see."""

    reason = forms.CharField(max_length=300, widget=forms.Textarea(attrs={"rows": 3}))


@admin.register(RaceEntry)
class RaceEntryAdmin(_ModelAdmin_RaceEntry):
    """Entries: disqualify with a reason (the race and tournament re-score), reinstate."""

    list_display = [
        "player",
        "race",
        "tournament",
        "status",
        "cards_home",
        "elapsed_ms",
        "won",
        "rank",
        "disqualified",
    ]
    list_filter = ["disqualified", "won", "status", "race__status", "race__tournament"]
    search_fields = ["player__username", "race__name", "disqualified_reason"]
    list_select_related = ["player", "race", "race__tournament"]
    fields = [
        "race",
        "player",
        "joined_at",
        "status",
        "cards_home",
        "moves",
        "elapsed_ms",
        "won",
        "rank",
        "disqualified",
        "disqualified_reason",
    ]
    readonly_fields = fields  # type: ignore[assignment]
    actions = ["disqualify", "reinstate"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="tournament", ordering="race__tournament__name")
    def tournament(self, entry: RaceEntry) -> str:
        return str(entry.race.tournament) if entry.race.tournament_id else "-"

    @admin.action(description="Disqualify with a reason (re-scores)", permissions=["change"])
    def disqualify(
        self, request: HttpRequest, queryset: QuerySet[RaceEntry]
    ) -> TemplateResponse | None:
        form = DisqualifyForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            done = 0
            for e in queryset:
                call = lambda e=e: race_entry_disqualify(  # noqa: E731
                    entry_id=e.pk,
                    reason=reason,
                    by=request.user,  # type: ignore[arg-type]
                )
                if _run(self, request, e, call):
                    self.log_change(request, e, f"Disqualified: {reason}")
                    done += 1
            self.message_user(request, f"Disqualified {done} entr(y/ies); re-scored.")
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Disqualify entries",
            "opts": self.model._meta,
            "entries": list(queryset.select_related("player", "race")),
            "form": form,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/games/raceentry/disqualify.html", context)

    @admin.action(description="Lift disqualification (re-scores)", permissions=["change"])
    def reinstate(self, request: HttpRequest, queryset: QuerySet[RaceEntry]) -> None:
        for e in queryset:
            if _run(self, request, e, lambda e=e: race_entry_reinstate(entry_id=e.pk)):
                self.log_change(request, e, "Disqualification lifted")
        self.message_user(request, "Re-scored.")
