"""Benchmark: a finished race's results, on the API and the page, on PostgreSQL.

Usage (PostgreSQL must answer; the database is created if needed)::

    .venv/bin/python benchmarks/race_results.py --entries 100 --moves 2000 \
        --database-url postgres://postgres@127.0.0.1:5432/canfield_bench

It migrates the benchmark database, makes one finished race with ``--entries``
entrants whose games hold ``--moves`` live moves each, then times, in process
(Django's test client, no server; the median of ``--repeat`` calls):

- ``GET /api/v1/races/{id}/results`` with the cache cleared before each call (every
  move list read from the database: what every call cost before the lists were kept);
- the same with the lists in the cache (what every later call costs, for 10 minutes);
- ``GET /races/{id}/results``, the page (it shows no move list, and reads none).

The baseline, measured in the same run, is one plain ``SELECT game_id, notation``
of those moves through a cursor: the ratios say what the answer costs beyond
fetching the rows once.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.postgres import (  # noqa: E402 - after the path
    add_database_url,
    django_on,
    median_ms,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--moves", type=int, default=2000, help="live moves per game")
    parser.add_argument("--repeat", type=int, default=5)
    add_database_url(parser)
    args = parser.parse_args()
    os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    django_on(args.database_url)
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.utils import timezone
    from rest_framework.throttling import ScopedRateThrottle

    from games.models import Game, Move, RaceEntry
    from games.services.race_admin import race_close_now
    from games.services.races import race_create, race_join

    ScopedRateThrottle.THROTTLE_RATES = {"moves": "1000000/s", "games": "1000000/s"}
    now = timezone.now()
    race = race_create(
        name="bench results",
        opens_at=now - timedelta(minutes=3),
        starts_at=now - timedelta(minutes=2),
        ends_at=now + timedelta(minutes=5),
        late_join_s=None,
    )
    stamp = int(time.time())
    users = User.objects.bulk_create(
        [User(username=f"bench-r{stamp}-{i}", password="!") for i in range(args.entries)]  # noqa: S106
    )
    entries = [race_join(race_id=race.id, player=u).entry for u in users]
    game_ids = [e.game_id for e in entries if e.game_id is not None]
    Move.objects.bulk_create(
        [
            Move(game_id=g, number=k + 1, notation="draw", played_at=now, cards_home=1)
            for g in game_ids
            for k in range(args.moves)
        ],
        batch_size=10_000,
    )
    Game.objects.filter(id__in=game_ids).update(move_number=args.moves)
    race_close_now(race_id=race.id)
    assert RaceEntry.objects.filter(race=race, rank__isnull=False).count() == args.entries
    with connection.cursor() as cur:
        cur.execute("ANALYZE")

    client = Client()
    api, page = f"/api/v1/races/{race.id}/results", f"/races/{race.id}/results"

    def baseline() -> None:
        with connection.cursor() as cur:
            cur.execute(
                f"SELECT game_id, notation FROM {Move._meta.db_table} "  # noqa: S608
                "WHERE game_id = ANY(%s) AND undone_at IS NULL ORDER BY game_id, number",
                [game_ids],
            )
            assert len(cur.fetchall()) == args.entries * args.moves

    def cold() -> None:
        cache.clear()
        assert client.get(api).status_code == 200

    def warm() -> None:
        assert client.get(api).status_code == 200

    def the_page() -> None:
        assert client.get(page).status_code == 200

    base = median_ms(baseline, args.repeat)
    cold_ms = median_ms(cold, args.repeat)
    client.get(api)
    warm_ms = median_ms(warm, args.repeat)
    page_ms = median_ms(the_page, args.repeat)
    size = len(client.get(api).content)
    print(f"entries x live moves          {args.entries} x {args.moves}")
    print(f"answer size                   {size:,} bytes")
    print(f"baseline: SELECT the moves    {base:8.1f} ms")
    print(f"API, lists read (cold)        {cold_ms:8.1f} ms   ({cold_ms / base:5.1f} x baseline)")
    print(f"API, lists kept (warm)        {warm_ms:8.1f} ms   ({warm_ms / base:5.1f} x baseline)")
    print(f"results page                  {page_ms:8.1f} ms   ({page_ms / base:5.1f} x baseline)")


if __name__ == "__main__":
    main()
