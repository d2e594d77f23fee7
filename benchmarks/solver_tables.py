"""Solver speed with the C core's freed tables kept for reuse, against giving them back.

Usage::

    .venv/bin/python benchmarks/solver_tables.py [--variant rainbow] [--deals 8]
        [--first-seed 0] [--nodes 2000000] [--rounds 2] [-o option=value ...]

Solves the same deals (seeds ``first-seed .. first-seed + deals - 1``, a node budget
each, so both ways take exactly the same steps) in this process, one after the other,
twice per round: once with ``solve(keep_tables=False)`` (every table mapped fresh from
the system and faulted in, the behaviour before tables were kept) and once with
``keep_tables=True`` (the batch's way: a freed table is cleared with ``memset`` and
reused by the next search of the same size, in this deal or the next).  The two ways
alternate within each round, so a change in the machine's load shows in both.

Prints, for each way: positions per second, and the user and system CPU seconds of
this process; then the ratio of kept to fresh positions per second (above 1: keeping
is faster).  On a virtual machine that hands freed memory back to its host, most of
the fresh way's system time is the kernel faulting pages in again.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import new_game
from games.engine.solver import c_available, release_tables, solve
from games.engine.solver_batch import parse_options


def run_deals(
    variant: str, seeds: list[str], options: dict[str, Any], nodes: int, keep: bool
) -> tuple[int, float, float, float]:
    """Solve every seed once: ``(positions, wall seconds, user CPU s, system CPU s)``."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    positions = 0
    for seed in seeds:
        state = new_game(variant, seed=seed, **options)
        positions += solve(
            state, max_nodes=nodes, max_seconds=None, engine="c", keep_tables=keep
        ).nodes
    wall = time.perf_counter() - start
    release_tables()  # the next run starts with nothing kept, as a fresh process would
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (
        positions,
        wall,
        after.ru_utime - before.ru_utime,
        after.ru_stime - before.ru_stime,
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (see the module doc); 1 when the C core is not built."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="rainbow")
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--nodes", type=int, default=2_000_000, help="positions per deal")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    if not c_available():
        print("the C solver core is not built (python3 dev.py setup)", file=sys.stderr)
        return 1
    options = parse_options(args.option)
    seeds = [str(s) for s in range(args.first_seed, args.first_seed + args.deals)]
    totals = {False: [0, 0.0, 0.0, 0.0], True: [0, 0.0, 0.0, 0.0]}
    for _round in range(args.rounds):
        for keep in (False, True):
            for i, value in enumerate(run_deals(args.variant, seeds, options, args.nodes, keep)):
                totals[keep][i] += value
    print(
        f"{args.variant} {' '.join(args.option)} seeds {seeds[0]}..{seeds[-1]}, "
        f"{args.nodes:,} positions at most each, {args.rounds} rounds"
    )
    rates = {}
    for keep, label in ((False, "fresh tables"), (True, "kept tables ")):
        positions, wall, user, system = totals[keep]
        rates[keep] = positions / wall
        print(
            f"  {label}: {rates[keep]:>11,.0f} positions/s  "
            f"user {user:6.1f} s  system {system:5.1f} s  ({int(positions):,} positions)"
        )
    print(f"  kept / fresh: {rates[True] / rates[False]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
