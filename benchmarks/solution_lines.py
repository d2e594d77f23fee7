"""Solution line lengths before and after the tidying post-pass (issue [solver-plus] item 1).

Usage::

    python benchmarks/solution_lines.py [--variant classic] [--seeds 0-999] \\
        [--budget-nodes 4000000] [--workers 2]

Solves each seed with a node budget (deterministic: the same lines on any machine),
then shortens every winning line with :func:`games.engine.tidy.tidy_line` and prints,
over the won deals, the median, 90th percentile and maximum line length (moves,
draws and redeals counted) before and after, the share of moves removed, and the
tidying time (median and maximum seconds per line, with its ratio to the solve time
measured in the same run).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import new_game
from games.engine.solver import WON, solve
from games.engine.solver_batch import parse_seeds, percentile
from games.engine.tidy import tidy_line

Job = tuple[str, str, int]


def one(job: Job) -> tuple[str, str, int, int, float, float]:
    """``(seed, verdict, raw length, tidy length, solve seconds, tidy seconds)``."""
    variant, seed, nodes = job
    state = new_game(variant, seed=seed)
    started = time.perf_counter()
    result = solve(state, max_nodes=nodes, max_seconds=None)
    solved = time.perf_counter()
    if result.result != WON:
        return seed, result.result, 0, 0, solved - started, 0.0
    tidy = tidy_line(state, result.moves)
    return seed, WON, len(result.moves), len(tidy), solved - started, time.perf_counter() - solved


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seeds", default="0-999")
    parser.add_argument("--budget-nodes", type=int, default=4_000_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(args.variant, s, args.budget_nodes) for s in parse_seeds(args.seeds)]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        rows = pool.map(one, jobs, chunksize=1)
    won = [r for r in rows if r[1] == WON]
    raw = [r[2] for r in won]
    tidy = [r[3] for r in won]
    tidy_s = [r[5] for r in won]
    solve_s = [r[4] for r in won]
    print(
        f"{args.variant} seeds {args.seeds}: {len(won)} won of {len(rows)} "
        f"at {args.budget_nodes:,} nodes"
    )
    print(
        f"line length before: median {statistics.median(raw):.0f}, "
        f"p90 {percentile(raw, 0.9):.0f}, max {max(raw)}"
    )
    print(
        f"line length after:  median {statistics.median(tidy):.0f}, "
        f"p90 {percentile(tidy, 0.9):.0f}, max {max(tidy)}"
    )
    print(f"moves removed: {100 * (1 - sum(tidy) / sum(raw)):.1f}% of all moves")
    print(
        f"tidy time per line: median {statistics.median(tidy_s):.3f} s, max {max(tidy_s):.2f} s; "
        f"ratio to the solve time: {sum(tidy_s) / sum(solve_s):.2f}"
    )


if __name__ == "__main__":
    main()
