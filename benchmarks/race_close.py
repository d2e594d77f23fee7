"""Benchmark: close and score a race with N entries (default 10,000) on PostgreSQL.

Usage (PostgreSQL must answer; the database is created if needed)::

    .venv/bin/python benchmarks/race_close.py --entries 10000 \
        --database-url postgres://postgres@127.0.0.1:5432/canfield_bench

It migrates the benchmark database, creates N players, one race and N games
with random results, moves the race's end into the past and times
``race_close`` (the function the Celery sweeper runs: time out unfinished
games, copy results, rank with ``RANK()`` in SQL), then a second, idempotent
call.  The baseline, measured in the same run, is one plain
``UPDATE ... SET rank = NULL`` over the same N entry rows: the ratio says how
many such full-table passes the whole close costs.  Target: close and score
10,000 entries in at most 2 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.postgres import (  # noqa: E402 - after the path
    add_database_url,
    django_on,
    race_games,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="races closed (median reported)")
    add_database_url(parser)
    args = parser.parse_args()
    django_on(args.database_url)
    from django.contrib.auth.models import User
    from django.db import connection
    from django.utils import timezone

    from games.models import Game, Race, RaceEntry
    from games.services.races import race_close, race_create

    n = args.entries
    rng = random.Random(7)  # noqa: S311 - reproducible fake results, not secrets
    users = list(User.objects.filter(username__startswith="bench-").order_by("id")[:n])
    if len(users) < n:
        User.objects.bulk_create(
            [User(username=f"bench-{i}", password="!") for i in range(len(users), n)],  # noqa: S106
            batch_size=2000,
        )
        users = list(User.objects.filter(username__startswith="bench-").order_by("id")[:n])

    closes: list[float] = []
    reruns: list[float] = []
    baselines: list[float] = []
    for _ in range(args.repeat):
        now = timezone.now()
        race = race_create(
            name="bench",
            opens_at=now - timedelta(minutes=3),
            starts_at=now - timedelta(minutes=2),
            ends_at=now + timedelta(minutes=5),
            late_join_s=None,  # started already: joining stays open (else refused)
        )
        race_games(race, users, rng)
        past = timezone.now() - timedelta(seconds=1)
        Race.objects.filter(id=race.id).update(ends_at=past)
        Game.objects.filter(race_entry__race=race).update(deadline=past)
        with connection.cursor() as cur:
            cur.execute("ANALYZE")
            t0 = time.perf_counter()
            cur.execute(
                f"UPDATE {RaceEntry._meta.db_table} SET rank = NULL WHERE race_id = %s",  # noqa: S608
                [race.id],
            )
            baselines.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        status = race_close(race_id=race.id)
        closes.append(time.perf_counter() - t0)
        assert status == "finished", status
        t0 = time.perf_counter()
        race_close(race_id=race.id)
        reruns.append(time.perf_counter() - t0)
        ranked = RaceEntry.objects.filter(race=race, rank__isnull=False).count()
        assert ranked == n, (ranked, n)
        assert not Game.objects.filter(race_entry__race=race, status="playing").exists()

    close = statistics.median(closes)
    base = statistics.median(baselines)
    print(f"entries per race            {n}")
    print(f"races closed                {args.repeat}")
    print(
        f"close+score (median)        {close * 1000:8.1f} ms   (all: "
        + ", ".join(f"{c * 1000:.0f}" for c in closes)
        + " ms)"
    )
    print(f"second close (idempotent)   {statistics.median(reruns) * 1000:8.1f} ms")
    print(f"baseline UPDATE of N rows   {base * 1000:8.1f} ms")
    print(f"ratio close / baseline      {close / base:8.1f}x")
    print(f"target (<= 2000 ms)         {'met' if close <= 2.0 else 'MISSED'}")


if __name__ == "__main__":
    main()
