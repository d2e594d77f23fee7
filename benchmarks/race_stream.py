"""Benchmark of the race event stream: many subscribers to one race while bots play (issue 17).

Usage::

    .venv/bin/python benchmarks/race_stream.py [--subscribers 1000] [--bots 100]
        [--think 1.0] [--seconds 30] [--workers 2] [--layout split|asgi] [--live-workers 1]
        [--database-url postgres://postgres@127.0.0.1:5432/postgres]
        [--redis-url redis://127.0.0.1:6379/0]

Sets up a scratch database and a free Redis database, starts the servers as
``--layout`` says (``split``, production as in compose.yaml: the REST API on
gunicorn's sync workers (WSGI, ``--workers``) and the event streams on gunicorn with
``--live-workers`` uvicorn workers (ASGI); ``asgi``: everything on gunicorn with
``--workers`` uvicorn workers), a Celery worker and beat, and runs
two scheduled races of ``--seconds`` with the same ``--bots`` bots moving every
``--think`` seconds (± 50%, cycling the stock when stuck):

1. without subscribers: the move latency baseline;
2. with ``--subscribers`` anonymous subscribers to the race's event stream
   (lightweight asyncio HTTP/1.1 clients in this process), connected before the
   start.

Prints: move p50/p99 in both runs and their ratio (target: p99 at most 20% above
the run without subscribers); standings snapshots per subscriber (min, median,
max) and whether every subscriber got the final standings; delivery delay of
each snapshot to each subscriber from the commit of the newest change it
reflects (``latest_change_ms``, server clock, same machine) and from the oldest
(``oldest_change_ms``: includes the one-second coalescing), p50/p99/max (target:
p99 < 1 s); server memory per open stream (RSS of the stream server's workers with
the subscribers connected minus before, divided by their number; aim < 100 KB).

The load generator shares the machine with the server, so the figures are a
lower bound of what the server alone could do.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from benchmarks.bot_accounts import bot_accounts_script
from benchmarks.seeded_race import seeded_race
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


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank); 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Subscriber:
    """One SSE subscriber over a raw asyncio connection (chunked HTTP/1.1)."""

    def __init__(self, url: str, path: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.path = path
        self.standings = 0
        self.ids: set[str] = set()  # ids of the standings snapshots received
        self.first_id = ""  # the snapshot's id: later ids are what this stream must get
        self.delays: list[float] = []
        self.stale: list[float] = []
        self.final = False
        self.ended = ""
        self.connected = asyncio.Event()

    async def run(self) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port, limit=1 << 20)
        head = f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\n"
        writer.write((head + "Accept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            self.ended = status.decode().strip()
            self.connected.set()
            writer.close()
            return
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        self.connected.set()
        buf = b""
        try:
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                buf += await reader.readexactly(size)
                await reader.readexactly(2)
                while b"\n\n" in buf:
                    raw, buf = buf.split(b"\n\n", 1)
                    self._event(raw.decode())
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    def _event(self, raw: str) -> None:
        fields = dict(
            line.split(": ", 1) for line in raw.split("\n") if ": " in line and line[0] != ":"
        )
        if fields.get("event") == "snapshot":
            self.first_id = fields.get("id", "")
        if fields.get("event") != "standings":
            if fields.get("event") in ("unavailable", "lagging"):
                self.ended = fields["event"]
            return
        now_ms = time.time() * 1000
        data = json.loads(fields["data"])
        self.standings += 1
        self.ids.add(fields.get("id", ""))
        if data.get("phase") == "finished":
            self.final = True
        elif data.get("latest_change_ms"):
            self.delays.append(now_ms - data["latest_change_ms"])
            self.stale.append(now_ms - data["oldest_change_ms"])


def rss_kb(pids: list[int]) -> int:
    """Resident memory of ``pids`` in KB (from /proc)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def children(pid: int) -> list[int]:
    """Child process ids of ``pid`` (the gunicorn workers)."""
    out = subprocess.run(  # noqa: S603
        ["/usr/bin/pgrep", "-P", str(pid)], capture_output=True, text=True, check=False
    )
    return [int(p) for p in out.stdout.split()]


async def race(
    args: argparse.Namespace, url: str, staff_token: str, tokens: dict[str, str], subs: int,
    live_url: str, live_pid: int, stack: Stack,
) -> dict[str, Any]:  # fmt: skip
    """One race: optional subscribers (to ``live_url``, the stream server) connected
    before the start, then the bots play (REST, at ``url``)."""
    latencies: list[float] = []

    def hook(route: str, status: int, seconds: float) -> None:
        if route == "move" and status in (200, 201):
            latencies.append(seconds * 1000)

    limits = httpx.Limits(max_connections=args.bots + 10, max_keepalive_connections=args.bots + 10)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        staff = CanfieldClient(url, token=staff_token, http=http)
        lead = 10.0 + subs / 50  # every subscriber connected before the start
        # The same deal in both runs (bench0: no DefaultStrategy bot is blocked there
        # within 400 moves), joinable to the end (the bots join just after the start).
        race_id = seeded_race(
            stack, args.race_seed, name=f"stream-{subs}", starts_in=lead, seconds=args.seconds
        )
        r = await staff.race(race_id)
        starts = datetime.fromisoformat(r["starts_at"])
        workers = children(live_pid)
        before = rss_kb(workers)
        path = f"/api/v1/races/{r['id']}/events"
        subscribers = [Subscriber(live_url, path) for _ in range(subs)]
        tasks = []
        for i, s in enumerate(subscribers):
            tasks.append(asyncio.create_task(s.run()))
            if i % 50 == 49:
                await asyncio.sleep(0.05)
        await asyncio.gather(*(s.connected.wait() for s in subscribers))
        await asyncio.sleep(1.0)
        after = rss_kb(workers)
        refused = collections.Counter(
            s.ended for s in subscribers if s.ended and s.ended.startswith("HTTP")
        )
        await asyncio.sleep(max(0.0, starts.timestamp() - time.time() + 0.2))

        async def one(index: int, username: str, token: str) -> BotResult:
            client = CanfieldClient(url, token=token, http=http, on_response=hook)
            client.username = username
            bot = Bot(
                client, r["id"], strategy=DefaultStrategy(seed=index), think=args.think,
                jitter=0.5, on_stuck="cycle", seed=index, follow=False,
            )  # fmt: skip
            return await bot.run()

        bots = await asyncio.gather(
            *(one(i, u, t) for i, (u, t) in enumerate(tokens.items())), return_exceptions=True
        )
        await staff.wait_results(r["id"], poll=0.5, timeout=120)
        if tasks:
            await asyncio.wait(tasks, timeout=30)
        for t in tasks:
            t.cancel()
    return {
        "latencies": latencies,
        "subscribers": subscribers,
        "refused": refused,
        "rss_before": before,
        "rss_after": after,
        "bot_errors": sum(1 for b in bots if not isinstance(b, BotResult)),
        "first_error": next((repr(b) for b in bots if not isinstance(b, BotResult)), None),
    }


def report(args: argparse.Namespace, base: dict[str, Any], live: dict[str, Any]) -> None:
    """Print the figures of the two runs."""
    b99, l99 = pct(base["latencies"], 0.99), pct(live["latencies"], 0.99)
    print(
        f"\nmachine: {os.cpu_count()} cores; layout {args.layout}: "
        + (
            f"REST on gunicorn sync workers x{args.workers}, streams on gunicorn + uvicorn "
            f"workers x{args.live_workers}; "
            if args.layout == "split"
            else f"gunicorn + uvicorn workers x{args.workers}; "
        )
        + f"bots {args.bots} x 1 move / {args.think} s ± 50%, race {args.seconds} s"
    )
    for name, run in (("without subscribers", base), (f"with {args.subscribers}", live)):
        lat = run["latencies"]
        print(
            f"moves {name:<22} n={len(lat):6d}  p50 {pct(lat, 0.5):6.1f} ms  "
            f"p99 {pct(lat, 0.99):6.1f} ms  bot errors {run['bot_errors']}"
        )
        if run["first_error"]:
            print(f"  first bot error: {run['first_error'][:300]}")
    ratio = l99 / b99 if b99 else 0.0
    print(f"move p99 ratio (with / without): {ratio:.2f}  target <= 1.20")
    subs = live["subscribers"]
    if not subs:
        return
    counts = [s.standings for s in subs]
    # Every snapshot sent after a subscriber joined must reach it (ids are sequence numbers).
    sent = set().union(*(s.ids for s in subs))
    missing = [
        len({i for i in sent if int(i) > int(s.first_id or 0)} - s.ids) for s in subs if s.first_id
    ]
    delays = [d for s in subs for d in s.delays]
    stale = [d for s in subs for d in s.stale]
    print(
        f"subscribers: {len(subs)} (refused: {dict(live['refused']) or 'none'}); "
        "standings snapshots each: "
        f"min {min(counts)} median {statistics.median(counts):.0f} max {max(counts)}; "
        f"final standings received by {sum(s.final for s in subs)}; "
        f"subscribers missing a snapshot: {sum(1 for m in missing if m)} "
        f"(most missed by one: {max(missing, default=0)}); "
        f"ended early: {sum(1 for s in subs if s.ended)}"
    )
    print(
        f"delivery delay from the newest change's commit: p50 {pct(delays, 0.5):.0f} ms  "
        f"p99 {pct(delays, 0.99):.0f} ms  max {max(delays, default=0):.0f} ms  (target p99 < 1000)"
    )
    print(
        f"from the oldest change (includes the 1 s coalescing): p50 {pct(stale, 0.5):.0f} ms  "
        f"p99 {pct(stale, 0.99):.0f} ms  max {max(stale, default=0):.0f} ms"
    )
    per = (live["rss_after"] - live["rss_before"]) / len(subs)
    print(
        f"stream server workers RSS: {live['rss_before'] / 1024:.1f} MB before, "
        f"{live['rss_after'] / 1024:.1f} MB with the streams open: {per:.1f} KB per stream "
        "(aim < 100 KB)"
    )


def main() -> int:
    """Set up the stack, run both races, tear down, report."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--race-seed", default="bench0", help="both races' deal")
    parser.add_argument(
        "--layout",
        choices=["split", "asgi"],
        default="split",
        help="split: REST on WSGI, streams on ASGI (compose.yaml); asgi: one ASGI server",
    )
    parser.add_argument(
        "--live-workers", type=int, default=1, help="split: uvicorn workers of the stream server"
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
        "--db-pool", type=int, default=8, help="DATABASE_POOL_MAX_SIZE per worker (0: no pool)"
    )
    args = parser.parse_args()
    db_url = postgres_scratch_db(args.database_url, f"canfield_stream_{os.getpid()}")
    redis_url = redis_claim_db(args.redis_url, f"stream-{os.getpid()}")
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
        "CONN_MAX_AGE": "60",  # WSGI: one persistent connection per worker
        "RACE_SWEEP_SECONDS": "1",
        "THROTTLE_MOVES": "1000/s",
        "THROTTLE_GAMES": "100000/min",
        "THROTTLE_AUTH": "100000/min",
        "LOG_LEVEL": "WARNING",
        "LIVE_CHANNEL_PREFIX": f"stream-bench-{os.getpid()}",
        "LIVE_STREAMS_PER_USER": str(args.subscribers + 100),
    }
    asgi_env = asgi_database_env(args.db_pool)
    stack = Stack(env, log_dir=args.log_dir)
    try:
        stack.manage("migrate", "--noinput", "-v", "0")
        password = secrets.token_urlsafe(18)
        create_staff(stack, "stream-staff", password)
        tokens = json.loads(
            stack.manage(
                "shell", "--no-imports", "-c", bot_accounts_script("sbot", args.bots),
                capture=True,
            ).strip().splitlines()[-1]
        )  # fmt: skip
        if args.layout == "split":
            url, live_url = stack.web_and_live(
                workers=args.workers, live_workers=args.live_workers, live_env=asgi_env
            )
        else:
            url = live_url = stack.web(
                free_port(), server="gunicorn-asgi", workers=args.workers, env=asgi_env
            )
        live_pid = stack.procs[-1][1].pid
        stack.worker(concurrency=1)
        stack.beat()
        staff_token = httpx.post(
            f"{url}/api/v1/auth/token", json={"username": "stream-staff", "password": password}
        ).json()["token"]
        base = asyncio.run(race(args, url, staff_token, tokens, 0, live_url, live_pid, stack))
        live = asyncio.run(
            race(args, url, staff_token, tokens, args.subscribers, live_url, live_pid, stack)
        )
    finally:
        stack.stop()
        postgres_drop_db(db_url)
        redis_release_db(redis_url)
    report(args, base, live)
    return 0


if __name__ == "__main__":
    sys.exit(main())
