"""Rating endpoints: pools, leaderboards, player profiles and histories, a race's rating.

``GET /leaderboards``, ``GET /leaderboards/{pool}``, ``GET /players/{username}``,
``GET /players/{username}/history``, ``GET``/``PUT /races/{id}/rating``.
Leaderboards and histories are cursor-paginated on a unique key (keyset
pagination): a page never skips or repeats a row when ratings change between
two requests, beyond the rows that moved.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from api.accounts import player_of
from api.errors import ProblemError, ProblemSerializer
from api.pagination import CURSOR_PARAMETERS, NOT_PAGINATED, page_size_param
from api.permissions import IsOrganiser
from api.query import ApiView, accepts_query
from api.serializers import OptionsField, StrictBooleanField, StrictSerializer
from games.permissions import OrganiserAction, may_see_drafts
from games.selectors import ratings as rating_selectors
from games.selectors.keyset import InvalidCursor, Keyset
from games.selectors.races import race_get
from games.selectors.ratings import BOARD_ORDER, HISTORY_ORDER
from games.services import ratings as rating_services
from games.services.errors import NotFound

# ------------------------------------------------------------------ keyset pagination


def keyset_page(
    order: Keyset, qs: QuerySet[Any], request: Request
) -> tuple[list[Any], dict[str, Any]]:
    """One page of ``qs`` in ``order`` for ``?cursor=``/``?page_size=``, and its
    ``next``/``previous`` URLs.  ``?page_size=``: a positive integer, capped at the
    list's maximum as on every other list (``api.pagination``).  400
    ``invalid_cursor`` or ``validation_error``."""
    size = order.page_size
    raw_size = request.query_params.get("page_size")
    if raw_size is not None:
        size = page_size_param(raw_size, maximum=order.max_page_size)
    try:
        page = order.window(qs, cursor=request.query_params.get("cursor"), size=size)
    except InvalidCursor:
        raise ProblemError(
            "invalid_cursor",
            "The cursor is not one this list gave out: start again without it.",
            status=400,
        ) from None
    url = request.build_absolute_uri()
    links: dict[str, Any] = {
        "next": page.next_cursor and replace_query_param(url, "cursor", page.next_cursor),
        "previous": page.previous_cursor
        and replace_query_param(url, "cursor", page.previous_cursor),
    }
    return page.rows, links


# ------------------------------------------------------------------ serializers


class PoolView(serializers.Serializer[Any]):
    """A rating pool: one exact set of rule options."""

    key = serializers.CharField(help_text="the preset's name, or preset plus differing options")
    variant = serializers.CharField(help_text="the preset the key starts with")
    options = OptionsField()
    races_rated = serializers.IntegerField()
    players = serializers.IntegerField()


class PoolsView(serializers.Serializer[Any]):
    """Every rating pool and the rating rule."""

    rating_rule = serializers.CharField()
    pools = PoolView(many=True)


class LeaderboardRow(serializers.Serializer[Any]):
    """One player on a leaderboard."""

    position = serializers.IntegerField(
        help_text="1-based place in this list; equal display ratings share a place (1, 1, 3)"
    )
    player = serializers.CharField()
    rating = serializers.IntegerField(help_text="round(1000 + 20 * (mu - 3 * sigma))")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games_rated = serializers.IntegerField()
    provisional = serializers.BooleanField()
    updated_at = serializers.DateTimeField()


class LeaderboardPage(serializers.Serializer[Any]):
    """A page of a pool's leaderboard, best first."""

    pool = PoolView()
    rating_rule = serializers.CharField()
    next = serializers.URLField(allow_null=True, help_text="the next page, or null")
    previous = serializers.URLField(allow_null=True, help_text="the previous page, or null")
    results = LeaderboardRow(many=True)


class PlayerRatingRow(LeaderboardRow):
    """A player's rating in one pool, with their place on its whole leaderboard."""

    pool = serializers.CharField()


class HistoryRow(serializers.Serializer[Any]):
    """The player's rating before and after one rated race."""

    race = serializers.UUIDField()
    race_name = serializers.CharField()
    ends_at = serializers.DateTimeField(help_text="the race's scheduled end")
    closed_at = serializers.DateTimeField(
        allow_null=True,
        help_text="when the race was closed: before ends_at when every player had finished",
    )
    pool = serializers.CharField()
    rank = serializers.IntegerField(help_text="race rank that was rated (RULES.md 6)")
    entrants_rated = serializers.IntegerField()
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()
    change = serializers.IntegerField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()
    games_rated = serializers.IntegerField(help_text="rated races in the pool, this one included")


class PlayerProfileView(serializers.Serializer[Any]):
    """A player's public profile: ratings per pool and recent rated races."""

    username = serializers.CharField()
    date_joined = serializers.DateTimeField()
    ratings = PlayerRatingRow(many=True)
    recent_races = HistoryRow(many=True)
    rating_rule = serializers.CharField()


class HistoryView(serializers.Serializer[Any]):
    """A page of a player's rating history, newest first."""

    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = HistoryRow(many=True)


class RaceRatingView(serializers.Serializer[Any]):
    """How a race counts for ratings."""

    race = serializers.UUIDField()
    rated = serializers.BooleanField(help_text="organisers' switch: false keeps it out")
    status = serializers.ChoiceField(
        choices=["not_finished", "pending", "rated", "not_rated"],
        help_text="not_finished: the race is not over yet (ask again later); pending: "
        "finished, being rated (or re-rated after a disqualification, a reinstatement or a "
        "change of its rated flag); rated; not_rated: see reason (final unless an organiser "
        "marks the race rated again)",
    )
    reason = serializers.ChoiceField(
        choices=["unrated", "too_few_entries", "cancelled", "draft_tournament"],
        allow_null=True,
        help_text="why not rated: unrated (an organiser's switch), too_few_entries (fewer "
        "than two ranked entries), cancelled (the race was cancelled: never rated), "
        "draft_tournament (a race of a tournament not published yet, seen by organisers "
        "only: rated once the tournament is published)",
    )
    pool = serializers.CharField(allow_null=True)
    entries_rated = serializers.IntegerField()


class RaceRatingInput(StrictSerializer):
    """Staff: ``{"rated": false}`` keeps the race out of ratings; true counts it again."""

    rated = StrictBooleanField()


class RatingChangeView(serializers.Serializer[Any]):
    """An entry's rating change in a race (null until rated, or when not rated)."""

    pool = serializers.CharField()
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()
    change = serializers.IntegerField()


_PROBLEMS = {
    400: ProblemSerializer,
    404: OpenApiResponse(ProblemSerializer, description="not_found"),
    429: ProblemSerializer,
}


def _bool_filter(request: Request, name: str) -> bool | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if raw not in ("true", "false"):
        raise ProblemError("invalid_filter", f"{name} must be true or false", status=400)
    return raw == "true"


# ------------------------------------------------------------------ views


class LeaderboardsView(ApiView):
    """``GET /api/v1/leaderboards``: every rating pool (its key names its leaderboard).

    All of them in one response (not paginated: 400 ``not_paginated`` for ``?cursor=``
    or ``?page_size=``); each pool's leaderboard is paginated."""

    permission_classes = [AllowAny]
    whole_list = True

    @extend_schema(
        description="Every rating pool in one response, by key; each pool's players are "
        "listed, paginated, by `GET /leaderboards/{pool}`. Not paginated: `cursor` and "
        "`page_size` are refused (400 `not_paginated`), not ignored.",
        responses={
            200: PoolsView,
            400: OpenApiResponse(ProblemSerializer, description=NOT_PAGINATED),
            429: ProblemSerializer,
        },
        tags=["ratings"],
        auth=[],
        operation_id="leaderboards_list",
    )
    def get(self, request: Request) -> Response:
        pools = [
            rating_selectors.pool_public(p, getattr(p, "players", None))
            for p in rating_selectors.pools_list()
        ]
        return Response({"rating_rule": rating_selectors.RATING_RULE, "pools": pools})


class LeaderboardView(ApiView):
    """``GET /api/v1/leaderboards/{pool}``: the pool's players, best first.

    Ordered by ``mu - 3 sigma`` descending, then player id (a total order):
    cursor-paginated on that key.  ``?provisional=false`` lists only players
    past their provisional races, ``true`` only the provisional.  Errors: 404
    ``not_found`` (no such pool), 400 ``invalid_cursor``, ``invalid_filter``.
    """

    permission_classes = [AllowAny]

    @extend_schema(responses={200: LeaderboardPage, **_PROBLEMS}, tags=["ratings"], auth=[])
    @accepts_query(OpenApiParameter("provisional", str, enum=["true", "false"]), *CURSOR_PARAMETERS)
    def get(self, request: Request, pool: str) -> Response:
        found = rating_selectors.pool_get(key=pool)
        board = rating_selectors.leaderboard(
            pool=found, provisional=_bool_filter(request, "provisional")
        )
        rows, links = keyset_page(BOARD_ORDER, board, request)
        places = rating_selectors.leaderboard_places(board=board, rows=list(rows))
        return Response(
            {
                "pool": rating_selectors.pool_public(found),
                "rating_rule": rating_selectors.RATING_RULE,
                **links,
                "results": [
                    rating_selectors.rating_public(r, place)
                    for r, place in zip(rows, places, strict=True)
                ],
            }
        )


class PlayerDetailView(ApiView):
    """``GET /api/v1/players/{username}``: ratings per pool and the last 20 rated races.

    404 ``not_found`` for an unknown or inactive player.
    """

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PlayerProfileView, **_PROBLEMS}, tags=["ratings"], auth=[])
    def get(self, request: Request, username: str) -> Response:
        player = rating_selectors.player_get(username=username)
        return Response(rating_selectors.player_profile(player=player))


class PlayerHistoryView(ApiView):
    """``GET /api/v1/players/{username}/history``: rating history, newest race first.

    ``?pool=`` keeps one pool.  Cursor-paginated on ``(race end, row id)``.
    Errors: 404 ``not_found`` (the player), 400 ``invalid_cursor`` (an empty
    ``?cursor=`` too), ``invalid_filter`` (a ``?pool=`` that names no pool, an empty one
    too: a wrong filter value, as on every list; it was a 404, which says that the
    player does not exist).
    """

    permission_classes = [AllowAny]

    @extend_schema(responses={200: HistoryView, **_PROBLEMS}, tags=["ratings"], auth=[])
    @accepts_query(
        OpenApiParameter(
            "pool",
            str,
            description="a pool's key (`GET /leaderboards`); one that names no pool is "
            "400 `invalid_filter`",
        ),
        *CURSOR_PARAMETERS,
    )
    def get(self, request: Request, username: str) -> Response:
        player = rating_selectors.player_get(username=username)
        key = request.query_params.get("pool")
        pool = None
        if key is not None:
            try:
                pool = rating_selectors.pool_get(key=key)
            except NotFound:
                raise ProblemError(
                    "invalid_filter",
                    f"pool must be the key of a rating pool (GET /api/v1/leaderboards); "
                    f"there is no pool {key!r}",
                    status=400,
                ) from None
        rows, links = keyset_page(
            HISTORY_ORDER, rating_selectors.player_history(player=player, pool=pool), request
        )
        return Response({**links, "results": [rating_selectors.change_public(c) for c in rows]})


class RaceRatingAPIView(ApiView):
    """``GET /api/v1/races/{id}/rating``: how the race counts for ratings.

    ``PUT`` (organisers: ``games.change_race``): ``{"rated": false}`` marks the race
    unrated (a finished race is re-rated at once: its pool is recomputed from it on, without it);
    ``{"rated": true}`` counts it again.  Idempotent.
    """

    def get_permissions(self) -> list[Any]:
        if self.request.method == "PUT":
            return [IsOrganiser(OrganiserAction.SET_RACE_RATED)]
        return [AllowAny()]

    @extend_schema(responses={200: RaceRatingView, **_PROBLEMS}, tags=["ratings"], auth=[])
    def get(self, request: Request, race_id: UUID) -> Response:
        """How the race counts for ratings (``RaceRatingView``: ``rated``, ``status``,
        ``reason``, ``pool``, ``entries_rated``); anyone may read it.  Errors
        (problem+json): 404 ``not_found`` for no such race (or a draft tournament's, to
        anyone but organisers)."""
        race = race_get(race_id=race_id, include_drafts=may_see_drafts(request.user))
        return Response(rating_selectors.race_rating(race=race))

    @extend_schema(
        request=RaceRatingInput,
        responses={
            200: RaceRatingView,
            401: ProblemSerializer,
            403: ProblemSerializer,
            **_PROBLEMS,
        },
        tags=["ratings"],
    )
    def put(self, request: Request, race_id: UUID) -> Response:
        """Mark the race rated or not (organisers: ``games.change_race``); idempotent.

        Body ``{"rated": bool}``.  ``false`` takes the race out of its pool (a finished
        race is re-rated at once: its pool is recomputed from it on, without it);
        ``true`` counts it again.  Answers the race's rating view, as ``GET``.  Errors
        (problem+json): 400 ``validation_error``; 401; 403 ``permission_denied``; 404.
        """
        data = RaceRatingInput(data=request.data)
        data.is_valid(raise_exception=True)
        race = rating_services.race_set_rated(
            race_id=race_id, rated=data.validated_data["rated"], by=player_of(request)
        )
        return Response(rating_selectors.race_rating(race=race))
