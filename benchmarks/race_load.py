"""Load benchmark: many bots in one scheduled race against gunicorn + PostgreSQL + Redis.

Usage::

    .venv/bin/python benchmarks/race_load.py [--bots 200] [--think 1.0] [--seconds 60]
        [--workers 4] [--database-url postgres://postgres@127.0.0.1:5432/postgres]
        [--redis-url redis://127.0.0.1:6379/0] [--log-dir DIR]

Sets up a scratch database (``canfield_bench_<pid>``, dropped at the end) and a
free Redis database, starts ``--server`` with ``--workers`` workers and ``DEBUG`` off:

* ``split`` (production, compose.yaml): the REST API on gunicorn's sync workers (WSGI,
  persistent connections) and the event streams on one more process, gunicorn with a
  uvicorn worker (ASGI, a connection pool); the bots send each to its server as
  compose's nginx would (``CanfieldClient(events_url=...)``);
* ``gunicorn-asgi``: everything on gunicorn with uvicorn workers (one server);
* ``gunicorn``: everything on the WSGI app (streams refused: the bots poll);
* ``both`` = ``gunicorn-asgi,gunicorn``; ``all`` = ``gunicorn,gunicorn-asgi,split``: one
  run of each, side by side, with ratios to ``gunicorn`` (the baseline);

then a Celery worker and beat (sweeping every second),
creates the bot accounts directly (password hashing is not what is measured),
announces a race and lets every bot play it through the API, each waiting
``--think`` seconds before each move (0: as fast as the server answers, the
saturation rate).  Prints:

* moves per second accepted while the race ran, and the offered rate;
* p50/p95/p99/max latency of move requests (client side, so it includes the
  load generator's own event loop on the same machine);
* responses by status and problem code;
* close-and-score time: ``ends_at`` to the worker's close, to scored, and to
  the results being served;
* checks: no 5xx, and no lost or doubled move (each bot's accepted moves equal
  its stored history; the results verify by replay);
* ``POST /start`` answers ``409 race_not_started``: where streams are served
  (``split``, ``gunicorn-asgi``) the bots wait for the start on the race's event
  stream, so there are none; under ``gunicorn`` the stream is refused and they poll.

Targets (1 s think, 200 bots): no 5xx, no lost or doubled move, p99 < 100 ms.
Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import secrets
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from benchmarks.bot_accounts import bot_accounts_script
from benchmarks.seeded_race import seeded_race
from benchmarks.verify import verify_results
from canfield_bot.bot import Bot, BotResult
from canfield_bot.client import CanfieldClient
from canfield_bot.stack import (
    Stack,
    asgi_database_env,
    create_staff,
    free_port,
    postgres_drop_db,
    postgres_scratch_db,
    redis_claim_db,
    redis_release_db,
)
from canfield_bot.strategy import DefaultStrategy


class Recorder:
    """Collects every response: latency by route, counts by (route, status)."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = collections.defaultdict(list)
        self.status: collections.Counter[tuple[str, int]] = collections.Counter()
        self.move_times: list[float] = []

    def __call__(self, route: str, status: int, seconds: float) -> None:
        self.latency[route].append(seconds)
        self.status[(route, status)] += 1
        if route == "move" and status in (200, 201):
            self.move_times.append(time.time())


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def race_times(db_url: str, race_id: str) -> tuple[datetime, datetime | None, datetime | None]:
    """``ends_at``, ``closed_at``, ``scored_at`` of the race, read from the database."""
    import psycopg

    with psycopg.connect(db_url) as conn:
        row = conn.execute(
            "SELECT ends_at, closed_at, scored_at FROM games_race WHERE id = %s", [race_id]
        ).fetchone()
    assert row is not None
    return row[0], row[1], row[2]


async def play(
    args: argparse.Namespace,
    url: str,
    staff_password: str,
    tokens: dict[str, str],
    race_id: str,
    events_url: str | None = None,
) -> dict[str, Any]:
    """Run every bot in the announced race ``race_id``, wait for the results.

    ``events_url``: the stream server when it is not ``url`` (``--server split``).
    """
    rec = Recorder()
    async with CanfieldClient(url, timeout=30) as staff:
        await staff.register_or_login("load-staff", staff_password)
        race = await staff.race(race_id)

        async def one(index: int, username: str, token: str) -> BotResult:
            # Each bot has its own connection pool, as separate programs would.  One pool
            # shared by every bot (bots + 10 connections) was starved once each bot's
            # race stream held a connection: moves queued in the load generator, which
            # read as a slower ASGI server.
            async with CanfieldClient(
                url, token=token, timeout=30, on_response=rec, events_url=events_url
            ) as client:
                client.username = username
                return await Bot(
                    client,
                    race["id"],
                    strategy=DefaultStrategy(seed=index),
                    think=args.think,
                    jitter=args.jitter,
                    on_stuck=args.on_stuck,
                    seed=index,
                    follow=not args.no_follow,
                ).run()

        bots = await asyncio.gather(
            *(one(i, u, t) for i, (u, t) in enumerate(tokens.items())), return_exceptions=True
        )
        ends = datetime.fromisoformat(race["ends_at"]).timestamp()
        await asyncio.sleep(max(0.0, ends - time.time()))
        results = await staff.wait_results(race["id"], poll=0.2, timeout=120)
        served = time.time() - ends
    return {"race": race, "bots": bots, "results": results, "served": served, "rec": rec}


def report(args: argparse.Namespace, out: dict[str, Any]) -> int:
    """Print the figures and run the checks; 0 when every check passes."""
    rec: Recorder = out["rec"]
    race, bots, results = out["race"], out["bots"], out["results"]
    failures: list[str] = []
    moves = rec.latency.get("move", [])
    starts = datetime.fromisoformat(race["starts_at"]).timestamp()
    accepted = rec.move_times
    window = (max(accepted) - starts) if accepted else 0.0
    print(
        f"\nserver {out['server']}; "
        f"bots {args.bots}, think {args.think} s ± {args.jitter:.0%}, on stuck {args.on_stuck}, "
        f"race {args.seconds} s, "
        f"gunicorn workers {args.workers}, cores {os.cpu_count()}, "
        f"synchronous_commit {'off' if args.async_commit else 'on'}"
    )
    offered = f"{args.bots / args.think:.0f}" if args.think else "saturation"
    print(
        f"moves accepted: {len(accepted)} in {window:.1f} s = "
        f"{len(accepted) / window if window else 0:.1f} moves/s (offered ~{offered}/s)"
    )
    if moves:
        print(
            f"move latency ms: p50 {pct(moves, 0.50):.1f}  p95 {pct(moves, 0.95):.1f}  "
            f"p99 {pct(moves, 0.99):.1f}  max {max(moves) * 1000:.1f}  "
            f"mean {statistics.fmean(moves) * 1000:.1f}  (n={len(moves)})"
        )
    print("responses by route and status:")
    for (route, status), count in sorted(rec.status.items()):
        print(f"  {route:<40} {status:>3}  {count}")
    codes: collections.Counter[str] = collections.Counter()
    errors = 0
    for bot in bots:
        if isinstance(bot, BotResult):
            codes.update(bot.refused)
        else:
            errors += 1
            failures.append(f"bot failed: {bot!r}")
    print(f"refused moves by code: {dict(codes) or 'none'}; bots failed: {errors}")
    start_409 = rec.status.get(("start", 409), 0)
    live = sum(b.live_events for b in bots if isinstance(b, BotResult))
    print(f"start-polling 409s: {start_409}; standings snapshots received on race streams: {live}")
    out["summary"] = {
        "moves/s": len(accepted) / window if window else 0.0,
        "p99 ms": pct(moves, 0.99) if moves else 0.0,
        "start 409s": start_409,
    }
    ends_at, closed_at, scored_at = out["times"]
    if closed_at and scored_at:
        # race_close stamps closed_at and scored_at with the same "now" (the call's
        # start), so the close-and-score time seen by clients is "results served".
        closed = (closed_at - ends_at).total_seconds()
        print(
            f"close-and-score: the worker closed the race {closed:.2f}"
            f" s after ends_at (sweeper every 1 s); results served {out['served']:.2f} s after "
            "ends_at (client poll every 0.2 s)"
        )
    five = sum(c for (_, s), c in rec.status.items() if s >= 500 or s == 0)
    if five:
        failures.append(f"{five} 5xx or transport errors")
    by_player = {e["player"]: e for e in results["entries"]}
    lost = doubled = 0
    for bot in bots:
        if not isinstance(bot, BotResult):
            continue
        stored = by_player[bot.username]["move_list"]
        if stored != bot.history:
            if len(stored) < len(bot.history):
                lost += 1
            else:
                doubled += 1
    if lost or doubled:
        failures.append(f"histories differ: {lost} with lost moves, {doubled} with extra moves")
    failures += verify_results(results)
    print(
        f"stored histories: {len(by_player)} entries, lost {lost}, doubled {doubled}; "
        f"results verify by replay: {not verify_results(results)}"
    )
    if moves and args.think >= 1 and pct(moves, 0.99) >= 100:
        print(f"TARGET MISSED: p99 {pct(moves, 0.99):.1f} ms >= 100 ms")
    for f in failures[:20]:
        print("FAIL:", f)
    print("OK" if not failures else f"{len(failures)} check(s) failed")
    return 1 if failures else 0


def main() -> int:
    """Set up the stack, run the race, tear everything down, report (per server)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="each think time is uniform in think*(1-j)..think*(1+j); 0: lockstep",
    )
    parser.add_argument(
        "--on-stuck",
        choices=["cycle", "resign", "stop"],
        default="cycle",
        help="a stuck bot keeps drawing (cycle, keeps the offered pace), resigns or stops",
    )
    parser.add_argument("--seconds", type=int, default=60, help="race length")
    parser.add_argument(
        "--race-seed",
        default="bench0",
        help="the race's deal (default bench0: every bot's DefaultStrategy game lasts over "
        "400 moves there, so the load holds for the whole race; a random deal may block "
        "every bot after a few moves and make runs incomparable)",
    )
    parser.add_argument("--start-in", type=float, default=15, help="seconds to join before start")
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 2,
        help="gunicorn sync workers (default: one per core)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    parser.add_argument("--log-dir", type=Path)
    parser.add_argument(
        "--db-pool",
        type=int,
        default=8,
        help="ASGI: DATABASE_POOL_MAX_SIZE per worker (0: a new connection per request)",
    )
    parser.add_argument(
        "--no-follow",
        action="store_true",
        help="bots poll the start instead of following the race stream (REST cost alone)",
    )
    parser.add_argument(
        "--server",
        default="split",
        help="split (production: REST on WSGI, streams on ASGI), gunicorn-asgi, gunicorn, "
        "a comma-separated list of them, both (= gunicorn-asgi,gunicorn) or all",
    )
    parser.add_argument(
        "--async-commit",
        action="store_true",
        help="diagnostic: synchronous_commit=off on the scratch database (no fsync wait per move)",
    )
    args = parser.parse_args()
    aliases = {"both": "gunicorn-asgi,gunicorn", "all": "gunicorn,gunicorn-asgi,split"}
    servers = aliases.get(args.server, args.server).split(",")
    unknown = set(servers) - {"split", "gunicorn-asgi", "gunicorn"}
    if unknown:
        parser.error(f"unknown --server {', '.join(sorted(unknown))}")
    codes, summaries = [], {}
    for server in servers:
        code, summary = run_once(args, server)
        codes.append(code)
        summaries[server] = summary
    if len(servers) > 1:
        print("\nside by side (ratio: to gunicorn, the WSGI baseline, when it ran):")
        base = summaries.get("gunicorn")
        for key in ("moves/s", "p99 ms", "start 409s"):
            cells = []
            for server in servers:
                value = summaries[server][key]
                ratio = f" ({value / base[key]:.2f})" if base and base[key] else ""
                cells.append(f"{server} {value:.1f}{ratio}")
            print(f"  {key:<12} " + "   ".join(cells))
    return max(codes)


def run_once(args: argparse.Namespace, server: str) -> tuple[int, dict[str, float]]:
    """One stack, one race under ``server``; returns the exit status and the figures."""
    db_url = postgres_scratch_db(args.database_url, f"canfield_bench_{os.getpid()}")
    redis_url = redis_claim_db(args.redis_url, f"bench-{os.getpid()}")
    if args.async_commit:
        import psycopg

        with psycopg.connect(db_url, autocommit=True) as conn:
            name = db_url.rsplit("/", 1)[1]
            conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    env = {
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "CELERY_RESULT_BACKEND": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CACHE_URL": "",
        "DEBUG": "false",
        # Plain HTTP on 127.0.0.1 (production sits behind a TLS proxy): no HTTPS redirect.
        "SECURE_SSL_REDIRECT": "false",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CONN_MAX_AGE": "60",
        "RACE_SWEEP_SECONDS": "1",
        "THROTTLE_MOVES": "1000/s",
        "THROTTLE_GAMES": "100000/min",
        "THROTTLE_AUTH": "100000/min",
        "LOG_LEVEL": "WARNING",
        "LIVE_CHANNEL_PREFIX": f"bench-{os.getpid()}",
    }
    if server == "gunicorn-asgi":
        env.update(asgi_database_env(args.db_pool))
    stack = Stack(env, log_dir=args.log_dir)
    try:
        t0 = time.monotonic()
        stack.manage("migrate", "--noinput", "-v", "0")
        staff_password = secrets.token_urlsafe(18)
        create_staff(stack, "load-staff", staff_password)
        tokens = json.loads(
            stack.manage(
                "shell",
                "--no-imports",
                "-c",
                bot_accounts_script("loadbot", args.bots),
                capture=True,
            )
            .strip()
            .splitlines()[-1]
        )
        events_url = None
        if server == "split":  # compose.yaml: web (WSGI) + live (ASGI) behind nginx
            url, events_url = stack.web_and_live(
                workers=args.workers, live_env=asgi_database_env(args.db_pool)
            )
        else:
            url = stack.web(free_port(), server=server, workers=args.workers)
        stack.worker(concurrency=1)
        stack.beat()
        # The same deal (and bot strategies) in every run: every server gets the same
        # load.  Joining stays open to the end: a bot slow to join still races.
        race_id = seeded_race(
            stack, args.race_seed, name="load", starts_in=args.start_in, seconds=args.seconds
        )
        print(
            f"stack up in {time.monotonic() - t0:.1f} s: {url}"
            f"{f' (streams: {events_url})' if events_url else ''}, {len(tokens)} bot accounts, "
            f"race on seed {args.race_seed!r}"
        )
        out = asyncio.run(play(args, url, staff_password, tokens, race_id, events_url))
        out["times"] = race_times(db_url, out["race"]["id"])
        out["server"] = server
    finally:
        stack.stop()
        postgres_drop_db(db_url)
        redis_release_db(redis_url)
    code = report(args, out)
    return code, out["summary"]


if __name__ == "__main__":
    sys.exit(main())
