"""Race admin: open now, close now, cancel, re-score; live standings.

The seed stays hidden until the race is finished (:func:`games.admin.common.seed_shown`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from games.admin.common import (
    _ModelAdmin_Race,
    _TabularInline_RaceEntry_Race,
    run_service,
    seed_shown,
)
from games.models import Race, RaceEntry
from games.selectors.races import race_standings
from games.services.race_admin import (
    race_cancel_now,
    race_close_now,
    race_open_now,
    race_rescore_all,
)
from games.services.tournaments import tournament_rescore


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

    @admin.action(description="Re-score (race and tournament)", permissions=["change"])
    def rescore(self, request: HttpRequest, queryset: QuerySet[Race]) -> None:
        self._each(request, queryset, lambda r: race_rescore_all(race_id=r.pk), "Re-scored")
