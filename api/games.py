"""Game endpoints: variants, practice games, moves, undo, resign, history, export.

Views are thin: they validate input with a strict serializer, call a service
or a selector, and render through :func:`games.selectors.games.game_view`,
the only place that decides what a player may see.  Service errors become
problem+json through ``api.errors`` (see ``SERVICE_ERROR_STATUS`` there).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.accounts import player_of
from api.errors import ProblemSerializer
from api.pagination import CURSOR_PARAMETERS, MovePagination, NewestFirstPagination
from api.query import ApiView, accepts_query
from api.rules_doc import OPTION_VALUES
from api.serializers import (
    NO_INPUT_400,
    ExpectedMoveInput,
    GameStartInput,
    GameSummary,
    GameView,
    HintView,
    MoveInput,
    MoveResult,
    MoveRow,
    NoInput,
    RecordView,
    SolutionQuery,
    SolutionView,
    VariantsOutput,
    paginated,
)
from games.engine import OPTION_HELP, OPTION_NAMES, PRESET_HELP, PRESETS
from games.selectors.games import (
    game_get,
    game_list,
    game_record,
    game_view,
    move_history,
)
from games.services import games as game_services
from games.services import hints as hint_services
from games.services import solver as solver_services

_PROBLEMS = {
    400: ProblemSerializer,
    401: ProblemSerializer,
    404: ProblemSerializer,
    429: ProblemSerializer,
}


class VariantsView(ApiView):
    """``GET /api/v1/variants``: every preset and option with its meaning (RULES.md 4).

    ``redeals`` values: a number from 0 to ``MAX_REDEALS`` (1000), or ``null`` for
    unlimited; starting a game or race with more is refused as an invalid option.
    """

    permission_classes = [AllowAny]

    @extend_schema(responses={200: VariantsOutput}, tags=["games"], auth=[])
    def get(self, request: Request) -> Response:
        classic = PRESETS["classic"].to_dict()
        return Response(
            {
                "presets": [
                    {"name": name, "help": PRESET_HELP[name], "options": rules.to_dict()}
                    for name, rules in PRESETS.items()
                ],
                "options": [
                    {
                        "name": name,
                        "help": OPTION_HELP[name],
                        "values": OPTION_VALUES[name],
                        "classic": classic[name],
                    }
                    for name in OPTION_NAMES
                ],
            }
        )


class GamesView(ApiView):
    """``GET /api/v1/games``: your games (cursor-paginated); ``POST``: start a practice game."""

    throttle_scope = "games"

    @extend_schema(
        responses={200: paginated(GameSummary, "PaginatedGameSummaryList"), **_PROBLEMS},
        operation_id="games_list",
        tags=["games"],
    )
    @accepts_query(*CURSOR_PARAMETERS)
    def get(self, request: Request) -> Response:
        paginator = NewestFirstPagination()
        page = paginator.paginate_queryset(game_list(player=player_of(request)), request, view=self)
        return paginator.get_paginated_response(GameSummary(page, many=True).data)

    @extend_schema(
        request=GameStartInput,
        responses={
            201: GameView,
            503: OpenApiResponse(
                ProblemSerializer,
                description="no_winnable_deal: the players' pool of these rules is empty; a "
                "refill is queued, retry after `Retry-After` seconds",
            ),
            422: OpenApiResponse(
                ProblemSerializer,
                description="no_winnable_deal_found: the last `tried` fresh deals of these "
                "rules were proved lost in a row; do not retry with `winnable`",
            ),
            **_PROBLEMS,
            400: OpenApiResponse(
                ProblemSerializer,
                description="invalid_options (unknown variant or option, a bad option value), "
                "invalid_deal (a bad seed or deck, or both given)",
            ),
            409: OpenApiResponse(
                ProblemSerializer,
                description="deal_in_race: the seed or deck opens with the same visible cards "
                "as a race that has started and is not over, up to renaming (tableau piles in "
                "another order, suits renamed, every rank moved by one step: the same game; "
                "RULES.md 7)",
            ),
        },
        tags=["games"],
        description=(
            "Start a practice game: `variant` (a preset), optional `options` overrides, and a "
            "`seed` (game number) or an explicit 52-card `deck`, dealt exactly as asked even "
            "when the deal is blocked (RULES.md 3.9: no move but draw and redeal; the game "
            "then starts `blocked`). Neither deals at random, never a deal blocked at the "
            "deal: seeds are drawn until one can move (rules whose deals are blocked 64 times "
            "in a row: 400 `invalid_options`). "
            "`winnable: true` takes a proven-winnable deal at once from the players' pool the "
            "solver workers fill ahead of time (never from the reserve kept for races; 503 "
            "`no_winnable_deal` with `Retry-After` while the players' pool of these rules is "
            "empty; 422 `no_winnable_deal_found` once "
            "`WINNABLE_GIVE_UP_AFTER` fresh deals of them in a row were proved lost, as "
            "one-pass deals are). "
            "Errors: 400 `invalid_options`, `invalid_deal`, `unknown_field`, `validation_error`; "
            "404 `not_found` when the account was deleted while the request ran."
        ),
    )
    def post(self, request: Request) -> Response:
        data = GameStartInput(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_services.game_start(player=player_of(request), **data.validated_data)
        return Response(game_view(game), status=status.HTTP_201_CREATED)


class GameDetailView(ApiView):
    """``GET /api/v1/games/{id}``: the player's view of one of their games (404 for others)."""

    @extend_schema(
        responses={
            200: GameView,
            409: OpenApiResponse(
                ProblemSerializer,
                description="race_not_started (a race game before its start: nothing of the "
                "deal shows; a game whose race was cancelled before its start is not refused: "
                "it is timed_out, its deal public)",
            ),
            **_PROBLEMS,
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        return Response(game_view(game_get(game_id=game_id, player=player_of(request))))


class GameMovesView(ApiView):
    """``POST /api/v1/games/{id}/moves``: play a move.

    ``GET``: the move history, cursor-paginated.
    """

    throttle_scope = "moves"

    def get_throttles(self) -> list[Any]:
        # Reading the history is not a move: it shares the games scope.
        if self.request.method == "GET":
            self.throttle_scope = "games"
        return super().get_throttles()

    @extend_schema(
        responses={
            200: paginated(MoveRow, "PaginatedMoveRowList"),
            409: OpenApiResponse(ProblemSerializer, description="race_not_started"),
            **_PROBLEMS,
        },
        operation_id="games_moves_list",
        tags=["games"],
    )
    @accepts_query(*CURSOR_PARAMETERS)
    def get(self, request: Request, game_id: UUID) -> Response:
        """The caller's game's moves in play order, undone moves left out, cursor-paginated
        (``?cursor=``; ``?page_size=`` up to 500, default 100).

        Each row ``MoveRow``: ``number`` (1 for the first move), ``notation`` (RULES.md
        5), ``played_at``, ``cards_home`` after it.  Errors (problem+json): 401; 404
        ``not_found`` for another player's game or none; 409 ``race_not_started``; 400
        ``invalid_cursor`` or ``validation_error`` for a bad cursor or page size.
        """
        game = game_get(game_id=game_id, player=player_of(request))
        paginator = MovePagination()
        page = paginator.paginate_queryset(move_history(game), request, view=self)
        return paginator.get_paginated_response(MoveRow(page, many=True).data)

    @extend_schema(
        request=MoveInput,
        responses={
            201: MoveResult,
            200: OpenApiResponse(MoveResult, description="a retry of a move already accepted"),
            403: OpenApiResponse(
                ProblemSerializer, description="disqualified (with the organisers' reason)"
            ),
            409: OpenApiResponse(
                ProblemSerializer,
                description="stale_move_number (with current_move_number), game_over, "
                "race_closed, race_not_started, move_limit_reached (with limit)",
            ),
            422: OpenApiResponse(ProblemSerializer, description="illegal_move with the reason"),
            **_PROBLEMS,
            400: OpenApiResponse(
                ProblemSerializer, description="malformed_move: not RULES.md 5 notation"
            ),
        },
        tags=["games"],
        description=(
            "Play one move in RULES.md section 5 notation (`draw`, `redeal`, `QH>t2`, `5S>f`). "
            "Send `expected_move_number` (moves already played): a mismatch is 409 "
            "`stale_move_number`, and repeating a move that was already accepted at that number "
            "returns 200 with `replayed: true` instead of playing it twice. Errors: 400 "
            "`malformed_move`, 422 `illegal_move`, 409 `game_over`, `race_closed` or "
            "`race_not_started`, `move_limit_reached` (the game has accepted "
            "`GAME_MOVE_LIMIT` moves, undone ones included; `limit`), 403 `disqualified` (the "
            "organisers disqualified your entry; `reason` gives their words)."
        ),
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        """Play one move in the caller's game (:func:`games.services.games.move_play`).

        Body: ``MoveInput`` ``{"move": str, "expected_move_number": int >= 0
        (optional)}``; ``move`` is RULES.md 5 notation (``draw``, ``redeal``,
        ``<card>><dest>`` with ``dest`` ``f`` or ``t1``..``t4``; any case, ``10`` for
        ``T``), checked by the engine against RULES.md 3 and the game's variant (4).
        Answers 201 ``MoveResult`` ``{"move": canonical notation, "number": the move's
        number (1 for the first), "replayed": false, "game": GameView}``, the view
        showing no hidden card (RULES.md 7); 200 with ``replayed: true`` and the stored
        move when ``expected_move_number`` names a move already accepted with the same
        notation (a retry: nothing is played twice).

        Errors (problem+json; the game is unchanged on every one): 400
        ``malformed_move`` (not RULES.md 5 notation, with the reason),
        ``malformed_request``, ``unknown_field``, ``validation_error``; 401
        ``not_authenticated``; 403 ``disqualified`` (``reason``: the organisers' words);
        404 ``not_found`` (no such game, or another player's); 409 ``stale_move_number``
        (``current_move_number``), ``game_over``, ``race_closed`` (past the game's
        deadline, by the server clock), ``race_not_started``, ``move_limit_reached``
        (``GAME_MOVE_LIMIT`` moves accepted, undone ones included; ``limit``); 422
        ``illegal_move`` (the engine's reason, which names no hidden card); 429
        ``throttled`` (scope ``moves``).
        """
        data = MoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        outcome = game_services.move_play(
            game_id=game_id,
            player=player_of(request),
            move=data.validated_data["move"],
            expected_move_number=data.validated_data.get("expected_move_number"),
        )
        body = {
            "move": outcome.move.notation,
            "number": outcome.move.number,
            "replayed": outcome.replayed,
            "game": game_view(outcome.game, state=outcome.state),
        }
        return Response(body, status=status.HTTP_200_OK if outcome.replayed else 201)


class GameUndoView(ApiView):
    """``POST /api/v1/games/{id}/undo``: take back the last move.

    Practice games, and race games whose race allows undo.
    """

    throttle_scope = "moves"

    @extend_schema(
        request=ExpectedMoveInput,
        responses={
            200: GameView,
            403: OpenApiResponse(ProblemSerializer, description="undo_not_allowed, disqualified"),
            409: OpenApiResponse(
                ProblemSerializer,
                description="nothing_to_undo, stale_move_number (with current_move_number), "
                "game_over, race_closed, race_not_started",
            ),
            **_PROBLEMS,
        },
        tags=["games"],
        description=(
            "Take back the last move: practice games, and race games whose race allows undo "
            "(403 `undo_not_allowed` otherwise). Send `expected_move_number` (the moves played "
            "before this undo, as for a move): a mismatch is 409 `stale_move_number` with "
            "`current_move_number` and nothing is undone, so an undo retried after a lost "
            "answer takes back one move, not two. Without it the last move is undone whatever "
            "the number. A `blocked` game (RULES.md 3.9: declared by the server, not chosen "
            "by the player) may be undone: the move that led into the blocked position is "
            "taken back and the game is `playing` again; in a race only while the race is "
            "running and before your deadline. The game view's `undo_allowed` says whether "
            "an undo would be accepted now. Errors: 409 `nothing_to_undo`, `game_over` (won, "
            "resigned or timed out), `race_closed` (your "
            "deadline passed, or the race closed or was cancelled) or `race_not_started`, "
            "403 `disqualified`."
        ),
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        data = ExpectedMoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_services.game_undo(
            game_id=game_id,
            player=player_of(request),
            expected_move_number=data.validated_data.get("expected_move_number"),
        )
        return Response(game_view(game))


class GameResignView(ApiView):
    """``POST /api/v1/games/{id}/resign``: give up; the game ends as ``resigned`` (idempotent).

    A ``blocked`` game that could still be undone ends ``resigned`` too (for good: its
    deal is then revealed once that is allowed, a practice game's at once)."""

    throttle_scope = "moves"

    @extend_schema(
        request=NoInput,
        responses={
            **_PROBLEMS,  # first: a status described below replaces its bare entry
            200: GameView,
            400: NO_INPUT_400,
            403: OpenApiResponse(ProblemSerializer, description="disqualified"),
            409: OpenApiResponse(ProblemSerializer, description="race_closed, race_not_started"),
        },
        tags=["games"],
        description="Give up: a playing game ends `resigned`, and so does a `blocked` game "
        "whose last move could still be taken back (`undo_allowed` true): it is then over "
        "for good, and its deal is revealed once that is allowed (a practice game at once; "
        "a race game when its race is finished). Any other game already over is returned "
        "unchanged (200).",
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        NoInput(data=request.data).is_valid(raise_exception=True)  # before anything changes
        game = game_services.game_end(game_id=game_id, player=player_of(request), how="resigned")
        return Response(game_view(game))


class GameExportView(ApiView):
    """``GET /api/v1/games/{id}/export``: a self-contained record.

    ``python -m games.engine replay FILE`` replays it.

    Available once the deal is revealed (the game is over for good; for a race, the
    race is finished); before that 409 ``deal_secret``, whose ``detail`` says what is
    awaited: a ``blocked`` game that may still be undone is not over (undo takes back
    the blocking move, or resign ends it).
    """

    @extend_schema(
        responses={
            200: RecordView,
            409: OpenApiResponse(
                ProblemSerializer,
                description="deal_secret (the game is not over for good, or its race is not "
                "finished; a blocked game that may still be undone says so); race_not_started "
                "(a race game before its start, with `Retry-After`)",
            ),
            **_PROBLEMS,
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = game_get(game_id=game_id, player=player_of(request))
        return Response({**game_record(game).to_dict(), "hints": list(game.hints)})


class GameHintView(ApiView):
    """``GET /api/v1/games/{id}/hint``: the next move of a winning line (practice games).

    The solver sees every card, so RULES.md 7 allows hints only outside races: a race
    game answers 403 ``hint_not_allowed``.  Never solves in the request: the position
    (the deal and the game's live moves) is solved once on the ``solver`` queue and
    cached; 200 with the verdict when known, else 202 with the job's status and
    ``Retry-After`` (ask again).  A hint given is recorded on the game (its export
    lists it).  Hints follow one line: while the moves since an earlier hint start
    that hint's winning line, the answer is its next move at once (no new solve).
    """

    throttle_scope = "games"

    @extend_schema(
        responses={
            **_PROBLEMS,  # first: a status described below replaces its bare entry
            200: OpenApiResponse(HintView, description="the position is solved"),
            202: OpenApiResponse(
                HintView, description="the solver queue is working on it: ask again"
            ),
            403: OpenApiResponse(ProblemSerializer, description="hint_not_allowed (race game)"),
            409: OpenApiResponse(ProblemSerializer, description="game_over"),
            429: OpenApiResponse(
                ProblemSerializer,
                description="too_many_solves (your solves waiting are at the limit) or throttled",
            ),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        answer = hint_services.game_hint(game_id=game_id, player=player_of(request))
        if answer["status"] == "done":
            return Response(answer)
        return Response(
            answer,
            status=status.HTTP_202_ACCEPTED,
            headers={"Retry-After": str(settings.SOLVER_RETRY_AFTER_SECONDS)},
        )


class GameSolutionView(ApiView):
    """``GET /api/v1/games/{id}/solution``: was the deal winnable, and one winning line.

    ``?start=end``: the same from where the game ended (the deal followed by its live
    moves): could a resigned or timed-out game still have been won from there?
    Available once the deal is revealed (the game is over for good; for a race, the
    race is finished); before that 409 ``deal_secret``, whose ``detail`` says what is
    awaited: a ``blocked`` game that may still be undone is not over (undo takes back
    the blocking move, or resign ends it).  Never solves in the request:
    a cached verdict answers 200 at once; otherwise a solve job is queued for
    the ``solver`` workers (or joined, when one exists) and the answer is 202
    with its status and ``Retry-After``: poll the same URL.
    """

    throttle_scope = "games"

    @extend_schema(
        responses={
            **_PROBLEMS,  # first: a status described below replaces its bare entry
            200: OpenApiResponse(SolutionView, description="the solve is done"),
            202: OpenApiResponse(
                SolutionView,
                description="the solve is pending or running: poll this URL after `Retry-After` "
                "seconds",
            ),
            409: OpenApiResponse(
                ProblemSerializer,
                description="deal_secret (the game is not over for good, or its race is not "
                "finished; a blocked game that may still be undone says so); race_not_started "
                "(a race game before its start, with `Retry-After`)",
            ),
            429: OpenApiResponse(
                ProblemSerializer,
                description="too_many_solves (your solves waiting are at the limit) or "
                "throttled; see `Retry-After`",
            ),
        },
        tags=["games"],
    )
    @accepts_query(SolutionQuery)
    def get(self, request: Request, game_id: UUID) -> Response:
        query = SolutionQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        game = game_get(game_id=game_id, player=player_of(request))
        answer = solver_services.game_solution_request(
            game=game, start=query.validated_data["start"], requested_by=player_of(request)
        )
        if answer["status"] == "done":
            return Response(answer)
        return Response(
            answer,
            status=status.HTTP_202_ACCEPTED,
            headers={"Retry-After": str(settings.SOLVER_RETRY_AFTER_SECONDS)},
        )
