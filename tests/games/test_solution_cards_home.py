"""``games.selectors.games.solution_cards_home``: the cards home after each move of a
winning line, from the deal or after the game's own moves, and nothing while the deal is
hidden (RULES.md 7)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import new_game
from games.engine.solver import solve
from games.selectors.games import solution_cards_home
from games.services.errors import DealSecret
from games.services.games import game_end, game_start, move_play
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def _homes(line: list[str], before: list[str] = []) -> list[int]:  # noqa: B006
    state = new_game("classic", seed="7")
    for move in before:
        state.play(move)
    out = []
    for move in line:
        state.play(move)
        out.append(state.cards_home)
    return out


def test_cards_home_after_each_move_from_the_deal_and_from_where_the_game_ended() -> None:
    player: Any = create_user("homes")
    line = solve(new_game("classic", seed="7"), max_seconds=None).moves
    game = game_start(player=player, seed="7")
    with pytest.raises(DealSecret):  # still playing: the deal is hidden
        solution_cards_home(game, line[:3])
    for n, move in enumerate(line[:4]):
        move_play(game_id=game.id, player=player, move=move, expected_move_number=n)
    game_end(game_id=game.id, player=player)
    game.refresh_from_db()
    from_deal = solution_cards_home(game, line)
    assert len(from_deal) == len(line)
    assert from_deal == _homes(line)
    assert from_deal[-1] == 52
    assert from_deal[0] == 2  # seed 7's first move puts the nine of clubs home
    rest = line[4:]
    assert solution_cards_home(game, rest, after_moves=4) == _homes(rest, line[:4])
