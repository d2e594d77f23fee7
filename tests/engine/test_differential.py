# ruff: noqa: S311
"""Differential tests: the engine against the independent model in ``reference.py``.

Legal-move sets, the positions moves produce, refusals of unlisted moves and
the blocked status (RULES.md 3.9) are compared on many random positions over
every preset and random option combinations.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import GameState, IllegalMoveError
from tests.engine import reference
from tests.engine.strategies import ENGINE_SETTINGS, random_game, random_walk, synthetic_position

ALL_MOVES = reference.all_card_moves()


def compare(state: GameState, rng: random.Random, *, check_status: bool, unlisted: int) -> None:
    pos = state.to_dict()
    engine_moves = state.legal_moves()
    assert len(engine_moves) == len(set(engine_moves)), f"duplicates in {engine_moves}"
    expected = reference.legal_moves(pos)
    assert set(engine_moves) == expected, (
        f"legal moves differ on {pos}\n"
        f"engine only: {sorted(set(engine_moves) - expected)}\n"
        f"reference only: {sorted(expected - set(engine_moves))}"
    )
    for move in engine_moves:
        after = state.copy()
        assert after.play(move) == move
        assert after.to_dict() == reference.apply(pos, move), f"{move} on {pos}"
        after.undo()
        assert after.to_dict() == pos
    others = [m for m in ALL_MOVES if m not in expected]
    for move in rng.sample(others, min(unlisted, len(others))):
        with pytest.raises(IllegalMoveError):
            state.play(move)
        assert state.to_dict() == pos, f"refused {move} changed the position"
    if check_status:
        assert state.status() == reference.status(pos), pos


@pytest.mark.parametrize("chunk", range(8))
def test_random_play_positions_match_reference(chunk: int) -> None:
    rng = random.Random(1000 + chunk)
    for _ in range(60):
        state = random_game(rng)
        for _ in range(rng.randint(4, 10)):
            compare(state, rng, check_status=rng.random() < 0.3, unlisted=20)
            if not random_walk(state, rng, rng.randint(1, 25)):
                break
        compare(state, rng, check_status=True, unlisted=20)


@pytest.mark.parametrize("chunk", range(4))
def test_synthetic_positions_match_reference(chunk: int) -> None:
    rng = random.Random(2000 + chunk)
    for _ in range(400):
        compare(synthetic_position(rng), rng, check_status=True, unlisted=30)


@ENGINE_SETTINGS
@given(st.randoms(use_true_random=False), st.integers(0, 120))
def test_hypothesis_positions_match_reference(rng: random.Random, steps: int) -> None:
    state = random_game(rng)
    random_walk(state, rng, steps)
    compare(state, rng, check_status=True, unlisted=40)
