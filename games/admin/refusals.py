"""Service refusals in the admin's language.

The services say why they refuse in English (the API's ``detail``, which names the API's
fields: "max_entrants must be at least 1") and, as data, which refusal it is (``why``)
and what it names (``facts``).  The admin words the tournament and race refusals here
with ``gettext``/``ngettext``, naming the form's fields as the form labels them
(*Add scheduled races*: "Time limit", not ``time_limit_s``), a race's phase
and a tournament's status in words, times as the admin writes them
(``2026-12-04 23:07:00 UTC``); any other refusal keeps the service's English detail (a
new refusal is never lost, only untranslated).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from games.models import Race, Tournament
from games.services.errors import ServiceError


def _status(status: Any) -> str:
    """A tournament status in words (``"finished"`` -> "terminé")."""
    words = {
        Tournament.Status.DRAFT: pgettext("a tournament", "a draft"),
        Tournament.Status.OPEN: pgettext("a tournament", "open"),
        Tournament.Status.FINISHED: pgettext("a tournament", "finished"),
        Tournament.Status.CANCELLED: pgettext("a tournament", "cancelled"),
    }
    return str(words.get(status, status))


def _field(name: str) -> str:
    """A tournament field as the admin form labels it."""
    field: Any = Tournament._meta.get_field(name)
    return str(field.verbose_name)


#: The race settings the race services name (``time_limit_s``, ...), as the *Add
#: scheduled races* form labels them (``games.admin.tournament.AddRacesForm``: the only
#: admin form that creates races; the same words, so the same translations).
RACE_FIELDS: dict[str, Any] = {
    "time_limit_s": gettext_lazy("Time limit"),
    "late_join_s": gettext_lazy("Late join"),
    "opens_before": gettext_lazy("Joining lead time"),
    "duration": gettext_lazy("Duration"),
    "gap": gettext_lazy("Gap"),
    "mode": gettext_lazy("Mode"),
}


def _phase(phase: Any) -> str:
    """A race's phase in words (``"running"`` -> "en cours"), as the race list shows it."""
    words = {
        "upcoming": pgettext("race phase", "upcoming"),
        "open": pgettext("race phase", "open"),
        "running": pgettext("race phase", "running"),
        "closing": pgettext("race phase", "closing"),
        "finished": pgettext("race phase", "finished"),
        "cancelled": pgettext("race phase", "cancelled"),
    }
    return str(words.get(phase, phase))


def _race_field(name: str) -> str:
    """A race setting as the admin labels it (:data:`RACE_FIELDS`, else the model's
    ``verbose_name``: "name", "tournament")."""
    if name in RACE_FIELDS:
        return str(RACE_FIELDS[name])
    field: Any = Race._meta.get_field(name)
    return str(field.verbose_name)


def _when(moment: datetime) -> str:
    """A time as the admin writes it: ``2026-12-04 23:07:00 UTC`` (the server's zone,
    ``games.admin.common.when``)."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S %Z")


def admin_refusal(exc: ServiceError) -> str:
    """What the admin says for ``exc``, in the active language; ``exc.detail`` for a
    refusal not worded here (or whose facts are missing)."""
    f = exc.facts
    try:
        return _worded(exc.why, f) or _race_worded(exc.why, f) or exc.detail
    except (KeyError, TypeError, ValueError, AttributeError):
        return exc.detail


def _race_worded(why: str, f: dict[str, Any]) -> str:
    """The race services' refusals (``games.services.races``, ``race_admin``, and the
    checks of ``tournament_races_add``), ``""`` for another ``why``."""
    if why == "no_such_race":
        return gettext("No such race: it may have been deleted.")
    if why == "no_such_entry":
        return gettext("No such race entry: it may have been deleted.")
    if why == "no_such_tournament":
        return gettext("No such tournament: it may have been deleted.")
    if why == "race_not_openable":
        return gettext("The race is %(phase)s: joining cannot be opened.") % {
            "phase": _phase(f["phase"])
        }
    if why == "close_cancelled":
        return gettext("The race is cancelled: it cannot be closed.")
    if why == "close_before_start":
        return gettext(
            "The race has not started, so nobody has played it: cancel it instead (closing "
            "would rank and rate games nobody could play)."
        )
    if why == "entries_of_cancelled_race":
        if f["verb"] == "reinstated":
            return gettext("The race is cancelled: its disqualifications can no longer be lifted.")
        return gettext("The race is cancelled: its entries can no longer be disqualified.")
    if why == "reason_missing":
        return gettext("A disqualification needs a reason.")
    if why == "reason_too_long":
        n = int(f["most"])
        return ngettext(
            "The reason is longer than %(n)d character.",
            "The reason is longer than %(n)d characters.",
            n,
        ) % {"n": n}
    if why == "race_name_length":
        return gettext("“%(field)s” must have 1 to 120 characters.") % {
            "field": _race_field("name")
        }
    if why == "move_after_start":
        return gettext(
            "The race is %(phase)s: only a race that has not started can change “%(field)s”."
        ) % {"phase": _phase(f["phase"]), "field": _race_field("tournament")}
    if why == "move_with_entrants":
        n = int(f["count"])
        return ngettext(
            "The race has %(n)d entrant, admitted under its tournament's rules: its "
            "“%(field)s” can no longer change.",
            "The race has %(n)d entrants, admitted under its tournament's rules: its "
            "“%(field)s” can no longer change.",
            n,
        ) % {"n": n, "field": _race_field("tournament")}
    if why == "ends_in_the_past":
        return gettext(
            "The race would be over before it is added (it ends at %(ends_at)s): choose a "
            "later start."
        ) % {"ends_at": _when(f["ends_at"])}
    if why == "race_times_order":
        return gettext(
            "A race's times must be in order: joining opens, then the race starts, then it ends."
        )
    if why == "race_too_long":
        n = int(f["days"])
        return ngettext(
            "A race lasts at most %(n)d day from the moment joining opens.",
            "A race lasts at most %(n)d days from the moment joining opens.",
            n,
        ) % {"n": n}
    if why == "window_needs_limit":
        return gettext("A window race needs “%(field)s” (more than 0 seconds).") % {
            "field": _race_field("time_limit_s")
        }
    if why in ("limit_longer_than_race", "late_join_longer_than_race"):
        name = "time_limit_s" if why == "limit_longer_than_race" else "late_join_s"
        return gettext("“%(field)s” is longer than the race (from its start to its end).") % {
            "field": _race_field(name)
        }
    if why == "unknown_mode":
        return gettext("“%(field)s” must be one of the listed modes.") % {
            "field": _race_field("mode")
        }
    if why == "late_join_invalid":
        return gettext("“%(field)s” must be 0 or more, or empty.") % {
            "field": _race_field("late_join_s")
        }
    if why == "joining_never_open":
        return gettext("Joining would never be open: set “%(opens)s” or “%(late)s” above zero.") % {
            "opens": _race_field("opens_before"),
            "late": _race_field("late_join_s"),
        }
    if why == "joining_closed_already":
        return gettext(
            "Nobody could join the race: joining would already be closed (at %(at)s). "
            "Choose a later start, or a “%(late)s” that keeps joining open past now."
        ) % {"at": _when(f["join_closes_at"]), "late": _race_field("late_join_s")}
    if why == "deals_all_blocked":
        return gettext(
            "Every deal tried under these rules was blocked from its first move: choose "
            "other rules."
        )
    if why == "batch_size":
        return gettext("Add 1 to %(most)d races at a time.") % {"most": int(f["most"])}
    if why == "duration_not_positive":
        return gettext("“%(field)s” must be longer than zero.") % {"field": _race_field("duration")}
    if why == "negative_gap":
        return gettext("“%(gap)s” and “%(opens)s” cannot be negative.") % {
            "gap": _race_field("gap"),
            "opens": _race_field("opens_before"),
        }
    return ""


def _worded(why: str, f: dict[str, Any]) -> str:
    if why == "max_entrants_too_low":
        return gettext("“%(field)s” must be at least 1 (or empty for no limit).") % {
            "field": _field("max_entrants")
        }
    if why == "max_entrants_below_admitted":
        n = int(f["count"])
        return ngettext(
            "%(n)d player is already admitted: “%(field)s” cannot be lower.",
            "%(n)d players are already admitted: “%(field)s” cannot be lower.",
            n,
        ) % {"n": n, "field": _field("max_entrants")}
    if why == "points_out_of_range":
        return gettext("“%(field)s” must be a whole number from 0 to 100000.") % {
            "field": _field(str(f["field"]))
        }
    if why == "points_table_length":
        return gettext("The points table needs 1 to 100 entries.")
    if why == "points_table_entry":
        return gettext("The points table's entries must be whole numbers from 0 to 100000.")
    if why == "points_table_increases":
        return gettext(
            "The points table must not increase: a better place never earns fewer points."
        )
    if why == "name_missing":
        return gettext("A tournament needs a name.")
    if why == "new_status":
        return gettext("A new tournament is a draft or open.")
    if why == "draft_not_cancelled":
        return gettext(
            "A draft tournament was never published: delete it (its races go with it) rather "
            "than cancel it, which would make it and its races' seeds public."
        )
    if why == "status_change":
        return gettext("A tournament that is %(was)s cannot become %(to)s.") % {
            "was": _status(f["was"]),
            "to": _status(f["to"]),
        }
    if why == "races_unfinished":
        n = int(f["count"])
        return ngettext(
            "%(n)d race of the tournament is not finished (upcoming, running or being scored): "
            "close or cancel it before finishing the tournament.",
            "%(n)d races of the tournament are not finished (upcoming, running or being scored): "
            "close or cancel them before finishing the tournament.",
            n,
        ) % {"n": n}
    if why == "no_races_added":
        return gettext("The tournament is %(status)s: no races can be added to it.") % {
            "status": _status(f["status"])
        }
    if why == "rules_final":
        return gettext("The tournament is %(status)s: its scoring and entry rules are final.") % {
            "status": _status(f["status"])
        }
    if why == "entrants_final":
        return gettext("The tournament is %(status)s: its entrants are final.") % {
            "status": _status(f["status"])
        }
    if why == "tournament_not_open" and "status" in f:
        return gettext("The tournament is %(status)s.") % {"status": _status(f["status"])}
    if why == "tournament_full":
        n = int(f["count"])
        return ngettext(
            "The tournament is full (%(n)d player).", "The tournament is full (%(n)d players).", n
        ) % {"n": n}
    if why == "draft_races_entered":
        n = int(f["count"])
        return ngettext(
            "%(n)d race of the draft has entrants: publish and cancel the tournament, or leave "
            "it a draft (players never see it).",
            "%(n)d races of the draft have entrants: publish and cancel the tournament, or "
            "leave it a draft (players never see it).",
            n,
        ) % {"n": n}
    if why == "has_races":
        n = int(f["count"])
        return ngettext(
            "The tournament has %(n)d race: cancel it instead of deleting it.",
            "The tournament has %(n)d races: cancel it instead of deleting it.",
            n,
        ) % {"n": n}
    return ""
