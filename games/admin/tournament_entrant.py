"""Tournament entrants admin: players admitted to tournaments.

Adding calls :func:`~games.services.tournaments.tournament_admit` (the
organiser invites: entry rules and ``max_entrants`` checked under the
tournament's lock); removing calls
:func:`~games.services.tournament_admin.tournament_entrant_remove`.  A saved
admission is never edited (remove it and add another).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.admin.common import (
    PlayerByUsernameField,
    SelectionGuardAdmin,
    ServiceWritesAdmin,
    run_service,
    when,
)
from games.models import TournamentEntrant
from games.services.tournament_admin import tournament_entrant_remove
from games.services.tournaments import tournament_admit


class TournamentEntrantForm(forms.ModelForm):  # type: ignore[type-arg]
    """The tournament and the player, typed by username (:class:`PlayerByUsernameField`)."""

    player = PlayerByUsernameField()

    class Meta:
        model = TournamentEntrant
        fields = ["tournament", "player"]


@admin.register(TournamentEntrant)
class TournamentEntrantAdmin(SelectionGuardAdmin, ServiceWritesAdmin):
    """Players admitted to tournaments."""

    list_display = ["tournament", "player", "invited_by", "admitted"]
    list_filter = ["tournament", "created_at"]
    search_fields = ["player__username", "tournament__name"]
    list_select_related = ["tournament", "player", "invited_by"]
    form = TournamentEntrantForm
    fields = ["tournament", "player", "invited_by", "admitted"]
    readonly_fields = ["invited_by", "admitted"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fixed = ["tournament", "player"] if obj is not None else []
        return [*fixed, *self.readonly_fields]

    @admin.display(description=_("admitted"), ordering="created_at")
    def admitted(self, e: TournamentEntrant) -> str:
        return when(e.created_at) if not e._state.adding else "-"

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            return  # nothing of a saved admission is editable
        saved = tournament_admit(
            tournament_id=obj.tournament_id,
            player=obj.player,
            invited_by=request.user,  # type: ignore[arg-type]
        )
        obj.pk = saved.pk
        obj.invited_by_id = saved.invited_by_id
        obj.created_at = saved.created_at
        obj._state.adding = False

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        tournament_entrant_remove(entrant_id=obj.pk)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for e in queryset:
            run_service(self, request, e, lambda e=e: tournament_entrant_remove(entrant_id=e.pk))
