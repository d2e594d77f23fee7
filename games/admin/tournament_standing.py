"""Tournament standings admin: read only (a recomputation, never edited)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.admin.common import SelectionGuardAdmin, _ModelAdmin_TournamentStanding
from games.models import TournamentStanding


@admin.register(TournamentStanding)
class TournamentStandingAdmin(SelectionGuardAdmin, _ModelAdmin_TournamentStanding):
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
