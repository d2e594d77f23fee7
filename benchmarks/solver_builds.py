"""Speed of this checkout's C solver core against the core of another git revision.

Usage::

    .venv/bin/python benchmarks/solver_builds.py --baseline 82e1e87 \\
        [--variant classic] [--seeds 574,321] [--nodes 40000000] [--rounds 3] \\
        [-o option=value ...]

Extracts the baseline revision (``git archive``) into a temporary directory and
builds its C core there with this interpreter.  Then, in each round, one fresh
process per build solves the same deals (``--seeds``, one search each without
restarts, at most ``--nodes`` positions each, so both builds take exactly the same
steps); the order of the two builds alternates from round to round, so a change in
the machine's load shows in both.  Each process first solves the first seed once,
untimed, so its tables are faulted in before the timed solves (as in a batch
process, which keeps its freed tables for the next deal).

Prints each round's positions per second for both builds, the median of each, and
the ratio of the medians (this checkout / baseline; above 1: this checkout is
faster).  Exits 1 when a build fails or the two builds disagree on a verdict or a
node count (they run the same search, so they must not).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def worker(root: str, variant: str, seed_text: str, options: list[str], nodes: int) -> None:
    """Solve the seeds with the checkout at ``root``; print ``{positions, seconds, verdicts}``.

    Nothing of ``games`` may be imported before this (it would be this checkout's).
    """
    sys.path.insert(0, root)
    import games.engine
    from games.engine import new_game
    from games.engine.solver import c_available, solve
    from games.engine.solver_batch import parse_options, parse_seeds

    if not Path(games.engine.__file__).resolve().is_relative_to(Path(root).resolve()):
        raise SystemExit(f"games imported from {games.engine.__file__}, not from {root}")
    seeds = parse_seeds(seed_text)

    if not c_available():
        raise SystemExit(f"the C solver core of {root} is not built")
    opts = parse_options(options)

    def one(seed: str) -> tuple[str, int, float]:
        state = new_game(variant, seed=seed, **opts)
        start = time.perf_counter()
        res = solve(
            state,
            max_nodes=nodes,
            max_seconds=None,
            restarts=False,
            engine="c",
            max_bytes=None,
            keep_tables=True,
        )
        return res.result, res.nodes, time.perf_counter() - start

    one(seeds[0])  # untimed: the tables faulted in
    runs = [one(seed) for seed in seeds]
    print(
        json.dumps(
            {
                "positions": sum(r[1] for r in runs),
                "seconds": sum(r[2] for r in runs),
                "verdicts": [f"{seed}:{r[0]}:{r[1]}" for seed, r in zip(seeds, runs, strict=True)],
            }
        )
    )


def extract(revision: str, into: Path) -> None:
    """Write the files of ``revision`` into ``into`` and build its C core there."""
    tar = subprocess.run(  # noqa: S603 - the revision is the caller's own argument
        ["git", "-C", str(REPO), "archive", "--format=tar", revision],  # noqa: S607
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    subprocess.run(  # noqa: S603 - fixed command line
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=into,
        check=True,
        capture_output=True,
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (see the module doc)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="git revision to compare with (required)")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seeds", default="574,321", help='e.g. "574,321" or "0-9"')
    parser.add_argument("--nodes", type=int, default=40_000_000, help="positions per deal")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.variant, args.seeds, args.option, args.nodes)
        return 0
    if not args.baseline:
        parser.error("--baseline is required")
    with tempfile.TemporaryDirectory(prefix="solver-baseline-") as tmp:
        try:
            extract(args.baseline, Path(tmp))
        except subprocess.CalledProcessError as exc:
            print(
                f"baseline {args.baseline}: {exc.cmd[0]} failed:\n{exc.stderr.decode()}",
                file=sys.stderr,
            )
            return 1
        builds = {"baseline": tmp, "this": str(REPO)}
        rates: dict[str, list[float]] = {"baseline": [], "this": []}
        verdicts: dict[str, set[str]] = {"baseline": set(), "this": set()}
        print(
            f"{args.variant} {' '.join(args.option)} seeds {args.seeds}, "
            f"{args.nodes:,} positions at most each, baseline {args.baseline}"
        )
        for rnd in range(args.rounds):
            order = ("baseline", "this") if rnd % 2 == 0 else ("this", "baseline")
            for name in order:
                proc = subprocess.run(  # noqa: S603 - this script, fixed arguments
                    [
                        sys.executable,
                        __file__,
                        "--worker",
                        builds[name],
                        "--variant",
                        args.variant,
                        "--seeds",
                        args.seeds,
                        "--nodes",
                        str(args.nodes),
                    ]
                    + [f"-o{o}" for o in args.option],
                    check=False,
                    capture_output=True,
                    text=True,
                )
                if proc.returncode:
                    print(f"the {name} build failed:\n{proc.stderr}", file=sys.stderr)
                    return 1
                run = json.loads(proc.stdout)
                rates[name].append(run["positions"] / run["seconds"])
                verdicts[name].add(" ".join(run["verdicts"]))
            print(
                f"  round {rnd + 1}: baseline {rates['baseline'][-1]:>11,.0f} /s, "
                f"this {rates['this'][-1]:>11,.0f} /s"
            )
    med = {name: statistics.median(values) for name, values in rates.items()}
    print(
        f"  median: baseline {med['baseline']:,.0f} /s, this {med['this']:,.0f} /s, "
        f"this / baseline {med['this'] / med['baseline']:.3f}"
    )
    if len(verdicts["baseline"] | verdicts["this"]) != 1:
        print(f"  the builds disagree: {verdicts}", file=sys.stderr)
        return 1
    print(f"  same verdicts and node counts: {verdicts['this'].pop()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
