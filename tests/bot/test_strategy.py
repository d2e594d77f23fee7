"""The bot's default strategy, played against the engine's player view (no server)."""

from __future__ import annotations

from typing import Any

import pytest

from canfield_bot.strategy import DefaultStrategy, first_legal, position_key
from games.engine import new_game, player_view


def _play(seed: str, limit: int = 5000) -> tuple[str, int, int]:
    state = new_game("classic", seed=seed)
    strategy = DefaultStrategy()
    moves = 0
    while state.status() == "playing" and moves < limit:
        view = player_view(state)
        move = strategy(view)
        if move is None:
            return "stuck", state.cards_home, moves
        assert move in view["legal_moves"]
        state.play(move)
        moves += 1
    return state.status(), state.cards_home, moves


@pytest.mark.parametrize("seed", [str(n) for n in range(1, 21)])
def test_default_strategy_plays_legal_moves_and_terminates(seed: str) -> None:
    status, cards, moves = _play(seed)
    assert status in {"won", "blocked", "stuck"}
    assert moves < 5000
    # The reported count is the game's own: replaying the same deterministic play gives
    # the same end, a win is exactly 52 cards home, and anything else is fewer.
    assert _play(seed) == (status, cards, moves)
    assert (status == "won") == (cards == 52)
    state = new_game("classic", seed=seed)
    assert cards >= state.cards_home  # never fewer than the dealt base card(s)


def test_foundation_moves_come_first() -> None:
    view: dict[str, Any] = player_view(new_game("classic", seed="1"))
    view["legal_moves"] = ["draw", "QH>t2", "5S>f"]
    assert DefaultStrategy()(view) == "5S>f"


def test_a_move_is_not_repeated_from_the_same_position() -> None:
    view: dict[str, Any] = player_view(new_game("classic", seed="1"))
    view["legal_moves"] = ["draw", "XX>t1"]
    strategy = DefaultStrategy()
    assert strategy(view) == "XX>t1"
    assert strategy(view) == "draw"  # same visible position: XX>t1 was tried


def test_gives_up_after_a_stock_pass_without_progress() -> None:
    view: dict[str, Any] = player_view(new_game("classic", seed="1"))
    view["legal_moves"] = ["redeal"]
    strategy = DefaultStrategy()
    assert strategy(view) == "redeal"  # first pass: something may have changed
    assert strategy(view) is None  # nothing played since the last redeal


def test_position_key_ignores_clocks_and_move_number() -> None:
    view: dict[str, Any] = player_view(new_game("classic", seed="7"))
    other = {**view, "move_number": 99, "deadline": "later", "legal_moves": []}
    assert position_key(view) == position_key(other)
    assert first_legal({"legal_moves": []}) is None
