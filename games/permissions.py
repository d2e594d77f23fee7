"""The one permission model for organiser actions (API, admin and pages alike).

An organiser is any account holding the Django model permissions an action needs
(the ``organisers`` group of migration ``0003_organisers_group`` grants them;
superusers hold every permission).  ``is_staff`` grants nothing here: it only
lets an account reach the admin site, where the admin checks the same model
permissions.  Every organiser check calls :func:`may_organise`, so a staff
account outside the group can do nothing an organiser can, through any door.

Draft tournaments belong to the organisers until published: to everyone else a
draft tournament, and each of its races, answers exactly as one that does not
exist (:func:`may_see_drafts`, used by the selectors and by
:func:`games.services.races.race_join`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class OrganiserAction(StrEnum):
    """What an organiser may do; each needs every permission in :data:`REQUIRED`."""

    CREATE_RACE = "create_race"
    CREATE_TOURNAMENT = "create_tournament"
    ADD_TOURNAMENT_RACES = "add_tournament_races"
    RESCORE_TOURNAMENT = "rescore_tournament"
    SEE_DRAFTS = "see_drafts"
    SET_RACE_RATED = "set_race_rated"


#: The model permissions (``app_label.codename``) each organiser action needs.
REQUIRED: dict[OrganiserAction, tuple[str, ...]] = {
    OrganiserAction.CREATE_RACE: ("games.add_race",),
    OrganiserAction.CREATE_TOURNAMENT: ("games.add_tournament",),
    OrganiserAction.ADD_TOURNAMENT_RACES: ("games.change_tournament", "games.add_race"),
    OrganiserAction.RESCORE_TOURNAMENT: ("games.change_tournament",),
    OrganiserAction.SEE_DRAFTS: ("games.view_tournament",),
    OrganiserAction.SET_RACE_RATED: ("games.change_race",),
}


def may_organise(user: Any, action: OrganiserAction) -> bool:
    """Whether ``user`` (a ``User``, ``AnonymousUser`` or ``None``) may do ``action``.

    True only for an active, authenticated account holding every permission of
    ``REQUIRED[action]`` (superusers hold all).  ``is_staff`` plays no part.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if not getattr(user, "is_active", False):
        return False
    return bool(user.has_perms(REQUIRED[action]))


def may_see_drafts(user: Any) -> bool:
    """Whether ``user`` may see draft tournaments and their races (organisers only)."""
    return may_organise(user, OrganiserAction.SEE_DRAFTS)
