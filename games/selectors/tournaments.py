"""Read selectors for tournaments: list, detail, standings, a player's own results.

A draft tournament is visible to organisers only (``games.permissions``).  Nothing
here shows a seed before its race is finished, nor a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db.models import Count, F, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Race, RaceEntry, Tournament, TournamentEntrant, TournamentStanding
from games.permissions import may_see_drafts
from games.selectors.counts import rows_per_parent
from games.services.errors import MALFORMED_ID, NotFound
from games.services.tournaments import (
    STANDINGS_RULE,
    entry_points,
    scoring_rule,
)


def tournament_list(
    *, viewer: Any = None, status: str | None = None, limit: int | None = None
) -> QuerySet[Tournament]:
    """Tournaments, newest first, each annotated with ``race_count`` and ``entrant_count``
    (which :func:`tournament_public` reads instead of counting); drafts only for
    organisers; optionally one status; the ``limit`` newest when given (a sliced query)."""
    qs = Tournament.objects.annotate(
        race_count=Count("races", distinct=True), entrant_count=_entrant_count()
    )
    if not may_see_drafts(viewer):
        qs = qs.exclude(status=Tournament.Status.DRAFT)
    if status:
        qs = qs.filter(status=status)
    qs = qs.order_by("-created_at")
    return qs if limit is None else qs[:limit]


def _entrant_count() -> Coalesce:
    """The number of a tournament's entrants, as a subquery (a second join beside the
    races' would count races times entrants rows; :func:`rows_per_parent`)."""
    return rows_per_parent(TournamentEntrant, "tournament")


def tournament_get(*, tournament_id: Any, viewer: Any = None) -> Tournament:
    """One tournament the viewer may see; raises :class:`NotFound`."""
    try:
        t = Tournament.objects.get(id=tournament_id)
    except (Tournament.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such tournament") from None
    if t.status == Tournament.Status.DRAFT and not may_see_drafts(viewer):
        raise NotFound("no such tournament")
    return t


def tournament_visible(*, tournament_id: Any, include_drafts: bool = False) -> bool:
    """Whether the tournament exists and may be seen: by anyone (``include_drafts`` false:
    not a draft), or by organisers (``include_drafts`` true).  One query; the live
    tournament streams (``api.streams``) ask it before each event and at each heartbeat."""
    try:
        qs = Tournament.objects.filter(id=tournament_id)
        if not include_drafts:
            qs = qs.exclude(status=Tournament.Status.DRAFT)
        return qs.exists()
    except MALFORMED_ID:
        return False


def race_summary(race: Race, *, now: datetime | None = None) -> dict[str, Any]:
    """A tournament race in a list: times (``cancelled_at``: when a cancelled race was
    cancelled, ``None`` otherwise or when not recorded; ``closed_at``: when it was closed,
    ``None`` before), phase, commitment; the seed once
    finished or cancelled (:meth:`Race.seed_revealed`, as the race itself shows it)."""
    now = now or timezone.now()
    return {
        "id": str(race.id),
        "name": race.name,
        "mode": race.mode,
        "status": race.status,
        "phase": race.phase(now),
        "variant": race.deal.variant,
        "preset": race.deal.preset,
        "opens_at": race.opens_at,
        "starts_at": race.starts_at,
        "ends_at": race.ends_at,
        "cancelled_at": race.cancelled_at,
        "closed_at": race.closed_at,
        "late_join_s": race.late_join_s,
        "join_closes_at": race.join_closes_at,
        "commitment": race.commitment,
        "seed": race.deal.seed if race.seed_revealed() else None,
    }


def tournament_race_summaries(
    *, tournament_id: Any, race_ids: list[Any], now: datetime | None = None
) -> list[dict[str, Any]]:
    """:func:`race_summary` of each race of ``race_ids`` that is still the tournament's
    (one moved on since is another's, maybe a draft's: left out), by start then name.
    One query.  The tournament stream's ``race_added`` event (``api.streams``)."""
    races = Race.objects.select_related("deal").filter(id__in=race_ids, tournament_id=tournament_id)
    return [race_summary(r, now=now) for r in races.order_by("starts_at", "name")]


def tournament_public(
    t: Tournament, *, viewer: Any = None, with_races: bool = False
) -> dict[str, Any]:
    """The tournament as anyone may see it, with its scheme and tie-break rule in words."""
    return _tournament_public(
        t, admitted=t.id in _admitted_to(tournaments=[t], viewer=viewer), with_races=with_races
    )


def tournaments_public(
    tournaments: Sequence[Tournament], *, viewer: Any = None
) -> list[dict[str, Any]]:
    """:func:`tournament_public` of each of ``tournaments`` (in their order, without
    races), the viewer's admissions to all of them read in one query (none for an
    anonymous viewer); with :func:`tournament_list`'s counts, a page of tournaments is a
    fixed number of queries, not two or three per tournament."""
    admitted = _admitted_to(tournaments=tournaments, viewer=viewer)
    return [_tournament_public(t, admitted=t.id in admitted, with_races=False) for t in tournaments]


def _admitted_to(*, tournaments: Sequence[Tournament], viewer: Any) -> set[Any]:
    """The ids of those of ``tournaments`` ``viewer`` is admitted to (one query; none, and
    empty, for an anonymous viewer)."""
    if viewer is None or not getattr(viewer, "is_authenticated", False) or not tournaments:
        return set()
    return set(
        TournamentEntrant.objects.filter(
            tournament_id__in=[t.id for t in tournaments], player=viewer
        ).values_list("tournament_id", flat=True)
    )


def _tournament_public(t: Tournament, *, admitted: bool, with_races: bool) -> dict[str, Any]:
    """:func:`tournament_public` with the viewer's admission at hand."""
    race_count = getattr(t, "race_count", None)
    if race_count is None:
        race_count = t.races.count()
    entrants = getattr(t, "entrant_count", None)
    if entrants is None:
        entrants = t.entrants.count()
    out: dict[str, Any] = {
        "id": str(t.id),
        "name": t.name,
        "description": t.description,
        "status": t.status,
        "scoring": t.scoring,
        "points_table": t.points_table,
        "points_per_card": t.points_per_card,
        "win_bonus": t.win_bonus,
        "scoring_rule": scoring_rule(t),
        "standings_rule": STANDINGS_RULE,
        "entry": t.entry,
        "max_entrants": t.max_entrants,
        "entrants": entrants,
        "admitted": admitted,
        "race_count": race_count,
        "created_at": t.created_at,
        "scored_at": t.scored_at,
    }
    if with_races:
        now = timezone.now()
        out["races"] = [
            race_summary(r, now=now)
            for r in t.races.select_related("deal").order_by("starts_at", "name")
        ]
    return out


def tournament_standings(
    *, tournament: Tournament, limit: int | None = None
) -> QuerySet[TournamentStanding]:
    """The stored standings, by rank then player (paginate this), the first ``limit``
    when given (a sliced query)."""
    qs = TournamentStanding.objects.filter(tournament=tournament).select_related("player")
    return qs if limit is None else qs[:limit]


def standing_row(s: TournamentStanding) -> dict[str, Any]:
    """One standings line: ``rank``, ``player`` (username), ``points``, ``wins``,
    ``races_played``, ``disqualifications``, ``cards_home_total`` (cards) and
    ``time_ms_total`` (ms, the last tie-break); the four keys of the standings order
    (:data:`games.services.tournaments.STANDINGS_RULE`) are all shown.  Stored rows count
    finished races only (:func:`games.services.standings.standings_query`), so no running
    race's time is in them."""
    return {
        "rank": s.rank,
        "player": s.player.get_username(),
        "points": s.points,
        "wins": s.wins,
        "races_played": s.races_played,
        "disqualifications": s.disqualifications,
        "cards_home_total": s.cards_home_total,
        "time_ms_total": s.time_ms_total,
    }


def tournament_player_results(
    *, tournament: Tournament, player: Any, now: datetime | None = None
) -> dict[str, Any]:
    """The player's standing and their entry in each tournament race.

    Each race line also has the race's ``phase`` by the clock at ``now`` (default: the
    current time): ``upcoming``, ``open``, ``running``, ``closing``, ``finished`` or
    ``cancelled`` (the web page's Status says it while the player has no game status).

    Each race line has the race rank and the points earned (``null`` until the
    race is finished), and, when disqualified, the organisers' reason.
    """
    standing = (
        TournamentStanding.objects.filter(tournament=tournament, player=player)
        .select_related("player")
        .first()
    )
    entries = (
        RaceEntry.objects.filter(race__tournament=tournament, player=player)
        .select_related("race")
        .annotate(points=entry_points(tournament))
        .order_by(F("race__starts_at").asc(), "race__name")
    )
    now = now or timezone.now()
    races = []
    for e in entries:
        finished = e.race.status == Race.Status.FINISHED
        counted = finished and e.rank is not None and not e.disqualified
        races.append(
            {
                "race": str(e.race_id),
                "name": e.race.name,
                "race_status": e.race.status,
                "phase": e.race.phase(now),
                "starts_at": e.race.starts_at,
                "status": ("disqualified" if e.disqualified else e.status) or None,
                "rank": e.rank if finished else None,
                "points": e.points if counted else (0 if finished else None),
                "counted": counted,
                "won": e.won if finished else None,
                "cards_home": e.cards_home if finished else None,
                "elapsed_ms": e.elapsed_ms if finished else None,
                "disqualified": e.disqualified,
                "disqualified_reason": e.disqualified_reason or None,
            }
        )
    return {
        "tournament": str(tournament.id),
        "player": player.get_username(),
        "admitted": TournamentEntrant.objects.filter(tournament=tournament, player=player).exists(),
        "standing": standing_row(standing) if standing is not None else None,
        "standings_rule": STANDINGS_RULE,
        "scoring_rule": scoring_rule(tournament),
        "races": races,
    }
