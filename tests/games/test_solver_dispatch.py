"""``manage.py solve --backend celery`` (issue [solver-plus] item 3).

The same seeds with a node budget give the same rows on Celery workers as in local
processes; on Redis, two real worker processes share one batch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from canfield_site.celery import app
from games.engine.solver_batch import run_batch
from games.solver_dispatch import run_batch_celery

ROOT = Path(__file__).resolve().parents[2]
#: Seeds 0..5 of classic: won, lost and (seed 4) undecided deals under this node budget.
SEEDS = ["0", "1", "2", "3", "4", "5"]
NODES = 400_000


def _local_rows() -> list[dict[str, object]]:
    return run_batch("classic", SEEDS, workers=1, budget_seconds=None, budget_nodes=NODES)


def _same(a: list[dict[str, object]], b: list[dict[str, object]]) -> None:
    keep = ("seed", "result", "moves", "nodes")
    assert [{k: r[k] for k in keep} for r in a] == [{k: r[k] for k in keep} for r in b]


def test_celery_backend_in_process_gives_the_local_rows() -> None:
    """With eager tasks (the embedded default) the batch runs here, row for row the same."""
    before = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True  # the namespaced key is the one Celery reads
    try:
        rows, workers = run_batch_celery("classic", SEEDS, budget_seconds=None, budget_nodes=NODES)
    finally:
        app.conf.CELERY_TASK_ALWAYS_EAGER = before
    local = _local_rows()
    assert {r["result"] for r in local} >= {"won", "lost"}  # both verdicts among the seeds
    _same(rows, local)
    assert sum(workers.values()) == len(SEEDS)


def test_the_memory_cap_goes_with_each_task() -> None:
    """``max_bytes`` reaches the worker's solver: one MiB ends seed 4's searches."""
    nodes = 2_000_000  # seed 4 is won after 485,018 positions
    before = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    try:
        capped, _ = run_batch_celery(
            "classic", ["4"], budget_seconds=None, budget_nodes=nodes, max_bytes=1 << 20
        )
        full, _ = run_batch_celery("classic", ["4"], budget_seconds=None, budget_nodes=nodes)
    finally:
        app.conf.CELERY_TASK_ALWAYS_EAGER = before
    assert capped[0]["result"] == "unknown"
    assert (full[0]["result"], full[0]["nodes"]) == ("won", 485_018)


def test_manage_py_solve_memory_mb() -> None:
    def run(*memory: str) -> str:
        report = _Capture()
        call_command(
            "solve",
            "--seeds",
            "4",
            "--workers",
            "1",
            "--budget-seconds",
            "0",
            "--budget-nodes",
            "2000000",  # seed 4 is won after 485,018 positions
            *memory,
            "--no-progress",
            stdout=report,
        )
        return report.text

    assert "won 1, lost 0, unknown 0" in run()
    assert "won 1, lost 0, unknown 0" in run("--memory-mb", "0")  # no cap
    assert "won 0, lost 0, unknown 1" in run("--memory-mb", "1")
    for bad in ("-1", str((1 << 20) + 1)):
        with pytest.raises(CommandError, match="--memory-mb must be 0"):
            call_command("solve", "--seeds", "4", "--memory-mb", bad, "--no-progress")


def _wait_for_workers(names: list[str], deadline_s: float = 60.0) -> None:
    """Block until every named worker answers a ping (bounded)."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        replies = app.control.ping(destination=names, timeout=1.0) or []
        answered = {name for reply in replies for name in reply}
        if set(names) <= answered:
            return
    pytest.fail(f"workers {names} did not start within {deadline_s:.0f} s")


@pytest.mark.redis
def test_two_real_workers_share_a_batch(tmp_path: Path) -> None:
    """Two worker processes on Redis, one private queue: same rows, both workers used."""
    assert app.conf.task_always_eager is False
    queue = f"solver-test-{uuid.uuid4().hex}"  # no other worker consumes it
    names = [f"w{i}-{uuid.uuid4().hex[:8]}@localhost" for i in (1, 2)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "canfield_site",
                "worker",
                "-Q",
                queue,
                "-n",
                name,
                "--concurrency",
                "1",
                "--pool",
                "solo",
                "--without-gossip",
                "--without-mingle",
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in names
    ]
    try:
        _wait_for_workers(names)
        out = tmp_path / "rows.json"
        call_command(
            "solve",
            "--backend",
            "celery",
            "--queue",
            queue,
            "--seeds",
            ",".join(SEEDS * 2),  # twelve deals, so both workers get some
            "--budget-nodes",
            str(NODES),
            "--no-progress",
            "--out",
            str(out),
            stdout=(report := _Capture()),
        )
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=60)
    rows = json.loads(out.read_text())["rows"]
    _same(rows, _local_rows() * 2)
    per_worker = report.text.split("deals per worker: ", 1)[1]
    counts = {
        part.rsplit(" ", 1)[0]: int(part.rsplit(" ", 1)[1])
        for part in per_worker.strip().split(", ")
    }
    assert set(counts) == set(names)
    assert sum(counts.values()) == 2 * len(SEEDS)
    assert all(count >= 1 for count in counts.values())


class _Capture:
    """A minimal stdout for call_command."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass
