"""``manage.py solve``: decide many seeded deals with the solver and summarise (issue 8).

Example::

    python manage.py solve --variant classic --seeds 0-999 --workers 2 \\
        --budget-seconds 10 --out classic.csv
    python manage.py solve --backend celery ...   # on Celery workers (games.solver_dispatch)

The work is done by :mod:`games.engine.solver_batch`; this command parses
arguments, draws the tqdm bar and prints the summary.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.rules import RulesError
from games.engine.solver import DEFAULT_MAX_BYTES
from games.engine.solver_batch import (
    Row,
    format_summary,
    parse_options,
    parse_seeds,
    run_batch,
    summarise,
    write_rows,
)
from games.solver_dispatch import run_batch_celery


class Command(BaseCommand):
    """Solve seeds ``--seeds`` of ``--variant`` (with ``-o NAME=VALUE`` overrides) in parallel."""

    help = "Decide seeded Canfield deals (won / lost / unknown) with the solver; print a summary."

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare the options (see the module docstring)."""
        parser.add_argument("--variant", default="classic", help="preset name (RULES.md 4)")
        parser.add_argument("--seeds", default="0-99", help='e.g. "0-999" or "1,5,9-12"')
        parser.add_argument("--workers", type=int, default=0, help="processes (0: all cores)")
        parser.add_argument(
            "--budget-seconds",
            type=float,
            default=10.0,
            help="per deal; 0: no time limit (give --budget-nodes for a repeatable run)",
        )
        parser.add_argument("--budget-nodes", type=int, default=None, help="per deal")
        parser.add_argument(
            "--memory-mb",
            type=int,
            default=DEFAULT_MAX_BYTES >> 20,
            help="the solver's memory cap per deal, in MiB (default %(default)s; 0: no cap); "
            "a deal whose first search reaches it is unknown",
        )
        parser.add_argument(
            "-o",
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="override a rule option, e.g. -o tableau_moves=any-run (repeatable)",
        )
        parser.add_argument(
            "--backend",
            choices=["processes", "celery"],
            default="processes",
            help="processes: --workers local processes; celery: tasks on the --queue "
            "queue, solved by any number of Celery workers sharing the broker",
        )
        parser.add_argument("--queue", default="solver", help="Celery queue (--backend celery)")
        parser.add_argument("--out", default=None, help="write rows to a .csv or .json file")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument(
            "--no-tidy",
            action="store_true",
            help="keep the solver's raw winning lines (default: shortened, games.engine.tidy)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        """Run the batch and print the summary."""
        try:
            seeds = parse_seeds(opts["seeds"])
            options = parse_options(opts["option"])
        except (ValueError, RulesError) as exc:
            raise CommandError(str(exc)) from exc
        if not 0 <= opts["memory_mb"] <= 1 << 20:
            raise CommandError("--memory-mb must be 0 (no cap) to 1048576 (1 TiB)")
        max_bytes = opts["memory_mb"] << 20 or None
        bar: Any = None
        if not opts["no_progress"]:
            from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

            bar = tqdm(total=len(seeds), unit="deal", file=self.stderr._out)

        def progress(row: Row) -> None:
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(f"{row['seed']}:{row['result']}")

        workers: Counter[str] = Counter()
        try:
            if opts["backend"] == "celery":
                rows, workers = run_batch_celery(
                    opts["variant"],
                    seeds,
                    options=options,
                    budget_seconds=opts["budget_seconds"] or None,
                    budget_nodes=opts["budget_nodes"],
                    tidy=not opts["no_tidy"],
                    queue=opts["queue"],
                    progress=progress,
                    max_bytes=max_bytes,
                )
            else:
                rows = run_batch(
                    opts["variant"],
                    seeds,
                    options=options,
                    workers=opts["workers"] or None,
                    budget_seconds=opts["budget_seconds"] or None,
                    budget_nodes=opts["budget_nodes"],
                    progress=progress,
                    tidy=not opts["no_tidy"],
                    max_bytes=max_bytes,
                )
        except RulesError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            if bar is not None:
                bar.close()
        summary = summarise(rows)
        if opts["out"]:
            write_rows(opts["out"], rows, summary)
        self.stdout.write(format_summary(summary))
        if workers:
            by_worker = ", ".join(f"{name} {count}" for name, count in sorted(workers.items()))
            self.stdout.write(f"deals per worker: {by_worker}")
