"""Leaderboard pages: the rating pools, and one pool's players best first.

Thin views over :mod:`games.selectors.ratings`; ratings are read off finished
races only, so nothing here can tell anything about a running race (RULES.md 7).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.rating_model import PROVISIONAL_RACES
from games.selectors.keyset import InvalidCursor
from games.selectors.ratings import (
    BOARD_ORDER,
    leaderboard,
    leaderboard_places,
    leaderboard_position,
    pool_get,
    pool_public,
    pools_list,
    rating_public,
)
from games.services.errors import NotFound
from web.board import pool_words
from web.middleware import reads_query
from web.views.common import get_or_head_only, not_found

#: Players on one page of a leaderboard.
PAGE_SIZE = 50


def pool_context(public: dict[str, Any]) -> dict[str, Any]:
    """A pool as the pages show it: the API's fields and its name in words."""
    return {**public, **pool_words(public["variant"], public["options"])}


def _page_url(request: HttpRequest, cursor: str | None) -> str | None:
    """This page's query string with ``cursor`` (``None`` when there is no such page)."""
    if cursor is None:
        return None
    query = request.GET.copy()
    query["cursor"] = cursor
    return "?" + query.urlencode()


@get_or_head_only
def leaderboards(request: HttpRequest) -> HttpResponse:
    """``GET /leaderboards/``: every rating pool, named in words, with its players and
    rated races."""
    pools = [pool_context(pool_public(p, p.players)) for p in pools_list()]  # type: ignore[attr-defined]
    return render(
        request, "web/leaderboards.html", {"pools": pools, "provisional_races": PROVISIONAL_RACES}
    )


@reads_query("cursor", "provisional")
@get_or_head_only
def pool_leaderboard(request: HttpRequest, pool: str) -> HttpResponse:
    """``GET /leaderboards/<pool>/``: the pool's players best first (display rating,
    rated races, provisional mark), :data:`PAGE_SIZE` a page.

    Pages follow the API's keyset order (``mu - 3 sigma`` descending, then player id;
    ``?cursor=`` from the page's links), so a page never skips or repeats a player.
    ``?provisional=false`` hides provisional players.  404 for an unknown pool; a
    cursor the page did not give out answers 400 with the first page.
    """
    try:
        found = pool_get(key=pool)
    except NotFound:
        raise not_found() from None
    established = request.GET.get("provisional") == "false"
    board = leaderboard(pool=found, provisional=False if established else None)
    status, error = 200, ""
    try:
        page = BOARD_ORDER.window(board, cursor=request.GET.get("cursor") or None, size=PAGE_SIZE)
    except InvalidCursor:
        status, error = 400, "cursor"
        page = BOARD_ORDER.window(board, cursor=None, size=PAGE_SIZE)
    places = leaderboard_places(board=board, rows=list(page.rows))
    rows = [rating_public(r, place) for r, place in zip(page.rows, places, strict=True)]
    mine = None
    if request.user.is_authenticated:
        own = board.filter(player=request.user).first()
        if own is not None:
            mine = rating_public(own, leaderboard_position(board=board, row=own))
    return render(
        request,
        "web/leaderboard.html",
        {
            "pool": pool_context(pool_public(found)),
            "rows": rows,
            "mine": mine,
            "established": established,
            "next_url": _page_url(request, page.next_cursor),
            "previous_url": _page_url(request, page.previous_cursor),
            "provisional_races": PROVISIONAL_RACES,
            "error": error,
        },
        status=status,
    )
