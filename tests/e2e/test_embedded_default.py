"""The embedded default closes and scores races by itself (issue 13 item 1).

A real Celery worker with beat, started exactly as ``python3 dev.py serve`` starts it
(:func:`dev.worker_command`), on the embedded SQLite broker and a scratch SQLite
database, with no web server and nobody reading.  A tournament race that ends must be
finished, and its tournament re-scored, within ``RACE_SWEEP_SECONDS`` + 4 s of its end
(about 1.3 s on an idle machine: the next sweep, and the broker's polling; the margin is
for a loaded one, where the worker's other thread may be filling the winnable pool).

The bound is checked on the server's own timestamps (``Race.scored_at`` and
``Tournament.scored_at`` are stamped by the closing call), after a warm-up race has
shown the worker is sweeping; the test's own polling is only bounded waiting.  The
database is read with ``sqlite3`` in read-only mode, never through the service, so no
read can close anything.  Takes about 15 s.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import dev
from canfield_bot.stack import Stack
from tests.helpers import race_seed_ok

SWEEP_SECONDS = 1

_CREATE = """
import json
from datetime import timedelta
from django.contrib.auth.models import User
from django.utils import timezone
from games.services.races import race_create, race_join
from games.services.tournaments import RaceSchedule, tournament_create, tournament_races_add

now = timezone.now()
kind = {kind!r}
if kind == "warm-up":
    race = race_create(name="warm-up", opens_at=now, starts_at=now,
                       ends_at=now + timedelta(seconds=1), late_join_s=None)
    out = {{"race": race.id.hex, "tournament": None}}
else:
    # The entrant first: hashing its password takes a while on a loaded machine, and the
    # race (4 s long from now) must still be on when it joins.
    player = User.objects.create_user("embedded-player", password="x" * 12)
    now = timezone.now()
    t = tournament_create(name="Embedded cup", status="open")
    # The race's deal: one still playing at the deal (a random deal is blocked there in
    # about 0.85% of cases, and the entry then ends "blocked", not "timed_out").
    from unittest import mock
    with mock.patch("games.services.races.random_seed", lambda: {seed!r}):
        (race,) = tournament_races_add(
            tournament_id=t.id,
            schedule=RaceSchedule(count=1, first_starts_at=now,
                                  duration=timedelta(seconds=4),
                                  opens_before=timedelta(minutes=1)),
            late_join_s=None,
        )
    race_join(race_id=race.id, player=player)
    out = {{"race": race.id.hex, "tournament": t.id.hex}}
print("RESULT " + json.dumps(out))
"""


#: The tournament race's seed (tests.helpers.race_seed_ok: playing at the deal).
RACE_SEED = "embedded-cup"


def _create(stack: Stack, kind: str) -> dict[str, Any]:
    assert race_seed_ok(RACE_SEED)
    script = _CREATE.format(kind=kind, seed=RACE_SEED)
    output = stack.manage("shell", "--no-imports", "-c", script, capture=True)
    line = next(x for x in output.splitlines() if x.startswith("RESULT "))
    data: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    return data


def _row(db: Path, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """One row from the scratch database, read-only (the service is never asked)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=20) as conn:
        row: tuple[Any, ...] | None = conn.execute(sql, params).fetchone()
    return row


def _wait_finished(db: Path, race_id: str, timeout: float) -> tuple[Any, ...]:
    """Poll (bounded) until the race is finished; return (status, ends_at, scored_at)."""
    deadline = time.monotonic() + timeout
    row: tuple[Any, ...] | None = None
    while time.monotonic() < deadline:
        row = _row(db, "SELECT status, ends_at, scored_at FROM games_race WHERE id = ?", (race_id,))
        if row is not None and row[0] == "finished":
            return row
        time.sleep(0.2)
    raise AssertionError(f"race {race_id} not finished within {timeout} s: {row}")


def _ts(value: str) -> datetime:
    return datetime.fromisoformat(value)


def test_embedded_worker_closes_and_scores_with_nobody_reading(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    env = {
        "DATABASE_URL": f"sqlite:///{db}",
        "DEBUG": "true",
        "RACE_SWEEP_SECONDS": str(SWEEP_SECONDS),
        # The embedded default: no broker configured, nothing eager, even under CI.
        "REDIS_URL": "",
        "CELERY_BROKER_URL": "",
        "CELERY_RESULT_BACKEND": "",
        "CELERY_TASK_ALWAYS_EAGER": "",
        "CACHE_URL": "",
    }
    stack = Stack(env, log_dir=tmp_path / "logs")
    try:
        stack.manage("migrate", "--noinput", "-v", "0")
        cmd = [str(c) for c in dev.worker_command(Path(sys.executable), loglevel="INFO")]
        stack.spawn("worker", cmd)
        # The worker is up and sweeping once a race it did not know about is finished.
        _wait_finished(db, _create(stack, "warm-up")["race"], timeout=120)

        created = _create(stack, "tournament")
        status, ends_at, scored_at = _wait_finished(db, created["race"], timeout=60)
        assert stack.alive() == {"worker": True}
    finally:
        stack.stop()

    assert (tmp_path / "db-broker.sqlite3").exists()  # the embedded broker carried the tasks
    late = (_ts(scored_at) - _ts(ends_at)).total_seconds()
    assert 0 <= late <= SWEEP_SECONDS + 4, f"scored {late:.2f} s after the end"
    entry = _row(
        db,
        "SELECT e.status, e.rank, g.status FROM games_raceentry e "
        "JOIN games_game g ON g.id = e.game_id WHERE e.race_id = ?",
        (created["race"],),
    )
    assert entry == ("timed_out", 1, "timed_out")  # the entrant's game was closed by the worker
    tournament = _row(
        db, "SELECT scored_at FROM games_tournament WHERE id = ?", (created["tournament"],)
    )
    assert tournament is not None
    assert tournament[0] == scored_at  # re-scored by the same close
    standing = _row(
        db,
        "SELECT s.rank, s.races_played, u.username FROM games_tournamentstanding s "
        "JOIN auth_user u ON u.id = s.player_id WHERE s.tournament_id = ?",
        (created["tournament"],),
    )
    assert standing == (1, 1, "embedded-player")
