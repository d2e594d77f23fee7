"""Race endpoints: list, detail, create (organisers), join, start, standings, results.

Nothing here shows a card or a running race's seed: standings carry counts only;
results (seed, deck, every move list) are served once the race is finished.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.accounts import player_of
from api.errors import ProblemError, ProblemSerializer
from api.pagination import (
    CURSOR_PARAMETERS,
    NOT_PAGINATED,
    SafeCursorPagination,
)
from api.parsers import capped_decimal
from api.permissions import IsOrganiser
from api.query import ApiView, accepts_query
from api.ratings import RaceRatingView, RatingChangeView
from api.serializers import (
    MAX_INPUT_INT,
    NO_INPUT_400,
    RACE_SEED_HELP,
    GameView,
    NoInput,
    OptionOverridesField,
    OptionsField,
    StrictBooleanField,
    StrictCharField,
    StrictDateTimeField,
    StrictIntegerField,
    StrictSerializer,
    paginated,
)
from games.engine import PRESETS
from games.models import Race
from games.permissions import OrganiserAction, may_see_drafts
from games.ranking import RANKING_RULE
from games.selectors.games import SEEN_GAME_STATUSES, game_view
from games.selectors.races import (
    RACE_PHASES,
    STANDING_STATUSES,
    race_get,
    race_list,
    race_public,
    race_results,
    race_standings_view,
    races_public,
)
from games.services import races as race_services
from games.services.races import MAX_RACE_SECONDS

#: The OpenAPI text of ``ranking_rule`` (RULES.md 6).
RANKING_HELP = f"The race ranking rule (RULES.md 6): {RANKING_RULE}"


class RaceView(serializers.Serializer[Any]):
    """A race as anyone sees it; ``seed`` is null until the race is finished or cancelled."""

    id = serializers.UUIDField()
    name = serializers.CharField()
    mode = serializers.ChoiceField(choices=Race.Mode.choices)
    status = serializers.ChoiceField(
        choices=Race.Status.choices,
        help_text="stored lifecycle: scheduled until closed, then closing, finished "
        "(or cancelled); see phase for where the race is by the clock",
    )
    phase = serializers.ChoiceField(
        choices=list(RACE_PHASES),
        help_text="by the server clock: upcoming (joining not open), open (joining, not "
        "started), running, closing (over, being scored), finished, cancelled",
    )
    variant = serializers.CharField(
        help_text="the preset the rules equal exactly, or 'custom' (see preset)"
    )
    preset = serializers.CharField(
        help_text="the preset the rules were built from, the options overriding it "
        "(RULES.md 4): variant 'custom' with preset 'classic' is classic with changes "
        "(see options); equal to variant when the rules are exactly a preset's; 'custom' "
        "for a deal stored before presets were recorded whose options are no preset's"
    )
    options = OptionsField()
    time_limit_s = serializers.IntegerField(help_text="seconds each entrant may play")
    opens_at = serializers.DateTimeField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(
        help_text="when the race was to end (no move is accepted from then on); a cancelled "
        "race did not end then: see cancelled_at"
    )
    cancelled_at = serializers.DateTimeField(
        allow_null=True,
        help_text="when the organisers cancelled the race (its games still playing ended "
        "then); null for a race not cancelled, and for one cancelled before this time was "
        "recorded",
    )
    closed_at = serializers.DateTimeField(
        allow_null=True,
        help_text="when the race was closed: at ends_at, or earlier once it was over for "
        "every player (joining closed and every entrant's game over); null before, and for "
        "a cancelled race that was never closed",
    )
    allow_undo = serializers.BooleanField()
    late_join_s = serializers.IntegerField(
        allow_null=True,
        help_text="seconds after starts_at that joining stays open (0: closes at the start; "
        "null: until ends_at)",
    )
    join_closes_at = serializers.DateTimeField(
        help_text="when joining closes: starts_at + late_join_s, at most ends_at (UTC)"
    )
    joining_open = serializers.BooleanField(help_text="whether a new entrant may join now")
    require_winnable = serializers.BooleanField()
    commitment = serializers.CharField(help_text="hex(SHA-256(seed)), public from the start")
    seed = serializers.CharField(
        allow_null=True,
        help_text=RACE_SEED_HELP,
    )
    entrants = serializers.IntegerField()
    joined = serializers.BooleanField(help_text="whether you have joined")
    game_id = serializers.UUIDField(allow_null=True, help_text="your game in this race")
    game_status = serializers.ChoiceField(
        choices=SEEN_GAME_STATUSES,
        allow_null=True,
        help_text="your game's status: not_started before the race starts (nothing of the "
        "deal shows), then playing until it is won, blocked, resigned or timed out (at your "
        "own deadline); null while you have no game",
    )
    disqualified_reason = serializers.CharField(
        allow_null=True,
        help_text="the organisers' reason when they disqualified your entry (your game then "
        "takes no moves: 403 disqualified); null otherwise",
    )
    ranking_rule = serializers.CharField(help_text=RANKING_HELP)
    rated = serializers.BooleanField(help_text="counts for player ratings (organisers' switch)")


class RaceCreateInput(StrictSerializer):
    """Organisers: announce a race on a fresh secret seed."""

    name = StrictCharField(max_length=120)
    mode = serializers.ChoiceField(choices=Race.Mode.choices, default=Race.Mode.SCHEDULED)
    variant = StrictCharField(
        default="classic",
        max_length=32,
        help_text="A preset: " + ", ".join(PRESETS) + " (unknown: 400 invalid_options).",
    )
    options = OptionOverridesField(required=False)
    opens_at = StrictDateTimeField(
        required=False, help_text="joining opens; default: now, or starts_at if earlier"
    )
    starts_at = StrictDateTimeField()
    ends_at = StrictDateTimeField()
    time_limit_s = StrictIntegerField(
        required=False,
        min_value=1,
        help_text="window mode: seconds each entrant may play (required). A scheduled race "
        "lasts from starts_at to ends_at: leave it out (any other value than that span is "
        "400 validation_error on time_limit_s)",
    )
    allow_undo = StrictBooleanField(default=False)
    require_winnable = StrictBooleanField(
        default=False,
        help_text="take a deal proven winnable from the reserve the solver queue keeps ready for "
        "races of these rules (practice games never draw from it; once it is empty, from the "
        "players' pool); both empty is 503 no_winnable_deal with Retry-After (no race created)",
    )
    rated = StrictBooleanField(default=True, help_text="false: the race never counts for ratings")
    late_join_s = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MAX_RACE_SECONDS,
        help_text="seconds after starts_at that joining stays open; default 0 for a "
        "scheduled race (joining closes at the start), null (until ends_at) for a window race. "
        "A join after that is 409 race_not_open.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A scheduled race's time limit is its span: another one is refused, not ignored."""
        limit = attrs.get("time_limit_s")
        if attrs.get("mode", Race.Mode.SCHEDULED) == Race.Mode.SCHEDULED and limit is not None:
            span = int((attrs["ends_at"] - attrs["starts_at"]).total_seconds())
            if limit != span:
                raise serializers.ValidationError(
                    {
                        "time_limit_s": [
                            f"A scheduled race lasts from starts_at to ends_at ({span} s) for "
                            "every entrant: leave time_limit_s out (or use mode window for a "
                            "time limit per entrant)."
                        ]
                    }
                )
        return attrs


class JoinView(serializers.Serializer[Any]):
    """Your entry: whether this call created it, and your game once it exists."""

    race = serializers.UUIDField()
    joined = serializers.BooleanField(help_text="always true: you are entered")
    created = serializers.BooleanField(
        help_text="true when this call entered you (201), false when you already were (200)"
    )
    game_id = serializers.UUIDField(
        allow_null=True,
        help_text="your game: a scheduled race deals it at the join; a window race at your "
        "POST /races/{id}/start (null until then)",
    )
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()


class StandingRow(serializers.Serializer[Any]):
    """One line of the standings: counts only, never a card."""

    rank = serializers.IntegerField(
        allow_null=True,
        help_text="1 = best; tied players share a rank (1, 2, 2, 4); null: disqualified, or "
        "a window race's entrant who never started (in a scheduled race every entrant not "
        "disqualified is ranked). Moves never break a tie (RULES.md 6).",
    )
    player = serializers.CharField()
    cards_home = serializers.IntegerField(
        allow_null=True,
        help_text="cards on the foundations (RULES.md 6); null for a line with no counts: "
        "not started, did not start, or disqualified while the race runs",
    )
    moves = serializers.IntegerField(
        allow_null=True, help_text="moves played (never a tie-break); null as cards_home"
    )
    elapsed_ms = serializers.IntegerField(
        allow_null=True,
        help_text="ms from the player's start to reaching cards_home; null as cards_home",
    )
    finished = serializers.BooleanField(
        help_text="whether this line can no longer change: its game is won, resigned, timed "
        "out or blocked with no undo left (a blocked game whose last move may still be taken "
        "back is not finished); every line once the race is finished or cancelled"
    )
    status = serializers.ChoiceField(
        choices=list(STANDING_STATUSES),
        help_text="the game's status as its player is told it (not_started before their "
        "start; playing; won, blocked, resigned, timed_out), did_not_start (never started, "
        "in a finished or cancelled race), disqualified, or cancelled (a game the race's "
        "cancellation ended: its clock had not run out; a game that ended before keeps "
        "its own ending)",
    )


class StandingsView(serializers.Serializer[Any]):
    """Standings with the ranking rule."""

    race = serializers.UUIDField()
    phase = serializers.ChoiceField(
        choices=list(RACE_PHASES), help_text="the race's phase by the server clock (see the race)"
    )
    ranking_rule = serializers.CharField(help_text=RANKING_HELP)
    count = serializers.IntegerField(
        help_text="how many lines the whole standings has (every entrant); more than "
        "`standings` holds when `limit` cut it"
    )
    standings = StandingRow(
        many=True,
        help_text="every entrant's line, best first; with `limit`, the first `limit` lines, "
        "then yours when you entered and are not among them",
    )


#: Every ``status`` of a race result's entry (``games.selectors.races.race_results``: the
#: entry's stored final status, ``did_not_start`` from the scoring, or ``disqualified``).
RESULT_STATUSES = ("won", "blocked", "resigned", "timed_out", "did_not_start", "disqualified")


class ResultEntry(serializers.Serializer[Any]):
    """One entrant's final result and move list."""

    rank = serializers.IntegerField(
        allow_null=True,
        help_text="1 = best; tied players share a rank (1, 2, 2, 4); null: disqualified, or "
        "a window race's entrant who never started (in a scheduled race every entrant not "
        "disqualified is ranked). Moves never break a tie (RULES.md 6).",
    )
    player = serializers.CharField()
    status = serializers.ChoiceField(
        choices=list(RESULT_STATUSES),
        help_text="how the entrant's game ended (won, blocked, resigned, timed_out), "
        "did_not_start (a window race's entrant who never started: no rank, no counts) or "
        "disqualified",
    )
    won = serializers.BooleanField(help_text="whether the game was won (status won)")
    cards_home = serializers.IntegerField(allow_null=True)
    casino_score = serializers.IntegerField(allow_null=True)
    moves = serializers.IntegerField(allow_null=True)
    elapsed_ms = serializers.IntegerField(
        allow_null=True,
        help_text="ms from the player's start to the moment they reached cards_home (the win "
        "time for a winner; 0 when that count was on the table from the deal), not the "
        "game's length (RULES.md 6)",
    )
    disqualified_reason = serializers.CharField(allow_null=True)
    game_id = serializers.UUIDField(allow_null=True)
    move_list = serializers.ListField(
        child=serializers.CharField(),
        help_text="the moves the entrant played and did not take back, in order (RULES.md 5): "
        "replayed on the deck they give cards_home",
    )
    rating_change = RatingChangeView(
        allow_null=True, help_text="null until the race is rated, or when it is not rated"
    )


class ResultsView(serializers.Serializer[Any]):
    """Final results: seed reveal (check it: sha256(seed) == commitment), deck, ranks, moves."""

    race = serializers.UUIDField()
    seed = serializers.CharField()
    commitment = serializers.CharField()
    commitment_verified = serializers.BooleanField(
        help_text="the server's check that sha256(seed) equals commitment; check it yourself"
    )
    variant = serializers.CharField()
    preset = serializers.CharField(help_text="the preset the rules were built from (see the race)")
    options = OptionsField()
    deck = serializers.ListField(child=serializers.CharField())
    ranking_rule = serializers.CharField(help_text=RANKING_HELP)
    entries = ResultEntry(many=True)
    rating = RaceRatingView(help_text="how the race counts for player ratings")


def _drafts(request: Request) -> bool:
    """Whether the request's user may see draft tournaments' races (organisers)."""
    return may_see_drafts(request.user)


class RacePagination(SafeCursorPagination):
    """Races by start time, newest first."""

    ordering = ("-starts_at", "-id")
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


_PROBLEMS = {401: ProblemSerializer, 404: ProblemSerializer, 429: ProblemSerializer}


class RacesView(ApiView):
    """``GET /api/v1/races``: races, filterable; ``POST`` (organisers, ``games.add_race``):
    create a race."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [IsOrganiser(OrganiserAction.CREATE_RACE)]
        return [AllowAny()]

    @extend_schema(
        responses={200: paginated(RaceView, "PaginatedRaceList"), 400: ProblemSerializer},
        operation_id="races_list",
        tags=["races"],
        auth=[],
    )
    @accepts_query(
        OpenApiParameter(
            "phase",
            str,
            many=True,
            explode=False,
            enum=list(RACE_PHASES),
            description="one or more phases, comma-separated (`upcoming,open`: every race "
            "not started yet), given once (`phase=open&phase=running` is 400 "
            "`repeated_query_parameter`); a race is listed when its `phase` field is one of "
            "them: upcoming (joining not open yet), open (joining, not started), running, "
            "closing (over, being scored), finished, cancelled",
        ),
        OpenApiParameter("mode", str, enum=["scheduled", "window"]),
        *CURSOR_PARAMETERS,
    )
    def get(self, request: Request) -> Response:
        """One page of races, newest start first.

        Query: ``phase`` (one or more of ``RACE_PHASES``, comma-separated, given once;
        a race is listed when its clock phase, the ``phase`` field, is one of them),
        ``mode`` (``scheduled`` or ``window``), ``cursor``, ``page_size`` (default 50;
        more than 200 is 200).  Answers 200 ``{"next": url | null, "previous": url | null,
        "results": [RaceView, ...]}`` (each with its commitment; its seed only once the
        race is finished or cancelled, RULES.md 7); draft tournaments' races only for
        organisers.

        Errors (problem+json): 400 ``invalid_filter`` (an unknown phase or mode),
        ``unknown_query_parameter``, ``repeated_query_parameter``, ``invalid_cursor``,
        ``validation_error`` (``page_size`` not a positive integer).  Not throttled.
        """
        asked = request.query_params.get("phase")
        phases = tuple(dict.fromkeys(asked.split(","))) if asked is not None else ()
        mode = request.query_params.get("mode")
        unknown = [p for p in phases if p not in RACE_PHASES]
        if unknown:
            raise ProblemError(
                "invalid_filter",
                f"unknown phase {unknown[0]!r}: use {', '.join(RACE_PHASES)}",
                status=400,
            )
        if mode not in (None, "scheduled", "window"):
            raise ProblemError("invalid_filter", f"unknown mode {mode!r}", status=400)
        paginator = RacePagination()
        page = paginator.paginate_queryset(
            race_list(phase=phases, mode=mode, include_drafts=may_see_drafts(request.user)),
            request,
            view=self,
        )
        return paginator.get_paginated_response(races_public(page or [], viewer=request.user))

    @extend_schema(
        request=RaceCreateInput,
        responses={
            201: RaceView,
            400: OpenApiResponse(
                ProblemSerializer,
                description="invalid_race (times out of order, a missing time limit, "
                "joining already closed: a start gone by with joining closing at it, ...), "
                "invalid_options (unknown variant or option, a bad option value)",
            ),
            403: ProblemSerializer,
            **_PROBLEMS,
            422: OpenApiResponse(ProblemSerializer, description="no_winnable_deal_found"),
            503: OpenApiResponse(
                ProblemSerializer,
                description="no_winnable_deal: `require_winnable` and the rules' pool of "
                "proven-winnable deals (the races' reserve and the players' pool) is empty; "
                "no race was created, a refill is queued: retry after `Retry-After` seconds",
            ),
        },
        tags=["races"],
        description="Organisers only (`games.add_race`; `is_staff` alone is not enough). "
        "Errors: 400 `invalid_race`, `invalid_options`; "
        "`require_winnable: true` takes a deal the solver has already proven winnable from "
        "the races' reserve of the race's rules (`WINNABLE_RACE_RESERVE` deals that practice "
        "games never draw from; once it is empty, from the players' pool; filled ahead of "
        "time on the `solver` queue; the solver never runs in this request): when both are "
        "empty the race is not "
        "created, the answer is 503 `no_winnable_deal` with `Retry-After` "
        "(`WINNABLE_RETRY_AFTER_SECONDS`) and a refill of the pool is queued, so the same "
        "request succeeds once it is done; 422 `no_winnable_deal_found` when the rules' "
        "recent deals were all proved lost (no refill: do not retry with `require_winnable`).",
    )
    def post(self, request: Request) -> Response:
        """Create one race (organisers: ``games.add_race``).

        Body: ``RaceCreateInput`` (``name``; ``mode``; ``variant`` preset and
        ``options``; ``opens_at`` (default: now, or ``starts_at`` if earlier),
        ``starts_at``, ``ends_at`` ISO 8601; ``time_limit_s`` in seconds (window mode);
        ``allow_undo``; ``require_winnable``; ``rated``; ...).  The race gets a fresh
        secret seed; only its commitment ``hex(SHA-256(seed))`` is shown until it is
        over (RULES.md 7; :func:`games.services.races.race_create`).  Answers 201
        ``RaceView`` (:func:`games.selectors.races.race_public`).

        Errors (problem+json): 400 ``malformed_request``, ``unknown_field``,
        ``validation_error``, ``invalid_race`` (bad times, name or limits),
        ``invalid_options``; 401 ``not_authenticated``; 403 ``permission_denied``; 422
        ``no_winnable_deal_found`` (the rules' recent deals were all proved lost); 429
        ``throttled``; 503 ``no_winnable_deal`` with ``Retry-After`` (seconds; no race
        created, a refill of the pool is queued).
        """
        data = RaceCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        v.setdefault("opens_at", min(timezone.now(), v["starts_at"]))
        # ``rated`` goes in the race's own transaction: a failure after the create can
        # no longer leave an announced race rated that was asked for unrated.
        race = race_services.race_create(created_by=player_of(request), **v)
        return Response(race_public(race, viewer=request.user), status=status.HTTP_201_CREATED)


class RaceDetailView(ApiView):
    """``GET /api/v1/races/{id}``: one race (the seed only once finished)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RaceView, **_PROBLEMS}, tags=["races"], auth=[])
    def get(self, request: Request, race_id: UUID) -> Response:
        return Response(
            race_public(
                race_get(race_id=race_id, include_drafts=_drafts(request)), viewer=request.user
            )
        )


class RaceJoinView(ApiView):
    """``POST /api/v1/races/{id}/join``: join (idempotent: 201 first time, 200 after).

    Errors: 409 ``race_not_open`` (the race is upcoming, closing, finished or cancelled,
    or joining has closed; the race's own state is answered first, even in a finished or
    cancelled tournament), then, for a tournament race, 409 ``tournament_not_open``
    (finished or cancelled tournament), 403 ``tournament_invite_only``, 409
    ``tournament_full``.
    """

    throttle_scope = "games"

    @extend_schema(
        request=NoInput,
        responses={
            201: JoinView,
            200: JoinView,
            400: NO_INPUT_400,
            409: OpenApiResponse(
                ProblemSerializer,
                description="race_not_open (the race's own state, answered first), "
                "tournament_not_open or tournament_full",
            ),
            403: OpenApiResponse(
                ProblemSerializer,
                description="tournament_invite_only: the race belongs to an invite-only "
                "tournament you are not invited to",
            ),
            **_PROBLEMS,
        },
        tags=["races"],
    )
    def post(self, request: Request, race_id: UUID) -> Response:
        NoInput(data=request.data).is_valid(raise_exception=True)  # before anything changes
        outcome = race_services.race_join(race_id=race_id, player=player_of(request))
        race = outcome.entry.race
        body = {
            "race": str(race.id),
            "joined": True,
            "created": outcome.created,
            "game_id": str(outcome.entry.game_id) if outcome.entry.game_id else None,
            "starts_at": race.starts_at,
            "ends_at": race.ends_at,
        }
        return Response(body, status=status.HTTP_201_CREATED if outcome.created else 200)


#: The ``Retry-After`` header of ``409 race_not_started`` (OpenAPI).
RETRY_AFTER_UNTIL_START = OpenApiParameter(
    "Retry-After",
    int,
    location=OpenApiParameter.HEADER,
    response=[409],
    description="With `race_not_started`: the seconds until the race starts, rounded up, "
    "at least 1 (also the body's `retry_after`).",
)


#: The ``Retry-After`` header of ``409 race_not_finished`` (OpenAPI).
RETRY_AFTER_UNTIL_END = OpenApiParameter(
    "Retry-After",
    int,
    location=OpenApiParameter.HEADER,
    response=[409],
    description="With `race_not_finished`: the seconds until the race's end (`ends_at`), "
    "rounded up, at least 1 (also the body's `retry_after`); the race may finish earlier, "
    "once every entrant's game is over.",
)


class ResultsProblem(ProblemSerializer):
    """The ``409`` problem of a race's results: ``race_not_finished`` carries the race's
    end and the wait until it (extension members), ``race_cancelled`` neither."""

    ends_at = serializers.DateTimeField(
        required=False,
        help_text="race_not_finished: the race's end, the latest it is finished (ISO 8601 "
        "UTC); results are published then, or earlier once every entrant's game is over.",
    )
    retry_after = serializers.IntegerField(
        required=False,
        help_text="race_not_finished: the seconds until `ends_at`, rounded up, at least 1 "
        "(as the Retry-After header).",
    )


class RaceStartView(ApiView):
    """``POST /api/v1/races/{id}/start``: start your clock (window mode) and get your game.

    Joins first if needed; idempotent.  In a window race your clock runs from this
    call for ``time_limit_s`` seconds, but stops at the race's ``ends_at`` whatever is
    left (a start less than ``time_limit_s`` before it gets fewer seconds): the game
    view's ``deadline`` says when.  In scheduled mode it returns your game
    once the race has started; in a cancelled race (before its start too) your game
    as the cancellation ended it (``timed_out``, deal public).  Errors: 409
    ``race_not_started`` (before the start, with ``retry_after`` and the ``Retry-After``
    header: the seconds until the start, rounded up, at least 1), ``race_not_open``
    (joining not open yet; an entrant's start after the end; a cancelled race in which
    you had no game yet); 403 ``not_entered`` (you
    never joined and the race takes no more entrants), 403 ``disqualified`` (a
    disqualified entrant's clock does not start).
    """

    throttle_scope = "games"

    @extend_schema(
        request=NoInput,
        responses={
            200: GameView,
            400: NO_INPUT_400,
            403: OpenApiResponse(
                ProblemSerializer,
                description="not_entered (you never joined and joining has closed), disqualified",
            ),
            409: OpenApiResponse(
                ProblemSerializer,
                description="race_not_started (before the start; `Retry-After`: the seconds "
                "until it; never for a cancelled race) or race_not_open",
            ),
            **_PROBLEMS,
        },
        parameters=[RETRY_AFTER_UNTIL_START],
        tags=["races"],
    )
    def post(self, request: Request, race_id: UUID) -> Response:
        NoInput(data=request.data).is_valid(raise_exception=True)  # before anything changes
        game = race_services.race_start(race_id=race_id, player=player_of(request))
        return Response(game_view(game))


#: The ``limit`` query parameter of a race's standings (the schema and the check).
STANDINGS_LIMIT = OpenApiParameter(
    "limit",
    {"type": "integer", "minimum": 0},
    description="Only the first `limit` rows (`0`: none), then your own row when you are "
    "signed in, entered the race and are not among them, with your rank among everyone "
    "(so at most `limit + 1` rows); `count` says how many rows the whole standings has. "
    "Without it: every row. Anything but a non-negative decimal integer is 400 "
    "`validation_error`; one larger than the standings gives every row.",
)


def standings_limit(request: Request) -> int | None:
    """The ``?limit=`` of a standings request: ``None`` when absent, else a non-negative
    integer (at most ``MAX_INPUT_INT``: a larger one means every row anyway).

    Raises :class:`ProblemError` 400 ``validation_error`` (``errors.limit``) for anything
    but ASCII decimal digits (a sign, a space, an empty value)."""
    raw = request.query_params.get("limit")
    if raw is None:
        return None
    limit = capped_decimal(raw, MAX_INPUT_INT)
    if limit is None:
        raise ProblemError(
            "validation_error",
            "The request has invalid fields; see 'errors'.",
            status=400,
            errors={"limit": ["A non-negative integer is required."]},
        )
    return limit


class RaceStandingsView(ApiView):
    """``GET /api/v1/races/{id}/standings``: live or final standings (counts only, no cards).

    Every entrant by default; ``?limit=N``: the first ``N`` rows, then the caller's own
    (:data:`STANDINGS_LIMIT`); ``count``: the rows of the whole standings.  Not paginated
    (400 ``not_paginated`` for ``?cursor=`` or ``?page_size=``)."""

    permission_classes = [AllowAny]
    whole_list = True
    # Every entrant's line, public: a 10,000-entrant race's is a 1.2 MB answer
    # (benchmarks/public_reads.py), its first 100 lines 12 KB.  Counted as the results
    # are; the race stream pushes the first 100 lines without polling.
    throttle_scope = "games"

    @extend_schema(
        description="Every entrant's line in one response, or with `limit` the first lines "
        "and your own (`count`: how many lines the whole standings has). The race stream's "
        "`snapshot` and `standings` events carry the first 100 lines (as `?limit=100` "
        "anonymously), `count` and this URL, without polling. Not paginated: `cursor` and "
        "`page_size` are refused (400 `not_paginated`), not ignored. Counted in the `games` "
        "throttle.",
        responses={
            200: StandingsView,
            400: OpenApiResponse(
                ProblemSerializer,
                description=f"{NOT_PAGINATED}; validation_error: `limit` is not a "
                "non-negative integer",
            ),
            **_PROBLEMS,
        },
        tags=["races"],
        auth=[],
    )
    @accepts_query(STANDINGS_LIMIT)
    def get(self, request: Request, race_id: UUID) -> Response:
        """The race's standings (``StandingsView``:
        :func:`games.selectors.races.race_standings_view` for the caller, one instant for
        the phase and the rows).  Errors (problem+json): 400 ``not_paginated``,
        ``validation_error`` (``limit``), ``unknown_query_parameter``; 404 ``not_found``
        (no such race, or a draft tournament's to anyone but organisers); 429
        ``throttled``."""
        limit = standings_limit(request)
        race = race_get(race_id=race_id, include_drafts=_drafts(request))
        return Response(race_standings_view(race=race, limit=limit, viewer=request.user))


class RaceResultsView(ApiView):
    """``GET /api/v1/races/{id}/results``: final ranks, times, scores, seed reveal, move lists.

    409 ``race_not_finished`` until the race is finished for everyone (with ``ends_at``,
    the race's end, and ``retry_after`` and the ``Retry-After`` header: the seconds until
    then, at least 1);
    409 ``race_cancelled`` for a cancelled race (no results will ever come).  Every entrant
    in one response (not paginated: 400 ``not_paginated`` for ``?cursor=`` or
    ``?page_size=``).
    """

    permission_classes = [AllowAny]
    whole_list = True
    # The largest read there is (every entrant's move list), public: counted as the
    # history reads are, per player or per client address.
    throttle_scope = "games"

    @extend_schema(
        description="Every entrant's result in one response. Not paginated: `cursor` and "
        "`page_size` are refused (400 `not_paginated`), not ignored.",
        responses={
            200: ResultsView,
            400: OpenApiResponse(ProblemSerializer, description=NOT_PAGINATED),
            409: OpenApiResponse(
                ResultsProblem,
                description="race_not_finished: not over yet, retry after `retry_after` "
                "seconds (`Retry-After`: until `ends_at`, the race's end); race_cancelled: "
                "the race was cancelled, it has no results and never will (stop polling)",
            ),
            **_PROBLEMS,
        },
        parameters=[RETRY_AFTER_UNTIL_END],
        tags=["races"],
        auth=[],
    )
    def get(self, request: Request, race_id: UUID) -> Response:
        return Response(
            race_results(race=race_get(race_id=race_id, include_drafts=_drafts(request)))
        )
