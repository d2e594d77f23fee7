"""Race admin: open now, close now, cancel, re-score, export; live standings.

The seed stays hidden until the race is finished or cancelled
(:func:`games.admin.common.seed_shown`).
Every write calls a service: renaming :func:`race_rename`, moving to another
tournament :func:`race_move` (with its locks), the actions the ``race_admin``
services.  Re-scoring asks first: it applies the current ranking rule (RULES.md 6)
to a result that may already be published.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from games.admin.common import (
    LiveFormAdmin,
    ServiceWritesAdmin,
    _TabularInline_RaceEntry_Race,
    csv_download,
    dash,
    entry_result,
    run_service,
    seed_shown,
    short_hash,
    when,
)
from games.models import Race, RaceEntry
from games.selectors.exports import race_standings_csv
from games.selectors.races import race_standings
from games.services.race_admin import (
    race_cancel_now,
    race_close_now,
    race_move,
    race_open_now,
    race_rename,
    race_rescore_all,
)
from games.services.races import RANKING_RULE


class EntryInline(_TabularInline_RaceEntry_Race):
    """Entries with their results: the live values while the race runs, the stored ones
    once it is finished (the rank column says which)."""

    model = RaceEntry
    fields = [
        "player",
        "rank_now",
        "status_now",
        "cards_home_now",
        "moves_now",
        "elapsed_now",
        "won_now",
        "disqualified",
        "disqualified_reason",
    ]
    readonly_fields = fields  # type: ignore[assignment]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[RaceEntry]:
        return super().get_queryset(request).select_related("player", "race")

    @admin.display(description="rank")
    def rank_now(self, e: RaceEntry) -> str:
        r = entry_result(e)
        return f"{dash(r['rank'])} (live)" if r["live"] else str(dash(r["rank"]))

    @admin.display(description="status")
    def status_now(self, e: RaceEntry) -> str:
        return str(entry_result(e)["status"] or "-")

    @admin.display(description="cards home")
    def cards_home_now(self, e: RaceEntry) -> Any:
        return dash(entry_result(e)["cards_home"])

    @admin.display(description="moves")
    def moves_now(self, e: RaceEntry) -> Any:
        return dash(entry_result(e)["moves"])

    @admin.display(description="time (ms)")
    def elapsed_now(self, e: RaceEntry) -> Any:
        return dash(entry_result(e)["elapsed_ms"])

    @admin.display(description="won", boolean=True)
    def won_now(self, e: RaceEntry) -> bool:
        return bool(entry_result(e)["won"])


@admin.register(Race)
class RaceAdmin(LiveFormAdmin, ServiceWritesAdmin):
    """Races: open now, close now, cancel, re-score, export; the seed stays hidden until
    finished.

    Races are created with a fresh secret seed by the tournament's "add races"
    form or the staff API, never typed in here.
    """

    list_display = [
        "name",
        "tournament_name",
        "status",
        "phase_now",
        "mode",
        "starts",
        "ends",
        "entrants",
        "commitment_short",
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
        "opens",
        "starts",
        "ends",
        "time_limit_s",
        "late_join_s",
        "allow_undo",
        "require_winnable",
        "rated",
        "commitment",
        "seed",
        "created_by",
        "created",
        "closed",
        "scored",
        "exports",
        "live_standings",
    ]
    readonly_fields = [f for f in fields if f not in ("name", "tournament")]  # type: ignore[misc]
    inlines = [EntryInline]
    actions = ["open_now", "close_now", "cancel", "rescore", "export_standings_csv"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Race]:
        qs: QuerySet[Race] = super().get_queryset(request)
        return qs.annotate(entry_total=Count("entries"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is not None and (
            obj.status != Race.Status.SCHEDULED or timezone.now() >= obj.starts_at
        ):  # only a race not started may move (race_move says why)
            return [*self.readonly_fields, "tournament"]
        return list(self.readonly_fields)

    @admin.display(description="tournament", ordering="tournament__name")
    def tournament_name(self, race: Race) -> str:
        # A method, not the foreign key: the admin never wraps a foreign key's cell
        # (class "nowrap"), and a long tournament name pushed the last columns out.
        return race.tournament.name if race.tournament is not None else "-"

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

    @admin.display(description="commitment")
    def commitment_short(self, race: Race) -> str:
        return short_hash(race.commitment)

    @admin.display(description="joining opens", ordering="opens_at")
    def opens(self, race: Race) -> str:
        return when(race.opens_at)

    @admin.display(description="starts", ordering="starts_at")
    def starts(self, race: Race) -> str:
        return when(race.starts_at)

    @admin.display(description="ends", ordering="ends_at")
    def ends(self, race: Race) -> str:
        return when(race.ends_at)

    @admin.display(description="created", ordering="created_at")
    def created(self, race: Race) -> str:
        return when(race.created_at)

    @admin.display(description="closed", ordering="closed_at")
    def closed(self, race: Race) -> str:
        return when(race.closed_at)

    @admin.display(description="scored", ordering="scored_at")
    def scored(self, race: Race) -> str:
        return when(race.scored_at)

    @admin.display(description="export (CSV)")
    def exports(self, race: Race) -> str:
        note = (
            "with the seed and commitment"
            if race.seed_revealed()
            else "live; the seed is added once the race is finished or cancelled"
        )
        return format_html(
            '<a class="button" href="{}">Standings</a> ({})',
            reverse("admin:games_race_standings_csv", args=[race.pk]),
            note,
        )

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
                    dash(r["rank"]),
                    r["player"],
                    dash(r["cards_home"]),
                    dash(r["moves"]),
                    dash(r["elapsed_ms"]),
                    r["status"],
                )
                for r in rows
            ),
        )
        return format_html(
            "<table><tr><th>rank</th><th>player</th><th>cards home</th><th>moves</th>"
            "<th>time (ms)</th><th>status</th></tr>{}</table>",
            body,
        )

    def save_model(self, request: HttpRequest, obj: Race, form: Any, change: bool) -> None:
        if not change:  # races are never added here (has_add_permission)
            raise PermissionDenied
        if "name" in form.changed_data:
            race_rename(race_id=obj.pk, name=form.cleaned_data["name"])
        if "tournament" in form.changed_data:
            target = form.cleaned_data.get("tournament")
            race_move(race_id=obj.pk, tournament_id=target.pk if target else None)

    def get_urls(self) -> list[URLPattern]:
        custom = [
            path(
                "<path:object_id>/standings.csv",
                self.admin_site.admin_view(self.standings_csv_view),
                name="games_race_standings_csv",
            )
        ]
        return custom + super().get_urls()

    def standings_csv_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The race's standings as CSV (``games.selectors.exports``): the seed and the
        commitment only once the race is finished."""
        race = get_object_or_404(Race.objects.select_related("deal", "tournament"), pk=object_id)
        if not self.has_view_or_change_permission(request, race):
            raise PermissionDenied
        return csv_download(race_standings_csv(races=[race]), f"{race.pk}-standings.csv")

    def _each(self, request: HttpRequest, queryset: QuerySet[Race], fn: Any, message: str) -> None:
        done = 0
        for race in queryset:
            if run_service(self, request, race, lambda race=race: fn(race)):
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

    @admin.action(
        description="Re-score with the current ranking rule (asks first)", permissions=["change"]
    )
    def rescore(self, request: HttpRequest, queryset: QuerySet[Race]) -> TemplateResponse | None:
        """Ask first (the current ranking rule replaces a published result), then re-score."""
        if "apply" not in request.POST:
            races = list(queryset.select_related("tournament").order_by("starts_at"))
            context = {
                **self.admin_site.each_context(request),
                "title": "Re-score races with the current ranking rule?",
                "opts": self.model._meta,
                "races": races,
                "published": [r for r in races if r.status == Race.Status.FINISHED],
                "ranking_rule": RANKING_RULE,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/games/race/rescore_confirm.html", context)
        self._each(
            request,
            queryset,
            lambda r: race_rescore_all(race_id=r.pk),
            "Re-scored with the current ranking rule",
        )
        return None

    @admin.action(description="Export standings as CSV", permissions=["view"])
    def export_standings_csv(self, request: HttpRequest, queryset: QuerySet[Race]) -> HttpResponse:
        races = queryset.select_related("deal", "tournament").order_by("starts_at", "id")
        return csv_download(race_standings_csv(races=races), "race-standings.csv")
