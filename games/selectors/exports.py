"""Organisers' exports: race and tournament standings as CSV tables (README "Tournaments").

One table per export, a header line then one line per row, served by the admin
and by the API (``api.exports``).  The tables hold what the standings already
show, and nothing hidden (RULES.md 7): a race's ``commitment``
(``hex(SHA-256(seed))``) is public from the announcement and is always filled, as
the race and tournament views show it; its ``seed`` is filled only once the race
shows it (finished or cancelled, :meth:`Race.seed_revealed`) and is empty before.
Ranks follow RULES.md 6
(stored ranks of a finished race; live ranks, from the games, before).  Times
are ISO 8601 in UTC; durations in ms.

Cells that a spreadsheet would run as a formula (text starting with ``=``, ``+``,
``-``, ``@``, tab or carriage return, e.g. a player called ``=1+1``) are
prefixed with ``'`` (OWASP "CSV injection").
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from django.db.models import Count, F
from django.utils import timezone

from games.models import Race, RaceEntry, Tournament, TournamentStanding
from games.selectors.races import RESULT_ENTRY_FIELDS, race_standings

#: Columns of a race's standings export.
RACE_COLUMNS = [
    "race_id",
    "race",
    "tournament",
    "phase",
    "rank",
    "player",
    "status",
    "won",
    "cards_home",
    "casino_score",
    "moves",
    "elapsed_ms",
    "disqualified",
    "disqualified_reason",
    "commitment",
    "seed",
]
#: Columns of a tournament's standings export.
TOURNAMENT_COLUMNS = [
    "tournament_id",
    "tournament",
    "rank",
    "player",
    "points",
    "wins",
    "races_played",
    "disqualifications",
    "cards_home_total",
    "time_ms_total",
]
#: Columns of a tournament's races export.
TOURNAMENT_RACE_COLUMNS = [
    "tournament_id",
    "tournament",
    "race_id",
    "race",
    "mode",
    "status",
    "variant",
    "opens_at",
    "starts_at",
    "ends_at",
    "entrants",
    "commitment",
    "seed",
]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A CSV document (RFC 4180, CRLF line ends): the header, then one line per row."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def race_standings_rows(*, race: Race, now: datetime | None = None) -> list[list[Any]]:
    """The race's standings as :data:`RACE_COLUMNS` rows.

    A finished race: the stored result of every entry (disqualified ones
    without a rank).  Any other race: the live standings of
    :func:`games.selectors.races.race_standings`.  The commitment always (published
    before the race, RULES.md 7); the seed once the race shows it (finished or
    cancelled, :meth:`Race.seed_revealed`), empty before (the seed is secret until the
    race is over for everyone, RULES.md 7).
    """
    now = now or timezone.now()
    finished = race.status == Race.Status.FINISHED
    head = [
        str(race.id),
        race.name,
        race.tournament.name if race.tournament_id else "",  # type: ignore[union-attr]
        race.phase(now),
    ]
    tail = [race.commitment, (race.deal.seed or "") if race.seed_revealed() else ""]
    rows: list[list[Any]] = []
    if finished:
        for e in (
            RaceEntry.objects.filter(race=race)
            .select_related("player")
            .only(*RESULT_ENTRY_FIELDS)
            .order_by(F("rank").asc(nulls_last=True), "joined_at", "id")
        ):
            rows.append(
                [
                    *head,
                    e.rank,
                    e.player.get_username(),
                    # As the results API says it (race_results): a disqualified entry's
                    # status is "disqualified", its game's ending left to the game.
                    "disqualified" if e.disqualified else e.status,
                    e.won,
                    e.cards_home,
                    None if e.cards_home is None else 5 * e.cards_home - 52,
                    e.moves,
                    e.elapsed_ms,
                    e.disqualified,
                    e.disqualified_reason,
                    *tail,
                ]
            )
        return rows
    for s in race_standings(race=race, now=now):
        home = s["cards_home"]
        disqualified = s["status"] == "disqualified"
        rows.append(
            [
                *head,
                s["rank"],
                s["player"],
                s["status"],
                home == 52,
                home,
                None if home is None else 5 * home - 52,
                s["moves"],
                s["elapsed_ms"],
                disqualified,
                "",
                *tail,
            ]
        )
    return rows


def race_standings_csv(*, races: Iterable[Race], now: datetime | None = None) -> str:
    """:data:`RACE_COLUMNS` CSV of one or more races, race after race."""
    now = now or timezone.now()
    rows: list[list[Any]] = []
    for race in races:
        rows.extend(race_standings_rows(race=race, now=now))
    return csv_text(RACE_COLUMNS, rows)


def tournament_standings_rows(*, tournament: Tournament) -> list[list[Any]]:
    """The tournament's stored standings as :data:`TOURNAMENT_COLUMNS` rows, by rank."""
    return [
        [
            str(tournament.id),
            tournament.name,
            s.rank,
            s.player.get_username(),
            s.points,
            s.wins,
            s.races_played,
            s.disqualifications,
            s.cards_home_total,
            s.time_ms_total,
        ]
        for s in TournamentStanding.objects.filter(tournament=tournament)
        .select_related("player")
        # Not the players' other columns (password hash, dates...): 10,000 rows each.
        .only(
            "rank",
            "points",
            "wins",
            "races_played",
            "disqualifications",
            "cards_home_total",
            "time_ms_total",
            "player__username",
        )
        .order_by("rank", "player__username", "id")
    ]


def tournament_standings_csv(*, tournaments: Iterable[Tournament]) -> str:
    """:data:`TOURNAMENT_COLUMNS` CSV of one or more tournaments."""
    rows: list[list[Any]] = []
    for t in tournaments:
        rows.extend(tournament_standings_rows(tournament=t))
    return csv_text(TOURNAMENT_COLUMNS, rows)


def tournament_races_csv(*, tournament: Tournament) -> str:
    """:data:`TOURNAMENT_RACE_COLUMNS` CSV: the tournament's races by start, each with
    its commitment (public from the announcement, RULES.md 7) and, once the race is
    finished or cancelled, its seed (as the race and the tournament views show them:
    :meth:`Race.seed_revealed`); the seed cell is empty for the others."""
    rows = []
    for r in (
        tournament.races.select_related("deal")
        .annotate(entry_total=Count("entries"))
        .order_by("starts_at", "name", "id")
    ):
        rows.append(
            [
                str(tournament.id),
                tournament.name,
                str(r.id),
                r.name,
                r.mode,
                r.status,
                r.deal.variant,
                r.opens_at,
                r.starts_at,
                r.ends_at,
                r.entry_total,
                r.commitment,
                (r.deal.seed or "") if r.seed_revealed() else "",
            ]
        )
    return csv_text(TOURNAMENT_RACE_COLUMNS, rows)
