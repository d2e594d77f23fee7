"""Tournament admin: scheme, entry rules, races (add N at once), entrants, standings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games.admin.common import (
    _ModelAdmin_Tournament,
    _ModelForm_Tournament,
    _TabularInline_Race_Tournament,
    _TabularInline_TournamentEntrant_Tournament,
    _TabularInline_TournamentStanding_Tournament,
    run_service,
    seed_shown,
)
from games.engine import PRESETS
from games.models import Race, Tournament, TournamentEntrant, TournamentStanding
from games.services.errors import ServiceError
from games.services.tournaments import (
    RaceSchedule,
    scoring_validate,
    tournament_races_add,
    tournament_rescore,
    tournament_set_status,
)


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
            if run_service(
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
