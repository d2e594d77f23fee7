"""Race entry admin: disqualify with a reason (the race and tournament re-score), reinstate."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from games.admin.common import _ModelAdmin_RaceEntry, run_service
from games.models import RaceEntry
from games.services.race_admin import race_entry_disqualify, race_entry_reinstate


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
                if run_service(self, request, e, call):
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
            if run_service(self, request, e, lambda e=e: race_entry_reinstate(entry_id=e.pk)):
                self.log_change(request, e, "Disqualification lifted")
        self.message_user(request, "Re-scored.")
