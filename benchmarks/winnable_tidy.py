"""Benchmark: what ``manage.py winnable_tidy`` costs per pooled line, on PostgreSQL.

Usage (PostgreSQL must answer; the database is created if needed)::

    .venv/bin/python benchmarks/winnable_tidy.py [--deals 40] [--variant classic] \
        [--budget-nodes 1000000] \
        --database-url postgres://postgres@127.0.0.1:5432/canfield_bench

Pools ``--deals`` proven-winnable deals with the solver's own line, as the pool kept
them before each line was shortened when pooled (32-hex seeds ``sha256("bench-tidy-i")``,
as the pool's own, each solved within ``--budget-nodes`` positions: the same lines on
any machine), then shortens each one as the command does
(``games.services.winnable_pool.winnable_line_tidy``: ``tidy_line`` within
``DEFAULT_MAX_PLAYS``, the engine's replay to 52 cards home, one ``UPDATE``), and
prints the seconds per line (median, 90th percentile, maximum; the wall clock of the
whole call, database included) and the moves removed.  Its rows are deleted at the end.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.postgres import add_database_url, django_on  # noqa: E402 - after the path


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--budget-nodes", type=int, default=1_000_000)
    add_database_url(parser)
    args = parser.parse_args()
    django_on(args.database_url)
    from games.engine import make_rules, new_game
    from games.engine.solver import WON, solve
    from games.engine.solver_batch import percentile
    from games.models import WinnableDeal
    from games.services.winnable_pool import rules_key, winnable_line_tidy

    rules = make_rules(args.variant)
    rows: list[int] = []
    solve_seconds: list[float] = []
    i = 0
    while len(rows) < args.deals:
        seed = hashlib.sha256(f"bench-tidy-{i}".encode()).hexdigest()[:32]
        i += 1
        started = time.perf_counter()
        proof = solve(
            new_game("classic", seed=seed, **rules.to_dict()),
            max_nodes=args.budget_nodes,
            max_seconds=None,
        )
        if proof.result != WON:
            continue
        solve_seconds.append(time.perf_counter() - started)
        row = WinnableDeal.objects.create(
            rules_key=rules_key(rules),
            variant=args.variant,
            options=rules.to_dict(),
            seed=seed,
            moves=list(proof.moves),
            nodes=proof.nodes,
            seconds=proof.seconds,
        )
        rows.append(row.id)
    print(f"{len(rows)} {args.variant} deals won of {i} solved (<= {args.budget_nodes} nodes)")
    seconds: list[float] = []
    before = after = 0
    try:
        for deal_id in rows:
            started = time.perf_counter()
            done = winnable_line_tidy(deal_id=deal_id)
            seconds.append(time.perf_counter() - started)
            assert done.result in ("shortened", "kept"), done
            before += done.before
            after += done.after
    finally:
        WinnableDeal.objects.filter(id__in=rows).delete()
    print(
        f"seconds per line: median {statistics.median(seconds):.3f}, "
        f"p90 {percentile(seconds, 0.9):.3f}, max {max(seconds):.3f}, "
        f"total {sum(seconds):.1f} (solving them took median "
        f"{statistics.median(solve_seconds):.3f} s each)"
    )
    print(f"moves: {before} -> {after} ({(before - after) / before:.0%} removed)")


if __name__ == "__main__":
    main()
