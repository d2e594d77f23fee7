"""Benchmark: a solution request never waits for the solver (issue 12 item 4).

Usage::

    .venv/bin/python benchmarks/solution_requests.py --games 8 --variant rainbow

It runs the app on a scratch SQLite database with an in-memory broker and no
worker (tasks are queued, not run, as with a real broker whose solver workers
are busy), finishes N practice games on fresh random deals, and times
``GET /api/v1/games/{id}/solution`` for each (the answer is 202: queued).  The
baseline, measured in the same run, is ``GET /api/v1/health``.  Then it runs
the queued jobs as a solver worker would (``solve_run``) and times them: that
is the work the web request no longer does.  Prints medians in ms and the
ratios to the health baseline.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--variant", default="rainbow")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="canfield-bench-")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "canfield_site.settings",
            "DATABASE_URL": f"sqlite:///{scratch}/bench.sqlite3",
            "DEBUG": "true",
            "ALLOWED_HOSTS": "testserver",
            "CELERY_BROKER_URL": "memory://",
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "REDIS_URL": "",
            "CACHE_URL": "",
            "SOLVER_MAX_PENDING_PER_USER": str(args.games + 1),
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    from games.models import Solve
    from games.services.solver import solve_run

    user = User.objects.create_user("bench")
    client = APIClient()
    client.force_authenticate(user)

    health, solution = [], []
    for _ in range(args.games):
        created = client.post("/api/v1/games", {"variant": args.variant}, format="json")
        assert created.status_code == 201, created.content
        game = created.json()
        client.post(f"/api/v1/games/{game['id']}/resign")
        t0 = time.perf_counter()
        client.get("/api/v1/health")
        health.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        response = client.get(f"/api/v1/games/{game['id']}/solution")
        solution.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 202, response.content
    worker = []
    for job in Solve.objects.all():
        t0 = time.perf_counter()
        solve_run(solve_id=job.id)
        worker.append((time.perf_counter() - t0) * 1000)

    h, s, w = (statistics.median(x) for x in (health, solution, worker))
    print(f"games: {args.games} ({args.variant})")
    print(f"GET /health (baseline):        median {h:8.1f} ms")
    print(f"GET /solution (202, queued):   median {s:8.1f} ms  ratio {s / h:6.1f}x health")
    print(f"solve_run on a solver worker:  median {w:8.1f} ms  ratio {w / h:6.1f}x health")


if __name__ == "__main__":
    main()
