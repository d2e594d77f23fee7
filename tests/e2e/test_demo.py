"""``python3 dev.py demo`` (``canfield_bot.demo``): its own database, ``--port``, quiet output,
three named strategies, and a race closed and scored by its own worker (issue 13 item 6).

Runs the real demo as a subprocess (about 30 s): three bots, an 8-second race.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from canfield_bot.demo import demo_env
from canfield_bot.stack import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_demo_env_is_its_own(tmp_path: Path) -> None:
    env = demo_env(str(tmp_path / "demo.sqlite3"))
    assert env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    assert env["REDIS_URL"] == env["CELERY_BROKER_URL"] == env["CELERY_TASK_ALWAYS_EAGER"] == ""
    assert env["DJANGO_READ_DOT_ENV_FILE"] == "false"
    assert demo_env("postgres://u@h/demo")["DATABASE_URL"] == "postgres://u@h/demo"


def _demo_users_in(db: Path) -> int:
    """Accounts the demo creates (its organiser and bots), in the checkout's own database."""
    if not db.exists():
        return 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=20) as conn:
        try:
            row = conn.execute(
                "SELECT COUNT(*) FROM auth_user WHERE username = 'demo-organiser' "
                "OR username LIKE 'home-only-%' OR username LIKE 'priority-%' "
                "OR username LIKE 'lookahead-%'"
            ).fetchone()
        except sqlite3.OperationalError:  # not migrated: no table, no demo users
            return 0
    return int(row[0])


def test_demo_runs_quietly_on_its_own_database() -> None:
    user_db = ROOT / "db.sqlite3"
    before = _demo_users_in(user_db)
    port = free_port()
    env = {**os.environ, "WINNABLE_ATTEMPTS": "3", "WINNABLE_BUDGET_SECONDS": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "canfield_bot.demo", "--bots", "3", "--seconds", "8",
         "--think", "0.02", "--port", str(port)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert f"http://127.0.0.1:{port}" in out
    assert "Applying" not in out
    assert "Operations to perform" not in out
    assert "objects imported" not in out
    for name in ("home-only-1", "priority-2", "lookahead-3"):
        assert name in out.split("rank  player")[1]  # named in the standings table
    assert "-> VERIFIED" in out
    # No garbled line before the start; the whole wall time is reported, after the stop.
    assert "live standings: -." not in out
    done_at = out.index("[demo] done in ")
    assert out.index("[demo] stopping the server") < done_at
    assert "s wall time (setup, a race of at most 8 s" in out[done_at:]
    assert _demo_users_in(user_db) == before  # nothing of the demo's in the user's database
