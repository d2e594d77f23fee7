"""The demo (``python3 dev.py demo``): a real race between five bots on a local server.

Starts the service on a database of its own (a fresh SQLite file in a temporary
directory, removed afterwards, unless ``--database`` names one): uvicorn on the ASGI app
on ``--port`` (default: a free port) and a Celery worker with beat on the embedded SQLite
broker, exactly as ``python3 dev.py serve`` runs them.  It creates a staff account and
a scheduled race on a deal the solver proves winnable (a random deal if it finds none
quickly), fields bots of clearly different strength (``canfield_bot.strategy.STRATEGIES``:
``home-only``, ``priority``, ``lookahead``; each bot's name says its strategy), runs them
over HTTP (printing the live standings the race's event stream pushes), waits until the
worker has closed and scored the race, prints the standings, the revealed seed and the
commitment checked locally (``sha256(seed) == commitment``), then stops everything.  Only
these lines are printed; ``--log-dir`` keeps the servers' output.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from canfield_bot.__main__ import standings_table
from canfield_bot.bot import BotResult, run_bots
from canfield_bot.client import ApiError, CanfieldClient
from canfield_bot.stack import Stack, create_staff, free_port
from canfield_bot.strategy import STRATEGIES


def _say(text: str) -> None:
    print(f"[demo] {text}", flush=True)


#: Times the demo asks for a proven-winnable race while the winnable pool is still being
#: filled (``503 no_winnable_deal``: a fresh database's pool fills within seconds of the
#: worker's start), each after the answer's ``Retry-After`` (at most
#: :data:`POOL_WAIT_CAP_S`), before it settles for a random deal.
WINNABLE_TRIES = 4
POOL_WAIT_CAP_S = 5.0


async def create_race(url: str, token: str, *, start_in: float, seconds: int) -> dict[str, Any]:
    """A scheduled race, proven winnable if the server's winnable pool has a deal in time.

    The server never solves in the request: an empty pool answers ``503
    no_winnable_deal`` (with ``retry_after``) and starts a refill, so the demo asks
    again up to :data:`WINNABLE_TRIES` times, then creates a race on a random deal.
    """
    async with CanfieldClient(
        url, token=token, timeout=60, max_retries=0, retry_seconds=0
    ) as staff:
        for winnable in (True, False):
            for attempt in range(WINNABLE_TRIES if winnable else 1):
                starts = datetime.now(UTC) + timedelta(seconds=start_in)
                fields = {
                    "name": f"Demo race {starts:%H:%M:%S}",
                    "mode": "scheduled",
                    "variant": "classic",
                    "starts_at": starts.isoformat(),
                    "ends_at": (starts + timedelta(seconds=seconds)).isoformat(),
                    "require_winnable": winnable,
                    # Let the bots join a little after the start too.
                    "late_join_s": min(15, seconds),
                }
                try:
                    return await staff.create_race(**fields)
                except ApiError as exc:
                    if not winnable:
                        raise
                    if exc.code == "no_winnable_deal" and attempt + 1 < WINNABLE_TRIES:
                        wait = float(exc.body.get("retry_after") or 1)
                        await asyncio.sleep(min(POOL_WAIT_CAP_S, max(0.5, wait)))
                        continue
                    _say(f"no deal proven winnable quickly ({exc}); using a random deal")
                    break
    raise AssertionError("unreachable")


def live_standings_line(rows: list[dict[str, Any]], count: int | None = None) -> str:
    """One line of the live standings the demo prints, from a ``standings`` event's rows
    and ``count`` (the lines of the whole standings: the event carries the first 100;
    default ``len(rows)``).

    Before the start no row has a count (``cards_home`` is ``None``): the line says
    ``waiting for the start`` (with ``count`` entrants) rather than
    ``-. home-only-1 - home``.  After it each
    ranked row reads ``rank. player N home at T s``: ``T`` is the elapsed time at which
    that count was reached, which breaks a tie on cards (RULES.md 6), so two players with
    equal cards are seen in their order; rows not ranked (not started, disqualified)
    follow as ``player (unranked)``.  Cut to 200 characters."""
    if all(r.get("cards_home") is None for r in rows):
        n = len(rows) if count is None else count
        return f"waiting for the start ({n} {'entrant' if n == 1 else 'entrants'})"
    parts = []
    for r in rows:
        if r.get("rank") is None or r.get("cards_home") is None:
            parts.append(f"{r['player']} (unranked)")
            continue
        elapsed = r.get("elapsed_ms")
        at = "" if elapsed is None else f" at {elapsed / 1000:.3f} s"
        parts.append(f"{r['rank']}. {r['player']} {r['cards_home']} home{at}")
    line = ", ".join(parts)
    return line if len(line) <= 200 else line[:199] + "…"


#: Printed under the final table: how its order is decided (RULES.md 6).
RANKING_LEGEND = (
    "ranked: winners first by their time; then cards home (more is better), then 'time s', "
    "the seconds after the start at which that count was reached (earlier is better); "
    "moves never break a tie (RULES.md 6)"
)


async def print_live_standings(
    url: str, race_id: str, every: float = 2.0, clock: Callable[[], float] = time.monotonic
) -> None:
    """Print the standings the race's event stream pushes, a line only when it changed.

    A ``standings`` event's line (:func:`live_standings_line`) is printed when it differs
    from the line printed last and at least ``every`` seconds (by ``clock``) have passed
    since that one; the same standings pushed again print nothing (the demo printed one
    line four times in a row).  ``phase`` events print ``live: the race is ...``.
    """
    shown, last = 0.0, ""
    async with CanfieldClient(url) as watcher:
        try:
            async for ev in watcher.events(f"races/{race_id}/events"):
                if ev.event == "phase":
                    _say(f"live: the race is {ev.data['phase']}")
                if ev.event != "standings":
                    continue
                line = live_standings_line(ev.data["standings"], ev.data.get("count"))
                if line == last or (last and clock() - shown < every):
                    continue
                shown, last = clock(), line
                _say(f"live standings: {line}")
        except ApiError as exc:
            _say(f"no live events ({exc}); the results follow at the end")


async def demo(url: str, token: str, *, bots: int, seconds: int, think: float) -> int:
    """Create the race, run the bots, print the results; 0 when everything checks out."""
    race = await create_race(url, token, start_in=5, seconds=seconds)
    _say(
        f"race {race['id']} ({'proven winnable' if race['require_winnable'] else 'random deal'}), "
        f"commitment {race['commitment']}"
    )
    _say(f"starts {race['starts_at']}, ends {race['ends_at']} (UTC); {bots} bots joining")
    kinds = [list(STRATEGIES)[i % len(STRATEGIES)] for i in range(bots)]
    names = [f"{kind}-{i + 1}" for i, kind in enumerate(kinds)]
    _say("strategies: " + ", ".join(STRATEGY_NOTES[k] for k in dict.fromkeys(kinds)))
    live = asyncio.create_task(print_live_standings(url, race["id"]))
    results = await run_bots(
        url,
        race["id"],
        names,
        secrets.token_urlsafe(18),
        strategies=[STRATEGIES[k]() for k in kinds],
        think=think,
    )
    live.cancel()
    for name, res in zip(names, results, strict=True):
        if isinstance(res, BotResult):
            _say(f"{name}: {res.ended}, {res.cards_home} cards home, {res.moves} moves")
        else:
            _say(f"{name}: FAILED {res!r}")
    _say("waiting for the race to be closed and scored ...")
    async with CanfieldClient(url) as client:
        final = await client.wait_results(race["id"], timeout=seconds + 120)
    print()
    print(standings_table(final["entries"]))
    print(RANKING_LEGEND)
    print()
    seed = final["seed"]
    local = hashlib.sha256(seed.encode()).hexdigest()
    verified = local == race["commitment"] == final["commitment"]
    print(f"seed:       {seed}")
    print(f"commitment: {race['commitment']} (published before the start)")
    print(f"sha256(seed) computed here: {local} -> {'VERIFIED' if verified else 'MISMATCH'}")
    failed = sum(1 for r in results if not isinstance(r, BotResult))
    return 0 if verified and not failed else 1


#: One line per strategy for the demo's legend.
STRATEGY_NOTES = {
    "home-only": "home-only (only puts cards home and turns the stock)",
    "priority": "priority (fixed move priorities, the bots' default)",
    "lookahead": "lookahead (searches three moves ahead on the visible table)",
}


def demo_env(database: str) -> dict[str, str]:
    """The environment of the demo's processes: its own database, the embedded broker.

    ``database`` is a file path (SQLite) or a database URL.  Broker settings from the
    caller's environment are cleared, so the demo's worker never takes another
    service's tasks, and ``.env`` is not read.
    """
    url = database if "://" in database else f"sqlite:///{Path(database).resolve()}"
    return {
        "DATABASE_URL": url,
        "DEBUG": "true",
        "DJANGO_READ_DOT_ENV_FILE": "false",
        "REDIS_URL": "",
        "CELERY_BROKER_URL": "",
        "CELERY_RESULT_BACKEND": "",
        "CELERY_TASK_ALWAYS_EAGER": "",
        "CACHE_URL": "",
        "RACE_SWEEP_SECONDS": "1",
    }


def main(argv: list[str] | None = None) -> int:
    """Start the server and worker on the demo's database, run the demo, stop them."""
    parser = argparse.ArgumentParser(prog="python3 dev.py demo", description=__doc__)
    parser.add_argument("--bots", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=40, help="race length")
    parser.add_argument("--think", type=float, default=0.1, help="bot think time, seconds")
    parser.add_argument("--port", type=int, help="serve on this port (default: a free one)")
    parser.add_argument(
        "--database",
        help="SQLite file or database URL to use and keep (default: a fresh temporary "
        "SQLite file, removed afterwards)",
    )
    parser.add_argument("--log-dir", type=Path, help="keep the server's and worker's output")
    args = parser.parse_args(argv)
    if args.bots < 1:
        parser.error("--bots must be at least 1")
    started = time.monotonic()  # the wall time reported covers the setup too
    port = args.port or free_port()
    scratch = None if args.database else Path(tempfile.mkdtemp(prefix="canfield-demo-"))
    database = args.database or str(scratch / "demo.sqlite3")  # type: ignore[operator]
    try:
        return _run(args, port, database)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        _say(done_line(time.monotonic() - started, args.seconds))


def done_line(wall_s: float, race_s: int) -> str:
    """The demo's last line: the whole wall time, from the command's start to the servers'
    stop (migrating, starting the server and worker, the race, closing and scoring), and
    the race's own length, so neither is mistaken for the other."""
    return (
        f"done in {wall_s:.0f} s wall time (setup, a race of at most {race_s} s, "
        "scoring and shutdown)"
    )


def _run(args: argparse.Namespace, port: int, database: str) -> int:
    with Stack(demo_env(database), log_dir=args.log_dir) as stack:
        _say("preparing the demo database" + (f" {database}" if args.database else ""))
        stack.manage("migrate", "--noinput", "-v", "0", capture=True)
        password = secrets.token_urlsafe(18)
        create_staff(stack, "demo-organiser", password)
        _say(f"starting the server on http://127.0.0.1:{port} and a worker with beat")
        url = stack.web(port, server="uvicorn", workers=1)
        stack.worker(beat=True, threads=True)  # closes and scores the race

        async def run() -> int:
            async with CanfieldClient(url) as login:
                token = await login.register_or_login("demo-organiser", password)
            return await demo(url, token, bots=args.bots, seconds=args.seconds, think=args.think)

        code = asyncio.run(run())
        _say("stopping the server")
    return code


if __name__ == "__main__":
    sys.exit(main())
