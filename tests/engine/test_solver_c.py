"""Tests of the solver's C core (games/engine/_solver.c) against the Python search.

The C core runs the same search as ``games/engine/solver.py`` with the same
move order, so on any position and the same node budget both give the same
verdict, the same node count and the same winning line.  Every C win is also
replayed with the engine, and its ``lost`` verdicts are checked against the
plain exhaustive search of test_solver.py on small positions.

The extension is built by the package install (``setup.py``, optional).
Locally these tests skip when it is missing; under ``CI=true`` they FAIL, so
that CI proves the install builds it.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from games.engine import PRESETS, GameState, make_rules, new_game, replay
from games.engine import solver as solver_mod
from games.engine.rules import MAX_REDEALS
from games.engine.solver import LOST, UNKNOWN, WON, build_fits, c_available, solve, verify_win
from tests.engine.test_solver import (
    OPTION_SETS,
    STRICT,
    WOLTER,
    assert_restarts_run,
    position,
    random_positions,
    reference,
    unchained,
)

IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(autouse=True)
def _needs_c_core() -> None:
    if not c_available():
        reason = "the C solver core games.engine._solver is not built (python3 dev.py setup)"
        if IN_CI:
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(reason)


#: Option sets beyond test_solver.OPTION_SETS: the remaining build and auto-fill cases.
MORE_OPTION_SETS: list[dict[str, object]] = [
    {"build": "same-suit"},
    {"build": "any-suit", "tableau_moves": "any-run"},
    {"autofill": False},
    {"autofill": False, "empty_pile": "waste-only", "tableau_moves": "any-run"},
    {"redeals": 2, "draw": 1, "tableau_wrap": "base-relative"},
]
ALL_OPTION_SETS = OPTION_SETS + MORE_OPTION_SETS


def both(state: GameState, **kwargs: object) -> tuple[solver_mod.SolveResult, ...]:
    c = solve(state, engine="c", **kwargs)  # type: ignore[arg-type]
    py = solve(state, engine="python", **kwargs)  # type: ignore[arg-type]
    return c, py


def assert_same(state: GameState, c: solver_mod.SolveResult, py: solver_mod.SolveResult) -> None:
    assert (c.result, c.nodes, c.moves) == (py.result, py.nodes, py.moves), state.to_json()
    if c.result == WON:
        verify_win(state, c.moves)


# ------------------------------------------------------------------- tests


@pytest.mark.parametrize("options", ALL_OPTION_SETS)
def test_c_matches_python_and_exhaustive_search_on_small_positions(
    options: dict[str, object],
) -> None:
    rng = random.Random("c:" + repr(sorted(options.items())))  # noqa: S311
    for variant in ("classic", "draw-one", "storehouse"):
        rules = make_rules(variant, **options)
        for state in random_positions(rng, rules, 20):
            expect = reference(state)
            for safe_auto in (True, False):
                c, py = both(state, max_seconds=None, max_nodes=None, safe_auto=safe_auto)
                assert c.result == expect, state.to_json()
                assert_same(state, c, py)


#: (order, shuffle seed) pairs of the restarts (solver.py, "Restarts"); order 4 is the
#: heuristic order, with a score jitter when shuffled.
ORDERS_AND_SHUFFLES = [
    (0, 0),
    (1, 0),
    (2, 0),
    (0, 7),
    (1, 99),
    (2, 12345),
    (3, 5),
    (3, 2**63 + 1),
    (4, 0),
    (4, 11),
    (4, 2**64 - 1),
]


@pytest.mark.parametrize(("order", "shuffle"), ORDERS_AND_SHUFFLES)
def test_every_move_order_is_complete_and_the_same_in_c_and_python(
    order: int, shuffle: int
) -> None:
    # Order and shuffle change only which child is tried first: the verdict is the
    # exhaustive search's, and the C core takes the same steps as the Python search.
    rng = random.Random(f"order:{order}:{shuffle}")  # noqa: S311
    for options in ({}, WOLTER, {"autofill": False, "draw": 1}):
        for variant in ("classic", "storehouse", "rainbow"):
            rules = make_rules(variant, **options)
            for state in random_positions(rng, rules, 8):
                expect = reference(state)
                args = (None, None, True, None, order, shuffle)
                c = solver_mod._search_once(state, True, *args)
                py = solver_mod._search_once(state, False, *args)
                assert c[3] is False  # no memory cap here
                assert c[0] == expect, state.to_json()
                assert c == py, state.to_json()
                if c[0] == WON:
                    verify_win(state, c[1])


def test_restarts_are_the_same_in_c_and_python() -> None:
    # Seed 1 needs a restart within 200,000 positions (tests/engine/test_solver.py).
    state = new_game("classic", seed="1")
    c, py = both(state, max_seconds=None, max_nodes=200_000)
    assert c.result == WON
    assert_same(state, c, py)


def test_heuristic_restarts_are_the_same_in_c_and_python() -> None:
    # Rainbow seed 13 is won by a heuristic restart (move order 4 with a jitter):
    # after the first search's first 2,500 positions (5%), before the first search
    # goes on at 17,500 (5% + 30%).
    state = new_game("rainbow", seed="13")
    c, py = both(state, max_seconds=None, max_nodes=50_000)
    assert c.result == WON
    assert 2_500 < c.nodes < 17_500
    assert_same(state, c, py)


#: Node slices for advancing one search (0 and 1 included: a slice may expand nothing).
SLICES = [1, 0, 5, 1, 333, 4_000, 20_000, 75_000]


@pytest.mark.parametrize(
    ("variant", "seed", "options", "order", "shuffle"),
    [
        ("classic", "3", {}, 0, 0),  # won after 306 positions
        ("superior", "373", {}, 0, 0),  # lost after 26,198 positions
        ("classic", "1", {}, 0, 0),  # undecided after all the slices
        ("rainbow", "13", {}, 4, 7),
        ("classic", "5", WOLTER, 3, 11),
        ("storehouse", "4", {}, 1, 5),
    ],
)
def test_a_search_advanced_in_slices_takes_the_steps_of_one_search(
    variant: str, seed: str, options: dict[str, Any], order: int, shuffle: int
) -> None:
    # solve() pauses its first search for the restarts and goes on with it later
    # (solver.py, "Restarts"): a search advanced in slices of n1, n2, ... positions
    # must give the verdict, node count and line of one search with n1 + n2 + ...,
    # in the C core and in the Python search alike.
    state = new_game(variant, seed=seed, **options)
    budget = sum(SLICES)
    whole = solver_mod._OneSearch(state, True, True, None, order, shuffle).advance(budget, None)
    for use_c in (True, False):
        search = solver_mod._OneSearch(state, use_c, True, None, order, shuffle)
        counted = 0
        for piece in SLICES:
            verdict, moves, nodes, memory = search.advance(piece, None)
            counted += nodes
            assert counted == search.nodes
            if verdict != UNKNOWN:
                break
            assert search.nodes == counted <= budget + 1
        assert (verdict, moves, search.nodes, memory) == (whole[0], whole[1], whole[2], False)
        again = search.advance(10, None)  # a decided search gives its answer again
        assert again[:2] == whole[:2] if verdict != UNKNOWN else again[0] == UNKNOWN
    if whole[0] == WON:
        verify_win(state, whole[1])


@pytest.mark.parametrize("options", ALL_OPTION_SETS)
def test_c_matches_python_on_larger_positions(options: dict[str, object]) -> None:
    # 10 to 24 cards out: too big for the exhaustive search, not for a node budget.
    rng = random.Random("big:" + repr(sorted(options.items())))  # noqa: S311
    for variant in ("classic", "draw-one", "superior", "storehouse"):
        rules = make_rules(variant, **options)
        for state in random_positions(rng, rules, 8, out_lo=10, out_hi=24):
            c, py = both(state, max_seconds=None, max_nodes=3_000)
            assert_same(state, c, py)


@pytest.mark.parametrize(
    ("variant", "options"),
    [(v, {}) for v in PRESETS] + [("classic", WOLTER), ("classic", STRICT)],
)
def test_c_matches_python_on_full_deals(variant: str, options: dict[str, Any]) -> None:
    # Same node budget: same verdict (unknown included), node count and line.
    for seed in range(6):
        state = new_game(variant, seed=str(seed), **options)
        c, py = both(state, max_seconds=None, max_nodes=15_000)
        assert_same(state, c, py)


def test_c_wins_replay_and_decides_what_python_decides() -> None:
    decided = 0
    for seed in range(20):
        s = str(seed)
        state = new_game("classic", seed=s)
        py = solve(state, engine="python", max_seconds=None, max_nodes=20_000)
        c = solve(state, engine="c", max_seconds=None, max_nodes=3_000_000)
        if py.result != UNKNOWN:
            assert c.result == py.result, s
        if c.result == WON:
            assert replay(c.moves, "classic", seed=s).cards_home == 52
        decided += c.result != UNKNOWN
    assert decided >= 19


def test_known_positions_with_the_c_core() -> None:
    rules = make_rules("classic")
    state = position(rules, 0, [13, 13, 12, 10], ["JS", "QS"], [["KS", "KH"], [], [], []], [])
    res = solve(state, engine="c")
    assert res.result == WON
    assert res.moves[0] == "QS>t1"
    after = state.copy()
    after.play("KH>f")
    assert solve(after, engine="c").result == LOST
    needs_redeal = position(
        make_rules("classic", draw=1),
        0,
        [10, 10, 13, 13],
        ["KD"],
        [[], [], [], []],
        ["QC", "QD", "KC", "JC", "JD"],
    )
    res = solve(needs_redeal, engine="c")
    assert res.result == WON
    assert "redeal" in res.moves


def test_budgets_give_unknown() -> None:
    state = new_game("classic", seed="4")
    res = solve(state, engine="c", max_nodes=50, max_seconds=None)
    # 50, not 51: the search that ends it is the first search going on, and the
    # position it paused on was counted once, in its first slice.
    assert (res.result, res.moves, res.nodes) == (UNKNOWN, [], 50)
    assert solve(state, engine="c", max_nodes=None, max_seconds=0.0).result == UNKNOWN


def _raw(state: GameState, max_nodes: int, max_bytes: int) -> tuple[str, list[str], int, str]:
    from games.engine import _solver

    search = _solver.begin(*solver_mod._c_arguments(state, True, max_bytes, 0, 0))
    verdict, moves, nodes, reason, _held = _solver.advance(search, max_nodes, -1.0)
    return verdict, moves, nodes, reason


def test_memory_cap_gives_unknown_never_a_crash() -> None:
    state = new_game("classic", seed="4")  # about 530,000 positions to a win
    for cap in (0, 1_000, 100_000, 3_000_000):
        res = solve(state, engine="c", max_nodes=None, max_seconds=None, max_bytes=cap)
        assert res.result == UNKNOWN, cap
        assert _raw(state, -1, cap)[3] == "memory"
    # with restarts too: the memory cap ends them (unknown at once, no endless restarts)
    for cap in (0, 1_000, 200_000):
        res = solve(state, engine="c", max_nodes=50_000_000, max_seconds=None, max_bytes=cap)
        assert res.result == UNKNOWN, cap
        # The cap ended the search (and the restarts) long before the node budget.
        assert res.nodes < 1_000_000, (cap, res.nodes)
    full = _raw(state, 2_000_000, -1)
    assert full[0] == WON
    assert _raw(state, 1_000, -1)[3] == "nodes"


def test_kept_tables_are_cleared_for_reuse_and_count_against_the_cap() -> None:
    state = new_game("classic", seed="15", **STRICT)  # lost after 34,801 positions
    solver_mod.release_tables()

    def run(**kwargs: Any) -> tuple[str, int]:
        res = solve(state, engine="c", max_nodes=None, max_seconds=None, restarts=False, **kwargs)
        return res.result, res.nodes

    assert run(keep_tables=True) == (LOST, 34_801)
    # The table doubled from 1024 slots of 3 words to 131,072: every size is kept.
    series = (2 * 131_072 - 1_024) * 3 * 8
    # Run again, the search takes every table from the kept blocks: one not
    # cleared would make positions look seen (fewer positions, a wrong "lost").
    assert run(keep_tables=True) == (LOST, 34_801)
    assert solver_mod.release_tables() == series
    assert solver_mod.release_tables() == 0
    # Kept blocks count against the cap of a search whose table grows: under a
    # 400,000-byte cap, the larger kept blocks are given back.
    assert run(keep_tables=True) == (LOST, 34_801)
    assert run(keep_tables=True, max_bytes=400_000)[0] == UNKNOWN
    assert 0 < solver_mod.release_tables() <= 400_000
    # By default solve() gives them back itself.
    assert run() == (LOST, 34_801)
    assert solver_mod.release_tables() == 0


def test_near_the_memory_cap_the_table_grows_by_the_largest_step_that_fits() -> None:
    from games.engine import _solver

    state = new_game("classic", seed="15", **STRICT)  # lost after 34,801 positions
    slot = 3 * 8  # bytes: a key of 3 words, no dead sets

    def run(cap: int, max_nodes: int = -1) -> tuple[str, int, str, int]:
        solver_mod.release_tables()
        search = _solver.begin(*solver_mod._c_arguments(state, True, cap, 0, 0))
        verdict, _moves, nodes, reason, held = _solver.advance(search, max_nodes, -1.0)
        del search
        solver_mod.release_tables()
        return verdict, nodes, reason, held

    # With no cap the table doubles from 1,024 slots to 131,072; the rest is stacks.
    verdict, nodes, _reason, held = run(-1)
    assert (verdict, nodes) == (LOST, 34_801)
    stacks = held - 131_072 * slot
    assert 0 < stacks < 200_000
    # Under these caps the table of 32,768 slots and a doubled one do not fit
    # together: it fills on to 3/4 (24,576 positions), then grows by 7/4, 3/2 or
    # 5/4, the most that fits, and the search takes the same steps to the end.
    for slots in (57_344, 49_152, 40_960):
        verdict, nodes, _reason, held = run(32_768 * slot + slots * slot + 200_000)
        assert (verdict, nodes, held) == (LOST, 34_801, stacks + slots * slot)
    # It grows at 3/4, not at 1/2 (fresh memory is slow to fault in): after 24,000
    # positions the capped table still has 32,768 slots where the uncapped one
    # doubled to 65,536 (at 16,384), after 25,000 it has 57,344 (the same stacks).
    cap = 32_768 * slot + 57_344 * slot + 200_000
    for nodes, slots in ((24_000, 32_768), (25_000, 57_344)):
        assert run(-1, nodes)[3] - run(cap, nodes)[3] == (65_536 - slots) * slot
    # Not even 5/4 fits: the table fills on to 7/8 (28,672 positions) and the
    # memory cap ends the search.
    verdict, nodes, reason, _held = run(32_768 * slot + 40_960 * slot - 1)
    assert (verdict, nodes, reason) == (UNKNOWN, 28_672, "memory")


@pytest.mark.parametrize("max_bytes", [-1, None])
def test_a_cap_that_means_no_cap_leaves_the_restarts_alone(
    monkeypatch: pytest.MonkeyPatch, max_bytes: int | None
) -> None:
    # The C core reads a negative cap as none: it must not leave the restarts no room.
    assert_restarts_run(monkeypatch, "c", max_bytes)


def test_a_search_without_room_for_its_first_table_holds_nothing() -> None:
    from games.engine import _solver

    state = new_game("classic", seed="4")
    search = _solver.begin(*solver_mod._c_arguments(state, True, 100, 0, 0))
    assert _solver.advance(search, 1_000, -1.0) == ("unknown", [], 0, "memory", 0)
    held = _solver.begin(*solver_mod._c_arguments(state, True, 1 << 30, 0, 0))
    verdict, _moves, nodes, reason, bytes_held = _solver.advance(held, 1_000, -1.0)
    assert (verdict, nodes, reason) == ("unknown", 1_001, "nodes")
    assert bytes_held > 1_000 * 8  # a table of at least its 1,000 keys


def test_engine_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game("classic", seed="1")
    with pytest.raises(ValueError, match="unknown solver engine"):
        solve(state, engine="fortran")
    monkeypatch.setenv("CANFIELD_SOLVER", "python")
    assert not solver_mod._use_c(None)
    monkeypatch.setenv("CANFIELD_SOLVER", "auto")
    assert solver_mod._use_c(None)
    # The most redeals the rules allow fit the C core's key (16 bits): the C core takes
    # them and agrees with the Python search.
    many = new_game("classic", seed="1", redeals=MAX_REDEALS)
    assert solver_mod._use_c("auto")
    c, py = (solve(many, engine=e, max_nodes=2000) for e in ("c", "python"))
    assert (c.result, c.nodes, c.moves) == (py.result, py.nodes, py.moves)
    monkeypatch.setattr(solver_mod, "_csolver", None)
    assert not solver_mod._use_c("auto")
    with pytest.raises(RuntimeError, match="not built"):
        solve(state, engine="c")


def test_c_core_rejects_bad_input() -> None:
    from games.engine import _solver

    fits = build_fits("alternate-colour", "modulo", 0)
    piles = (b"", b"", b"", b"")
    no_found = b"\x00\x00\x00\x00"
    tail = (0, 3, 1, 1, 0, 1, -1)  # base, draw, autofill, empty_any, mode, safe_auto, max_bytes
    with pytest.raises(ValueError, match="repeated"):
        _solver.begin(b"\x01\x01", piles, b"", 0, -1, no_found, fits, *tail, 0, 0)
    with pytest.raises(ValueError, match="bad solver arguments"):
        _solver.begin(b"", piles, b"", 0, -1, b"\x00", fits, *tail, 0, 0)
    with pytest.raises(ValueError, match="bad solver arguments"):  # move order 0..4
        _solver.begin(b"", piles, b"", 0, -1, no_found, fits, *tail, 5, 0)
    with pytest.raises(ValueError, match="bad solver arguments"):  # order 3 needs a seed
        _solver.begin(b"", piles, b"", 0, -1, no_found, fits, *tail, 3, 0)


def test_a_search_stopped_by_its_memory_cap_gives_away_only_positions_it_proved_lost() -> None:
    # solver.py, "Dead sets": a restart stopped by the C core's memory cap may hold
    # keys it never expanded; they must never pass for dead.  Classic seed 9 is won:
    # whatever a capped restart gives the first search, the first search still wins.
    state = new_game("classic", seed="9")
    stopped = 0
    for kib in range(40, 400, 20):
        first = solver_mod._OneSearch(state, True, True, None, 0, 0, True)
        assert first.advance(200, None)[0] == UNKNOWN
        restart = solver_mod._OneSearch(state, True, True, kib * 1024, 1, 77, True, first)
        verdict, _moves, _nodes, out_of_memory = restart.advance(None, None)
        if out_of_memory:
            stopped += 1
            assert verdict == UNKNOWN
        first.import_dead(restart)
        verdict, moves, _nodes, _memory = first.advance(None, None)
        assert verdict == WON
        verify_win(state, moves)
    assert stopped > 5


@pytest.mark.parametrize(
    ("state", "budget", "without", "with_dead_sets"),
    [
        # compact keys (every preset): 145 bits of 192 (strict), 198 of 256 (rainbow), so
        # the visit number fits in the top half of the key's last word and dead sets add
        # only the done bits and Tarjan's stack
        (new_game("classic", seed="141", **STRICT), 200_000, 12_748_096, 12_781_120),
        (new_game("rainbow", seed="1"), 200_000, 29_704_192, 29_868_032),
        # keys of a byte per card: 381 bits of 384, so a word per slot for the number
        (unchained(new_game("classic", seed="3", **STRICT)), 50_000, 6_465_152, 7_522_176),
    ],
    ids=["strict", "rainbow", "not-chains"],
)
def test_dead_sets_keep_the_visit_number_in_the_key_when_it_has_room(
    state: GameState, budget: int, without: int, with_dead_sets: int
) -> None:
    # _solver.c, "The table": the bytes a search holds after `budget` positions
    # (undecided), with and without dead sets; the steps are the same either way.
    held = []
    for dead_sets in (False, True):
        search = solver_mod._OneSearch(state, True, True, None, 0, 0, dead_sets)
        verdict, _moves, nodes, _memory = search.advance(budget, None)
        assert (verdict, nodes) == (UNKNOWN, budget + 1)
        held.append(search.bytes)
    assert held == [without, with_dead_sets]
