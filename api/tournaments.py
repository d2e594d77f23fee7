"""Tournament endpoints: list, detail, standings, your results; organisers: create, add races,
re-score.

Scoring schemes and tie-breaks are documented in ``games.services.tournaments``
and served in words (``scoring_rule``, ``standings_rule``) with every tournament.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.accounts import player_of
from api.errors import ProblemError, ProblemSerializer
from api.pagination import CURSOR_PARAMETERS, NOT_PAGINATED, SafeCursorPagination
from api.permissions import IsOrganiser
from api.query import ApiView, accepts_query
from api.serializers import (
    NO_INPUT_400,
    RACE_SEED_HELP,
    NoInput,
    OptionOverridesField,
    StrictBooleanField,
    StrictCharField,
    StrictDateTimeField,
    StrictIntegerField,
    StrictSerializer,
    paginated,
)
from games.engine import PRESETS
from games.models import Race, Tournament
from games.permissions import OrganiserAction
from games.selectors.races import RACE_PHASES
from games.selectors.tournaments import (
    race_summary,
    standing_row,
    tournament_get,
    tournament_list,
    tournament_player_results,
    tournament_public,
    tournament_standings,
    tournaments_public,
)
from games.services import tournaments as tournament_services
from games.services.races import MAX_RACE_SECONDS

# ------------------------------------------------------------------ shapes


class TournamentRaceView(serializers.Serializer[Any]):
    """A race of the tournament; ``seed`` is null until the race is finished or cancelled."""

    id = serializers.UUIDField()
    name = serializers.CharField()
    mode = serializers.ChoiceField(choices=Race.Mode.choices)
    status = serializers.ChoiceField(
        choices=Race.Status.choices, help_text="scheduled, closing, finished or cancelled"
    )
    phase = serializers.ChoiceField(
        choices=list(RACE_PHASES), help_text="by the server clock (see the race endpoints)"
    )
    variant = serializers.CharField()
    preset = serializers.CharField(help_text="the preset the rules were built from (see the race)")
    opens_at = serializers.DateTimeField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(
        help_text="when the race was to end; a cancelled race did not end then: see cancelled_at"
    )
    cancelled_at = serializers.DateTimeField(
        allow_null=True,
        help_text="when the organisers cancelled the race (as the race's own view); null for "
        "a race not cancelled, and for one cancelled before this time was recorded",
    )
    closed_at = serializers.DateTimeField(
        allow_null=True,
        help_text="when the race was closed: at ends_at, or earlier once it was over for "
        "every player (as the race's own view); null before, and for a cancelled race that "
        "was never closed",
    )
    late_join_s = serializers.IntegerField(
        allow_null=True,
        help_text="seconds after starts_at that joining stays open (0: closes at the start; "
        "null: until ends_at)",
    )
    join_closes_at = serializers.DateTimeField(
        help_text="when joining closes: starts_at + late_join_s, at most ends_at (UTC)"
    )
    commitment = serializers.CharField(help_text="hex(SHA-256(seed)), public from the start")
    seed = serializers.CharField(allow_null=True, help_text=RACE_SEED_HELP)


class TournamentView(serializers.Serializer[Any]):
    """A tournament with its scoring scheme and tie-break rule in words."""

    id = serializers.UUIDField()
    name = serializers.CharField()
    description = serializers.CharField()
    status = serializers.ChoiceField(
        choices=Tournament.Status.choices,
        help_text="draft (organisers only), open, finished or cancelled",
    )
    scoring = serializers.ChoiceField(choices=Tournament.Scoring.choices)
    points_table = serializers.ListField(
        child=serializers.IntegerField(), help_text="place_points: points of rank 1, 2, ..."
    )
    points_per_card = serializers.IntegerField(help_text="cards_home: points per card home")
    win_bonus = serializers.IntegerField(help_text="cards_home: extra points for a win")
    scoring_rule = serializers.CharField()
    standings_rule = serializers.CharField()
    entry = serializers.ChoiceField(choices=Tournament.Entry.choices)
    max_entrants = serializers.IntegerField(allow_null=True)
    entrants = serializers.IntegerField(help_text="players admitted")
    admitted = serializers.BooleanField(help_text="whether you are admitted")
    race_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    scored_at = serializers.DateTimeField(allow_null=True, help_text="standings last computed")


class TournamentDetailView(TournamentView):
    """A tournament and its races."""

    races = TournamentRaceView(many=True)


class StandingView(serializers.Serializer[Any]):
    """One standings line (see ``standings_rule`` for the order)."""

    rank = serializers.IntegerField(help_text="shared by exact ties")
    player = serializers.CharField()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    races_played = serializers.IntegerField(help_text="ranked, not disqualified entries")
    disqualifications = serializers.IntegerField()
    cards_home_total = serializers.IntegerField(
        help_text="cards home, summed over the counted entries (the third tie-break)"
    )
    time_ms_total = serializers.IntegerField(
        help_text="total time in milliseconds: the race ranking times of the counted entries "
        "(each the win time, or when the player reached their final count), summed; the last "
        "tie-break, less first (see standings_rule). Finished races only, whose times their "
        "results already show"
    )


class MyRaceView(serializers.Serializer[Any]):
    """Your entry in one tournament race; result fields are null until it is finished."""

    race = serializers.UUIDField()
    name = serializers.CharField()
    race_status = serializers.ChoiceField(
        choices=Race.Status.choices, help_text="scheduled, closing, finished or cancelled"
    )
    phase = serializers.ChoiceField(
        choices=list(RACE_PHASES),
        help_text="by the clock: upcoming, open, running, closing, finished or cancelled",
    )
    starts_at = serializers.DateTimeField()
    status = serializers.CharField(
        allow_null=True, help_text="final game status, did_not_start or disqualified"
    )
    rank = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    counted = serializers.BooleanField(help_text="whether the entry earns points")
    won = serializers.BooleanField(allow_null=True)
    cards_home = serializers.IntegerField(allow_null=True)
    elapsed_ms = serializers.IntegerField(allow_null=True)
    disqualified = serializers.BooleanField()
    disqualified_reason = serializers.CharField(
        allow_null=True, help_text="the organisers' reason, when disqualified"
    )


class MyResultsView(serializers.Serializer[Any]):
    """Your standing and your entry in each race of the tournament."""

    tournament = serializers.UUIDField()
    player = serializers.CharField()
    admitted = serializers.BooleanField()
    standing = StandingView(allow_null=True)
    scoring_rule = serializers.CharField()
    standings_rule = serializers.CharField()
    races = MyRaceView(many=True)


class TournamentCreateInput(StrictSerializer):
    """Organisers: a new tournament (``draft`` is visible to organisers only)."""

    name = StrictCharField(max_length=120)
    description = StrictCharField(required=False, default="", allow_blank=True, max_length=5000)
    status = StrictCharField(
        required=False,
        default=Tournament.Status.OPEN,
        help_text="open (default) or draft (visible to organisers only)",
    )
    scoring = serializers.ChoiceField(
        choices=Tournament.Scoring.choices, default=Tournament.Scoring.PLACE_POINTS
    )
    points_table = serializers.ListField(
        child=StrictIntegerField(min_value=0),
        required=False,
        max_length=100,
        help_text="place_points; default 10, 8, 6, 5, 4, 3, 2, 1; never increasing",
    )
    points_per_card = StrictIntegerField(required=False, default=1, min_value=0)
    win_bonus = StrictIntegerField(required=False, default=20, min_value=0)
    entry = serializers.ChoiceField(choices=Tournament.Entry.choices, default=Tournament.Entry.OPEN)
    max_entrants = StrictIntegerField(required=False, allow_null=True, min_value=1)


class RacesAddInput(StrictSerializer):
    """Staff: ``count`` races, back to back with ``gap_s`` between them, fresh seeds each."""

    count = StrictIntegerField(min_value=1, max_value=tournament_services.MAX_RACES_PER_BATCH)
    first_starts_at = StrictDateTimeField()
    duration_s = StrictIntegerField(
        min_value=1, max_value=MAX_RACE_SECONDS, help_text="each race's length in seconds"
    )
    gap_s = StrictIntegerField(required=False, default=0, min_value=0, max_value=MAX_RACE_SECONDS)
    opens_before_s = StrictIntegerField(
        required=False,
        default=600,
        min_value=0,
        max_value=MAX_RACE_SECONDS,
        help_text="joining opens this long before",
    )
    mode = serializers.ChoiceField(choices=Race.Mode.choices, default=Race.Mode.SCHEDULED)
    time_limit_s = StrictIntegerField(required=False, min_value=1, help_text="window mode")
    variant = StrictCharField(
        default="classic",
        max_length=32,
        help_text="A preset: " + ", ".join(PRESETS) + " (unknown: 400 invalid_options).",
    )
    options = OptionOverridesField(required=False)
    allow_undo = StrictBooleanField(default=False)
    require_winnable = StrictBooleanField(default=False)
    late_join_s = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MAX_RACE_SECONDS,
        help_text="seconds after starts_at that joining stays open; default 0 for a "
        "scheduled race (joining closes at the start), null (until ends_at) for a window race. "
        "A join after that is 409 race_not_open.",
    )
    name_prefix = StrictCharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=100,
        help_text="the races are named '<prefix> #N', N counting the tournament's races "
        "(default prefix: the tournament's name)",
    )


class RacesAddedView(serializers.Serializer[Any]):
    """The races added."""

    tournament = serializers.UUIDField()
    races = TournamentRaceView(many=True)


class RescoredView(serializers.Serializer[Any]):
    """How many standings rows the re-score wrote."""

    tournament = serializers.UUIDField()
    rows = serializers.IntegerField()


class TournamentPagination(SafeCursorPagination):
    """Tournaments, newest first."""

    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class StandingsPagination(SafeCursorPagination):
    """Standings by rank (ties by player id); ``?page_size=`` up to 500 (default 100)."""

    ordering = ("rank", "player_id", "id")
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


_PROBLEMS = {401: ProblemSerializer, 404: ProblemSerializer, 429: ProblemSerializer}
_STAFF_PROBLEMS = {**_PROBLEMS, 403: ProblemSerializer}


# ------------------------------------------------------------------ views


#: The 400 of the operations that take tournament parameters (OpenAPI).
_INVALID_TOURNAMENT = (
    "invalid_tournament: bad tournament parameters (scoring, points table, entry rules, "
    "race schedule)"
)


class TournamentsView(ApiView):
    """``GET /api/v1/tournaments``: tournaments; ``POST`` (organisers): create one."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [IsOrganiser(OrganiserAction.CREATE_TOURNAMENT)]
        return [AllowAny()]

    @extend_schema(
        responses={
            200: paginated(TournamentView, "PaginatedTournamentList"),
            400: ProblemSerializer,
        },
        operation_id="tournaments_list",
        tags=["tournaments"],
        auth=[],
        description="Newest first, cursor-paginated; drafts are listed for organisers only. "
        "Errors: 400 `invalid_filter`.",
    )
    @accepts_query(
        OpenApiParameter("status", str, enum=list(Tournament.Status.values)), *CURSOR_PARAMETERS
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in Tournament.Status.values:
            raise ProblemError("invalid_filter", f"unknown status {wanted!r}", status=400)
        paginator = TournamentPagination()
        page = paginator.paginate_queryset(
            tournament_list(viewer=request.user, status=wanted), request, view=self
        )
        return paginator.get_paginated_response(tournaments_public(page or [], viewer=request.user))

    @extend_schema(
        request=TournamentCreateInput,
        responses={
            201: TournamentView,
            400: OpenApiResponse(ProblemSerializer, description=_INVALID_TOURNAMENT),
            **_STAFF_PROBLEMS,
        },
        tags=["tournaments"],
        description="Organisers only (`games.add_tournament`; `is_staff` alone is not enough). "
        "Errors: 400 `invalid_tournament`, `validation_error`.",
    )
    def post(self, request: Request) -> Response:
        data = TournamentCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        t = tournament_services.tournament_create(
            created_by=player_of(request), **data.validated_data
        )
        return Response(tournament_public(t, viewer=request.user), status=status.HTTP_201_CREATED)


class TournamentDetailAPIView(ApiView):
    """``GET /api/v1/tournaments/{id}``: one tournament and its races."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: TournamentDetailView, **_PROBLEMS}, tags=["tournaments"], auth=[]
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        t = tournament_get(tournament_id=tournament_id, viewer=request.user)
        return Response(tournament_public(t, viewer=request.user, with_races=True))


class TournamentStandingsView(ApiView):
    """``GET /api/v1/tournaments/{id}/standings``: the standings, by rank, cursor-paginated."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: paginated(StandingView, "PaginatedStandingList"), **_PROBLEMS},
        operation_id="tournaments_standings_list",
        tags=["tournaments"],
        auth=[],
    )
    @accepts_query(*CURSOR_PARAMETERS)
    def get(self, request: Request, tournament_id: UUID) -> Response:
        t = tournament_get(tournament_id=tournament_id, viewer=request.user)
        paginator = StandingsPagination()
        page = paginator.paginate_queryset(tournament_standings(tournament=t), request, view=self)
        return paginator.get_paginated_response([standing_row(s) for s in page or []])


class TournamentMeView(ApiView):
    """``GET /api/v1/tournaments/{id}/me``: your standing and your result in each race,
    with the organisers' reason for any disqualification.  In one response (not
    paginated: 400 ``not_paginated`` for ``?cursor=`` or ``?page_size=``)."""

    permission_classes = [IsAuthenticated]
    whole_list = True

    @extend_schema(
        description="Your standing and your result in each race, in one response. Not "
        "paginated: `cursor` and `page_size` are refused (400 `not_paginated`), not ignored.",
        responses={
            200: MyResultsView,
            400: OpenApiResponse(ProblemSerializer, description=NOT_PAGINATED),
            **_PROBLEMS,
        },
        tags=["tournaments"],
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        t = tournament_get(tournament_id=tournament_id, viewer=request.user)
        return Response(tournament_player_results(tournament=t, player=player_of(request)))


class TournamentRacesView(ApiView):
    """``POST /api/v1/tournaments/{id}/races`` (organisers): add scheduled races."""

    def get_permissions(self) -> list[Any]:
        return [IsOrganiser(OrganiserAction.ADD_TOURNAMENT_RACES)]

    @extend_schema(
        request=RacesAddInput,
        responses={
            201: RacesAddedView,
            400: OpenApiResponse(
                ProblemSerializer,
                description=f"{_INVALID_TOURNAMENT}, invalid_race (bad race times), "
                "invalid_options (unknown variant or option, a bad option value)",
            ),
            409: OpenApiResponse(ProblemSerializer, description="tournament_not_open"),
            422: OpenApiResponse(ProblemSerializer, description="no_winnable_deal_found"),
            503: OpenApiResponse(
                ProblemSerializer,
                description="no_winnable_deal: `require_winnable` and the rules' pool (the "
                "races' reserve, then the players' pool) holds fewer proven-winnable deals than "
                "the races need; none was added, a refill is queued: retry after "
                "`Retry-After` seconds",
            ),
            **_STAFF_PROBLEMS,
        },
        tags=["tournaments"],
        description="Organisers only (`games.change_tournament` and `games.add_race`). "
        "Race n starts at first_starts_at + (n-1)·(duration_s + "
        "gap_s); each gets a fresh secret seed and its public commitment. With "
        "`require_winnable` each race takes one deal from the races' reserve of "
        "proven-winnable deals of its rules (practice games never draw from it; once it is "
        "empty, from the players' pool; the solver never runs in this request): at most "
        "`WINNABLE_RACE_RESERVE` races per call (more: 400 `invalid_tournament`), and a pool "
        "holding fewer than the races need adds none: 503 `no_winnable_deal` with "
        "`Retry-After`, and a refill is queued. Errors: 400 "
        "`invalid_tournament`, `invalid_race`, `invalid_options`; 409 `tournament_not_open`; "
        "422 `no_winnable_deal_found`.",
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        """Add ``count`` scheduled races to the tournament, all or none (one transaction).

        Body: ``RacesAddInput`` (``count`` 1 to ``MAX_RACES_PER_BATCH``;
        ``first_starts_at`` ISO 8601; ``duration_s``, ``gap_s``, ``opens_before_s``,
        ``time_limit_s``, ``late_join_s`` in seconds; ``mode``, ``variant``,
        ``options``, ``allow_undo``, ``require_winnable``, ``name_prefix``).  Race n
        starts at ``first_starts_at + (n-1) * (duration_s + gap_s)``; each gets a fresh
        secret seed and only its commitment is shown (RULES.md 7)
        (:func:`games.services.tournaments.tournament_races_add`).  Answers 201
        ``{"tournament": id, "races": [race summary, ...]}``
        (:func:`games.selectors.tournaments.race_summary`, no seed).

        Errors (problem+json): 400 ``malformed_request``, ``unknown_field``,
        ``validation_error``, ``invalid_tournament`` (bad schedule, too many
        ``require_winnable`` races for one call), ``invalid_race``, ``invalid_options``;
        401 ``not_authenticated``; 403 ``permission_denied`` (not an organiser: needs
        ``games.change_tournament`` and ``games.add_race``); 404 ``not_found`` (no such
        tournament, or a draft the caller may not see); 409 ``tournament_not_open``; 422
        ``no_winnable_deal_found``; 429 ``throttled``; 503 ``no_winnable_deal`` with
        ``Retry-After`` (seconds; a refill is queued, nothing was added).
        """
        data = RacesAddInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        t = tournament_get(tournament_id=tournament_id, viewer=request.user)
        races = tournament_services.tournament_races_add(
            tournament_id=t.id,
            schedule=tournament_services.RaceSchedule(
                count=v["count"],
                first_starts_at=v["first_starts_at"],
                duration=timedelta(seconds=v["duration_s"]),
                gap=timedelta(seconds=v["gap_s"]),
                opens_before=timedelta(seconds=v["opens_before_s"]),
            ),
            variant=v["variant"],
            options=v.get("options"),
            mode=v["mode"],
            time_limit_s=v.get("time_limit_s"),
            allow_undo=v["allow_undo"],
            require_winnable=v["require_winnable"],
            **({"late_join_s": v["late_join_s"]} if "late_join_s" in v else {}),
            name_prefix=v["name_prefix"],
            created_by=player_of(request),
        )
        return Response(
            {"tournament": str(t.id), "races": [race_summary(r) for r in races]},
            status=status.HTTP_201_CREATED,
        )


class TournamentRescoreView(ApiView):
    """``POST /api/v1/tournaments/{id}/rescore`` (organisers): recompute the standings."""

    def get_permissions(self) -> list[Any]:
        return [IsOrganiser(OrganiserAction.RESCORE_TOURNAMENT)]

    @extend_schema(
        request=NoInput,
        responses={200: RescoredView, 400: NO_INPUT_400, **_STAFF_PROBLEMS},
        tags=["tournaments"],
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        NoInput(data=request.data).is_valid(raise_exception=True)
        t = tournament_get(tournament_id=tournament_id, viewer=request.user)
        rows = tournament_services.tournament_rescore(tournament_id=t.id)
        return Response({"tournament": str(t.id), "rows": rows})
