"""Race entry admin: disqualify with a reason (the race and tournament re-score), reinstate."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.admin.common import (
    LiveFormAdmin,
    SelectionGuardAdmin,
    _ModelAdmin_RaceEntry,
    confirm_page,
    dash,
    entry_result,
    rank_words,
    run_service,
    status_words,
    when,
    with_live,
)
from games.models import Game, RaceEntry
from games.services.race_admin import race_entry_disqualify, race_entry_reinstate
from games.words import duration


class DisqualifyForm(forms.Form):
    """The reason the entrant will see."""

    reason = forms.CharField(
        label=_("Reason"), max_length=300, widget=forms.Textarea(attrs={"rows": 3})
    )


class EntryResultFilter(admin.SimpleListFilter):
    """The entry's final game status (set when the race closes), in words."""

    title = _("final game status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        """Every game status, as :func:`status_words` names it."""
        return [(s.value, status_words(s.value)) for s in Game.Status]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        """The entries whose stored final status is the one chosen."""
        return queryset.filter(status=self.value()) if self.value() else queryset


class RaceStatusFilter(admin.ChoicesFieldListFilter):
    """The status of the entry's race."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.title = gettext("race status")


@admin.register(RaceEntry)
class RaceEntryAdmin(SelectionGuardAdmin, LiveFormAdmin, _ModelAdmin_RaceEntry):
    """Entries: disqualify with a reason (the race and tournament re-score), reinstate.

    Result columns show the stored result once the race is finished and the live
    one before (the rank says "(live)").
    """

    list_display = [
        "player",
        "race_name",
        "tournament",
        "status_now",
        "cards_home_now",
        "elapsed_now",
        "won_now",
        "rank_now",
        "disqualified",
    ]
    list_filter = [
        "disqualified",
        "won",
        EntryResultFilter,
        ("race__status", RaceStatusFilter),
        "race__tournament",
    ]
    search_fields = ["player__username", "race__name", "disqualified_reason"]
    list_select_related = ["player", "race", "race__tournament"]
    fields = [
        "race",
        "player",
        "joined",
        "status_now",
        "cards_home_now",
        "moves_now",
        "elapsed_now",
        "won_now",
        "rank_now",
        "disqualified",
        "disqualified_reason",
    ]
    readonly_fields = fields  # type: ignore[assignment]
    actions = ["disqualify", "reinstate"]

    class Media:
        # Column headers of several words may wrap: the nine columns fit 1,280 px in
        # every language (the Spanish list was 5 px too wide).
        css = {"all": ["games/admin/entry_list.css"]}

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return with_live(
            lambda: super(RaceEntryAdmin, self).changelist_view(request, extra_context)
        )

    @admin.display(description=_("race"), ordering="race__name")
    def race_name(self, e: RaceEntry) -> str:
        # A method, not the foreign key: the admin never wraps a foreign key's cell
        # (class "nowrap"), and a long race name pushed the last columns out.
        return e.race.name

    @admin.display(description=_("joined"), ordering="joined_at")
    def joined(self, e: RaceEntry) -> str:
        return when(e.joined_at)

    @admin.display(description=_("rank"), ordering="rank")
    def rank_now(self, e: RaceEntry) -> str:
        r = entry_result(e)
        return rank_words(r["rank"], r["live"])

    @admin.display(description=_("status"), ordering="status")
    def status_now(self, e: RaceEntry) -> str:
        return status_words(entry_result(e)["status"])

    @admin.display(description=_("cards home"), ordering="cards_home")
    def cards_home_now(self, e: RaceEntry) -> Any:
        return dash(entry_result(e)["cards_home"])

    @admin.display(description=_("moves"), ordering="moves")
    def moves_now(self, e: RaceEntry) -> Any:
        return dash(entry_result(e)["moves"])

    @admin.display(description=_("time"), ordering="elapsed_ms")
    def elapsed_now(self, e: RaceEntry) -> str:
        # As the tournament's tables give a time ("1 min 00.000 s"), not raw milliseconds.
        return duration(entry_result(e)["elapsed_ms"]) or "-"

    @admin.display(description=pgettext_lazy("an entry", "won"), boolean=True, ordering="won")
    def won_now(self, e: RaceEntry) -> bool:
        return bool(entry_result(e)["won"])

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Nothing on the page is editable: results change only through the actions."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """No inlines to save."""

    @admin.display(description=_("tournament"), ordering="race__tournament__name")
    def tournament(self, entry: RaceEntry) -> str:
        return str(entry.race.tournament) if entry.race.tournament_id else "-"

    @admin.action(description=_("Disqualify with a reason (re-scores)"), permissions=["change"])
    def disqualify(
        self, request: HttpRequest, queryset: QuerySet[RaceEntry]
    ) -> TemplateResponse | None:
        """Disqualify the selected entries with one reason, after a confirmation page.

        First call (no ``apply`` in the POST): the confirmation page
        (``admin/games/raceentry/disqualify.html``) listing the entries, with
        :class:`DisqualifyForm` (``reason``: 1 to 300 characters, shown to the entrant).
        With ``apply`` and a valid reason: each entry goes through
        :func:`games.services.race_admin.race_entry_disqualify` (its own transaction: the
        entry loses its rank and points, its game takes no more moves while the
        disqualification stands, the race and the tournament are re-scored; README
        "Race entries"), is logged *Disqualified: <reason>*, and the message counts the
        entries disqualified; returns ``None`` (back to the list).  A refusal (an entry
        of a cancelled race, an entry deleted meanwhile: ``InvalidRace``, ``NotFound``)
        becomes an error message for that entry (:func:`run_service`) and the others go
        on.  An invalid reason shows the page again with the form's error.
        """
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
            self.message_user(
                request,
                ngettext(
                    "Disqualified %(n)d entry; re-scored.",
                    "Disqualified %(n)d entries; re-scored.",
                    done,
                )
                % {"n": done},
            )
            return None
        entries = list(queryset.select_related("player", "race"))
        return confirm_page(
            self,
            request,
            "admin/games/raceentry/disqualify.html",
            title=ngettext(
                "Disqualify this entry?", "Disqualify these %(n)d entries?", len(entries)
            )
            % {"n": len(entries)},
            action="disqualify",
            selected=entries,
            entries=entries,
            form=form,
        )

    @admin.action(description=_("Lift disqualification (re-scores)"), permissions=["change"])
    def reinstate(self, request: HttpRequest, queryset: QuerySet[RaceEntry]) -> None:
        """Lift the disqualification of each selected entry that is disqualified.

        Each goes through :func:`games.services.race_admin.race_entry_reinstate` (its
        own transaction: the reason is cleared, the race and tournament re-score), is
        logged *Disqualification lifted*, and the message counts them.  A selected entry
        that is not disqualified is left alone (no service call, so no re-score and no
        history line) and named in a second message.  A refusal (an entry of a cancelled
        race, one deleted meanwhile) becomes an error message for that entry
        (:func:`run_service`) and the others go on.
        """
        entries = list(queryset.select_related("player", "race").order_by("race_id", "id"))
        done = 0
        for e in (e for e in entries if e.disqualified):
            if run_service(self, request, e, lambda e=e: race_entry_reinstate(entry_id=e.pk)):
                self.log_change(request, e, "Disqualification lifted")
                done += 1
        if any(e.disqualified for e in entries):
            self.message_user(
                request,
                ngettext(
                    "Lifted %(n)d disqualification; re-scored.",
                    "Lifted %(n)d disqualifications; re-scored.",
                    done,
                )
                % {"n": done},
            )
        alone = [e for e in entries if not e.disqualified]
        if alone:
            self.message_user(
                request,
                gettext("Not disqualified, left alone: %(names)s.")
                % {"names": ", ".join(str(e) for e in alone)},
                messages.WARNING,
            )
