"""Tournament admission and standings: the part of the tournament services that race
services call (issue 18.6: no import circle between races and tournaments).

:mod:`games.services.races` calls :func:`tournament_admit` when a player joins a
tournament race and :func:`tournament_rescore` when a tournament race finishes;
:mod:`games.services.tournaments` (create, add races, set status) imports
:mod:`games.services.races` and re-exports these names.  Imports go one way:
``tournaments -> races -> standings``.

Lock order (every path takes row locks in this order, so none deadlocks):
race row, then tournament row, then the standings rows.  ``race_close`` locks the
race, then :func:`tournament_rescore` locks the tournament; cancelling a tournament
(``tournament_set_status``) locks its unfinished races, then the tournament; deleting
an account locks its races and those it created, then its tournaments and those it
created, then deletes its entries and standings rows and re-scores;
``tournament_races_add`` locks the tournament and only creates races (new rows, no
race lock); :func:`tournament_admit` locks the tournament only.

The scoring schemes and tie-breaks are documented in :mod:`games.services.tournaments`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Case, Count, F, IntegerField, Q, QuerySet, Sum, Value, When, Window
from django.db.models.expressions import Combinable
from django.db.models.functions import Coalesce, Rank
from django.utils import timezone

from games.live.publish import publish_on_commit, tournament_topic
from games.models import Race, RaceEntry, Tournament, TournamentEntrant, TournamentStanding
from games.services.accounts import accounts_lock
from games.services.errors import (
    MALFORMED_ID,
    NotFound,
    TournamentFull,
    TournamentInviteOnly,
    TournamentNotOpen,
)

#: The default table of the ``place_points`` scheme.
DEFAULT_POINTS_TABLE = [10, 8, 6, 5, 4, 3, 2, 1]


def _tournament_locked(tournament_id: Any) -> Tournament:
    try:
        return Tournament.objects.select_for_update(no_key=True).get(id=tournament_id)
    except (Tournament.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such tournament") from None


def tournament_admit(
    *, tournament_id: Any, player: User, invited_by: User | None = None
) -> TournamentEntrant:
    """Admit ``player`` to the tournament (idempotent).

    Called by :func:`games.services.races.race_join` for a tournament race
    (``invited_by`` ``None``) and by organisers inviting a player.  An open
    tournament admits anyone up to ``max_entrants``; an invite-only one admits
    only through an organiser.  Locks the accounts of ``player`` and ``invited_by``
    first (:func:`games.services.accounts.accounts_lock`, the deletion's first lock; a
    join has locked its player's already).  Raises :class:`TournamentNotOpen`,
    :class:`TournamentInviteOnly`, :class:`TournamentFull`, :class:`NotFound`
    (:class:`AccountDeleted`: one of the accounts was deleted meanwhile).
    """
    with transaction.atomic():
        # The admission points at both accounts: committed while the deletion of one
        # ran, or after it, it failed with an IntegrityError.
        accounts_lock([player, invited_by])
        t = _tournament_locked(tournament_id)
        existing = TournamentEntrant.objects.filter(tournament=t, player=player).first()
        if existing is not None:
            return existing
        if invited_by is None and t.status != Tournament.Status.OPEN:
            raise TournamentNotOpen(f"the tournament is {t.status}")
        if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentNotOpen(f"the tournament is {t.status}").because(
                "tournament_not_open", {"status": t.status}
            )
        if invited_by is None and t.entry == Tournament.Entry.INVITE:
            raise TournamentInviteOnly("this tournament is for invited players only")
        if t.max_entrants is not None and t.entrants.count() >= t.max_entrants:
            n = t.max_entrants
            raise TournamentFull(
                f"the tournament is full ({n} player{'' if n == 1 else 's'})"
            ).because("tournament_full", {"count": n})
        return TournamentEntrant.objects.create(tournament=t, player=player, invited_by=invited_by)


# ------------------------------------------------------------------ scoring


def entry_points(tournament: Tournament) -> Combinable:
    """The SQL expression of one race entry's points under the tournament's scheme.

    Meaningful for counted entries only (see the module documentation).
    """
    if tournament.scoring == Tournament.Scoring.PLACE_POINTS:
        table = tournament.points_table or DEFAULT_POINTS_TABLE
        return Case(
            *[When(rank=i + 1, then=Value(p)) for i, p in enumerate(table)],
            default=Value(0),
            output_field=IntegerField(),
        )
    return Coalesce(F("cards_home"), Value(0)) * Value(tournament.points_per_card) + Case(
        When(won=True, then=Value(tournament.win_bonus)),
        default=Value(0),
        output_field=IntegerField(),
    )


#: Which entries earn points: a ranked, not disqualified entry of a finished race.
COUNTED = Q(rank__isnull=False, disqualified=False)


def standings_query(tournament: Tournament) -> QuerySet[Any]:
    """Per-player totals ranked by the tie-breaks, aggregated and ranked in SQL.

    One dict per player with an entry in a finished race of the tournament, in
    rank order: ``player_id``, ``points_sum`` (points), ``wins_sum`` (won
    counted entries), ``played`` (counted entries), ``dq`` (disqualified
    entries), ``cards_sum`` (cards), ``time_sum`` (ms) and ``place`` (the rank:
    more points, then more wins, then more cards, then less time; equal rows
    share it).
    """
    return (
        RaceEntry.objects.filter(race__tournament=tournament, race__status=Race.Status.FINISHED)
        .values("player_id")
        .annotate(
            points_sum=Coalesce(Sum(entry_points(tournament), filter=COUNTED), Value(0)),
            wins_sum=Count("id", filter=COUNTED & Q(won=True)),
            played=Count("id", filter=COUNTED),
            dq=Count("id", filter=Q(disqualified=True)),
            cards_sum=Coalesce(Sum("cards_home", filter=COUNTED), Value(0)),
            time_sum=Coalesce(Sum("elapsed_ms", filter=COUNTED), Value(0)),
        )
        .annotate(
            place=Window(
                Rank(),
                order_by=[
                    F("points_sum").desc(),
                    F("wins_sum").desc(),
                    F("cards_sum").desc(),
                    F("time_sum").asc(),
                ],
            )
        )
        .order_by("place", "player_id")
    )


def tournament_rescore(
    *, tournament_id: Any, now: datetime | None = None, announce: bool = True
) -> int:
    """Recompute the tournament's standings from race results; returns the row count.

    Idempotent: the rows are replaced in one transaction under the tournament's
    row lock, so concurrent re-scores serialise and the last one wins with the
    same rows.  After the commit the tournament's event stream is told (a
    ``standings`` message), unless ``announce`` is false: finishing or cancelling
    the tournament sends a ``status`` message instead, whose stream event is followed
    by the final standings (``games.services.tournaments.tournament_set_status``).
    Raises :class:`NotFound`.
    """
    now = now or timezone.now()
    with transaction.atomic():
        t = _tournament_locked(tournament_id)
        rows = [
            TournamentStanding(
                tournament=t,
                player_id=r["player_id"],
                rank=r["place"],
                points=r["points_sum"],
                wins=r["wins_sum"],
                races_played=r["played"],
                disqualifications=r["dq"],
                cards_home_total=r["cards_sum"],
                time_ms_total=r["time_sum"],
                computed_at=now,
            )
            for r in standings_query(t)
        ]
        TournamentStanding.objects.filter(tournament=t).delete()
        TournamentStanding.objects.bulk_create(rows)
        t.scored_at = now
        t.save(update_fields=["scored_at"])
        if announce:
            publish_on_commit((tournament_topic(t.id), "standings", {}))  # after commit ([live])
        return len(rows)
