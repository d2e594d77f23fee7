"""Tournament admin: scheme, entry rules, races (add N at once), entrants, standings, exports.

Every write calls a service: the add form :func:`tournament_create`, the change
form :func:`tournament_update`, the entrants inline :func:`tournament_admit` and
:func:`tournament_entrant_remove`, deletion :func:`tournament_delete`, the
actions :func:`tournament_set_status` and :func:`tournament_rescore`.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import (
    gettext,
    ngettext,
    ngettext_lazy,
    npgettext,
    pgettext,
    pgettext_lazy,
)
from django.utils.translation import gettext_lazy as _

from games.admin.common import (
    PHASE_NOW,
    DurationMinutesSecondsField,
    ParentRowsFormSet,
    PlayerByUsernameField,
    SelectionGuardAdmin,
    ServiceWritesAdmin,
    _ModelForm_Tournament,
    _TabularInline_Race_Tournament,
    _TabularInline_TournamentEntrant_Tournament,
    _TabularInline_TournamentStanding_Tournament,
    confirm_page,
    csv_download,
    minutes_seconds,
    object_or_404,
    phase_words,
    quoted_names,
    run_service,
    seed_shown,
    short_hash,
    when,
)
from games.admin.refusals import admin_refusal
from games.engine import PRESETS
from games.models import Race, Tournament, TournamentEntrant, TournamentStanding
from games.permissions import OrganiserAction, may_organise
from games.selectors.exports import tournament_races_csv, tournament_standings_csv
from games.services.errors import InvalidTournament, ServiceError
from games.services.races import LATE_JOIN_DEFAULT
from games.services.tournament_admin import (
    ENTRY_FIELDS,
    SCORING_FIELDS,
    tournament_delete,
    tournament_entrant_remove,
    tournament_update,
)
from games.services.tournaments import (
    DEFAULT_POINTS_TABLE,
    RaceSchedule,
    tournament_admit,
    tournament_create,
    tournament_races_add,
    tournament_rescore,
    tournament_set_status,
    tournament_validate,
)
from games.words import PRESET_NAMES, duration

_FIELDS = [
    "name",
    "description",
    "scoring",
    "points_table",
    "points_per_card",
    "win_bonus",
    "entry",
    "max_entrants",
]

#: The statuses after which a tournament's scheme, entry rules and entrants are final
#: (``tournament_update``, ``tournament_admit`` and ``tournament_entrant_remove`` refuse
#: to change them): the change form shows them read only, keeping name and description.
OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def is_over(t: Tournament | None) -> bool:
    """Whether ``t`` (``None`` on the add form) is finished or cancelled (:data:`OVER`)."""
    return t is not None and not t._state.adding and t.status in OVER


class _DepthSafeDecoder(json.JSONDecoder):
    """A JSON decoder for form fields: text nested past the parser's depth
    (``[[[[...]]]]``) is malformed JSON, as the API's parser says, not a ``RecursionError``
    (a 500, from cleaning the field and again from showing the form's error)."""

    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().decode(s, *args, **kwargs)
        except RecursionError:
            raise json.JSONDecodeError("nested too deeply", s, 0) from None


#: Each scoring scheme's own fields (``Tournament``'s docstring): the form shows and
#: takes only those of the chosen scheme.
SCHEME_FIELDS: dict[str, tuple[str, ...]] = {
    Tournament.Scoring.PLACE_POINTS: ("points_table",),
    Tournament.Scoring.CARDS_HOME: ("points_per_card", "win_bonus"),
}


class TournamentForm(_ModelForm_Tournament):
    """The scheme, entry rules and (new tournaments) status, checked by the service's rules.

    A new tournament starts as a draft (organisers only) unless published at once;
    its points table starts filled with the default the scheme will use.

    Only the chosen scheme's fields (:data:`SCHEME_FIELDS`) are taken: a script
    (``tournament_scoring.js``) hides the other scheme's rows as the scheme changes, and
    without it they stay in sight, each saying which scheme uses it.  Either way the
    server ignores what the other scheme's fields hold (even text that is no number):
    they keep their stored values (a new tournament's: the model's defaults), and
    :attr:`ignored` names those the organiser had changed, which the admin then says
    were not saved.
    """

    class Media:
        js = ["games/admin/tournament_scoring.js"]

    class Meta:
        model = Tournament
        fields = [*_FIELDS[:2], "status", *_FIELDS[2:]]
        help_texts = {
            "status": _("draft: seen by organisers only, publish it when ready; open: public now"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "points_table" in self.fields:
            table: Any = self.fields["points_table"]
            table.decoder = _DepthSafeDecoder
            table.help_text = gettext(
                "points by place scheme: the points of rank 1, 2, ... as a JSON list; ranks "
                "past the table earn 0. Empty ([]) means the default %(table)s. Not used by "
                "the cards home scheme."
            ) % {"table": ", ".join(map(str, DEFAULT_POINTS_TABLE))}
        if "status" in self.fields:
            field: Any = self.fields["status"]
            # Capitalised, as the list and its filter show a choice (the model's labels).
            field.choices = [
                (Tournament.Status.DRAFT, Tournament.Status.DRAFT.label),
                (Tournament.Status.OPEN, Tournament.Status.OPEN.label),
            ]
        for scheme, names in SCHEME_FIELDS.items():
            for name in names:
                if name in self.fields:  # read by tournament_scoring.js
                    self.fields[name].widget.attrs["data-scheme"] = scheme
        #: The other scheme's fields the organiser changed (not saved), by label.
        self.ignored: list[str] = []
        if self.instance._state.adding and not self.is_bound:
            passed = kwargs.get("initial") or {}  # the admin's ?field=value initial data
            if "status" not in passed:
                self.initial["status"] = Tournament.Status.DRAFT
            if not passed.get("points_table"):
                self.initial["points_table"] = list(DEFAULT_POINTS_TABLE)

    def unused_fields(self) -> list[str]:
        """The fields the posted scheme does not use (none while the scheme is unknown:
        its own error is shown, and every field is checked)."""
        if "scoring" not in self.fields:
            return []
        scheme = self.data.get(self.add_prefix("scoring"))
        if scheme not in SCHEME_FIELDS:
            return []
        return [
            name
            for other, names in SCHEME_FIELDS.items()
            if other != scheme
            for name in names
            if name in self.fields
        ]

    def _clean_fields(self) -> None:
        """Django's cleaning, then the other scheme's fields set aside: no error of theirs
        is shown and their stored values are kept (see the class docstring)."""
        super()._clean_fields()  # type: ignore[misc]  # Django's, not in its stubs
        changed = set(self.changed_data)
        for name in self.unused_fields():
            self.errors.pop(name, None)
            self.cleaned_data[name] = getattr(self.instance, name)
            if name in changed:
                self.ignored.append(str(self.fields[name].label))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        for name in _FIELDS:  # shown read only (a finished tournament's rules): kept
            if name not in self.fields:
                data[name] = getattr(self.instance, name)
        try:
            data["points_table"] = tournament_validate(
                name=data.get("name", ""),
                status=data.get("status") if self.instance._state.adding else None,
                scoring=data.get("scoring", ""),
                points_table=data.get("points_table"),
                points_per_card=data.get("points_per_card"),
                win_bonus=data.get("win_bonus"),
                entry=data.get("entry", ""),
                max_entrants=data.get("max_entrants"),
            )
        except ServiceError as exc:
            raise forms.ValidationError(admin_refusal(exc)) from None
        return data


#: A window race's time limit typed as a bare number (seconds) is refused under this
#: many seconds: the form's other durations take a bare number as minutes.
BARE_TIME_LIMIT_MIN_SECONDS = 30


class AddRacesForm(forms.Form):
    """N races: the first starts at ``first_starts_at``, each lasts ``duration``,
    the next starts ``gap`` after the previous one ends."""

    count = forms.IntegerField(label=_("Count"), min_value=1, max_value=100, initial=3)
    first_starts_at = forms.DateTimeField(
        label=_("First starts at"),
        input_formats=["%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M"],
        widget=forms.DateTimeInput(
            format="%Y-%m-%d %H:%M", attrs={"placeholder": _("YYYY-MM-DD HH:MM"), "size": 18}
        ),
    )
    duration = DurationMinutesSecondsField(
        label=_("Duration"),
        min_value=timedelta(seconds=1),
        initial=timedelta(minutes=10),
        help_text=_("each race's length, as minutes:seconds (7:30), H:MM:SS or whole minutes"),
    )
    gap = DurationMinutesSecondsField(
        label=_("Gap"),
        initial=timedelta(minutes=5),
        help_text=_(
            "between one race's end and the next start, as minutes:seconds (5:00), H:MM:SS "
            "or whole minutes"
        ),
    )
    # The README's and the services' name for it ("joining lead time"); the form said
    # "Opens before", which did not say what opens.
    opens_before = DurationMinutesSecondsField(
        label=_("Joining lead time"),
        initial=timedelta(minutes=10),
        help_text=_(
            "how long before each start joining opens, as minutes:seconds (10:00), H:MM:SS "
            "or whole minutes"
        ),
    )
    # The rules by name in the admin's language ("Classique"), as the race list and the
    # pages name them; the codes ("classic") only in the help text, for the API and the
    # CSV exports, which use them.
    variant = forms.ChoiceField(
        label=_("Variant"),
        choices=[(p, PRESET_NAMES.get(p, p)) for p in PRESETS],
        initial="classic",
    )
    mode = forms.ChoiceField(
        label=_("Mode"), choices=Race.Mode.choices, initial=Race.Mode.SCHEDULED
    )
    # Typed as the other durations are (it took only seconds, "Time limit (seconds)",
    # beside fields that took 7:30); a bare number stays seconds, as it was.
    time_limit_s = DurationMinutesSecondsField(
        label=_("Time limit"),
        min_value=timedelta(seconds=1),
        bare_seconds=True,
        required=False,
        help_text=_(
            "window mode: the time each player gets from their own start, as "
            "minutes:seconds (7:30), H:MM:SS or whole seconds (450)"
        ),
    )
    late_join = DurationMinutesSecondsField(
        label=_("Late join"),
        required=False,
        help_text=_(
            "how long after each start joining stays open, as minutes:seconds (2:30), "
            "H:MM:SS or whole minutes (0:00: joining closes at the start; the race's duration "
            "or more: until it ends). Empty: the mode's default, closing at the start for a "
            "scheduled race and open until the end for a window race"
        ),
    )
    allow_undo = forms.BooleanField(label=_("Allow undo"), required=False)
    require_winnable = forms.BooleanField(
        label=_("Require winnable"),
        required=False,
        help_text=_(
            "each race takes a deal the solver has already proven winnable, from the reserve "
            "the solver queue keeps ready for races of its rules (practice games never draw "
            "from it); with too few ready, no race is added and the reserve is refilled: try "
            "again shortly"
        ),
    )

    def __init__(self, *args: Any, now: datetime | None = None, **kwargs: Any) -> None:
        """``now``: the clock's reading shown in the start's help text (default: the
        current time), in the server's time zone (UTC), so that an organiser in another
        zone sees what to type."""
        super().__init__(*args, **kwargs)
        shown = timezone.localtime(now or timezone.now())
        self.fields["first_starts_at"].help_text = gettext(
            "YYYY-MM-DD HH:MM, %(time_zone)s (now: %(now)s %(time_zone)s)"
        ) % {"time_zone": settings.TIME_ZONE, "now": shown.strftime("%Y-%m-%d %H:%M")}
        self.fields["variant"].help_text = gettext(
            "The API and the CSV exports name these rules by code: %(codes)s."
        ) % {"codes": ", ".join(f"{PRESET_NAMES.get(p, p)} = {p}" for p in PRESETS)}

    def clean_first_starts_at(self) -> Any:
        """Years 2000..2099, as the API takes (a start in 9999 overflowed into a 500)."""
        value = self.cleaned_data["first_starts_at"]
        if not 2000 <= value.year <= 2099:
            raise forms.ValidationError(gettext("Use a date between 2000 and 2099."))
        return value

    def clean(self) -> dict[str, Any]:
        """The time limit checked against the mode, as the API checks it.

        A scheduled race lasts its Duration for every entrant: a time limit other than
        that span is refused on the field (the API's ``400 validation_error`` on
        ``time_limit_s``), not ignored; empty is fine.  A window race's time limit typed
        as a bare number under :data:`BARE_TIME_LIMIT_MIN_SECONDS` is refused too: a bare
        number is seconds there but minutes in the fields beside it, so ``5`` for a
        10-minute race was a 5-second limit.  ``0:05`` still says 5 seconds on purpose
        (the race service takes any limit of 1 second or more).
        """
        data = super().clean() or {}
        limit = data.get("time_limit_s")
        if limit is None:
            return data
        mode = data.get("mode")
        duration = data.get("duration")
        if mode == Race.Mode.SCHEDULED:
            if duration is not None and limit != duration:
                self.add_error(
                    "time_limit_s",
                    gettext(
                        "A scheduled race lasts its duration (%(duration)s) for every "
                        "entrant: leave the time limit empty, or choose the window mode "
                        "for a time limit per entrant."
                    )
                    % {"duration": minutes_seconds(duration)},
                )
        elif mode == Race.Mode.WINDOW:
            typed = str(self.data.get(self.add_prefix("time_limit_s"), "")).strip()
            seconds = int(limit.total_seconds())
            if ":" not in typed and seconds < BARE_TIME_LIMIT_MIN_SECONDS:
                self.add_error(
                    "time_limit_s",
                    ngettext(
                        "%(n)d second is too short: for %(n)d minute write %(n)d:00 "
                        "(for %(n)d second, 0:%(nn)s).",
                        "%(n)d seconds is too short: for %(n)d minutes write %(n)d:00 "
                        "(for %(n)d seconds, 0:%(nn)s).",
                        seconds,
                    )
                    % {"n": seconds, "nn": f"{seconds:02d}"},
                )
        return data


def races_refused(t: Tournament) -> str:
    """Why no race can be added to ``t`` (finished or cancelled), in the admin's language;
    ``""`` when races can be added (a draft or an open tournament), as
    :func:`~games.services.tournaments.tournament_races_add` decides."""
    if t.status == Tournament.Status.FINISHED:
        return gettext("The tournament is finished: no races can be added to it.")
    if t.status == Tournament.Status.CANCELLED:
        return gettext("The tournament is cancelled: no races can be added to it.")
    return ""


def _race_refusal(exc: ServiceError) -> str:
    """What the *Add scheduled races* form says for a refusal, in the admin's language.

    The winnable-pool refusals (``tournament_races_add``: the API's ``503
    no_winnable_deal``, ``422 no_winnable_deal_found`` and the batch limit) are worded
    here; any other keeps the service's detail.
    """
    if exc.code == "no_winnable_deal":
        return gettext(
            "No race was added: the solver queue has not proven enough deals of these rules "
            "winnable yet (each race takes one from the pool it keeps ready, and the solver "
            "never runs while this page waits). A refill has been asked for: try again in "
            "%(seconds)d seconds, add fewer races, or untick “Require winnable”."
        ) % {"seconds": int(exc.extra.get("retry_after", 0))}
    if exc.code == "no_winnable_deal_found":
        return gettext(
            "No race was added: the solver proved every recent deal of these rules lost, so "
            "a winnable deal of them is not to be expected. Untick “Require winnable” or "
            "choose other rules."
        )
    if exc.why == "winnable_batch_too_large":
        return gettext(
            "Races that require a winnable deal are added at most %(most)d at a time (the "
            "reserve of proven-winnable deals kept for races holds that many): add the rest "
            "in another batch."
        ) % {"most": exc.facts["most"]}
    return admin_refusal(exc)


class StandingInline(_TabularInline_TournamentStanding_Tournament):
    """Live standings (recomputed whenever a race result changes)."""

    model = TournamentStanding
    formset = ParentRowsFormSet
    fields = [
        "rank",
        "player",
        "points",
        "wins",
        "races_played",
        "disqualifications",
        "cards_home_total",
        "total_time",
    ]
    readonly_fields = fields  # type: ignore[assignment]
    extra = 0
    can_delete = False
    verbose_name_plural = _("standings")
    # Before any race of it is finished there are no rows: a note says so, where Django
    # drew a table of headers only.
    template = "admin/games/tournament/standings_inline.html"

    @admin.display(description=pgettext_lazy("tournament standings", "Total time"))
    def total_time(self, s: TournamentStanding) -> str:
        """The total time as the tournament page shows it (``"22.8 s"``, ``"5 min 03.4 s"``;
        ``"0.0 s"`` for 0 ms, a duration like the others; a dash before any race counts),
        not raw milliseconds."""
        if s._state.adding or not s.races_played:
            return "\u2013"
        return duration(s.time_ms_total)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RaceInline(_TabularInline_Race_Tournament):
    """The tournament's races, compact enough for a 1,280 px screen (seed once finished
    or cancelled: :meth:`Race.seed_revealed`)."""

    model = Race
    formset = ParentRowsFormSet
    fields = ["name", "phase", "mode", "starts", "ends", "commitment_short", "seed_short"]
    readonly_fields = fields  # type: ignore[assignment]
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ["starts_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=PHASE_NOW)
    def phase(self, race: Race) -> str:
        # "-" for the blank race of a posted row that names none of the tournament's
        # races (ParentRowsFormSet refuses the row; the page shows it again).
        return "-" if race._state.adding else capfirst(phase_words(race))

    @admin.display(description=_("starts"))
    def starts(self, race: Race) -> str:
        return when(race.starts_at)

    @admin.display(description=_("ends"))
    def ends(self, race: Race) -> str:
        return when(race.ends_at)

    @admin.display(description=_("commitment"))
    def commitment_short(self, race: Race) -> str:
        return short_hash(race.commitment)

    @admin.display(description=_("seed"))
    def seed_short(self, race: Race) -> str:
        seed = seed_shown(race)
        return short_hash(seed) if race.seed_revealed() else seed


class EntrantForm(forms.ModelForm):  # type: ignore[type-arg]
    """An admitted player, typed by username (:class:`PlayerByUsernameField`); the player
    of a saved row cannot be swapped for another."""

    player = PlayerByUsernameField()

    class Meta:
        model = TournamentEntrant
        fields = ["player"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.instance._state.adding:
            self.fields["player"].disabled = True
            self.initial["player"] = self.instance.player  # shown by its username


class EntrantInline(_TabularInline_TournamentEntrant_Tournament):
    """Admitted players; add players here to invite them (a draft or open tournament, up
    to its limit; a finished or cancelled one's are shown read only)."""

    model = TournamentEntrant
    formset = ParentRowsFormSet
    form = EntrantForm
    fields = ["player", "invited_by", "admitted"]
    readonly_fields = ["invited_by", "admitted"]
    extra = 0
    # This tournament's entrants: the model's name headed them "Tournament entrants"
    # ("Participants aux tournois"), as if listing every tournament's.
    verbose_name_plural = _("entrants")

    # A finished or cancelled tournament's entrants are final (tournament_admit and
    # tournament_entrant_remove refuse): the rows are shown read only, none added.
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not is_over(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not is_over(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not is_over(obj) and super().has_delete_permission(request, obj)

    @admin.display(description=_("admitted"))
    def admitted(self, e: TournamentEntrant) -> str:
        return when(e.created_at) if e.pk and not e._state.adding else "-"


#: A tournament's status inside a sentence ("Spring Cup (draft): ..."): the status
#: choices are capitalised labels, and lower-casing them broke German nouns ("entwurf").
STATUS_IN_A_SENTENCE: dict[str, Any] = {
    Tournament.Status.DRAFT: pgettext_lazy("tournament status, in a sentence", "draft"),
    Tournament.Status.OPEN: pgettext_lazy("tournament status, in a sentence", "open"),
    Tournament.Status.FINISHED: pgettext_lazy("tournament status, in a sentence", "finished"),
    Tournament.Status.CANCELLED: pgettext_lazy("tournament status, in a sentence", "cancelled"),
}

#: The races that keep a tournament from being finished: to be played, running, or being
#: scored (``games.services.tournaments.tournament_set_status``).
UNFINISHED_RACES = (Race.Status.SCHEDULED, Race.Status.CLOSING)

#: The outcomes of :func:`status_outcome` that change a tournament's status (counted on
#: the page; a finished one re-scored keeps its status).
ACTING_OUTCOMES = frozenset({"publish", "finish", "finish_draft"})
#: The outcomes after which the confirmation offers "Yes": those that change a status, and
#: a finished tournament's re-score.  With none of them, the action would change nothing
#: and the page offers only the way back.
CHANGING_OUTCOMES = ACTING_OUTCOMES | {"rescore"}


#: A saved tournament's status help on its page, by status: what the organiser can do
#: from there (the list's actions); none once it is finished or cancelled.
STATUS_HELP = {
    Tournament.Status.DRAFT: _(
        "seen by organisers only; when it is ready, publish it with the list's action “Publish”"
    ),
    Tournament.Status.OPEN: _(
        "public: players see it and its races; once its races are over, finish it with the "
        "list's action “Finish”"
    ),
}


def confirm_title(action: str, n: int) -> str:
    """The title of ``action``'s (``publish``, ``finish``, ``cancel``) confirmation for
    ``n`` selected tournaments, in the singular for one (``"Publish this tournament?"``,
    ``"Publish these 3 tournaments?"``)."""
    if action == "publish":
        words = ngettext("Publish this tournament?", "Publish these %(n)d tournaments?", n)
    elif action == "finish":
        words = ngettext("Finish this tournament?", "Finish these %(n)d tournaments?", n)
    else:
        words = ngettext(
            "Cancel this tournament and its races?",
            "Cancel these %(n)d tournaments and their races?",
            n,
        )
    return words % {"n": n}


def status_outcome(t: Tournament, action: str, pending: int) -> str:
    """What the admin action ``action`` (``publish`` or ``finish``) will do to ``t``, as
    its confirmation page says it, by the rules of
    :func:`~games.services.tournaments.tournament_set_status`; ``pending``: the count of
    its races not finished (upcoming, running or being scored).

    ``publish``: ``publish`` (a draft: opened), ``open`` (open already: left alone),
    ``finished`` or ``cancelled`` (refused: never reopened).  ``finish``: ``finish`` (open,
    every race over), ``finish_draft`` (a draft, every race over: published and
    finished at once), ``unfinished`` (races not finished: refused until they are closed
    or cancelled), ``rescore`` (finished already: re-scored, nothing else changes),
    ``cancelled`` (refused: a cancelled tournament is never finished)."""
    status = t.status
    if action == "publish":
        if status == Tournament.Status.DRAFT:
            return "publish"
        return str(status)  # open (already), finished, cancelled
    if status == Tournament.Status.CANCELLED:
        return "cancelled"
    if status == Tournament.Status.FINISHED:
        return "rescore"
    if pending:
        return "unfinished"
    return "finish_draft" if status == Tournament.Status.DRAFT else "finish"


def _adopt(obj: Tournament, saved: Tournament) -> None:
    """Make the admin's unsaved ``obj`` the row a service saved (inlines attach to it)."""
    for f in Tournament._meta.concrete_fields:
        setattr(obj, f.attname, getattr(saved, f.attname))
    obj._state.adding = False
    obj._state.db = saved._state.db


#: The read-only rows of a saved tournament that the add form leaves out: nobody has
#: created or scored it yet.
SAVED_ONLY = ("created_by", "created", "scored")


@admin.register(Tournament)
class TournamentAdmin(SelectionGuardAdmin, ServiceWritesAdmin):
    """Tournaments: scheme, entry rules, races (add N at once), entrants, live standings."""

    form = TournamentForm
    list_display = ["name", "status", "scoring", "entry", "max_entrants", "races", "created"]
    list_filter = ["status", "scoring", "entry", "created_at"]
    search_fields = ["name", "description"]
    readonly_fields = ["add_races_link", "exports", "created_by", "created", "scored"]
    inlines = [StandingInline, RaceInline, EntrantInline]
    actions = ["rescore", "publish", "finish", "cancel", "export_standings_csv"]

    class Media:
        # The add-races and export buttons keep their own boxes when they wrap (phones).
        css = {"all": ["games/admin/tournament_form.css"]}

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        """:class:`TournamentForm`, whose status help fits the tournament's status
        (:data:`STATUS_HELP`): the add form's explains draft and open; a saved
        tournament's (its status read only, the actions change it) says what comes next
        from where it is, and a finished or cancelled one's, which nothing changes, none.

        A finished or cancelled tournament's rules, shown read only, have no help either:
        the model's help says how to type them ("empty: no limit", "e.g. [10, 8, 6]"),
        which nobody can.  Its entrant limit, when there is none, is shown as "-", with
        "no limit" under it."""
        if obj is not None:
            helps = {"status": STATUS_HELP.get(obj.status, "")}
            if is_over(obj):
                helps.update(dict.fromkeys((*SCORING_FIELDS, *ENTRY_FIELDS), ""))
                if obj.max_entrants is None:
                    helps["max_entrants"] = gettext("no limit")
            kwargs["help_texts"] = helps
        return super().get_form(request, obj, change, **kwargs)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> Any:
        """Django's page, without "Save and add another" for a finished or cancelled
        tournament: only its name and description can change, and the button offered to
        go on adding tournaments from a page of record.  "Save" and "Save and continue
        editing" stay (they save the name and description).  Nor "Delete" when it has
        races: such a tournament is kept, with its races (the deletion page said only
        that, :meth:`_kept_races`, and still does at its address)."""
        if is_over(obj):
            context["show_save_and_add_another"] = False
            if obj.races.exists():
                context["show_delete"] = False
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_inlines(self, request: HttpRequest, obj: Any) -> list[Any]:
        """The standings and the races (both read only) once the tournament exists; its
        entrants always.  The add page showed two empty tables no one could fill."""
        if obj is None:
            return [EntrantInline]
        return list(self.inlines)

    @staticmethod
    def clock() -> datetime:
        """The current time (the add-races form shows it); tests put their own clock."""
        return timezone.now()

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        qs: QuerySet[Tournament] = super().get_queryset(request)
        return qs.annotate(race_total=Count("races"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """The status once created (the actions change it); a finished or cancelled
        tournament's scheme and entry rules too (:data:`OVER`: ``tournament_update``
        refuses to change them), leaving its name and description editable."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is None:
            return fields
        if is_over(obj):
            return [*fields, "status", *SCORING_FIELDS, *ENTRY_FIELDS]
        return [*fields, "status"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        """Django's fields, less, for a finished or cancelled tournament (shown read only),
        the other scheme's parameters (:data:`SCHEME_FIELDS`): it never used them, and an
        editable form shows only the chosen scheme's too.  The add form leaves out what
        only a saved tournament has (:data:`SAVED_ONLY`): it showed "Created" with the
        time the page was drawn, "Created by" and "Scored" with "-".  A saved tournament's
        status (read only: the list's actions change it) comes right after its name and
        description, where the add form has it, with the help that says what comes next:
        it was the last row, under "Created" and "Scored"."""
        fields = list(super().get_fields(request, obj))
        if obj is None:
            return [f for f in fields if f not in SAVED_ONLY]
        if "status" in fields:
            fields.remove("status")
            fields.insert(fields.index("description") + 1, "status")
        if not is_over(obj):
            return fields
        unused = {f for scheme, own in SCHEME_FIELDS.items() if scheme != obj.scoring for f in own}
        return [f for f in fields if f not in unused]

    @admin.display(description=_("races"), ordering="race_total")
    def races(self, t: Tournament) -> int:
        return int(getattr(t, "race_total", 0))

    @admin.display(description=_("created"), ordering="created_at")
    def created(self, t: Tournament) -> str:
        return when(t.created_at)

    @admin.display(description=_("scored"), ordering="scored_at")
    def scored(self, t: Tournament) -> str:
        return when(t.scored_at)

    @admin.display(description=_("add races"))
    def add_races_link(self, t: Tournament) -> str:
        if t._state.adding:
            return gettext("save the tournament first")
        refused = races_refused(t)
        if refused:
            return refused
        url = reverse("admin:games_tournament_add_races", args=[t.pk])
        return format_html(
            '<a class="button" href="{}">{}</a>', url, gettext("Add scheduled races…")
        )

    @admin.display(description=_("exports (CSV)"))
    def exports(self, t: Tournament) -> str:
        if t._state.adding:
            return gettext("save the tournament first")
        return format_html(
            '<a class="button" href="{}">{}</a> <a class="button" href="{}">{}</a>',
            reverse("admin:games_tournament_standings_csv", args=[t.pk]),
            gettext("Standings"),
            reverse("admin:games_tournament_races_csv", args=[t.pk]),
            gettext("Races, with the seeds of finished and cancelled races"),
        )

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        d = form.cleaned_data
        # A field shown read only (a finished tournament's rules) keeps its stored value.
        fields = {f: d[f] if f in d else getattr(obj, f) for f in _FIELDS}
        if change:
            saved = tournament_update(tournament_id=obj.pk, **fields)
        else:
            saved = tournament_create(
                status=d["status"],
                created_by=request.user,  # type: ignore[arg-type]
                **fields,
            )
        _adopt(obj, saved)
        ignored = getattr(form, "ignored", [])
        if ignored:
            self.message_user(
                request,
                ngettext(
                    "The “%(scheme)s” scheme does not use %(fields)s: the value typed was not "
                    "saved.",
                    "The “%(scheme)s” scheme does not use %(fields)s: the values typed were not "
                    "saved.",
                    len(ignored),
                )
                % {
                    "scheme": saved.get_scoring_display(),
                    "fields": ", ".join(
                        pgettext("a name in quotes", "“%(name)s”") % {"name": label}
                        for label in ignored
                    ),
                },
                messages.WARNING,
            )

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        formset.save(commit=False)  # sorts the rows into new, changed and deleted ones
        if formset.model is not TournamentEntrant:
            return  # the standings and races inlines are read only
        for entrant in formset.deleted_objects:
            tournament_entrant_remove(entrant_id=entrant.pk)
        for entrant in formset.new_objects:
            tournament_admit(
                tournament_id=form.instance.pk,
                player=entrant.player,
                invited_by=request.user,  # type: ignore[arg-type]
            )

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Django's list of what the deletion takes; a draft's races nobody entered go
        with it (:func:`games.services.tournament_admin.tournament_delete`), so they are
        listed as deleted, not as protected, and need no delete permission on races."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        objs = list(objs)
        kept = [why for t in objs if (why := self._kept_races(t))]
        if kept:
            # Django would say the account lacks permission to delete races; the truth
            # is that these races are kept, and what to do instead.
            return deleted, counts, set(), kept
        drafts_free = all(
            t.status == Tournament.Status.DRAFT
            and not t.races.filter(entries__isnull=False).exists()
            for t in objs
        )
        races = [race for t in objs for race in t.races.order_by("starts_at", "id")]
        if not objs or not drafts_free or not races:
            return deleted, counts, perms_needed, protected
        race_name = str(Race._meta.verbose_name)
        deleted = [*deleted, *(f"{capfirst(race_name)}: {race}" for race in races)]
        counts = {**counts, str(Race._meta.verbose_name_plural): len(races)}
        return deleted, counts, {p for p in perms_needed if str(p) != race_name}, []

    @staticmethod
    def _kept_races(t: Tournament) -> str | None:
        """Why deleting ``t`` would take races that are kept, and what to do instead
        (the rule of :func:`~games.services.tournament_admin.tournament_delete`), or
        ``None`` when ``t`` may be deleted.  An open tournament is sent to "Cancel the
        tournament"; a finished or cancelled one, which that action refuses, only says
        that it is kept."""
        n = t.races.count()
        if not n:
            return None
        if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            # Over: "Cancel the tournament" refuses it (cancelled already, or finished).
            return ngettext(
                "“%(name)s” and its race are kept: a finished or cancelled tournament is not "
                "deleted (its race stays public, with its results).",
                "“%(name)s” and its %(n)d races are kept: a finished or cancelled tournament "
                "is not deleted (its races stay public, with their results).",
                n,
            ) % {"name": t.name, "n": n}
        if t.status != Tournament.Status.DRAFT:
            return ngettext(
                "“%(name)s” and its race, which are public: a published tournament is not "
                "deleted but cancelled (the list's action “%(action)s”), which keeps its race "
                "and results.",
                "“%(name)s” and its %(n)d races, which are public: a published tournament is "
                "not deleted but cancelled (the list's action “%(action)s”), which keeps its "
                "races and results.",
                n,
            ) % {
                "name": t.name,
                "n": n,
                "action": pgettext("a tournament", "Cancel the tournament"),
            }
        entered = t.races.filter(entries__isnull=False).distinct().count()
        if not entered:
            return None
        return gettext("“%(name)s”: %(why)s") % {
            "name": t.name,
            "why": admin_refusal(
                InvalidTournament("").because("draft_races_entered", {"count": entered})
            ),
        }

    def delete_model(self, request: HttpRequest, obj: Tournament) -> None:
        tournament_delete(tournament_id=obj.pk)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            run_service(self, request, t, lambda t=t: tournament_delete(tournament_id=t.pk))

    def get_urls(self) -> list[URLPattern]:
        custom = [
            path(
                "<path:object_id>/add-races/",
                self.admin_site.admin_view(self.add_races_view),
                name="games_tournament_add_races",
            ),
            path(
                "<path:object_id>/standings.csv",
                self.admin_site.admin_view(self.standings_csv_view),
                name="games_tournament_standings_csv",
            ),
            path(
                "<path:object_id>/races.csv",
                self.admin_site.admin_view(self.races_csv_view),
                name="games_tournament_races_csv",
            ),
        ]
        return custom + super().get_urls()

    def _viewable(self, request: HttpRequest, object_id: str) -> Tournament:
        t = object_or_404(Tournament.objects.all(), object_id)
        if not self.has_view_or_change_permission(request, t):
            raise PermissionDenied
        return t

    def standings_csv_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The tournament's standings as CSV (``games.selectors.exports``)."""
        t = self._viewable(request, object_id)
        return csv_download(tournament_standings_csv(tournaments=[t]), f"{t.pk}-standings.csv")

    def races_csv_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The tournament's races as CSV: each race's commitment, and the seed of each
        finished or cancelled race (``games.selectors.exports.tournament_races_csv``)."""
        t = self._viewable(request, object_id)
        return csv_download(tournament_races_csv(tournament=t), f"{t.pk}-races.csv")

    def add_races_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Add N scheduled races, each with a fresh secret seed and its commitment.

        A finished or cancelled tournament takes no races: the page says so
        (:func:`races_refused`) instead of showing the form, and a post adds nothing."""
        t = object_or_404(Tournament.objects.all(), object_id)
        if not may_organise(request.user, OrganiserAction.ADD_TOURNAMENT_RACES):
            raise PermissionDenied
        refused = races_refused(t)
        form = AddRacesForm(request.POST or None, now=self.clock())
        if request.method == "POST" and not refused and form.is_valid():
            d = form.cleaned_data
            try:
                races = tournament_races_add(
                    tournament_id=t.pk,
                    schedule=RaceSchedule(
                        count=d["count"],
                        first_starts_at=d["first_starts_at"],
                        duration=d["duration"],
                        gap=d["gap"] or timedelta(0),
                        opens_before=d["opens_before"] or timedelta(0),
                    ),
                    variant=d["variant"],
                    mode=d["mode"],
                    time_limit_s=(
                        None
                        if d["time_limit_s"] is None
                        else int(d["time_limit_s"].total_seconds())
                    ),
                    late_join_s=(
                        LATE_JOIN_DEFAULT
                        if d["late_join"] is None
                        else int(d["late_join"].total_seconds())
                    ),
                    allow_undo=d["allow_undo"],
                    require_winnable=d["require_winnable"],
                    created_by=request.user,  # type: ignore[arg-type]
                )
            except OverflowError:  # count x (duration + gap) past the calendar
                form.add_error(None, gettext("The schedule runs past the end of the calendar."))
            except ServiceError as exc:
                if exc.why == "ends_in_the_past":  # the API's wording names its own fields
                    form.add_error(
                        "first_starts_at",
                        gettext(
                            "The first race would be over before it is added (it ends at "
                            "%(ends_at)s): choose a later start."
                        )
                        % {"ends_at": when(exc.facts["ends_at"])},
                    )
                else:
                    form.add_error(None, _race_refusal(exc))
            else:
                # Each name in quotes (a race name may hold a comma) and a full stop, as
                # the admin's other messages: it read "Added 2 races: Cup #1, Cup #2".
                names = quoted_names(r.name for r in races)
                added = ngettext(
                    "Added %(n)d race: %(names)s.", "Added %(n)d races: %(names)s.", len(races)
                )
                self.log_change(request, t, added % {"n": len(races), "names": names})
                self.message_user(request, added % {"n": len(races), "names": names})
                return HttpResponseRedirect(reverse("admin:games_tournament_change", args=[t.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Add races to %(tournament)s") % {"tournament": t},
            "opts": self.model._meta,
            "original": t,
            "form": form,
            "refusal": refused,
        }
        return TemplateResponse(request, "admin/games/tournament/add_races.html", context)

    @admin.action(description=_("Export standings as CSV"), permissions=["view"])
    def export_standings_csv(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse:
        return csv_download(
            tournament_standings_csv(tournaments=queryset.order_by("created_at")),
            "tournament-standings.csv",
        )

    def _transition(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        to: str,
        done: Any,
        *,
        already: str | None = None,
    ) -> None:
        """Set each tournament's status to ``to`` (logged in English), then tell the count
        with ``done`` (an ``ngettext_lazy`` on ``n``).  Tournaments whose status is
        ``already`` are left alone (nothing to do) and named in a warning; a service
        refusal is an error message naming the tournament."""
        count = 0
        left: list[Tournament] = []
        for t in queryset.order_by("created_at", "id"):  # as the confirmation listed them
            if already is not None and t.status == already:
                left.append(t)
                continue
            if run_service(
                self, request, t, lambda t=t: tournament_set_status(tournament_id=t.pk, status=to)
            ):
                self.log_change(request, t, f"Status set to {to}")
                count += 1
        if count:
            self.message_user(request, done % {"n": count})
        if left:
            names = quoted_names(t.name for t in left)
            self.message_user(
                request,
                ngettext(
                    "Left alone: %(names)s, open already.",
                    "Left alone: %(names)s, open already.",
                    len(left),
                )
                % {"names": names},
                messages.WARNING,
            )

    def _status_confirm(
        self, request: HttpRequest, queryset: QuerySet[Tournament], *, action: str
    ) -> TemplateResponse:
        """The page "Publish" and "Finish" show before they act: per selected tournament
        (in the order the action takes them), its status, its races, and what the action
        will do to it (:func:`status_outcome`), with the count of those it acts on.  When
        the action would change none of them (no outcome in :data:`CHANGING_OUTCOMES`), the
        page says so and offers no "Yes", only the way back.  The title counts the
        tournaments selected, the "Yes" button those it changes (:func:`confirm_title`),
        each in the singular for one."""
        tournaments = list(
            queryset.order_by("created_at", "id").annotate(
                race_count=Count("races"),
                pending=Count("races", filter=Q(races__status__in=UNFINISHED_RACES)),
            )
        )
        rows = [
            {
                "name": t.name,
                "races": t.race_count,
                "pending": t.pending,
                "outcome": status_outcome(t, action, t.pending),
            }
            for t in tournaments
        ]
        return confirm_page(
            self,
            request,
            f"admin/games/tournament/{action}_confirm.html",
            title=confirm_title(action, len(tournaments)),
            action=action,
            selected=tournaments,
            rows=rows,
            acting=sum(1 for r in rows if r["outcome"] in ACTING_OUTCOMES),
            changing=sum(1 for r in rows if r["outcome"] in CHANGING_OUTCOMES),
            nothing_to_do=not any(r["outcome"] in CHANGING_OUTCOMES for r in rows),
        )

    @admin.action(description=_("Re-score standings from race results"), permissions=["change"])
    def rescore(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            rows = tournament_rescore(tournament_id=t.pk)
            self.log_change(request, t, f"Re-scored: {rows} standings rows")
        count = queryset.count()
        self.message_user(
            request,
            ngettext("Re-scored %(n)d tournament.", "Re-scored %(n)d tournaments.", count)
            % {"n": count},
        )

    @admin.action(description=_("Publish (draft → open; asks first)"), permissions=["change"])
    def publish(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> TemplateResponse | None:
        """Ask first (publishing shows a draft and its races to players and cannot be
        taken back), naming what each tournament gets (:func:`status_outcome`), then
        open the drafts (:func:`tournament_set_status`).  A tournament open already is
        left alone and named; a finished or cancelled one is refused by the service."""
        if "apply" not in request.POST:
            return self._status_confirm(request, queryset, action="publish")
        done = ngettext_lazy("%(n)d tournament now open.", "%(n)d tournaments now open.", "n")
        self._transition(
            request, queryset, Tournament.Status.OPEN, done, already=Tournament.Status.OPEN
        )
        return None

    @admin.action(description=_("Finish (final re-score; asks first)"), permissions=["change"])
    def finish(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> TemplateResponse | None:
        """Ask first (finishing makes the standings final and cannot be taken back),
        naming what each tournament gets (:func:`status_outcome`: one with races not
        finished is refused, and said to be), then finish each (:func:`tournament_set_status`,
        which re-scores; its refusals are error messages)."""
        if "apply" not in request.POST:
            return self._status_confirm(request, queryset, action="finish")
        done = ngettext_lazy(
            "%(n)d tournament now finished.", "%(n)d tournaments now finished.", "n"
        )
        self._transition(request, queryset, Tournament.Status.FINISHED, done)
        return None

    @admin.action(
        description=pgettext_lazy("a tournament", "Cancel the tournament"), permissions=["change"]
    )
    def cancel(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> TemplateResponse | None:
        """Ask first, listing per tournament the races it cancels too (upcoming, running
        or being scored, with their entrant counts), then cancel
        (:func:`tournament_set_status`); the message tells how many races went with them."""
        if "apply" not in request.POST:
            tournaments = list(queryset.order_by("created_at", "id"))
            unfinished = (
                Race.objects.filter(
                    tournament__in=tournaments,
                    status__in=(Race.Status.SCHEDULED, Race.Status.CLOSING),
                )
                .annotate(entrant_total=Count("entries"))
                .order_by("starts_at", "id")
            )
            by_tournament: dict[Any, list[dict[str, Any]]] = {t.pk: [] for t in tournaments}
            # A draft or finished tournament is not cancelled (the service refuses): it
            # is named with why, and its races are not counted.
            refused: dict[str, str] = {
                Tournament.Status.DRAFT: gettext(
                    "a draft is not cancelled (that would publish its races' seeds): "
                    "delete it instead"
                ),
                Tournament.Status.FINISHED: gettext("a finished tournament is not cancelled"),
                Tournament.Status.CANCELLED: gettext("cancelled already, left alone"),
            }
            for race in unfinished.exclude(tournament__status__in=list(refused)):
                by_tournament[race.tournament_id].append(
                    {
                        "name": race.name,
                        "phase": phase_words(race),
                        "entrants": race.entrant_total,
                        # Its end has passed: it is scored, not cancelled (races_end).
                        "ended": race.phase() == "closing",
                    }
                )
            return confirm_page(
                self,
                request,
                "admin/games/tournament/cancel_confirm.html",
                title=confirm_title("cancel", len(tournaments)),
                action="cancel",
                selected=tournaments,
                tournaments=[
                    (
                        t,
                        STATUS_IN_A_SENTENCE.get(t.status, t.status),
                        by_tournament[t.pk],
                        refused.get(t.status, ""),
                    )
                    for t in tournaments
                ],
                race_total=sum(
                    1 for rows in by_tournament.values() for r in rows if not r["ended"]
                ),
                ended_total=sum(1 for rows in by_tournament.values() for r in rows if r["ended"]),
                # The tournaments that will be cancelled (the "Yes" button's count).
                acting=sum(1 for t in tournaments if t.status not in refused),
                # None of them would be cancelled: no form, only the way back.
                nothing_to_do=all(t.status in refused for t in tournaments),
            )
        count = races = scored = 0
        already: list[Tournament] = []
        for t in queryset.order_by("created_at", "id"):  # as the page listed them
            if t.status == Tournament.Status.CANCELLED:
                already.append(t)  # nothing to do: named below, not counted or logged
                continue
            before = t.races.filter(status=Race.Status.CANCELLED).count()
            finished_before = t.races.filter(status=Race.Status.FINISHED).count()
            if run_service(
                self,
                request,
                t,
                lambda t=t: tournament_set_status(
                    tournament_id=t.pk, status=Tournament.Status.CANCELLED
                ),
            ):
                gone = t.races.filter(status=Race.Status.CANCELLED).count() - before
                ended = t.races.filter(status=Race.Status.FINISHED).count() - finished_before
                self.log_change(
                    request,
                    t,
                    f"Status set to cancelled ({gone} races cancelled"
                    + (f", {ended} races past their end scored" if ended else "")
                    + ")",
                )
                count += 1
                races += gone
                scored += ended
        if count:
            done = ngettext(
                "%(n)d tournament now cancelled.", "%(n)d tournaments now cancelled.", count
            ) % {"n": count}
            with_races = ngettext(
                "%(n)d unfinished race was cancelled too.",
                "%(n)d unfinished races were cancelled too.",
                races,
            ) % {"n": races}
            words = f"{done} {with_races}"
            if scored:
                words += " " + ngettext(
                    "%(n)d race whose end had passed was scored, not cancelled.",
                    "%(n)d races whose end had passed were scored, not cancelled.",
                    scored,
                ) % {"n": scored}
            self.message_user(request, words)
        if already:
            names = quoted_names(t.name for t in already)
            self.message_user(
                request,
                npgettext(
                    "tournaments",
                    "Already cancelled, left alone: %(names)s.",
                    "Already cancelled, left alone: %(names)s.",
                    len(already),
                )
                % {"names": names},
                messages.WARNING,
            )
        return None
