"""Property-based tests over random seeds, presets, option combinations and legal play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    PRESETS,
    GameState,
    IllegalMoveError,
    MoveParseError,
    new_game,
    player_view,
    replay,
)
from tests.engine import reference
from tests.engine.strategies import ENGINE_SETTINGS, OPTION_VALUES

ALL_MOVES = reference.all_card_moves()
seeds = st.text("abcdefXYZ0123456789_-", min_size=1, max_size=64)
presets = st.sampled_from(sorted(PRESETS))
options = st.fixed_dictionaries(
    {}, optional={k: st.sampled_from(v) for k, v in OPTION_VALUES.items()}
)


def every_card(state: GameState) -> list[str]:
    d = state.to_dict()
    cards: list[str] = (
        d["reserve"]
        + d["stock"]
        + d["waste"]
        + [c for p in d["tableau"] for c in p]
        + [c for f in d["foundations"].values() for c in f]
    )
    return cards


def check_position(state: GameState, rng: random.Random) -> None:
    cards = every_card(state)
    assert len(cards) == 52
    assert len(set(cards)) == 52
    moves = state.legal_moves()
    assert len(moves) == len(set(moves))
    before = state.to_dict()
    for move in moves:
        state.play(move)
        state.undo()
        assert state.to_dict() == before, move
    unlisted = [m for m in ALL_MOVES if m not in moves]
    for move in rng.sample(unlisted, min(25, len(unlisted))):
        with pytest.raises(IllegalMoveError):
            state.play(move)
        assert state.to_dict() == before, move
    assert GameState.from_json(state.to_json()).to_dict() == before
    assert GameState.from_json(state.to_json()) == state


@ENGINE_SETTINGS
@given(seeds, presets, options, st.randoms(use_true_random=False), st.integers(0, 150))
def test_random_play_invariants(
    seed: str, preset: str, opts: dict[str, Any], rng: random.Random, steps: int
) -> None:
    state = new_game(preset, seed=seed, **opts)
    start = state.to_dict()
    played: list[str] = []
    for step in range(steps):
        moves = state.legal_moves()
        if not moves:
            break
        if step % 10 == 0:
            check_position(state, rng)
        move = rng.choice(moves)
        before = state.to_dict()
        assert state.play(move) == move
        played.append(move)
        # Undo after play is the identity.
        state.undo()
        assert state.to_dict() == before
        state.play(move)
    check_position(state, rng)
    # Replay equals incremental play.
    again = replay(played, preset, seed=seed, **opts)
    assert again.to_dict() == state.to_dict()
    # Undo all the way back is the dealt position.
    for _ in played:
        state.undo()
    assert state.to_dict() == start
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        state.undo()


@ENGINE_SETTINGS
@given(seeds, presets, st.randoms(use_true_random=False), st.integers(0, 80))
def test_player_view_hides_hidden_cards(
    seed: str, preset: str, rng: random.Random, steps: int
) -> None:
    state = new_game(preset, seed=seed)
    for _ in range(steps):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    d = state.to_dict()
    hidden = d["stock"] + ([] if state.rules.reserve_face_up else d["reserve"][:-1])
    view = player_view(state)
    text = repr(view)
    for card in hidden:
        assert card not in text
    assert view["legal_moves"] == state.legal_moves()
    assert view["cards_home"] == state.cards_home


@ENGINE_SETTINGS
@given(st.text(max_size=20))
def test_parse_never_crashes(text: str) -> None:
    state = new_game("classic", seed="1")
    before = state.to_dict()
    try:
        state.play(text)
    except (MoveParseError, IllegalMoveError):
        assert state.to_dict() == before
    else:
        assert state.to_dict() != before


def test_replay_reports_the_failing_move() -> None:
    with pytest.raises(IllegalMoveError, match=r"^move 13 \(draw\): stock is empty: redeal first"):
        replay(["draw"] * 13, "classic", seed="12345")
    with pytest.raises(MoveParseError, match=r"^move 1 \(QQ>t1\): "):
        replay(["QQ>t1"], "classic", seed="12345")


def test_engine_settings_repeat_the_same_examples_outside_ci() -> None:
    """The quick default run draws the same examples every time (no dependence on a random
    seed); only ``HYPOTHESIS_PROFILE=ci`` searches with fresh ones."""
    from tests.engine.strategies import SEARCH

    assert ENGINE_SETTINGS.derandomize is (not SEARCH)
