"""A solver batch on Celery workers (issue [solver-plus] item 3).

``manage.py solve --backend celery`` sends every deal as one
:func:`games.tasks.solve_batch_deal` task to a queue (``solver`` by default), so
any number of worker machines that share the broker work on one winnability
table::

    # on each worker machine (same REDIS_URL):
    celery -A canfield_site worker -Q solver --concurrency <cores>
    # on any one machine:
    python manage.py solve --backend celery --variant classic --seeds 0-999 --out classic.csv

The rows, CSV/JSON file and summary are the same as with local processes
(:func:`games.engine.solver_batch.run_batch`); a node budget gives the same rows
whichever machine solved a deal.  With in-process (eager) tasks, as on the
embedded default, the tasks run one after another in this process.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from games.engine.rules import make_rules
from games.engine.solver import DEFAULT_MAX_BYTES
from games.engine.solver_batch import Row

#: The queue solver work goes to (workers started with ``-Q solver`` consume it).
SOLVER_QUEUE = "solver"


def run_batch_celery(
    variant: str,
    seeds: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    budget_seconds: float | None = 10.0,
    budget_nodes: int | None = None,
    tidy: bool = True,
    queue: str = SOLVER_QUEUE,
    progress: Callable[[Row], None] | None = None,
    timeout_seconds: float | None = None,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
) -> tuple[list[Row], Counter[str]]:
    """Solve every seed on Celery workers; returns ``(rows in seed order, deals per worker)``.

    Rules are validated before anything is sent (:class:`~games.engine.rules.RulesError`).
    ``timeout_seconds``: how long to wait for each row (default: the deal's budget plus
    ten minutes of queueing); a worker that never answers raises Celery's
    ``TimeoutError``.  Rows have the keys of ``run_batch`` (the worker's name is
    counted, not stored in the row).  ``max_bytes``: the solver's memory cap per deal,
    in bytes, on the worker (default 1 GiB; ``None``: none).
    """
    from games.tasks import solve_batch_deal

    options = dict(options or {})
    make_rules(variant, **options)
    wait = timeout_seconds if timeout_seconds is not None else (budget_seconds or 60.0) + 600.0
    pending = [
        solve_batch_deal.apply_async(
            args=(variant, seed, options, budget_seconds, budget_nodes, tidy, max_bytes),
            queue=queue,
        )
        for seed in seeds
    ]
    rows: list[Row] = []
    workers: Counter[str] = Counter()
    for result in pending:
        row = dict(result.get(timeout=wait))
        workers[str(row.pop("worker"))] += 1
        rows.append(row)
        if progress:
            progress(row)
    return rows, workers
