"""CSV exports of standings (organisers' downloads, public like the standings themselves).

``GET /api/v1/races/{id}/standings.csv``, ``GET /api/v1/tournaments/{id}/standings.csv``
and ``GET /api/v1/tournaments/{id}/races.csv`` answer ``text/csv`` (UTF-8, a header
line, CRLF line ends); the tables are built by ``games.selectors.exports``.  A race's
commitment is always filled (published before the race); its seed only once it is
finished or cancelled (RULES.md 7).  Errors are
problem+json as everywhere under ``/api/v1/``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ProblemSerializer
from api.query import ApiView
from games.permissions import may_see_drafts
from games.selectors.exports import (
    RACE_COLUMNS,
    TOURNAMENT_COLUMNS,
    TOURNAMENT_RACE_COLUMNS,
    race_standings_csv,
    tournament_races_csv,
    tournament_standings_csv,
)
from games.selectors.races import race_get
from games.selectors.tournaments import tournament_get


class CSVRenderer(BaseRenderer):
    """Renders a CSV document given as text; any other body (a problem document) as JSON
    (its ``Content-Type`` is set by the error handler)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if isinstance(data, str):
            return data.encode(self.charset)
        return json.dumps(data).encode(self.charset)


def _csv(text: str, filename: str) -> Response:
    return Response(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


_PROBLEMS = {404: ProblemSerializer, 429: ProblemSerializer}


def _csv_response(columns: list[str]) -> dict[Any, Any]:
    return {
        (200, "text/csv"): OpenApiResponse(
            OpenApiTypes.STR, description="CSV with the header line: " + ", ".join(columns)
        ),
        **_PROBLEMS,
    }


class RaceStandingsCSVView(ApiView):
    """``GET /api/v1/races/{id}/standings.csv``: the race's standings as CSV."""

    permission_classes = [AllowAny]
    renderer_classes = [CSVRenderer]
    # Every row, public: counted in the ``games`` throttle as the results are.
    throttle_scope = "games"

    @extend_schema(
        responses=_csv_response(RACE_COLUMNS),
        tags=["races"],
        auth=[],
        operation_id="races_standings_csv",
        description="The standings as a CSV download: live ranks while the race runs, the "
        "stored result once it is finished. `commitment` is always filled (published before "
        "the race); `seed` only once the race is finished or cancelled (empty before: the "
        "seed is secret until the race is over for everyone, RULES.md 7). Times in ms; text "
        "cells a spreadsheet would evaluate start with `'`. Counted in the `games` throttle.",
    )
    def get(self, request: Request, race_id: UUID) -> Response:
        race = race_get(race_id=race_id, include_drafts=may_see_drafts(request.user))
        return _csv(race_standings_csv(races=[race]), f"race-{race.id}-standings.csv")


class TournamentStandingsCSVView(ApiView):
    """``GET /api/v1/tournaments/{id}/standings.csv``: the tournament's standings as CSV."""

    permission_classes = [AllowAny]
    renderer_classes = [CSVRenderer]
    # Every row, public: counted in the ``games`` throttle as the results are.
    throttle_scope = "games"

    @extend_schema(
        responses=_csv_response(TOURNAMENT_COLUMNS),
        tags=["tournaments"],
        auth=[],
        operation_id="tournaments_standings_csv",
        description="Every standings row (not paginated), by rank, as a CSV download. "
        "Counted in the `games` throttle.",
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        t = tournament_get(tournament_id=tournament_id, viewer=request.user)
        return _csv(tournament_standings_csv(tournaments=[t]), f"tournament-{t.id}-standings.csv")


class TournamentRacesCSVView(ApiView):
    """``GET /api/v1/tournaments/{id}/races.csv``: the tournament's races as CSV."""

    permission_classes = [AllowAny]
    renderer_classes = [CSVRenderer]

    @extend_schema(
        responses=_csv_response(TOURNAMENT_RACE_COLUMNS),
        tags=["tournaments"],
        auth=[],
        operation_id="tournaments_races_csv",
        description="The tournament's races by start time, as a CSV download, with the "
        "`commitment` of each race and the `seed` of each finished or cancelled race (empty "
        "for the others, RULES.md 7).",
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        t = tournament_get(tournament_id=tournament_id, viewer=request.user)
        return _csv(tournament_races_csv(tournament=t), f"tournament-{t.id}-races.csv")
