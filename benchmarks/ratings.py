"""Benchmark: rating races (issue 16) on PostgreSQL, and how the cost grows with entries.

Usage (PostgreSQL must answer; the database is created and migrated if needed)::

    .venv/bin/python benchmarks/ratings.py \
        --database-url postgres://postgres@127.0.0.1:5432/canfield_ratings_bench

Figures printed (seconds, median of ``--repeat`` where repeated):

1. ``race_rate`` of a finished race of ``--entries`` (1,000) entries, the newest
   race of its pool (what the Celery task does after a race finishes), its
   players already rated; baseline in the same run: the model update alone
   (``rate_race``, the openskill library call) on the same entries.
   Target: at most 2 s.
2. ``race_rate`` of a ``--big`` (10,000) entry race (the O(n log n) form).
3. ``pool_recompute`` of a pool of ``--races`` (1,000) races x ``--per-race``
   (50) entries drawn from ``--players`` (2,000) players, and the worst re-rate:
   a disqualification in the pool's first race, then ``race_rate`` of that race
   (the whole pool replays).  Target: at most 60 s.
4. Growth: the model update alone for n entries, the library's O(n^2) call and
   the O(n log n) form, with the ratio to n = 250.

Races and entries are written directly (finished, ranked, some ties) so the
figures are the rating's own cost, not the cost of playing the games.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.postgres import django_on  # noqa: E402 - after the path

T0 = datetime(2030, 1, 1, tzinfo=UTC)


def _players(n: int) -> list[int]:
    from django.contrib.auth.models import User

    have = User.objects.filter(username__startswith="rbench-").count()
    if have < n:
        User.objects.bulk_create(
            [User(username=f"rbench-{i}", password="!") for i in range(have, n)],  # noqa: S106
            batch_size=5000,
        )
    ids = User.objects.filter(username__startswith="rbench-").order_by("id")
    return list(ids.values_list("id", flat=True)[:n])


class Races:
    """Writes finished, ranked races of one pool (one shared deal)."""

    def __init__(self, options: dict[str, Any], rng: random.Random) -> None:
        from games.engine import make_rules
        from games.services.games import deal_create

        self.deal = deal_create(rules=make_rules("classic", **options), seed="rbench")
        self.rng = rng
        self.count = 0

    def add(self, players: list[int], *, ties: bool = True) -> Any:
        """A finished race of ``players`` ranked in the order given (about 1 in 10 tied)."""
        from games.models import Race, RaceEntry

        ends = T0 + timedelta(minutes=self.count)
        self.count += 1
        race = Race.objects.create(
            name=f"rbench race {self.count}",
            deal=self.deal,
            status=Race.Status.FINISHED,
            time_limit_s=60,
            opens_at=ends - timedelta(minutes=2),
            starts_at=ends - timedelta(minutes=1),
            ends_at=ends,
            commitment=self.deal.commitment,
        )
        rows, rank = [], 0
        for i, player in enumerate(players):
            if not (ties and i and self.rng.random() < 0.1):
                rank = i + 1
            rows.append(
                RaceEntry(race=race, player_id=player, rank=rank, status="timed_out", cards_home=10)
            )
        RaceEntry.objects.bulk_create(rows, batch_size=5000)
        return race


def _clean() -> None:
    from games.models import Race, RatingPool

    RatingPool.objects.all().delete()
    Race.objects.filter(name__startswith="rbench ").delete()


def _timed(fn: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--per-race", type=int, default=50)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--growth", default="250,500,1000,2000", help="entries for the model-only growth table"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/canfield_ratings_bench"
        ),
    )
    args = parser.parse_args()
    django_on(args.database_url)
    logging.getLogger("games").setLevel(logging.WARNING)

    from games.models import RaceEntry, RatingChange, RatingPool
    from games.rating_model import INITIAL, Skill, _rate_linear, rate_race
    from games.services.ratings import pool_recompute, race_rate

    rng = random.Random(16)  # noqa: S311 - reproducible fake results, not secrets
    _clean()
    players = _players(max(args.big, args.players, args.entries))
    print(f"database: {args.database_url.rsplit('@', 1)[-1]}")

    # 1. One finished race of N entries, the newest of its pool.
    races = Races({"redeals": 1}, rng)
    field = players[: args.entries]
    race_rate(race_id=races.add(rng.sample(field, len(field))).id)  # everyone rated once
    times, models = [], []
    for _ in range(args.repeat):
        race = races.add(rng.sample(field, len(field)))
        seconds, outcome = _timed(lambda race=race: race_rate(race_id=race.id))
        assert outcome == "rated", outcome
        times.append(seconds)
        skills = [Skill(25.0 + rng.random(), 4.0) for _ in field]
        ranks = list(RaceEntry.objects.filter(race=race).values_list("rank", flat=True))
        models.append(_timed(lambda s=skills, r=ranks: rate_race(s, r))[0])
    med, base = statistics.median(times), statistics.median(models)
    print(
        f"rate a finished race of {args.entries} entries: {med:.3f} s (median of {args.repeat}; "
        f"target <= 2 s); model update alone {base:.3f} s; ratio {med / base:.1f}x"
    )

    # 2. One race of --big entries (newcomers), rated by the O(n log n) form.
    big = Races({"redeals": 2}, rng)
    race = big.add(players[: args.big])
    seconds, outcome = _timed(lambda: race_rate(race_id=race.id))
    assert outcome == "rated", outcome
    model = _timed(lambda: rate_race([INITIAL] * args.big, list(range(1, args.big + 1))))[0]
    print(
        f"rate a finished race of {args.big} entries: {seconds:.3f} s; "
        f"model update alone {model:.3f} s"
    )

    # 3. A pool of --races x --per-race, recomputed; then the worst re-rate.
    pool_races = Races({}, rng)
    first = None
    pool_players = players[: args.players]
    for _ in range(args.races):
        race = pool_races.add(rng.sample(pool_players, args.per_race))
        first = first or race
    pool = RatingPool.objects.get_or_create(
        key="classic", defaults={"variant": "classic", "options": pool_races.deal.options}
    )[0]
    seconds, rated = _timed(lambda: pool_recompute(pool_id=pool.id))
    rows = RatingChange.objects.filter(pool=pool).count()
    print(
        f"recompute a pool of {args.races} races x {args.per_race} entries ({rows} history rows, "
        f"{rated} races rated): {seconds:.2f} s (target <= 60 s)"
    )
    assert first is not None
    entry = RaceEntry.objects.filter(race=first).order_by("rank").first()
    assert entry is not None
    RaceEntry.objects.filter(id=entry.id).update(disqualified=True, rank=None)
    seconds, outcome = _timed(lambda: race_rate(race_id=first.id))
    print(f"re-rate after a disqualification in the pool's first race: {seconds:.2f} s ({outcome})")
    seconds, outcome = _timed(lambda: race_rate(race_id=first.id))
    print(f"the same task again (idempotent): {seconds:.3f} s ({outcome})")

    # 4. Growth of the model update with entries.
    print("model update alone, seconds (ratio to the first n):")
    print("  n        library O(n^2)   O(n log n) form")
    first_lib = first_lin = None
    for n in [int(x) for x in args.growth.split(",")] + [args.big, 2 * args.big]:
        skills = [Skill(25.0 + rng.random(), 1.0 + 7 * rng.random()) for _ in range(n)]
        ranks = [i // 3 + 1 for i in range(n)]
        lin = _timed(lambda s=skills, r=ranks: _rate_linear(s, r))[0]
        if n <= 2000:
            from games.rating_model import MODEL

            teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
            lib: float | None = _timed(
                lambda t=teams, r=ranks: MODEL.rate(t, ranks=[float(x) for x in r])
            )[0]
        else:
            lib = None
        first_lib = first_lib or lib
        first_lin = first_lin or lin
        lib_s = f"{lib:8.3f} ({lib / first_lib:6.1f}x)" if lib and first_lib else "   (not run)    "
        print(f"  {n:<8d} {lib_s}  {lin:8.4f} ({lin / first_lin:6.1f}x)")
    _clean()


if __name__ == "__main__":
    main()
