"""The solver in the product: proven-winnable practice deals and a finished game's solution."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import new_game
from games.models import Deal, Game

pytestmark = pytest.mark.django_db


def start(client: APIClient, **body: Any) -> dict[str, Any]:
    resp = client.post("/api/v1/games", body, format="json")
    assert resp.status_code == 201, resp.content
    return dict(resp.json())


def test_winnable_practice_deal_is_proven(player: APIClient) -> None:
    game = start(player, variant="classic", winnable=True)
    deal = Deal.objects.get(games__id=game["id"])
    assert deal.solver_result == "won"
    assert deal.seed is not None
    # The seed stays secret while the game runs; the proof replays to a win.
    assert game["deal"]["seed"] is None
    state = new_game("classic", seed=deal.seed)
    for move in deal.solver_moves:
        state.play(move)
    assert state.cards_home == 52


def test_winnable_with_a_seed_is_refused(player: APIClient) -> None:
    resp = player.post("/api/v1/games", {"winnable": True, "seed": "5"}, format="json")
    assert resp.status_code == 400
    assert resp.json()["code"] == "invalid_deal"
    assert Game.objects.count() == 0


def test_solution_is_secret_until_the_game_is_over(player: APIClient) -> None:
    game = start(player, seed="0")
    resp = player.get(f"/api/v1/games/{game['id']}/solution")
    assert resp.status_code == 409
    assert resp.json()["code"] == "deal_secret"
    assert Deal.objects.get(games__id=game["id"]).solver_result == ""


def test_solution_of_a_winnable_deal_replays(player: APIClient) -> None:
    game = start(player, seed="0")
    player.post(f"/api/v1/games/{game['id']}/resign")
    body = player.get(f"/api/v1/games/{game['id']}/solution").json()
    assert body["result"] == "won"
    state = new_game("classic", seed="0")
    for move in body["moves"]:
        state.play(move)
    assert state.cards_home == 52
    # Cached on the deal: a second request returns the same line.
    assert player.get(f"/api/v1/games/{game['id']}/solution").json() == body


def test_solution_of_a_lost_deal(player: APIClient) -> None:
    game = start(player, seed="2")
    player.post(f"/api/v1/games/{game['id']}/resign")
    body = player.get(f"/api/v1/games/{game['id']}/solution").json()
    assert body["result"] == "lost"
    assert body["moves"] == []
    assert body["nodes"] > 0
