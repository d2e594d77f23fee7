"""Service refusals in the admin's language.

The services say why they refuse in English (the API's ``detail``, which names the API's
fields: "max_entrants must be at least 1") and, as data, which refusal it is (``why``)
and what it names (``facts``).  The admin words the tournament refusals here with
``gettext``/``ngettext``, naming the form's fields as the form labels them; any other
refusal keeps the service's English detail (a new refusal is never lost, only
untranslated).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from games.models import Tournament
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


def admin_refusal(exc: ServiceError) -> str:
    """What the admin says for ``exc``, in the active language; ``exc.detail`` for a
    refusal not worded here (or whose facts are missing)."""
    f = exc.facts
    try:
        return _worded(exc.why, f) or exc.detail
    except (KeyError, TypeError, ValueError):
        return exc.detail


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
            "%(n)d race of the tournament is not finished (scheduled or being scored): close "
            "or cancel it before finishing the tournament.",
            "%(n)d races of the tournament are not finished (scheduled or being scored): close "
            "or cancel them before finishing the tournament.",
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
