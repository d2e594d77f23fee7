"""End to end: bots race over HTTP against real processes; the results are checked by replay.

SLOW (about 30-40 s): it creates and migrates a scratch PostgreSQL database
(``canfield_e2e_<pid>``), claims a free Redis database, starts gunicorn, a
Celery worker and Celery beat (sweeping every second) as subprocesses, and runs
a 12-second scheduled race between four bots.  It then checks, from the public
results only, that the race was closed and scored by the worker on time, that
the commitment verifies, and that replaying every entrant's stored move list
with the engine gives the published cards home and the published ranks; and
that each bot's accepted moves are exactly the stored history (nothing lost or
doubled).  Every process is stopped and the scratch database dropped, whatever
happens.  Logs are kept in the test's ``tmp_path``.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from benchmarks.verify import verify_results
from canfield_bot.bot import BotResult, run_bots
from canfield_bot.client import CanfieldClient
from canfield_bot.stack import (
    Stack,
    create_staff,
    free_port,
    postgres_drop_db,
    postgres_scratch_db,
    redis_claim_db,
    redis_release_db,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

RACE_SECONDS = 12
BOTS = 4
#: Seconds between announcing the race and its start, doubled (up to
#: :data:`MAX_LEAD_S`) while the server's answer comes back after the start (a loaded
#: machine): the test needs a race that is still open when it is announced.
FIRST_LEAD_S = 3.0
MAX_LEAD_S = 48.0


def _postgres_url() -> str:
    db = settings.DATABASES["default"]
    auth = db.get("USER") or "postgres"
    if db.get("PASSWORD"):
        auth += f":{db['PASSWORD']}"
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/postgres"


async def _race(url: str, staff_password: str) -> tuple[dict[str, Any], list[Any], dict[str, Any]]:
    async with CanfieldClient(url) as staff:
        await staff.register_or_login("e2e-staff", staff_password)
        lead = FIRST_LEAD_S
        while True:
            starts = datetime.now(UTC) + timedelta(seconds=lead)
            race = await staff.create_race(
                name="e2e",
                mode="scheduled",
                starts_at=starts.isoformat(),
                ends_at=(starts + timedelta(seconds=RACE_SECONDS)).isoformat(),
                # Bots may register after the start on a busy machine: joining stays open.
                late_join_s=RACE_SECONDS,
            )
            # The condition, by the server's clock: the race has not started yet.  Else
            # the machine was too slow for this lead: announce another with a longer one.
            if race["phase"] in ("upcoming", "open") or lead >= MAX_LEAD_S:
                break
            lead *= 2
        assert race["phase"] in ("upcoming", "open"), (lead, race["phase"])
        assert race["seed"] is None
        assert await staff.results(race["id"]) is None  # 409 race_not_finished before the end
        names = [f"e2e-bot-{i}" for i in range(BOTS)]
        bots = await run_bots(url, race["id"], names, secrets.token_urlsafe(18), think=0.05)
        results = await staff.wait_results(race["id"], poll=0.25, timeout=120)
    return race, bots, results


def test_bots_race_end_to_end(tmp_path: Path) -> None:
    owner = f"e2e-{os.getpid()}"
    db_url = postgres_scratch_db(_postgres_url(), f"canfield_e2e_{os.getpid()}")
    redis_url = redis_claim_db(settings.CELERY_BROKER_URL, owner)
    env = {
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "CELERY_RESULT_BACKEND": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CACHE_URL": "",
        "DEBUG": "true",
        "RACE_SWEEP_SECONDS": "1",
        "THROTTLE_AUTH": "1000/min",
    }
    stack = Stack(env, log_dir=tmp_path)
    try:
        stack.manage("migrate", "--noinput", "-v", "0")
        staff_password = secrets.token_urlsafe(18)
        create_staff(stack, "e2e-staff", staff_password)
        url = stack.web(free_port(), server="gunicorn", workers=2)
        stack.worker(concurrency=1)
        stack.beat()
        race, bots, results = asyncio.run(_race(url, staff_password))
        assert all(stack.alive().values()), stack.alive()
    finally:
        stack.stop()
        postgres_drop_db(db_url)
        redis_release_db(redis_url)

    # The worker closed the race (its log says so), not the reader-side safety net in the
    # web process: shown by the logs, not by a wall-clock bound (that flaked).
    closed_line = f"race {race['id']} finished"
    logs = {p.stem: p.read_text(errors="replace") for p in tmp_path.glob("*.log")}
    assert any(closed_line in text for name, text in logs.items() if name.startswith("worker"))
    assert not any(closed_line in text for name, text in logs.items() if name.startswith("web"))
    assert results["seed"]
    assert results["commitment"] == race["commitment"]
    assert verify_results(results) == []
    by_player = {e["player"]: e for e in results["entries"]}
    assert len(by_player) == BOTS
    for bot in bots:
        assert isinstance(bot, BotResult), bot
        entry = by_player[bot.username]
        assert entry["move_list"] == bot.history  # nothing lost, nothing doubled
        assert entry["rank"] is not None
        assert entry["status"] in {"won", "blocked", "resigned", "timed_out"}
        assert not bot.refused.keys() - {"race_closed", "game_over", "stale_move_number"}
