"""Tournament entrants admin: players admitted to tournaments."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.admin.common import _ModelAdmin_TournamentEntrant
from games.models import TournamentEntrant


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
