"""Game services: the end-of-game rule at creation, the pinned query count of a move,
and the move SQL cache keyed by database vendor (issue 18.6)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.engine import new_game
from games.models import Game, Move
from games.services import games as game_services
from games.services.games import game_start, move_play
from tests.factories import create_user

pytestmark = pytest.mark.django_db

#: Queries of one accepted move, from the service: lock the game (with its deal),
#: insert the move, update the game; plus the savepoint pair of ``atomic`` inside the
#: test's transaction.  A change here is a performance change: look before updating.
MOVE_QUERIES = 5


def test_a_deal_blocked_from_the_start_ends_at_creation(make_client: Any) -> None:
    assert new_game("classic", seed="295").status() == "blocked"  # the property used
    ann: APIClient = make_client("ann")
    resp = ann.post("/api/v1/games", {"seed": "295"}, format="json")
    assert resp.status_code == 201
    view = resp.json()
    assert (view["status"], view["legal_moves"]) == ("blocked", [])
    assert view["finished_at"] is not None
    assert view["deal"]["revealed"] is True  # a practice game over shows its deal
    game = Game.objects.get(id=view["id"])
    assert (game.status, game.is_over) == ("blocked", True)
    move = ann.post(f"/api/v1/games/{game.id}/moves", {"move": "draw"}, format="json")
    assert (move.status_code, move.json()["code"]) == (409, "game_over")
    assert Move.objects.filter(game=game).count() == 0
    # A playable deal still starts playing.
    assert game_start(player=ann.user, seed="1").status == "playing"  # type: ignore[attr-defined]


def test_a_move_takes_a_fixed_number_of_queries() -> None:
    player = create_user("ann")
    game = game_start(player=player, seed="1")
    for n in range(3):
        with CaptureQueriesContext(connection) as ctx:
            out = move_play(game_id=game.id, player=player, move="draw", expected_move_number=n)
        assert out.game.move_number == n + 1
        assert len(ctx.captured_queries) == MOVE_QUERIES, [q["sql"] for q in ctx]


def test_the_move_sql_cache_is_keyed_by_vendor() -> None:
    game_services._update_sql.cache_clear()
    player = create_user("ann")
    game = game_start(player=player, seed="1")
    move_play(game_id=game.id, player=player, move="draw")
    keys = game_services._update_sql.cache_info()
    assert keys.currsize == 1
    sql = game_services._update_sql(connection.vendor, "t", "id", ("a",))
    other = "postgresql" if connection.vendor != "postgresql" else "sqlite"
    assert game_services._update_sql(other, "t", "id", ("a",)) == sql  # same connection ops
    assert game_services._update_sql.cache_info().currsize == 3  # one entry per vendor key
