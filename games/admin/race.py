"""Race admin: open now, close now, cancel, re-score, export; live standings.

The seed stays hidden until the race is finished or cancelled
(:func:`games.admin.common.seed_shown`).
Every write calls a service: renaming :func:`race_rename`, moving to another
tournament :func:`race_move` (with its locks), the actions the ``race_admin``
services.  Closing now, cancelling and re-scoring ask first, on a page that says what
each selected race will get: the first two end games and reveal the seed, which cannot
be undone; re-scoring applies the current ranking rule (RULES.md 6) to a result that may
already be published.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext, ngettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.admin.common import (
    PHASE_NOW,
    LiveFormAdmin,
    ParentRowsFormSet,
    SelectionGuardAdmin,
    ServiceWritesAdmin,
    _TabularInline_RaceEntry_Race,
    confirm_page,
    csv_download,
    dash,
    entry_result,
    object_or_404,
    phase_words,
    quoted_names,
    rank_words,
    run_service,
    seed_shown,
    short_hash,
    status_words,
    when,
    when_cell,
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
from games.words import duration, rules_label

#: The ranking rule in words, in the page's language: the words of
#: :data:`games.engine.ranking.RANKING_RULE` (which the API serves in English; a test
#: keeps the two the same).
RANKING_RULE_WORDS = _(
    "Players who won come first, by the time they took; the rest by cards home (more is "
    "better), then by the elapsed time at which they reached that count (earlier is better). "
    "Ties that remain share a rank (1, 2, 2, 4). The number of moves never breaks a tie, and "
    "how a game ended (resigned, timed out, blocked) does not change its place. Disqualified "
    "entries are not ranked, nor, in a window race, is an entrant who never started; in a "
    "scheduled race every game starts with the race, so every entrant not disqualified is "
    "ranked (one who never moved as timed out)."
)


#: What an action that asks first does to a race, by :func:`_outcome`: the outcomes that
#: are the action itself (counted on its page as "N races will be ...").
ACTING = {"close_now": ("close", "close_empty", "score", "start_and_end"), "cancel": ("cancel",)}
#: The outcomes that change a race (the "Yes" button counts them): the action itself, and
#: a race whose end has passed, which "Cancel" scores instead.
CHANGING = {"close_now": ACTING["close_now"], "cancel": ("cancel", "score")}


def confirm_title(action: str, n: int) -> str:
    """The title of ``action``'s confirmation for ``n`` selected races, in the singular
    for one (``"Cancel this race?"``, ``"Cancel these 3 races?"``)."""
    if action == "close_now":
        words = ngettext("Close this race now?", "Close these %(n)d races now?", n)
    elif action == "cancel":
        words = ngettext("Cancel this race?", "Cancel these %(n)d races?", n)
    else:
        words = ngettext(
            "Re-score this race with the current ranking rule?",
            "Re-score these %(n)d races with the current ranking rule?",
            n,
        )
    return words % {"n": n}


def _outcome(race: Race, action: str, now: Any) -> str:
    """What ``action`` will do to ``race`` at ``now``, as the confirmation page says it.

    ``close_now`` (:func:`race_close_now`): ``close`` (running: it ends now, games still
    being played time out), ``close_empty`` (running, nobody entered: it ends now, with
    no result), ``score`` (its end has passed: it is scored), ``start_and_end`` (not
    started, nobody entered: it starts and ends now, with no result), ``not_started``
    (not started with entrants: refused, nobody could play it), ``finished`` or
    ``cancelled`` (left alone).  ``cancel`` (:func:`race_cancel_now`): ``cancel``,
    ``score`` (its end has passed: scored, not cancelled), ``finished`` or ``cancelled``
    (left alone)."""
    if race.status == Race.Status.FINISHED:
        return "finished"
    if race.status == Race.Status.CANCELLED:
        return "cancelled"
    phase = race.phase(now)
    if phase == "closing":
        return "score"
    if action == "cancel":
        return "cancel"
    if phase == "running":
        return "close" if race.entrant_total else "close_empty"  # type: ignore[attr-defined]
    return "not_started" if race.entrant_total else "start_and_end"  # type: ignore[attr-defined]


def _names(races: list[Race]) -> str:
    """The races' names in quotes, comma-separated, for a message."""
    return quoted_names(race.name for race in races)


class EntryInline(_TabularInline_RaceEntry_Race):
    """Entries with their results: the live values while the race runs, the stored ones
    once it is finished (the rank column says which)."""

    model = RaceEntry
    formset = ParentRowsFormSet
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

    @admin.display(description=_("rank"))
    def rank_now(self, e: RaceEntry) -> str:
        r = entry_result(e)
        return rank_words(r["rank"], r["live"])

    @admin.display(description=_("status"))
    def status_now(self, e: RaceEntry) -> str:
        return status_words(entry_result(e)["status"])

    @admin.display(description=_("cards home"))
    def cards_home_now(self, e: RaceEntry) -> Any:
        return dash(entry_result(e)["cards_home"])

    @admin.display(description=_("moves"))
    def moves_now(self, e: RaceEntry) -> Any:
        return dash(entry_result(e)["moves"])

    @admin.display(description=_("time"))
    def elapsed_now(self, e: RaceEntry) -> str:
        # As the tournament's tables give a time ("1 min 00.000 s"), not raw milliseconds.
        return duration(entry_result(e)["elapsed_ms"]) or "-"

    @admin.display(description=pgettext_lazy("an entry", "won"), boolean=True)
    def won_now(self, e: RaceEntry) -> bool:
        return bool(entry_result(e)["won"])


#: The help under a race's read-only rules on its page: what the value means, in the
#: organisers' words (the models' help texts name the API's fields).
READ_ONLY_HELP = {
    "time_limit_s": _(
        "how long each entrant may play: in a window race from their own start, in a "
        "scheduled race from the start to the end"
    ),
    "late_join_s": _(
        "how long after the start joining stays open (0: it closes at the start; empty: "
        "until the end)"
    ),
    "require_winnable": _("whether the race takes a deal the solver has proven winnable"),
    "cancelled": _("when the organisers cancelled it; empty if that was not recorded"),
}


@admin.register(Race)
class RaceAdmin(SelectionGuardAdmin, LiveFormAdmin, ServiceWritesAdmin):
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
        "variant",
        "starts",
        "ends",
        "entrants",
        "commitment_short",
    ]
    list_filter = ["status", "mode", "tournament", "starts_at"]
    search_fields = ["name", "commitment", "tournament__name"]  # never the seed
    list_select_related = ["tournament", "deal"]
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
        "cancelled",
        "exports",
        "live_standings",
    ]
    readonly_fields = [f for f in fields if f not in ("name", "tournament")]  # type: ignore[misc]
    inlines = [EntryInline]
    actions = ["open_now", "close_now", "cancel", "rescore", "export_standings_csv"]

    class Media:
        # Headers of several words may wrap, so that the dates, each on two lines at
        # most, leave room for every column within 1,280 px in every language.
        css = {"all": ["games/admin/race_list.css"]}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Race]:
        qs: QuerySet[Race] = super().get_queryset(request)
        return qs.annotate(entry_total=Count("entries"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        """``/admin/games/race/add/``: no form (a race needs a fresh secret seed, RULES.md
        7): back to the race list with a message saying where races are added, rather
        than Django's bare 403.  Nothing is written, whatever the method.

        Raises ``PermissionDenied`` (403) for a user who may not see the race list."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        self.message_user(
            request,
            gettext(
                "Races are not added here: open a tournament and use “Add scheduled "
                "races…”, or use the staff API (POST /api/v1/races)."
            ),
            # A warning: the admin draws INFO with the green tick of a success.
            messages.WARNING,
        )
        return HttpResponseRedirect(reverse("admin:games_race_changelist"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is not None and (
            obj.status != Race.Status.SCHEDULED or timezone.now() >= obj.starts_at
        ):  # only a race not started may move (race_move says why)
            return [*self.readonly_fields, "tournament"]
        return list(self.readonly_fields)

    @admin.display(description=_("tournament"), ordering="tournament__name")
    def tournament_name(self, race: Race) -> str:
        # A method, not the foreign key: the admin never wraps a foreign key's cell
        # (class "nowrap"), and a long tournament name pushed the last columns out.
        return race.tournament.name if race.tournament is not None else "-"

    @admin.display(description=PHASE_NOW)
    def phase_now(self, race: Race) -> str:
        # Capitalised as the stored status beside it is (Django shows a choice's label
        # as it is: "Programmée" beside "En cours", not "en cours").
        return capfirst(phase_words(race))

    @admin.display(description=_("entrants"), ordering="entry_total")
    def entrants(self, race: Race) -> int:
        return int(getattr(race, "entry_total", 0))

    @admin.display(description=_("variant"))
    def variant(self, race: Race) -> str:
        # The preset's name in the page's language, as the pages show it ("Classique"),
        # never the code ("classic"); other rules say what differs from their preset.
        deal = race.deal
        return rules_label(deal.variant, deal.options, deal.preset)

    @admin.display(description=_("seed"))
    def seed(self, race: Race) -> str:
        return seed_shown(race)

    @admin.display(description=_("commitment"))
    def commitment_short(self, race: Race) -> str:
        # Eight characters (the whole value in the tooltip): room for the Variant column
        # within a 1280-pixel screen.
        return short_hash(race.commitment, keep=8)

    @admin.display(description=_("joining opens"), ordering="opens_at")
    def opens(self, race: Race) -> str:
        return when(race.opens_at)

    @admin.display(description=_("starts"), ordering="starts_at")
    def starts(self, race: Race) -> str:
        return when_cell(race.starts_at)

    @admin.display(description=_("ends"), ordering="ends_at")
    def ends(self, race: Race) -> str:
        return when_cell(race.ends_at)

    @admin.display(description=_("created"), ordering="created_at")
    def created(self, race: Race) -> str:
        return when(race.created_at)

    @admin.display(description=_("closed"), ordering="closed_at")
    def closed(self, race: Race) -> str:
        return when(race.closed_at)

    @admin.display(description=_("scored"), ordering="scored_at")
    def scored(self, race: Race) -> str:
        return when(race.scored_at)

    @admin.display(
        description=pgettext_lazy("when a race was", "cancelled"), ordering="cancelled_at"
    )
    def cancelled(self, race: Race) -> str:
        return when(race.cancelled_at)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """The form's fields; ``cancelled`` (``Race.cancelled_at``, read-only) only on a
        cancelled race."""
        fields = list(super().get_fields(request, obj))
        if obj is None or obj.status != Race.Status.CANCELLED:
            fields.remove("cancelled")
        return fields

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        """Django's form, the help under the read-only rules saying what the value means
        (:data:`READ_ONLY_HELP`): the models' help named the API's fields ("ends_at -
        starts_at", "games.services.races.races_cancel") and, under a crossed-out
        *Require winnable*, said "the deal was proven winnable by the solver"."""
        kwargs["help_texts"] = {**READ_ONLY_HELP, **kwargs.get("help_texts", {})}
        return super().get_form(request, obj, change, **kwargs)

    @admin.display(description=_("export (CSV)"))
    def exports(self, race: Race) -> str:
        note = (
            gettext("with the seed and commitment")
            if race.seed_revealed()
            else gettext("live; the seed is added once the race is finished or cancelled")
        )
        return format_html(
            '<a class="button" href="{}">{}</a> ({})',
            reverse("admin:games_race_standings_csv", args=[race.pk]),
            gettext("Standings"),
            note,
        )

    @admin.display(description=_("standings (live until finished)"))
    def live_standings(self, race: Race) -> str:
        rows = race_standings(race=race)
        if not rows:
            return gettext("no entrants yet")
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    dash(r["rank"]),
                    r["player"],
                    dash(r["cards_home"]),
                    dash(r["moves"]),
                    duration(r["elapsed_ms"]) or "-",
                    status_words(r["status"]),  # "race cancelled" for a game it ended
                )
                for r in rows
            ),
        )
        return format_html(
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>"
            "{}</table>",
            gettext("rank"),
            gettext("player"),
            gettext("cards home"),
            gettext("moves"),
            gettext("time"),
            gettext("status"),
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
        """The race's standings as CSV (``games.selectors.exports``): the commitment
        always (public before the race), the seed once the race is finished or cancelled
        (RULES.md 7)."""
        race = object_or_404(Race.objects.select_related("deal", "tournament"), object_id)
        if not self.has_view_or_change_permission(request, race):
            raise PermissionDenied
        return csv_download(race_standings_csv(races=[race]), f"{race.pk}-standings.csv")

    def _each(
        self, request: HttpRequest, queryset: QuerySet[Race], fn: Any, logged: str, done: Any
    ) -> None:
        """Run ``fn`` on each race; log ``logged`` (the history stays in English) for each
        one done, then tell the count with ``done`` (an ``ngettext_lazy`` on ``n``) of
        those done whose tasks run in this process (the rating of a race closed or
        re-scored) did not raise: one that raised is an error message instead
        (:func:`run_service`)."""
        count = 0
        for race in queryset:
            ran = run_service(self, request, race, lambda race=race: fn(race))
            if ran:
                self.log_change(request, race, logged)
            if ran.clean:  # a task that raised here is told as an error instead
                count += 1
        if count:
            self.message_user(request, done % {"n": count})

    @admin.action(description=_("Open joining now"), permissions=["change"])
    def open_now(self, request: HttpRequest, queryset: QuerySet[Race]) -> None:
        done = ngettext_lazy("Opened now: %(n)d race.", "Opened now: %(n)d races.", "n")
        self._each(request, queryset, lambda r: race_open_now(race_id=r.pk), "Opened now", done)

    def _confirm(
        self, request: HttpRequest, queryset: QuerySet[Race], *, action: str
    ) -> TemplateResponse:
        """The page ``action`` (``close_now`` or ``cancel``) shows before it acts: each
        selected race with its tournament, phase now, entrant count and what the action
        will do to it (:func:`_outcome`), in the order the action takes them.  Its title
        counts the races selected (:func:`confirm_title`), its "Yes" button those the
        action is (:data:`ACTING`; for "Cancel", those scored instead when it cancels none),
        each in the singular for one.  When it would change none of them (no outcome in
        :data:`CHANGING`: finished, cancelled or, to close, not started with entrants), the
        page says so and offers no "Yes", only the way back."""
        now = timezone.now()
        races = list(
            queryset.select_related("tournament")
            .annotate(entrant_total=Count("entries"))
            .order_by("starts_at", "id")
        )
        rows = [
            {
                "name": (
                    gettext("%(race)s (%(tournament)s)")
                    % {"race": race.name, "tournament": race.tournament.name}
                    if race.tournament
                    else race.name
                ),
                "phase": phase_words(race, now),
                "entrants": race.entrant_total,
                "outcome": _outcome(race, action, now),
            }
            for race in races
        ]
        return confirm_page(
            self,
            request,
            f"admin/games/race/{action}_confirm.html",
            title=confirm_title(action, len(races)),
            action=action,
            selected=races,
            rows=rows,
            acting=sum(1 for row in rows if row["outcome"] in ACTING[action]),
            changing=sum(1 for row in rows if row["outcome"] in CHANGING[action]),
            # None of them would change: no form, only the way back.
            nothing_to_do=not any(row["outcome"] in CHANGING[action] for row in rows),
        )

    def _say_left_alone(self, request: HttpRequest, finished: list[Race]) -> None:
        """Name the finished races an action left alone (they keep their results), if any."""
        if finished:
            self.message_user(
                request,
                ngettext(
                    "Left alone: %(names)s. A finished race keeps its results.",
                    "Left alone: %(names)s. Finished races keep their results.",
                    len(finished),
                )
                % {"names": _names(finished)},
                messages.WARNING,
            )

    @admin.action(
        description=_("Close now (end, time out, score; asks first)"), permissions=["change"]
    )
    def close_now(self, request: HttpRequest, queryset: QuerySet[Race]) -> TemplateResponse | None:
        """Ask first (closing ends the games still being played and publishes the result
        and the seed; it cannot be undone), then close each race now
        (:func:`race_close_now`).  Finished races are left alone and named, not counted."""
        if "apply" not in request.POST:
            return self._confirm(request, queryset, action="close_now")
        finished = list(queryset.filter(status=Race.Status.FINISHED).order_by("starts_at", "id"))
        done = ngettext_lazy("Closed now: %(n)d race.", "Closed now: %(n)d races.", "n")
        now = timezone.now()
        self._each(
            request,
            queryset.exclude(status=Race.Status.FINISHED),
            lambda r: race_close_now(race_id=r.pk, now=now),
            "Closed now",
            done,
        )
        self._say_left_alone(request, finished)
        return None

    @admin.action(
        description=pgettext_lazy("a race", "Cancel (asks first)"), permissions=["change"]
    )
    def cancel(self, request: HttpRequest, queryset: QuerySet[Race]) -> TemplateResponse | None:
        """Ask first (a cancellation ends the games, reveals the seed and ranks nothing;
        it cannot be undone), then cancel each race not over (:func:`race_cancel_now`).
        Counted and logged: only the races really cancelled, and apart those whose end
        had passed (closed and scored instead: they were played in full).  Races left
        alone (finished: they keep their results; cancelled already) are named with why,
        not logged."""
        if "apply" not in request.POST:
            return self._confirm(request, queryset, action="cancel")
        now = timezone.now()
        done: dict[str, list[Race]] = {}
        for race in queryset.order_by("starts_at", "id"):
            outcome: list[Any] = []
            if run_service(
                self,
                request,
                race,
                lambda race=race, outcome=outcome: outcome.append(
                    race_cancel_now(race_id=race.pk, now=now)
                ),
            ):
                result = outcome[0].result
                done.setdefault(result, []).append(race)
                if result == "cancelled":
                    self.log_change(request, race, "Cancelled")
                elif result == "scored":
                    self.log_change(
                        request, race, "Closed and scored, not cancelled: its end had passed"
                    )
        cancelled = done.get("cancelled", [])
        if cancelled:
            self.message_user(
                request,
                ngettext("Cancelled: %(n)d race.", "Cancelled: %(n)d races.", len(cancelled))
                % {"n": len(cancelled)},
            )
        scored = done.get("scored", [])
        if scored:
            self.message_user(
                request,
                ngettext(
                    "Not cancelled, ended: %(names)s. Its end had passed, so it was closed "
                    "and scored (it had been played in full).",
                    "Not cancelled, ended: %(names)s. Their end had passed, so they were "
                    "closed and scored (they had been played in full).",
                    len(scored),
                )
                % {"names": _names(scored)},
                messages.WARNING,
            )
        finished = done.get("finished", [])
        self._say_left_alone(request, finished)
        again = done.get("already_cancelled", [])
        if again:
            self.message_user(
                request,
                ngettext(
                    "Already cancelled, left alone: %(names)s.",
                    "Already cancelled, left alone: %(names)s.",
                    len(again),
                )
                % {"names": _names(again)},
                messages.WARNING,
            )
        return None

    @admin.action(
        description=_("Re-score with the current ranking rule (asks first)"), permissions=["change"]
    )
    def rescore(self, request: HttpRequest, queryset: QuerySet[Race]) -> TemplateResponse | None:
        """Ask first (the current ranking rule replaces a published result), then re-score."""
        if "apply" not in request.POST:
            races = list(queryset.select_related("tournament").order_by("starts_at"))
            return confirm_page(
                self,
                request,
                "admin/games/race/rescore_confirm.html",
                title=confirm_title("rescore", len(races)),
                action="rescore",
                selected=races,
                races=races,
                published=[r for r in races if r.status == Race.Status.FINISHED],
                ranking_rule=RANKING_RULE_WORDS,
            )
        self._each(
            request,
            queryset,
            lambda r: race_rescore_all(race_id=r.pk),
            "Re-scored with the current ranking rule",
            ngettext_lazy(
                "Re-scored with the current ranking rule: %(n)d race.",
                "Re-scored with the current ranking rule: %(n)d races.",
                "n",
            ),
        )
        return None

    @admin.action(description=_("Export standings as CSV"), permissions=["view"])
    def export_standings_csv(self, request: HttpRequest, queryset: QuerySet[Race]) -> HttpResponse:
        races = queryset.select_related("deal", "tournament").order_by("starts_at", "id")
        return csv_download(race_standings_csv(races=races), "race-standings.csv")
