"""What the solver's dead sets buy and cost: the same deals with and without them.

Usage::

    .venv/bin/python benchmarks/solver_dead_sets.py [--variant classic] [--seeds 0-7]
        [--nodes 2000000] [--rounds 1] [-o option=value ...]

Solves the same deals (a node budget each, so each way takes the same steps every
run) in this process, once per round with dead sets off (``solver._DEAD_SETS =
False``: each search of a deal works alone, the schedule before dead sets) and once
with them on (the searches share the positions they prove lost; ``solver.py``
module doc, "Dead sets").  The two ways alternate within each round, so a change in
the machine's load shows in both.

Prints, for each way: the deals won, lost and undecided, the positions expanded, the
wall seconds and positions per second; then the ratio of on to off positions per
second (below 1: the bookkeeping's cost per position) and of the positions spent
(below 1: fewer positions for the same deals).  Verdicts never differ except
``unknown`` against a decision: a deal decided both ways is decided alike.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import new_game
from games.engine import solver as solver_mod
from games.engine.solver import LOST, UNKNOWN, WON, c_available, release_tables, solve
from games.engine.solver_batch import parse_options, parse_seeds


def run_deals(
    variant: str, seeds: list[str], options: dict[str, Any], nodes: int, dead_sets: bool
) -> tuple[dict[str, str], int, float]:
    """Solve every seed once: ``(verdict by seed, positions, wall seconds)``."""
    solver_mod._DEAD_SETS = dead_sets
    verdicts: dict[str, str] = {}
    positions = 0
    start = time.perf_counter()
    try:
        for seed in seeds:
            state = new_game(variant, seed=seed, **options)
            res = solve(state, max_nodes=nodes, max_seconds=None, engine="c", keep_tables=True)
            verdicts[seed] = res.result
            positions += res.nodes
    finally:
        solver_mod._DEAD_SETS = True
        release_tables()
    return verdicts, positions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (see the module doc); 1 when the C core is not built."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seeds", default="0-7", help='e.g. "0-7" or "39,72,90"')
    parser.add_argument("--nodes", type=int, default=2_000_000, help="positions per deal")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    if not c_available():
        print("the C solver core is not built (python3 dev.py setup)", file=sys.stderr)
        return 1
    options = parse_options(args.option)
    seeds = parse_seeds(args.seeds)
    spent = {False: 0, True: 0}  # positions
    seconds = {False: 0.0, True: 0.0}
    verdicts: dict[bool, dict[str, str]] = {}
    for _round in range(args.rounds):
        for dead_sets in (False, True):
            found, positions, wall = run_deals(args.variant, seeds, options, args.nodes, dead_sets)
            verdicts[dead_sets] = found
            spent[dead_sets] += positions
            seconds[dead_sets] += wall
    print(
        f"{args.variant} {' '.join(args.option)} seeds {args.seeds} ({len(seeds)} deals), "
        f"{args.nodes:,} positions at most each, {args.rounds} rounds"
    )
    rates = {}
    for dead_sets, label in ((False, "alone    "), (True, "dead sets")):
        positions, wall = spent[dead_sets], seconds[dead_sets]
        rates[dead_sets] = positions / wall
        counts = {v: list(verdicts[dead_sets].values()).count(v) for v in (WON, LOST, UNKNOWN)}
        print(
            f"  {label}: won {counts[WON]:>4} lost {counts[LOST]:>4} unknown "
            f"{counts[UNKNOWN]:>4}  {positions:>14,} positions  {wall:8.1f} s  "
            f"{rates[dead_sets]:>11,.0f} positions/s"
        )
    print(f"  positions/s, on / off: {rates[True] / rates[False]:.3f}")
    print(f"  positions spent, on / off: {spent[True] / spent[False]:.3f}")
    clash = [
        s
        for s in seeds
        if UNKNOWN not in (verdicts[True][s], verdicts[False][s])
        and verdicts[True][s] != verdicts[False][s]
    ]
    if clash:  # a solver bug: both ways are complete searches
        print(f"  DIFFERENT VERDICTS: {clash}")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
