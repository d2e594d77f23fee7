"""Benchmark of the Canfield rules engine (games.engine): playouts and replay.

Usage::

    python benchmarks/engine.py [--games 600] [--max-moves 300] [--replays 300]

Prints, for random playouts over many seeds and every preset:

* legal-move generations per second (``legal_moves``),
* applied moves per second (``play`` with its full legality check),
* the combined rate of a playout loop (generate, choose, play),
* the median time to replay a 300-move game from its deal (``replay``),

and each figure's ratio to a baseline measured in the same run (a plain
Python loop doing one list append and pop per move), so results from
different machines can be compared.  Targets: >= 150,000 applied moves/s
including legality checking; a 300-move replay under 3 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import PRESETS, new_game, replay

TARGET_APPLIED = 150_000
TARGET_REPLAY_MS = 3.0


def baseline_rate(n: int = 2_000_000) -> float:
    """Operations per second of a trivial loop: one list append and pop per 'move'."""
    stack: list[int] = []
    push, pop = stack.append, stack.pop
    t0 = time.perf_counter()
    for i in range(n):
        push(i)
        pop()
    return n / (time.perf_counter() - t0)


def record_games(games: int, max_moves: int, seed: int) -> list[tuple[str, str, list[str]]]:
    """Random legal playouts (preset, seed, moves) used by every timing below."""
    rng = random.Random(seed)  # noqa: S311 - benchmark data, not security
    presets = list(PRESETS)
    out = []
    for g in range(games):
        preset = presets[g % len(presets)]
        deal_seed = f"bench{g}"
        state = new_game(preset, seed=deal_seed)
        moves: list[str] = []
        for _ in range(max_moves):
            legal = state.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            state.play(move)
            moves.append(move)
        out.append((preset, deal_seed, moves))
    return out


def time_generation(games: list[tuple[str, str, list[str]]]) -> tuple[int, float]:
    """Time legal_moves alone at every position of the recorded games."""
    count, elapsed = 0, 0.0
    for preset, deal_seed, moves in games:
        state = new_game(preset, seed=deal_seed)
        gen, play = state.legal_moves, state.play
        for move in moves:
            t0 = time.perf_counter()
            gen()
            elapsed += time.perf_counter() - t0
            count += 1
            play(move)
    return count, elapsed


def time_apply(games: list[tuple[str, str, list[str]]]) -> tuple[int, float]:
    """Time play (parse + legality check + apply + auto-fill) of the recorded moves."""
    count, elapsed = 0, 0.0
    for preset, deal_seed, moves in games:
        state = new_game(preset, seed=deal_seed)
        play = state.play
        t0 = time.perf_counter()
        for move in moves:
            play(move)
        elapsed += time.perf_counter() - t0
        count += len(moves)
    return count, elapsed


def time_playouts(games: int, max_moves: int, seed: int) -> tuple[int, float]:
    """A full random playout loop: generate, choose, play (dealing excluded)."""
    rng = random.Random(seed)  # noqa: S311
    presets = list(PRESETS)
    count, elapsed = 0, 0.0
    for g in range(games):
        state = new_game(presets[g % len(presets)], seed=f"play{g}")
        gen, play, choice = state.legal_moves, state.play, rng.choice
        t0 = time.perf_counter()
        for _ in range(max_moves):
            legal = gen()
            if not legal:
                break
            play(choice(legal))
            count += 1
        elapsed += time.perf_counter() - t0
    return count, elapsed


def time_replay(games: list[tuple[str, str, list[str]]], length: int, runs: int) -> list[float]:
    """Milliseconds to replay (deal + every move) a ``length``-move game, ``runs`` times."""
    long_games = [g for g in games if len(g[2]) >= length]
    if not long_games:
        raise SystemExit(f"no recorded game reached {length} moves; raise --max-moves")
    times = []
    for r in range(runs):
        preset, deal_seed, moves = long_games[r % len(long_games)]
        moves = moves[:length]
        t0 = time.perf_counter()
        replay(moves, preset, seed=deal_seed)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="playouts (all presets in turn)")
    parser.add_argument("--max-moves", type=int, default=300, help="moves per playout at most")
    parser.add_argument("--replays", type=int, default=300, help="replays of a 300-move game")
    parser.add_argument("--replay-length", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1, help="random seed of the move choices")
    args = parser.parse_args(argv)

    base = baseline_rate()
    games = record_games(args.games, args.max_moves, args.seed)
    gen_n, gen_t = time_generation(games)
    app_n, app_t = time_apply(games)
    loop_n, loop_t = time_playouts(args.games, args.max_moves, args.seed + 1)
    replay_ms = time_replay(games, args.replay_length, args.replays)

    gen_rate, app_rate, loop_rate = gen_n / gen_t, app_n / app_t, loop_n / loop_t
    combined = app_n / (gen_t + app_t)
    median_ms = statistics.median(replay_ms)

    def rate(label: str, value: float, unit: str, note: str = "") -> None:
        print(f"{label:<34}{value:>12,.0f} {unit:<8} x{value / base:.4f} of baseline{note}")

    print(f"Python {sys.version.split()[0]}; {args.games} playouts over {len(PRESETS)} presets")
    print(f"{'baseline (list append+pop)':<34}{base:>12,.0f} ops/s")
    rate("legal-move generations", gen_rate, "/s")
    ok = "ok" if app_rate >= TARGET_APPLIED else "MISSED"
    rate("applied moves (with legality)", app_rate, "moves/s", f"  target {TARGET_APPLIED:,}: {ok}")
    rate("combined (generate + apply)", combined, "moves/s")
    rate("playout loop (gen, choose, play)", loop_rate, "moves/s")
    ok = "ok" if median_ms < TARGET_REPLAY_MS else "MISSED"
    print(
        f"{f'replay of a {args.replay_length}-move game':<34}{median_ms:>12.3f} ms median"
        f" (min {min(replay_ms):.3f}, max {max(replay_ms):.3f}, {len(replay_ms)} runs)"
        f" = {median_ms / 1000 * base:,.0f} baseline ops  target < {TARGET_REPLAY_MS} ms: {ok}"
    )
    print(f"moves timed: generation {gen_n:,}, apply {app_n:,}, playout loop {loop_n:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
