"""Organisers' tournament edits (the admin's writes): change, remove an entrant, delete.

Creating (:func:`~games.services.tournaments.tournament_create`), admitting
(:func:`~games.services.tournaments.tournament_admit`), publishing, finishing and
cancelling (:func:`~games.services.tournaments.tournament_set_status`) live in
``games.services.tournaments``; this module adds what the admin's change form and
entrant list need.  Each function is one transaction under the tournament's row
lock (``SELECT ... FOR NO KEY UPDATE``), so it serialises with admissions
(:func:`~games.services.tournaments.tournament_admit`) and re-scores.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from games.models import Deal, Race, Tournament, TournamentEntrant
from games.services.errors import MALFORMED_ID, InvalidTournament, NotFound, TournamentNotOpen
from games.services.standings import _tournament_locked, tournament_rescore
from games.services.tournaments import tournament_validate

#: The fields that decide points; changing one re-scores the tournament.
SCORING_FIELDS = ("scoring", "points_table", "points_per_card", "win_bonus")
#: The fields that decide who may enter.
ENTRY_FIELDS = ("entry", "max_entrants")
_OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def tournament_update(
    *,
    tournament_id: Any,
    name: str,
    description: str,
    scoring: str,
    points_table: Any,
    points_per_card: int,
    win_bonus: int,
    entry: str,
    max_entrants: int | None,
    now: datetime | None = None,
) -> Tournament:
    """Change a tournament's name, description, scheme and entry rules.

    The status is not changed here (:func:`tournament_set_status` does that).
    Checks, under the tournament's lock: the scheme (:func:`tournament_validate`;
    an empty points table stores the default), the entry rule, ``max_entrants``
    empty or at least 1 and not below the players already admitted; a finished
    or cancelled tournament keeps its scheme and entry rules (its standings are
    published).  A changed scheme re-scores the standings at once.
    Raises :class:`InvalidTournament`, :class:`TournamentNotOpen`, :class:`NotFound`.
    """
    table = tournament_validate(
        name=name,
        status=None,
        scoring=scoring,
        points_table=points_table,
        points_per_card=points_per_card,
        win_bonus=win_bonus,
        entry=entry,
        max_entrants=max_entrants,
    )
    with transaction.atomic():
        t = _tournament_locked(tournament_id)
        new = {
            "scoring": scoring,
            "points_table": table,
            "points_per_card": points_per_card,
            "win_bonus": win_bonus,
            "entry": entry,
            "max_entrants": max_entrants,
        }
        changed = [f for f, v in new.items() if getattr(t, f) != v]
        if changed and t.status in _OVER:
            raise TournamentNotOpen(
                f"the tournament is {t.status}: its scoring and entry rules are final"
            ).because("rules_final", {"status": t.status})
        if max_entrants is not None:
            admitted = t.entrants.count()
            if max_entrants < admitted:
                raise InvalidTournament(
                    f"{admitted} players are already admitted: max_entrants cannot be lower"
                ).because("max_entrants_below_admitted", {"count": admitted})
        t.name = name.strip()
        t.description = description
        for field, value in new.items():
            setattr(t, field, value)
        t.save(update_fields=["name", "description", *new])
        if set(changed) & set(SCORING_FIELDS):
            tournament_rescore(tournament_id=t.id, now=now)
            t.refresh_from_db()
        return t


def tournament_entrant_remove(*, entrant_id: Any) -> None:
    """Withdraw a player's admission to a draft or open tournament.

    Their race entries and results stay.  Raises :class:`NotFound` and
    :class:`TournamentNotOpen` (finished or cancelled: the list is history).
    """
    try:
        tournament_id = TournamentEntrant.objects.values_list("tournament_id", flat=True).get(
            id=entrant_id
        )
    except (TournamentEntrant.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such tournament entrant") from None
    with transaction.atomic():
        t = _tournament_locked(tournament_id)
        if t.status in _OVER:
            raise TournamentNotOpen(
                f"the tournament is {t.status}: its entrants are final"
            ).because("entrants_final", {"status": t.status})
        TournamentEntrant.objects.filter(id=entrant_id, tournament=t).delete()


def tournament_delete(*, tournament_id: Any) -> None:
    """Delete a tournament that has no races, or a draft whose races nobody entered.

    A draft was never shown to players (its races answer them 404), so a mistaken draft
    goes with its races (and their deals) as long as no race has an entrant; a draft
    cannot be cancelled instead, since a cancelled tournament and its races' seeds are
    public (:func:`games.services.tournaments.tournament_set_status`).  A published
    tournament with races is cancelled instead (its races and results are kept).
    Locks: the draft's races (id order), then the tournament, the project's order.
    Raises :class:`InvalidTournament` (races to keep) and :class:`NotFound`.
    """
    with transaction.atomic():
        try:
            race_ids = list(
                Race.objects.select_for_update(of=("self",), no_key=False)
                .filter(tournament_id=tournament_id, tournament__status=Tournament.Status.DRAFT)
                .order_by("id")
                .values_list("id", flat=True)
            )
        except MALFORMED_ID:
            raise NotFound("no such tournament") from None
        t = _tournament_locked(tournament_id)
        races = t.races.count()
        if races and t.status == Tournament.Status.DRAFT:
            entered = t.races.filter(entries__isnull=False).distinct().count()
            if entered or races != len(race_ids):
                raise InvalidTournament(
                    f"{entered} race(s) of the draft have entrants: publish and cancel the "
                    "tournament, or leave it a draft (players never see it)"
                ).because("draft_races_entered", {"count": entered})
            deal_ids = list(t.races.values_list("deal_id", flat=True))
            t.races.all().delete()
            Deal.objects.filter(id__in=deal_ids, games__isnull=True, races__isnull=True).delete()
        elif races:
            raise InvalidTournament(
                f"the tournament has {races} race(s): cancel it instead of deleting it"
            ).because("has_races", {"count": races})
        t.delete()
