"""Tests of the Canfield solver (games/engine/solver.py; RULES.md 3-4).

Every ``won`` is replayed with the engine to 52 cards home (``solve`` does it
too).  Soundness of the search reductions (safe foundation moves, the
stock/waste macro step, the canonical key) is checked against a plain
exhaustive search over the engine's own legal moves on small positions.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import PRESETS, GameState, make_rules, new_game, replay
from games.engine.cards import card_name, parse_card
from games.engine.rules import Rules
from games.engine.solver import (
    LOST,
    UNKNOWN,
    WON,
    _lift_restricted_line,
    _restricted_game,
    solve,
    verify_win,
)
from games.engine.state import fit_table

# ----------------------------------------------------------------- helpers


def reference(state: GameState, limit: int = 300_000) -> str:
    """Plain exhaustive search with the engine's legal moves, no pruning: ``won`` or ``lost``.

    Positions are told apart by everything except the redeal count when
    redeals are unlimited (otherwise every redeal would be a new position).
    """
    game = state.copy()
    unlimited = game.rules.redeals is None
    seen: set[tuple[object, ...]] = set()

    def key() -> tuple[object, ...]:
        return (
            tuple(game.reserve),
            tuple(tuple(p) for p in game.tableau),
            tuple(game.found),
            tuple(game.stock),
            tuple(game.waste),
            None if unlimited else game.redeals_used,
        )

    def dfs() -> bool:
        if game.cards_home == 52:
            return True
        for move in game.legal_moves():
            game.play(move)
            k = key()
            if k not in seen:
                seen.add(k)
                if len(seen) > limit:
                    raise RuntimeError("reference search too big")
                if dfs():
                    return True
            game.undo()
        return False

    seen.add(key())
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        return WON if dfs() else LOST
    finally:
        sys.setrecursionlimit(old)


def position(
    rules: Rules,
    base: int,
    found: list[int],
    reserve: list[str],
    tableau: list[list[str]],
    stock: list[str],
    waste: list[str] | None = None,
) -> GameState:
    """A hand-built position; ``stock`` is in draw order (first card drawn first)."""
    cards = [parse_card(c) for c in stock]
    cards.reverse()
    state = GameState(
        rules,
        base,
        [parse_card(c) for c in reserve],
        [[parse_card(c) for c in p] for p in tableau],
        list(found),
        cards,
        [parse_card(c) for c in waste or []],
    )
    home = [s * 13 + (base + k) % 13 for s in range(4) for k in range(found[s])]
    everything = sorted(
        home + state.reserve + state.stock + state.waste + [c for p in state.tableau for c in p]
    )
    assert everything == list(range(52)), "a test position must hold each card once"
    return state


def random_positions(
    rng: random.Random,
    rules: Rules,
    count: int,
    *,
    out_lo: int = 4,
    out_hi: int = 8,
    chains: bool = False,
) -> Iterator[GameState]:
    """Near-finished random positions: ``out_lo`` to ``out_hi`` cards not home, spread over
    every pile kind.  ``chains``: every tableau pile a chain (each card fits on the one
    under it), as play reaches them; otherwise a pile holds any cards."""
    for _ in range(count):
        base = rng.randrange(13)
        fits = fit_table(rules.build, rules.tableau_wrap, base)
        found = [13, 13, 13, 13]
        out = rng.randint(out_lo, out_hi)
        for _ in range(out):
            s = rng.randrange(4)
            if found[s] > 0:
                found[s] -= 1
        rest = [s * 13 + (base + k) % 13 for s in range(4) for k in range(found[s], 13)]
        rng.shuffle(rest)
        reserve: list[int] = []
        tableau: list[list[int]] = [[], [], [], []]
        talon: list[int] = []
        for c in rest:
            where = rng.random()
            if where < 0.25:
                reserve.append(c)
            elif where < 0.6 and not chains:
                tableau[rng.randrange(4)].append(c)
            elif where < 0.6 and (piles := [p for p in tableau if not p or fits[c * 52 + p[-1]]]):
                rng.choice(piles).append(c)
            else:
                talon.append(c)
        w = rng.randint(0, len(talon))
        waste, stock = talon[:w], talon[w:][::-1]
        yield GameState(rules, base, reserve, tableau, found, stock, waste)


#: The two comparison rule sets of docs/winnability.md.
WOLTER = {"tableau_moves": "any-run", "tableau_wrap": "base-relative"}
STRICT = {
    "tableau_moves": "whole-pile",
    "empty_pile": "waste-only",
    "tableau_wrap": "base-relative",
}

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"tableau_moves": "whole-pile"},
    {"tableau_moves": "any-run"},
    {"tableau_wrap": "base-relative"},
    {"empty_pile": "waste-only"},
    {**STRICT},
    {"redeals": 1},
    {"redeals": 0},
    {"redeals": 0, "draw": 1, "build": "any-suit"},
    {"autofill": False, "draw": 1},
]

NOTHING_MOVES = (
    # Base AC; tableau all red K/Q (nothing fits among them); every card that could
    # move (AD AH AS 2C, black Q and J) is face down in the reserve; the reserve top
    # 5H and the whole talon fit nowhere.  So no move but draw/redeal ever exists.
    "AD AH AS 2C QC QS JC JS 3C 4C 5C 6C 5H AC KH KD QH QD "
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD 2H 3H 4H 6H 7H 8H 9H TH JH "
    "2S 3S 4S 5S 6S 7S 8S 9S TS KS 7C 8C 9C TC KC"
)


# ------------------------------------------------------------------- tests


def test_already_won_and_one_move_from_a_win() -> None:
    rules = make_rules("classic")
    done = position(rules, 0, [13, 13, 13, 13], [], [[], [], [], []], [])
    assert solve(done).result == WON
    assert solve(done).moves == []
    one = position(rules, 0, [13, 13, 13, 12], ["KS"], [[], [], [], []], [])
    res = solve(one)
    assert res.result == WON
    assert res.moves == ["KS>f"]


def test_hand_built_trivial_deal_is_won() -> None:
    # Base AC; the reserve holds 2C..KC with 2C on top and AD at the bottom; the
    # tableau 2D..5D; the stock the rest in suit order.
    deck = (
        "AD KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC 2D 3D 4D 5D "
        "6D 7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH "
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    )
    for variant in PRESETS:
        if variant == "storehouse":
            continue
        res = solve(new_game(variant, deck=deck), max_seconds=None, max_nodes=100_000)
        assert res.result == WON, variant
        assert replay(res.moves, variant, deck=deck).cards_home == 52


@pytest.mark.parametrize("variant", ["classic", "draw-one", "superior", "one-pass"])
def test_deal_where_nothing_can_ever_move_is_lost(variant: str) -> None:
    state = new_game(variant, deck=NOTHING_MOVES)
    assert state.status() == "blocked"
    res = solve(state)
    assert res.result == LOST
    assert res.moves == []


def test_deal_that_needs_a_redeal() -> None:
    # Draw 1.  Clubs need JC QC KC, diamonds QD KD; the reserve [KD] waits for QD;
    # the tableau is empty but cannot be filled while the reserve holds a card.
    # Pass 1 sends JC and JD home and leaves KC on QD on QC in the waste, stuck.
    def make(redeals: int | None) -> GameState:
        rules = make_rules("classic", draw=1, redeals=redeals)
        return position(
            rules, 0, [10, 10, 13, 13], ["KD"], [[], [], [], []], ["QC", "QD", "KC", "JC", "JD"]
        )

    # (JD is diamonds' 11th card: found 10 means A..T home.)
    won = make(None)
    assert reference(won) == WON
    res = solve(won)
    assert res.result == WON
    assert "redeal" in res.moves
    lost = make(0)
    assert reference(lost) == LOST
    assert solve(lost).result == LOST


def test_deal_that_needs_a_tableau_move_instead_of_the_foundation() -> None:
    # Base A.  KH may go home at once, but QS (reserve top, on JS) can only leave the
    # reserve onto a red K; and KS under KH waits for QS.  KH>f loses, QS>t1 wins.
    rules = make_rules("classic")
    state = position(rules, 0, [13, 13, 12, 10], ["JS", "QS"], [["KS", "KH"], [], [], []], [])
    assert reference(state) == WON
    res = solve(state)
    assert res.result == WON
    assert res.moves[0] == "QS>t1"
    after = state.copy()
    after.play("KH>f")
    assert reference(after) == LOST
    assert solve(after).result == LOST


def test_budget_exhaustion_gives_unknown() -> None:
    state = new_game("classic", seed="4")
    res = solve(state, max_nodes=50, max_seconds=None)
    assert res.result == UNKNOWN
    assert res.moves == []
    assert res.nodes <= 51
    res = solve(state, max_nodes=None, max_seconds=0.0)
    assert res.result == UNKNOWN


def test_solve_leaves_the_state_alone() -> None:
    state = new_game("classic", seed="0")
    before = state.key()
    solve(state, max_seconds=None, max_nodes=50_000)
    assert state.key() == before


def test_wins_replay_on_many_classic_deals() -> None:
    decided = 0
    for seed in range(30):
        res = solve(new_game("classic", seed=str(seed)), max_seconds=None, max_nodes=100_000)
        if res.result == WON:
            assert replay(res.moves, "classic", seed=str(seed)).cards_home == 52
        decided += res.result != UNKNOWN
    assert decided >= 25


def test_restarts_win_where_one_search_runs_out() -> None:
    # Seed 1: the standard order spends 200,000 positions without a win; the
    # first search (40% of them) ends undecided and a restart with another
    # move order wins.  Every restart is a complete search, so its win is real.
    state = new_game("classic", seed="1")
    one = solve(state, max_seconds=None, max_nodes=200_000, restarts=False)
    assert one.result == UNKNOWN
    assert one.nodes == 200_001
    res = solve(state, max_seconds=None, max_nodes=200_000)
    assert res.result == WON
    assert 80_000 < res.nodes <= 200_000
    assert replay(res.moves, "classic", seed="1").cards_home == 52


def test_heuristic_restarts_win_rainbow_deals_that_one_search_does_not() -> None:
    # Rainbow seeds 10 and 13: the standard order spends 100,000 positions without
    # a win.  After the first search's first slice (5,000: 5% when the heuristic
    # restarts run) the heuristic restarts (move order 4 with a jitter, solver.py
    # "Restarts") win, before the first search goes on at 35,000 (5% + 30%).
    for seed in ("10", "13"):
        state = new_game("rainbow", seed=seed)
        one = solve(state, max_seconds=None, max_nodes=100_000, restarts=False)
        assert one.result == UNKNOWN
        res = solve(state, max_seconds=None, max_nodes=100_000)
        assert res.result == WON
        assert 5_000 < res.nodes < 35_000
        assert replay(res.moves, "rainbow", seed=seed).cards_home == 52


class _Recorder:
    """Stands in for ``solver._OneSearch``: logs ``(search number, order, node cap)``.

    Every slice spends its whole node cap undecided; ``nodes`` and ``bytes`` as the
    real class keeps them.
    """

    log: list[tuple[int, int, int | None]] = []
    imports: list[tuple[int, int]] = []  # (into, from): import_dead calls
    ended: list[tuple[int, int]] = []  # (search, slices so far): end_dead_sets calls
    made = 0

    def __init__(self, *args: Any) -> None:
        self.number = _Recorder.made
        _Recorder.made += 1
        self.order = args[4]
        self.max_bytes = args[3]
        self.nodes = 0
        self.bytes = 0

    def advance(self, max_nodes: int | None, max_seconds: float | None) -> tuple[Any, ...]:
        _Recorder.log.append((self.number, self.order, max_nodes))
        self.nodes += max_nodes or 0
        return UNKNOWN, [], max_nodes or 0, False

    def import_dead(self, source: _Recorder) -> int:
        _Recorder.imports.append((self.number, source.number))
        return 0

    def end_dead_sets(self) -> None:
        _Recorder.ended.append((self.number, len(_Recorder.log)))


def recorded_schedule(
    monkeypatch: pytest.MonkeyPatch, state: Any, max_nodes: int
) -> list[tuple[int, int, int | None]]:
    from games.engine import solver as solver_mod

    _Recorder.log, _Recorder.imports, _Recorder.ended, _Recorder.made = [], [], [], 0
    monkeypatch.setattr(solver_mod, "_OneSearch", _Recorder)
    res = solve(state, max_seconds=None, max_nodes=max_nodes)
    assert res.result == UNKNOWN
    assert res.nodes == max_nodes  # the slices use the whole budget, no more
    return _Recorder.log


@pytest.mark.parametrize(
    ("variant", "probes"),
    [("rainbow", True), ("one-pass", True), ("classic", False), ("storehouse", False)],
)
def test_restart_schedule(monkeypatch: pytest.MonkeyPatch, variant: str, probes: bool) -> None:
    # solver.py, "Restarts": the first search (standard order, search 0) gets 40%,
    # only 5% when no redeal is left; then the heuristic restarts (order 4) when no
    # redeal is left, up to 30%; then the class-order restarts (orders 1, 2, 3, 0,
    # ...); once the restarts of both kinds have spent 30% the first search goes on
    # with the rest, so it has had 70% of the budget.
    log = recorded_schedule(monkeypatch, new_game(variant, seed="1"), 1_000_000)
    first = 50_000 if probes else 400_000
    assert log[0] == (0, 0, first)
    assert log[-1] == (0, 0, 700_000 - first)  # the first search again, with all that is left
    restarts = log[1:-1]
    assert sum(cap or 0 for _n, _o, cap in restarts) == 300_000
    assert [n for n, _o, _c in restarts] == list(range(1, len(restarts) + 1))  # new searches
    # every undecided restart gives the first search what it proved lost (its dead set),
    # and the first search keeps its own dead set only until its last slice
    assert _Recorder.imports == [(0, n) for n, _o, _c in restarts]
    assert _Recorder.ended == [(0, len(log) - 1)]
    orders = [o for _n, o, _c in restarts]
    if probes:
        assert set(orders) == {4}
        assert len(orders) > 100  # many short probes
    else:
        assert 4 not in orders
        assert orders[:4] == [1, 2, 3, 0]


def test_heuristic_restarts_start_once_a_game_has_used_its_redeals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new_game("storehouse", seed="1")
    while state.redeals_used < 2:  # storehouse: draw 1, two redeals (RULES.md 4)
        state.play("redeal" if not state.stock else "draw")
    log = recorded_schedule(monkeypatch, state, 20_000)
    assert [o for _n, o, _c in log[:3]] == [0, 4, 4]


def test_restarts_run_beside_the_paused_first_search_in_the_memory_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The paused first search keeps its table; a restart gets the memory cap minus
    # what that table holds, and none when nothing is left (solver.py, "Restarts").
    from games.engine import solver as solver_mod

    made: list[_Recorder] = []

    class Holding(_Recorder):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

        def advance(self, max_nodes: int | None, max_seconds: float | None) -> tuple[Any, ...]:
            out = super().advance(max_nodes, max_seconds)
            self.bytes = 600 if self.number == 0 else 0  # the first search's table
            return out

    _Recorder.log, _Recorder.made = [], 0
    monkeypatch.setattr(solver_mod, "_OneSearch", Holding)
    solve(new_game("classic", seed="1"), max_seconds=None, max_nodes=1_000, max_bytes=1_000)
    assert made[0].max_bytes == 1_000
    assert {r.max_bytes for r in made[1:]} == {400}
    _Recorder.log, _Recorder.made = [], 0
    made.clear()
    solve(new_game("classic", seed="1"), max_seconds=None, max_nodes=1_000, max_bytes=600)
    assert len(made) == 1  # no room for a restart: the first search goes straight on
    assert [(n, cap) for n, _o, cap in _Recorder.log] == [(0, 400), (0, 600)]


def assert_restarts_run(
    monkeypatch: pytest.MonkeyPatch, engine: str, max_bytes: int | None
) -> None:
    """``solve`` with this engine and cap runs its restarts, then the first search again."""
    from games.engine import solver as solver_mod

    _Recorder.log, _Recorder.made = [], 0
    monkeypatch.setattr(solver_mod, "_OneSearch", _Recorder)
    solve(
        new_game("classic", seed="1"),
        max_seconds=None,
        max_nodes=2_000,
        engine=engine,
        max_bytes=max_bytes,
    )
    assert _Recorder.made > 5  # the first search and its restarts
    assert [n for n, _o, _c in _Recorder.log][-1] == 0  # the first search goes on


def test_the_python_search_has_no_memory_cap_to_take_from_the_restarts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # max_bytes is the C core's cap; the Python search has none, so even 0 leaves
    # the restarts their room (tests/engine/test_solver_c.py: a negative C cap).
    assert_restarts_run(monkeypatch, "python", 0)


def test_an_interrupted_python_search_cannot_go_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # An exception (Ctrl-C) inside a slice leaves the search's stack half-built, so
    # advancing it again raises instead of searching on from a wrong state.
    from games.engine import solver as solver_mod

    search = solver_mod._OneSearch(new_game("classic", seed="3"), False, True, None, 0, 0)
    assert search.advance(10, None)[0] == UNKNOWN
    real = solver_mod._Search.children
    calls = 0

    def interrupted(self: Any, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt
        return real(self, *args)

    monkeypatch.setattr(solver_mod._Search, "children", interrupted)
    with pytest.raises(KeyboardInterrupt):
        search.advance(1_000, None)
    monkeypatch.setattr(solver_mod._Search, "children", real)
    with pytest.raises(RuntimeError, match="interrupted"):
        search.advance(1_000, None)


def test_the_first_search_goes_on_after_the_restarts_and_proves_lost() -> None:
    # Superior seed 373 is lost: the standard order expands its 26,198 positions
    # (the whole reachable space).  With a budget of 60,000, the restricted game
    # (solver.py, "Restricted game first": the same deal with auto-fill) takes its
    # 25%, 15,000, and is undecided; the real game gets the other 45,000.  Its
    # first search stops at 18,000 (40%); the restarts skip what it proved lost
    # and give it what they prove lost (solver.py, "Dead sets"), so the sixth
    # restart, which skips all of that, expands the 122 positions left and proves
    # the deal lost before the first search has to go on.
    state = new_game("superior", seed="373")
    one = solve(state, max_seconds=None, max_nodes=None, restarts=False)
    assert (one.result, one.nodes) == (LOST, 26_198)
    assert solve(state, max_seconds=None, max_nodes=18_000, restarts=False).result == UNKNOWN
    restricted = _restricted_game(state)
    assert restricted is not None
    assert solve(restricted, max_seconds=None, max_nodes=15_000).result == UNKNOWN
    res = solve(state, max_seconds=None, max_nodes=60_000)
    assert res.result == LOST
    # A search that runs out counts the position it was about to expand (+1 each).
    restarts = [900 + 1, 1_170 + 1, 1_521 + 1, 1_977 + 1, 2_570 + 1, 122]
    assert res.nodes == 15_000 + 18_000 + 1 + sum(restarts)
    from games.engine import solver as solver_mod

    with pytest.MonkeyPatch.context() as mp:  # each search alone: the first goes on
        mp.setattr(solver_mod, "_DEAD_SETS", False)
        alone = solve(state, max_seconds=None, max_nodes=60_000)
    assert (alone.result, alone.nodes) == (LOST, 15_000 + 26_198 + 13_500 + 1)


def test_the_restricted_game_is_the_same_position_with_auto_fill_for_superior_only() -> None:
    # solver.py, "Restricted game first": only a game without auto-fill whose
    # empty piles take any card has one, and only in a position with no empty
    # pile while the reserve holds cards (auto-fill would have filled it).
    state = new_game("superior", seed="7")
    restricted = _restricted_game(state)
    assert restricted is not None
    assert restricted.rules == make_rules("superior", autofill=True)
    assert restricted.key()[1:] == state.key()[1:]  # every card where it was
    assert state.rules.autofill is False  # the given position is not touched
    assert _restricted_game(restricted) is None
    for variant, options in [
        ("classic", {}),
        ("rainbow", {}),
        ("superior", {"empty_pile": "waste-only"}),
    ]:
        assert _restricted_game(new_game(variant, seed="7", **options)) is None
    rules = make_rules("superior")
    spaced = position(rules, 0, [13, 13, 12, 10], ["JS"], [["KS", "KH"], [], [], []], ["QS"])
    assert _restricted_game(spaced) is None  # an empty pile beside a reserve card
    spaced.play("JS>t2")  # the reserve is empty now: empty piles are the same in both
    assert _restricted_game(spaced) is not None


def test_a_superior_win_of_the_restricted_game_is_lifted_with_explicit_fills() -> None:
    # Superior seed 0: the restricted game (auto-fill on) is won after 94
    # positions, within its 25% of a 4,000 budget.  Its line is not a superior
    # line (a pile auto-filled there stays empty here); lifted, every auto-fill
    # becomes the reserve top played onto that pile, and the lifted line wins.
    state = new_game("superior", seed="0")
    restricted = _restricted_game(state)
    assert restricted is not None
    sub = solve(restricted, max_seconds=None, max_nodes=1_000)
    assert (sub.result, sub.nodes, len(sub.moves)) == (WON, 94, 186)
    with pytest.raises(AssertionError, match="refused"):
        verify_win(state, sub.moves)
    res = solve(state, max_seconds=None, max_nodes=4_000)
    assert (res.result, res.nodes) == (WON, 94)
    assert res.moves == _lift_restricted_line(state, restricted, sub.moves)
    verify_win(state, res.moves)
    game, fills, i = state.copy(), 0, 0
    for move in res.moves:
        if i < len(sub.moves) and move == sub.moves[i]:
            i += 1  # a move of the restricted line, in its order
        else:  # an inserted fill: the reserve top onto an empty pile
            assert game.reserve
            assert move.startswith(card_name(game.reserve[-1]) + ">t")
            assert not game.tableau[int(move[-1]) - 1]
            fills += 1
        game.play(move)
    assert i == len(sub.moves)
    assert fills == len(res.moves) - len(sub.moves) == 8


def test_a_superior_deal_lost_in_the_restricted_game_is_searched_in_its_own() -> None:
    # Superior seed 303: with auto-fill the deal is lost (3,222 positions); without,
    # a space may take a card that is not the reserve's, and the deal is won.  A
    # loss of the restricted game proves nothing: the real game's searches get
    # what it left of the budget.
    state = new_game("superior", seed="303")
    restricted = _restricted_game(state)
    assert restricted is not None
    assert solve(restricted, max_seconds=None, max_nodes=None).result == LOST
    res = solve(state, max_seconds=None, max_nodes=16_000)
    assert (res.result, res.nodes) == (WON, 2_167)
    verify_win(state, res.moves)


def test_a_budget_too_small_to_share_skips_the_restricted_game() -> None:
    # A quarter of a budget under 4 positions is nothing: the real game's search
    # takes it all, as without a restricted game (0 searches nothing; a search
    # that runs out counts the position it was about to expand).
    state = new_game("superior", seed="106")
    spent = [solve(state, max_seconds=None, max_nodes=b).nodes for b in range(9)]
    assert spent == [0, 2, 2, 3, 4, 5, 6, 7, 8]


def test_heuristic_order_ranks_children_by_score_stably() -> None:
    # Score 8 * (2 * home - reserve - 2 * waste) (solver.py, "Move order"), no jitter
    # without a shuffle seed; equal scores keep their order.
    from games.engine import solver as solver_mod

    search = solver_mod._Search(new_game("rainbow", seed="1"), True, 4, 0)
    found_3 = 1 | (1 << 4) | (1 << 8)  # three cards home
    children: list[Any] = [
        (("a",), 13, found_3, (), b"", 0, 0),  # 8 * (6 - 13) = -56
        (("b",), 12, found_3, (), b"", 2, 0),  # 8 * (6 - 12 - 4) = -80
        (("c",), 13, found_3 | (1 << 12), (), b"", 0, 0),  # 8 * (8 - 13) = -40
        (("d",), 11, found_3, (), b"", 1, 0),  # 8 * (6 - 11 - 2) = -56
    ]
    assert [c[0][0] for c in search.by_score(children)] == ["c", "a", "d", "b"]


def test_heuristic_restarts_stop_at_their_share_of_each_budget() -> None:
    from games.engine.solver import _probing

    assert _probing(1_000, None, 299, 0.0) is True
    assert _probing(1_000, None, 300, 0.0) is False
    assert _probing(None, 10.0, 10**9, 2.9) is True
    assert _probing(None, 10.0, 0, 3.0) is False
    assert _probing(1_000, 10.0, 300, 0.0) is False  # either budget's share ends them
    assert _probing(1_000, 10.0, 0, 3.0) is False
    assert _probing(None, None, 10**9, 1e9) is True  # solve never asks without a budget


def test_restarts_still_prove_lost_and_keep_to_the_budget() -> None:
    nothing_moves = new_game("classic", deck=NOTHING_MOVES)
    res = solve(nothing_moves, max_nodes=10, max_seconds=5)
    assert (res.result, res.moves) == (LOST, [])
    state = new_game("classic", seed="1")
    res = solve(state, max_seconds=None, max_nodes=5_000)
    assert res.result == UNKNOWN
    assert res.nodes <= 5_000 + 16  # each search may pass its cap by one position


def test_move_order_3_needs_a_shuffle_seed() -> None:
    from games.engine import solver as solver_mod

    state = new_game("classic", seed="1")
    with pytest.raises(ValueError, match="shuffle seed"):
        solver_mod._search_once(state, False, 10, None, True, None, 3, 0)


#: Seeds that a small budget wins for each preset (one-pass: no seed below 60 is
#: winnable, see test_hand_built_trivial_deal_is_won for its wins).
PRESET_WINS: dict[str, list[str]] = {
    "classic": ["0", "3", "7"],
    "draw-one": ["0", "3", "10"],
    "superior": ["7", "9", "11"],
    "rainbow": ["15"],
    "storehouse": ["4", "6", "12"],
}


@pytest.mark.parametrize("variant", list(PRESETS))
def test_wins_replay_on_every_preset(variant: str) -> None:
    seeds = [*PRESET_WINS.get(variant, []), "1", "2", "5"]
    wins = 0
    for seed in seeds:
        res = solve(new_game(variant, seed=seed), max_seconds=None, max_nodes=100_000)
        if res.result == WON:
            wins += 1
            assert replay(res.moves, variant, seed=seed).cards_home == 52
        if seed in PRESET_WINS.get(variant, []):
            assert res.result == WON, seed
    assert wins >= len(PRESET_WINS.get(variant, []))


@pytest.mark.parametrize("options", OPTION_SETS)
def test_verdicts_match_plain_exhaustive_search(options: dict[str, object]) -> None:
    rng = random.Random(repr(sorted(options.items())))  # noqa: S311
    for variant in ("classic", "draw-one", "storehouse"):
        rules = make_rules(variant, **options)
        for state in random_positions(rng, rules, 25):
            expect = reference(state)
            with_auto = solve(state, max_seconds=None, max_nodes=None)
            without = solve(state, max_seconds=None, max_nodes=None, safe_auto=False)
            assert with_auto.result == expect, state.to_json()
            assert without.result == expect, state.to_json()
            if expect == WON:
                verify_win(state, with_auto.moves)
                verify_win(state, without.moves)


def test_safe_moves_are_not_taken_where_auto_fill_changes_things() -> None:
    # 9S alone on t1 could go home, and nothing can be built on it (the red 8s are
    # home) - but the pile would then auto-fill from the reserve, so the move is a
    # search step, not automatic: the solver must still find every win.
    rules = make_rules("classic")
    state = position(rules, 0, [13, 13, 13, 8], ["KS", "JS", "QS", "TS"], [["9S"], [], [], []], [])
    assert reference(state) == solve(state).result


def _packed(counts: list[int]) -> int:
    """Foundation counts (clubs, diamonds, hearts, spades) packed as the search keeps them."""
    return sum(n << 4 * suit for suit, n in enumerate(counts))


@pytest.mark.parametrize(
    ("variant", "counts", "safe"),
    [
        # 5H next (hearts at 4).  Alternate colours: the black 4s may go on it.
        ("classic", [4, 0, 4, 4], True),  # both black 4s home: safe before this rule too
        ("classic", [3, 3, 4, 4], True),  # 4C next, and the red 3s that fit on it are home
        ("classic", [3, 2, 4, 4], False),  # 3D is out: it might have to go on 4C on 5H
        ("classic", [2, 3, 4, 4], False),  # 4C is not next (3C is out)
        ("classic", [3, 3, 4, 3], True),  # both black 4s next, the red 3s home
        # Any suit: every 4 may go on 5H, every 3 on a 4.
        ("rainbow", [3, 3, 4, 5], True),  # hearts at most one ahead of the lowest
        ("rainbow", [2, 3, 4, 5], False),
        ("rainbow", [4, 4, 4, 4], True),
    ],
)
def test_safe_condition_a_takes_a_next_card_that_nothing_can_go_on(
    variant: str, counts: list[int], safe: bool
) -> None:
    from games.engine.solver import _Search

    all_home = position(make_rules(variant), 0, [13, 13, 13, 13], [], [[], [], [], []], [])
    search = _Search(all_home, True)
    five_of_hearts = parse_card("5H")
    assert search.is_safe(five_of_hearts, _packed(counts)) is safe


def _safe_only_through_a_next_card(state: GameState) -> bool:
    """Whether a top card of ``state`` is a safe foundation move only by the second clause
    of condition (a): a card that fits on it is not home but next, with nothing to go on it."""
    from games.engine.solver import _Search

    search = _Search(state, True)
    found = _packed(list(state.found))
    tops = [p[-1] for p in (state.reserve, state.waste, *state.tableau) if p]
    return any(
        state.found[c // 13] == (c % 13 - state.base) % 13
        and search.is_safe(c, found)
        and not search.all_home(c, found)
        for c in tops
    )


@pytest.mark.parametrize(
    "options",
    [
        {},
        WOLTER,
        {"tableau_moves": "whole-pile", "empty_pile": "waste-only", "tableau_wrap": "modulo"},
        {"redeals": 0, "draw": 1, "build": "any-suit"},
        {"autofill": False, "draw": 1, "build": "any-suit"},
    ],
)
def test_safe_moves_through_a_next_card_keep_every_verdict(options: dict[str, object]) -> None:
    # Positions where the second clause of condition (a) plays a top card home at once
    # (the first clause would not): the verdict is the plain exhaustive search's, with
    # and without safe moves, in both engines (C when built).
    rng = random.Random(repr(sorted(options.items())))  # noqa: S311
    rules = make_rules("classic", **options)
    kept = 0
    for state in random_positions(rng, rules, 400, out_lo=6, out_hi=10, chains=True):
        if not _safe_only_through_a_next_card(state):
            continue
        kept += 1
        expect = reference(state)
        for engine in ("auto", "python"):
            res = solve(state, max_seconds=None, max_nodes=None, engine=engine)
            assert res.result == expect, state.to_json()
            if expect == WON:
                verify_win(state, res.moves)
        if kept == 20:
            break
    assert kept == 20


#: A won classic position whose t4 is not a chain (6H lies on 3D).  3D is next, and the
#: black 2s that fit on it are home, but the whole pile [3D, 6H] must go onto a black 4
#: to win; the second clause of condition (a), which assumes chains, would play both
#: black 4s home and call the position lost (found by comparing with the plain
#: exhaustive search over random positions).
NOT_CHAINS = (
    '{"base_rank":"7","ended":null,"format":"canfield-state","foundations":{"C":["7C"'
    ',"8C","9C","TC","JC","QC","KC","AC","2C","3C"],"D":["7D","8D","9D","TD","JD","QD'
    '","KD","AD","2D"],"H":["7H","8H","9H","TH","JH","QH","KH","AH","2H","3H","4H"],"'
    'S":["7S","8S","9S","TS","JS","QS","KS","AS","2S","3S"]},"redeals_used":0,"reserv'
    'e":["5H","6C","6S"],"rules":{"autofill":true,"base":"dealt","build":"alternate-c'
    'olour","draw":3,"empty_pile":"any","redeals":null,"reserve_face_up":false,"table'
    'au_moves":"top-or-whole","tableau_wrap":"modulo"},"stock":[],"tableau":[[],["5D"'
    '],["4D","4S"],["3D","6H"]],"version":1,"waste":["5S","5C","6D","4C"]}'
)


#: A won classic position (chains) that a looser condition (a), taking a card ``d`` one
#: short of next (its foundation two below it) with nothing else checked, would call
#: lost (found the same way).
ONE_SHORT_OF_NEXT = (
    '{"base_rank":"9","ended":null,"format":"canfield-state","foundations":{"C":["9C"'
    ',"TC","JC","QC","KC","AC","2C","3C","4C","5C"],"D":["9D","TD","JD","QD","KD","AD'
    '","2D","3D","4D","5D","6D"],"H":["9H","TH","JH","QH","KH","AH","2H","3H","4H","5'
    'H","6H","7H","8H"],"S":["9S","TS","JS","QS","KS","AS","2S","3S","4S"]},"redeals_'
    'used":0,"reserve":["8C","8S"],"rules":{"autofill":true,"base":"dealt","build":"a'
    'lternate-colour","draw":3,"empty_pile":"any","redeals":null,"reserve_face_up":fa'
    'lse,"tableau_moves":"top-or-whole","tableau_wrap":"modulo"},"stock":["7D","6C"],'
    '"tableau":[[],[],["7S"],["8D"]],"version":1,"waste":["5S","7C","6S"]}'
)


@pytest.mark.parametrize("text", [NOT_CHAINS, ONE_SHORT_OF_NEXT], ids=["not-chains", "one-short"])
def test_safe_moves_stay_sound_where_a_looser_rule_is_not(text: tuple[str, ...]) -> None:
    state = GameState.from_json("".join(text))
    assert reference(state) == WON
    for engine in ("auto", "python"):
        res = solve(state, max_seconds=None, max_nodes=None, engine=engine)
        assert res.result == WON
        verify_win(state, res.moves)


#: A node budget (no wall clock): the same verdict on any machine, however busy.
BUDGET: dict[str, Any] = {"max_seconds": None, "max_nodes": 300_000}


def test_stricter_rules_never_lose_what_looser_rules_win() -> None:
    for seed in range(15):
        s = str(seed)
        strict = solve(new_game("one-pass", seed=s), max_seconds=None, max_nodes=100_000)
        if strict.result == WON:
            assert solve(new_game("classic", seed=s), **BUDGET).result != LOST
        whole = solve(
            new_game("classic", seed=s, tableau_moves="whole-pile"),
            max_seconds=None,
            max_nodes=100_000,
        )
        if whole.result == WON:
            for moves in ("top-or-whole", "any-run"):
                looser = solve(new_game("classic", seed=s, tableau_moves=moves), **BUDGET)
                assert looser.result != LOST


def test_reachable_waste_positions_match_the_engine() -> None:
    """The draw/redeal macro step reaches exactly the waste tops the engine can reach."""
    from games.engine.solver import _Search

    rng = random.Random(5)  # noqa: S311
    for _ in range(200):
        draw = rng.choice([1, 3])
        redeals = rng.choice([None, 0, 1, 2])
        n = rng.randint(0, 12)
        talon = rng.sample(range(52), n)
        w = rng.randint(0, n)
        used = rng.randint(0, 2) if redeals is not None else 0
        if redeals is not None:
            used = min(used, redeals)
        rules = make_rules("classic", draw=draw, redeals=redeals)
        state = GameState(
            rules, 0, [], [[], [], [], []], [0, 0, 0, 0], talon[w:][::-1], talon[:w], used
        )
        # Engine: every waste top reachable by draw/redeal, with the most redeals left.
        best: dict[int, int] = {}
        game = state.copy()
        frontier = [game]
        seen: set[tuple[object, ...]] = set()
        while frontier:
            g = frontier.pop()
            k = (tuple(g.stock), tuple(g.waste), g.redeals_used)
            if k in seen:
                continue
            seen.add(k)
            left = -1 if redeals is None else redeals - g.redeals_used
            if g.waste:
                top = g.waste[-1]
                best[top] = max(best.get(top, -2), left if left >= 0 else 99)
            for move in ("draw", "redeal"):
                h = g.copy()
                try:
                    h.play(move)
                except ValueError:
                    continue
                if redeals is None and h.redeals_used > 3:
                    continue
                frontier.append(h)
        search = _Search(state, True)
        rl = -1 if redeals is None else redeals - used
        got: dict[int, int] = {}
        for pos, moves, rl2 in search.reach(n, w, rl):
            card = talon[pos - 1]
            got[card] = rl2 if rl2 >= 0 else 99
            h = state.copy()
            for move in moves:
                h.play(move)
            assert h.waste[-1] == card
        assert got == best


# ------------------------------------------------------------------ dead sets


def _recording_search(state: GameState, order: int, shuffle: int) -> Any:
    """A Python search with dead sets that remembers the position of every key it numbers
    and the visit numbers of the positions it finished (left with every child tried)."""
    from games.engine import solver as solver_mod
    from games.engine.solver import _root_position

    class Recording(solver_mod._Search):
        def __init__(self) -> None:
            super().__init__(state, True, order, shuffle, dead_sets=True)
            self.positions: dict[bytes, Any] = {}
            self.finished: list[int] = []

        def _enter(self, position: Any, mark: int) -> object:
            self.positions.setdefault(self._tstack[-1], position)  # the key just numbered
            return super()._enter(position, mark)

        def _leave(self) -> None:
            self.finished.append(self._tarjan[-1][0])
            super()._leave()

    search = Recording()
    search.start(*_root_position(state))
    return search


def _lost_from(state: GameState, position: Any) -> bool:
    """Whether a plain, complete search (no dead sets) from ``position`` finds no win."""
    from games.engine.solver import _Search

    fresh = _Search(state, True)
    fresh.start(*position)
    outcome = fresh.advance(None, None)
    assert outcome is not None
    return not outcome


@pytest.mark.parametrize(
    ("options", "seed", "budget", "verdict", "dead_count", "open_count"),
    [({}, "9", 500, WON, 219, 60), (STRICT, "5", 2_000, LOST, 1_987, 0)],
)
def test_a_paused_search_proves_lost_exactly_its_complete_components(
    options: dict[str, str],
    seed: str,
    budget: int,
    verdict: str,
    dead_count: int,
    open_count: int,
) -> None:
    # solver.py, "Dead sets": when a search pauses, the positions of its complete
    # strongly connected components are lost; positions it merely finished are not
    # (a child cut because it was on the path may lead to a win that the paused
    # search had not reached).  Checked by complete plain searches from those positions.
    state = new_game("classic", seed=seed, **options)
    assert solve(state, max_seconds=None, max_nodes=None).result == verdict
    search = _recording_search(state, 1 if verdict == LOST else 0, 12345 if verdict == LOST else 0)
    assert search.advance(budget, None) is None  # paused
    dead = sorted(search.done)
    assert len(dead) == dead_count
    for k in dead[:: len(dead) // 25]:
        assert _lost_from(state, search.positions[k])
    key_of = {v: k for k, v in search.index.items()}
    finished_open = [key_of[v] for v in search.finished if key_of[v] not in search.done]
    assert len(finished_open) == open_count
    # each finished position outside a complete component that was checked is won:
    # the table alone would have called them lost
    assert not any(_lost_from(state, search.positions[k]) for k in finished_open[:20])


def unchained(state: GameState) -> GameState:
    """``state`` with its reserve top put on t1 whatever the build rule: t1 is no chain,
    so the C core writes its keys a byte per card (``make_key``), with no room left in
    them for a visit number (a slot gets a word for it)."""
    state.tableau[0].append(state.reserve.pop())
    return state


@pytest.mark.parametrize(
    "state",
    [
        new_game("classic", seed="3", **STRICT),
        new_game("rainbow", seed="1"),
        new_game("superior", seed="92"),
        unchained(new_game("classic", seed="3", **STRICT)),
    ],
    ids=["strict", "rainbow", "superior", "not-chains"],
)
def test_dead_sets_are_the_same_in_the_c_core_and_in_python(state: GameState) -> None:
    # A restart's dead set, imported into the paused first search: as many positions
    # from either engine, and the first search then takes the same steps.  The C core
    # keeps a visit number in the key's spare bits (the presets) or in a word of its own.
    from games.engine import solver as solver_mod

    if not solver_mod.c_available():
        pytest.fail("the C core is not built (python dev.py setup builds it)")
    outcomes = []
    for use_c in (True, False):
        first = solver_mod._OneSearch(state, use_c, True, None, 0, 0)
        assert first.advance(1_500, None)[0] == UNKNOWN
        restart = solver_mod._OneSearch(state, use_c, True, None, 2, 99, True)
        assert restart.advance(3_000, None)[0] == UNKNOWN
        imported = first.import_dead(restart)
        verdict, moves, nodes, _memory = first.advance(4_000, None)
        outcomes.append((imported, verdict, moves, nodes))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] > 100


def test_import_dead_needs_a_source_with_dead_sets() -> None:
    from games.engine import solver as solver_mod

    state = new_game("classic", seed="3")
    for use_c in (True, False):
        first = solver_mod._OneSearch(state, use_c, True, None, 0, 0)
        plain = solver_mod._OneSearch(state, use_c, True, None, 1, 7)
        first.advance(100, None)
        plain.advance(100, None)
        with pytest.raises(ValueError, match="dead sets"):
            first.import_dead(plain)


def test_dead_sets_speed_up_a_loss_proof_and_keep_its_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Strict seed 5 is lost (one complete search: 7,190 positions).  With restarts,
    # each restart skips what the paused first search proved lost, and the first
    # search then skips what the restarts proved lost: 7,220 positions in all, against
    # 11,991 when every search works alone.
    from games.engine import solver as solver_mod

    state = new_game("classic", seed="5", **STRICT)
    with_dead = solve(state, max_seconds=None, max_nodes=16_000)
    monkeypatch.setattr(solver_mod, "_DEAD_SETS", False)
    without = solve(state, max_seconds=None, max_nodes=16_000)
    assert (with_dead.result, with_dead.nodes) == (LOST, 7_220)
    assert (without.result, without.nodes) == (LOST, 11_991)
