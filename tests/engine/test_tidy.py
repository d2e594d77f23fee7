"""Readable solution lines (issue [solver-plus] item 1): games.engine.tidy.

Seeds are chosen for the property each test needs (a won classic deal whose first
line has detours), and every line is solved with a node budget, so the results do
not depend on the machine's speed.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import new_game
from games.engine.cards import parse_card
from games.engine.solver import solve
from games.engine.state import GameState
from games.engine.tidy import _position, tidy_line


def _won_line(variant: str, seed: str, **options: Any) -> tuple[GameState, list[str]]:
    state = new_game(variant, seed=seed, **options)
    result = solve(state, max_nodes=3_000_000, max_seconds=None)
    assert result.result == "won", f"{variant} seed {seed} should be proven won"
    return state, result.moves


def _replay(state: GameState, moves: list[str]) -> GameState:
    game = state.copy()
    for move in moves:
        game.play(move)
    return game


@pytest.mark.parametrize(
    ("variant", "seed", "options"),
    [
        ("classic", "1", {}),
        ("classic", "7", {}),
        ("classic", "3", {"draw": 1}),
        ("storehouse", "2", {}),
    ],
)
def test_tidied_line_still_wins_and_is_never_longer(
    variant: str, seed: str, options: dict[str, Any]
) -> None:
    state, moves = _won_line(variant, seed, **options)
    tidy = tidy_line(state, moves)
    assert _replay(state, tidy).cards_home == 52
    assert len(tidy) <= len(moves)
    assert state.cards_home == new_game(variant, seed=seed, **options).cards_home  # untouched


def test_seed_1_line_loses_its_detours() -> None:
    """Classic seed 1's first line (666 moves) has detours; the tidied one has none left."""
    state, moves = _won_line("classic", "1")
    tidy = tidy_line(state, moves)
    assert len(tidy) < len(moves) - 40
    # Rewrite 1's invariant: no position repeats, even up to pile order.
    positions = []
    game = state.copy()
    positions.append(_position(game))
    for move in tidy:
        game.play(move)
        positions.append(_position(game))
    assert len(set(positions)) == len(positions)
    # Rewrite 2's invariant: no single card-to-tableau move can be dropped.
    for k, move in enumerate(tidy):
        if ">t" not in move:
            continue
        rest = tidy[:k] + tidy[k + 1 :]
        game = state.copy()
        try:
            for m in rest:
                game.play(m)
        except ValueError:
            continue
        assert game.cards_home != 52, f"move {k} ({move}) was not needed"


def test_planted_round_trip_and_empty_stock_pass_are_removed() -> None:
    """A detour inserted into a tidy line (a card there and back, a pass that plays
    nothing) is taken out again."""
    state, moves = _won_line("classic", "7")
    tidy = tidy_line(state, moves)
    # Find a point where a tableau top card can go to another pile and come back.
    game = state.copy()
    for k, move in enumerate(tidy):
        there = [m for m in game.legal_moves() if ">t" in m]
        for out in there:
            trial = game.copy()
            card = out.split(">")[0]
            home_pile = next(
                (
                    f"t{i + 1}"
                    for i, p in enumerate(game.tableau)
                    if p and p[-1] == parse_card(card)
                ),
                None,
            )
            if home_pile is None:
                continue
            trial.play(out)
            back = f"{card}>{home_pile}"
            if back not in trial.legal_moves():
                continue
            detour = [*tidy[:k], out, back, *tidy[k:]]
            assert _replay(state, detour).cards_home == 52
            assert len(tidy_line(state, detour)) <= len(tidy)
            return
        game.play(move)
    pytest.fail("no reversible tableau move found on seed 7's line")


def test_a_stock_pass_that_plays_nothing_is_cut() -> None:
    state, moves = _won_line("classic", "7")
    tidy = tidy_line(state, moves)
    game = state.copy()
    # At the start, run through the whole stock and redeal: nothing is played.
    loop: list[str] = []
    while game.stock:
        loop.append("draw")
        game.play("draw")
    loop.append("redeal")
    detour = loop + tidy
    assert _replay(state, detour).cards_home == 52
    assert len(tidy_line(state, detour)) <= len(tidy)


def test_no_budget_returns_the_canonical_line() -> None:
    state, moves = _won_line("classic", "1")
    lower = [m.lower() for m in moves]
    assert tidy_line(state, lower, max_plays=0) == moves


def test_a_line_that_does_not_win_is_refused() -> None:
    state, moves = _won_line("classic", "7")
    with pytest.raises(AssertionError, match="cards home, not 52"):
        tidy_line(state, moves[:-1])
    with pytest.raises(AssertionError, match="refused at move 1"):
        tidy_line(state, ["redeal", *moves])


def test_batch_rows_carry_tidied_lines_unless_told_not_to() -> None:
    from games.engine.solver_batch import run_batch

    state, raw = _won_line("classic", "1")
    tidy_rows = run_batch("classic", ["1"], workers=1, budget_seconds=None, budget_nodes=3_000_000)
    raw_rows = run_batch(
        "classic", ["1"], workers=1, budget_seconds=None, budget_nodes=3_000_000, tidy=False
    )
    assert raw_rows[0]["moves"].split() == raw
    assert tidy_rows[0]["moves"].split() == tidy_line(state, raw)
    assert len(tidy_rows[0]["moves"].split()) < len(raw)
