"""Tests of the batch solver module and the ``manage.py solve`` command (issue 8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import replay
from games.engine.rules import RulesError
from games.engine.solver_batch import (
    format_summary,
    parse_options,
    parse_seeds,
    percentile,
    run_batch,
    summarise,
    wilson,
    write_rows,
)

ROOT = Path(__file__).resolve().parents[2]


def test_parse_seeds_and_options() -> None:
    assert parse_seeds("0-3") == ["0", "1", "2", "3"]
    assert parse_seeds("5, 9-10,abc") == ["5", "9", "10", "abc"]
    with pytest.raises(ValueError, match="empty"):
        parse_seeds("9-3")
    opts = parse_options(["draw=1", "redeals=unlimited", "autofill=no", "tableau_moves=any-run"])
    assert opts == {
        "draw": 1,
        "redeals": "unlimited",
        "autofill": False,
        "tableau_moves": "any-run",
    }
    with pytest.raises(RulesError):
        parse_options(["colour=red"])


def test_wilson_and_percentile() -> None:
    lo, hi = wilson(70, 100)
    assert 0.60 < lo < 0.61
    assert 0.78 < hi < 0.79
    assert wilson(0, 0) == (0.0, 1.0)
    assert percentile([1, 2, 3, 4], 0.5) == 2.5
    assert percentile([], 0.95) == 0.0


def test_summary_counts_unknowns_both_ways() -> None:
    rows = [
        {"seed": "1", "result": "won", "moves": "", "nodes": 1, "seconds": 0.1},
        {"seed": "2", "result": "lost", "moves": "", "nodes": 2, "seconds": 0.2},
        {"seed": "3", "result": "unknown", "moves": "", "nodes": 3, "seconds": 0.3},
    ]
    s = summarise(rows)
    assert (s["won"], s["lost"], s["unknown"]) == (1, 1, 1)
    assert s["share"] == 0.5
    assert s["interval"][0] == pytest.approx(wilson(1, 3)[0])
    assert s["interval"][1] == pytest.approx(wilson(2, 3)[1])
    assert "won 1, lost 1, unknown 1" in format_summary(s)


@pytest.mark.parametrize("workers", [1, 2])
def test_run_batch_rows_replay(workers: int, tmp_path: Path) -> None:
    seen: list[str] = []
    rows = run_batch(
        "classic",
        ["0", "2", "3"],
        workers=workers,
        budget_seconds=None,  # a node budget: the same verdicts on any machine
        budget_nodes=300_000,
        progress=lambda r: seen.append(r["seed"]),
    )
    assert [r["seed"] for r in rows] == ["0", "2", "3"]
    assert sorted(seen) == ["0", "2", "3"]
    assert [r["result"] for r in rows] == ["won", "lost", "won"]
    for row in rows:
        if row["result"] == "won":
            assert replay(row["moves"].split(), "classic", seed=row["seed"]).cards_home == 52
    out = tmp_path / "r.json"
    write_rows(str(out), rows, summarise(rows))
    assert json.loads(out.read_text())["summary"]["won"] == 2
    write_rows(str(tmp_path / "r.csv"), rows)
    assert (tmp_path / "r.csv").read_text().startswith("seed,result,moves,nodes,seconds")


def test_run_batch_gives_each_deal_its_memory_cap() -> None:
    def run(**kwargs: Any) -> tuple[str, int]:
        (row,) = run_batch(
            "classic", ["4"], workers=1, budget_seconds=None, budget_nodes=2_000_000, **kwargs
        )
        return row["result"], row["nodes"]

    # Seed 4 is won after 485,018 positions under the default cap (1 GiB).
    assert run() == ("won", 485_018)
    assert run(max_bytes=None) == ("won", 485_018)
    # One MiB holds a table of 16,384 slots (14,336 positions): the cap ends every search.
    result, nodes = run(max_bytes=1 << 20)
    assert result == "unknown"
    assert nodes < 50_000


def test_run_batch_rejects_bad_rules() -> None:
    with pytest.raises(RulesError):
        run_batch("classic", ["1"], options={"draw": 2}, workers=1)


def test_manage_py_solve(tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "solve",
            "--variant",
            "classic",
            "--seeds",
            "0,2",
            "--workers",
            "1",
            "--budget-seconds",
            "0",
            "--budget-nodes",
            "300000",
            "-o",
            "draw=3",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "won 1, lost 1, unknown 0" in proc.stdout
    assert out.read_text().count("\n") == 3
