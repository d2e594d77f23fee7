"""Organisers' race actions (admin and staff API): open or close now, cancel, re-score,
disqualify.

Each keeps the race's tournament standings in step: whatever changes a race
result re-scores the tournament (:func:`games.services.tournaments.tournament_rescore`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game, Race, RaceEntry
from games.services.errors import InvalidRace, NotFound
from games.services.races import race_cancel, race_close, race_rescore
from games.services.tournaments import tournament_rescore

#: What an organiser is told before re-scoring a finished race (RULES.md 6 changed:
#: published results stay as they are until a re-score applies the current rule).
RESCORE_NOTICE = (
    "Re-scoring ranks this race again under the current ranking rule (RULES.md 6: the "
    "number of moves no longer breaks ties; disqualified entries are left out). Published "
    "ranks, and the tournament standings built on them, may change."
)

#: Longest disqualification reason (``RaceEntry.disqualified_reason``).
MAX_REASON = 300


def _race_locked(race_id: Any) -> Race:
    try:
        return Race.objects.select_for_update(no_key=True).get(id=race_id)
    except (Race.DoesNotExist, ValueError):
        raise NotFound("no such race") from None


def _tournament_rescore_of(race: Race) -> None:
    if race.tournament_id is not None:
        tournament_rescore(tournament_id=race.tournament_id)


def race_open_now(*, race_id: Any, now: datetime | None = None) -> Race:
    """Open joining now (``opens_at = now``) for a race not yet open; idempotent.

    Raises :class:`InvalidRace` for a finished, closing or cancelled race.
    """
    now = now or timezone.now()
    with transaction.atomic():
        race = _race_locked(race_id)
        if race.status != Race.Status.SCHEDULED or now >= race.ends_at:
            raise InvalidRace(f"the race is {race.phase(now)}: it cannot be opened")
        if race.opens_at > now:
            race.opens_at = now
            race.save(update_fields=["opens_at"])
        return race


def race_close_now(*, race_id: Any, now: datetime | None = None) -> str:
    """End the race now: ``ends_at = now``, every deadline cut to now, then :func:`race_close`.

    A race that had not started yet starts and ends now (nobody played).  A
    race already past ``ends_at`` is just closed.  Returns the status afterwards
    (``finished``, or ``busy`` if another closer holds it).  Raises
    :class:`InvalidRace` for a cancelled race.
    """
    now = now or timezone.now()
    with transaction.atomic():
        race = _race_locked(race_id)
        if race.status == Race.Status.CANCELLED:
            raise InvalidRace("the race is cancelled")
        if race.status == Race.Status.SCHEDULED and race.ends_at > now:
            race.ends_at = now
            if race.starts_at >= now:
                race.starts_at = now - timedelta(microseconds=1)
            race.opens_at = min(race.opens_at, race.starts_at)
            race.save(update_fields=["opens_at", "starts_at", "ends_at"])
            Game.objects.filter(race_entry__race=race).filter(
                Q(deadline__isnull=True) | Q(deadline__gt=now)
            ).update(deadline=now)
    return race_close(race_id=race_id, now=now)


def race_cancel_now(*, race_id: Any) -> Race:
    """Cancel a race that is not finished (:func:`race_cancel`) and re-score its tournament."""
    race = race_cancel(race_id=race_id)
    _tournament_rescore_of(race)
    return race


def race_rescore_all(*, race_id: Any) -> Race:
    """Re-rank a finished race under the current rule (RULES.md 6), then re-score its
    tournament.  Published ranks change only here.  Raises :class:`NotFound`."""
    race_rescore(race_id=race_id)  # raises NotFound
    race = Race.objects.get(id=race_id)
    _tournament_rescore_of(race)
    return race


def race_entry_disqualify(*, entry_id: Any, reason: str, by: User | None = None) -> RaceEntry:
    """Disqualify an entry with a reason the entrant sees; the race and tournament re-score.

    The entry keeps its facts but loses its rank (and its tournament points).
    Disqualifying again replaces the reason.  Raises :class:`InvalidRace`
    (empty or too long reason, cancelled race) and :class:`NotFound`.
    """
    reason = reason.strip()
    if not reason:
        raise InvalidRace("a disqualification needs a reason")
    if len(reason) > MAX_REASON:
        raise InvalidRace(f"the reason is longer than {MAX_REASON} characters")
    with transaction.atomic():
        try:
            entry = RaceEntry.objects.select_for_update(no_key=True).get(id=entry_id)
        except (RaceEntry.DoesNotExist, ValueError):
            raise NotFound("no such race entry") from None
        entry.disqualified = True
        entry.disqualified_reason = reason
        entry.save(update_fields=["disqualified", "disqualified_reason"])
    race_rescore_all(race_id=entry.race_id)
    entry.refresh_from_db()
    return entry


def race_entry_reinstate(*, entry_id: Any, by: User | None = None) -> RaceEntry:
    """Lift a disqualification (the reason is cleared); the race and tournament re-score."""
    with transaction.atomic():
        try:
            entry = RaceEntry.objects.select_for_update(no_key=True).get(id=entry_id)
        except (RaceEntry.DoesNotExist, ValueError):
            raise NotFound("no such race entry") from None
        entry.disqualified = False
        entry.disqualified_reason = ""
        entry.save(update_fields=["disqualified", "disqualified_reason"])
    race_rescore_all(race_id=entry.race_id)
    entry.refresh_from_db()
    return entry
