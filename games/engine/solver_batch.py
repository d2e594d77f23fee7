"""Batch solving: many seeded deals over all cores, with a summary (no Django).

The management command ``manage.py solve`` is a thin wrapper over
:func:`run_batch`, :func:`summarise` and :func:`write_rows`.

Rows (one per deal) are dicts::

    {"seed": "12", "result": "won", "moves": "draw 5S>f ...", "nodes": 1234, "seconds": 0.41}

``moves`` is the winning line joined by spaces (empty unless ``won``);
``seconds`` is wall time.  The summary's winnable share is ``won / decided``;
its 95% interval is Wilson's, taken with the unknown deals counted both ways
(the low end counts them as lost, the high end as won).
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import new_game
from .rules import OPTION_NAMES, RulesError, make_rules
from .solver import DEFAULT_MAX_BYTES, LOST, UNKNOWN, WON, release_tables, solve
from .tidy import tidy_line

Row = dict[str, Any]

#: Deals a worker process solves before the pool replaces it.  A new process faults
#: its solver tables in afresh, which the tables kept from deal to deal avoid: with 50
#: (the setting before), the Wolter rules' seeds 0..999 at 10 s spent 26.2 s of system
#: time, against 5.1 s with no replacement (the same 730 / 242 / 28 either way).
_DEALS_PER_PROCESS = 1000

_BOOL_WORDS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def parse_seeds(text: str) -> list[str]:
    """Seeds from ``"0-999"``, ``"1,5,9-12"`` or single seeds (any RULES.md 2.1 seed).

    Ranges ``A-B`` of decimal numbers are inclusive.  Raises ``ValueError``.
    """
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if sep and lo.isdigit() and hi.isdigit():
            a, b = int(lo), int(hi)
            if b < a:
                raise ValueError(f"empty seed range {part!r}")
            out.extend(str(n) for n in range(a, b + 1))
        else:
            out.append(part)
    if not out:
        raise ValueError("no seeds given")
    return out


def parse_options(pairs: Iterable[str]) -> dict[str, Any]:
    """``["draw=1", "redeals=2", "autofill=no"]`` -> option dict (RULES.md 4), validated.

    ``draw`` and ``redeals`` are numbers (``redeals=unlimited`` allowed);
    ``autofill`` / ``reserve_face_up`` take true/false/yes/no/1/0; the rest
    are strings.  Raises :class:`~games.engine.rules.RulesError`.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        value = value.strip()
        if not sep or name not in OPTION_NAMES:
            raise RulesError(f"bad option {pair!r}: write NAME=VALUE, NAME one of {OPTION_NAMES}")
        parsed: Any = value
        if name == "draw" or name == "redeals":
            parsed = int(value) if value.isdigit() else value
        elif name in ("autofill", "reserve_face_up"):
            if value.lower() not in _BOOL_WORDS:
                raise RulesError(f"bad value {value!r} for {name}: use true or false")
            parsed = _BOOL_WORDS[value.lower()]
        out[name] = parsed
    return out


#: One deal of a batch: ``(variant, seed, options, budget_seconds, budget_nodes, tidy,
#: max_bytes)``.
Job = tuple[str, str, dict[str, Any], float | None, int | None, bool, int | None]


def solve_seed(job: Job) -> Row:
    """Solve one deal: ``(variant, seed, options, budget_seconds, budget_nodes, tidy, max_bytes)``.

    Returns its row.  ``tidy``: shorten a winning line with
    :func:`games.engine.tidy.tidy_line` (after the solve; ``seconds`` is the solve's
    time only).  ``max_bytes``: the solver's memory cap for the deal, in bytes
    (``None``: none; :func:`~games.engine.solver.solve`).  The C core's freed tables
    stay kept in this process for the next deal (``solve(keep_tables=True)``); they
    count against that cap.
    """
    variant, seed, options, seconds, nodes, tidy, max_bytes = job
    state = new_game(variant, seed=seed, **options)
    res = solve(state, max_seconds=seconds, max_nodes=nodes, max_bytes=max_bytes, keep_tables=True)
    moves = tidy_line(state, res.moves) if tidy and res.result == WON else res.moves
    return {
        "seed": seed,
        "result": res.result,
        "moves": " ".join(moves),
        "nodes": res.nodes,
        "seconds": round(res.seconds, 4),
    }


def run_batch(
    variant: str,
    seeds: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    budget_seconds: float | None = 10.0,
    budget_nodes: int | None = None,
    progress: Callable[[Row], None] | None = None,
    tidy: bool = True,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
) -> list[Row]:
    """Solve every seed; rows come back in seed order.

    ``workers``: processes (default: all cores; 1 runs in this process).
    ``progress`` is called with each row as it finishes (for a progress bar).
    ``tidy``: shorten each winning line (:mod:`games.engine.tidy`); ``False`` for
    verdict-only tables.  ``max_bytes``: the solver's memory cap per deal, in bytes
    (default 1 GiB; ``None``: none); a deal whose first search reaches it is ``unknown``.
    Rules are validated before any work starts (:class:`RulesError`).
    """
    options = dict(options or {})
    make_rules(variant, **options)
    jobs: list[Job] = [
        (variant, s, options, budget_seconds, budget_nodes, tidy, max_bytes) for s in seeds
    ]
    n_workers = workers or os.cpu_count() or 1
    rows: list[Row] = []
    if n_workers <= 1:
        try:
            for job in jobs:
                row = solve_seed(job)
                rows.append(row)
                if progress:
                    progress(row)
        finally:
            release_tables()  # kept from deal to deal (solve_seed), not beyond the batch
    else:
        ctx = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
        with ctx.Pool(n_workers, maxtasksperchild=_DEALS_PER_PROCESS) as pool:
            for row in pool.imap_unordered(solve_seed, jobs, chunksize=1):
                rows.append(row)
                if progress:
                    progress(row)
    order = {s: i for i, s in enumerate(seeds)}
    rows.sort(key=lambda r: order[r["seed"]])
    return rows


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval (default 95%) for ``successes`` of ``n``; ``(0, 1)`` if ``n == 0``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    v = sorted(values)
    pos = (len(v) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return float(v[lo] + (v[hi] - v[lo]) * (pos - lo))


def summarise(rows: Sequence[Row]) -> dict[str, Any]:
    """Counts, winnable share with its interval, and time / node percentiles.

    Shape: ``deals, won, lost, unknown, decided_share, share`` (won / decided,
    ``None`` if nothing was decided), ``interval`` ``[low, high]`` (Wilson 95%:
    low with unknowns as lost, high with unknowns as won), ``median_seconds,
    p95_seconds, median_nodes, p95_nodes, total_seconds``.
    """
    n = len(rows)
    won = sum(r["result"] == WON for r in rows)
    lost = sum(r["result"] == LOST for r in rows)
    unknown = sum(r["result"] == UNKNOWN for r in rows)
    secs = [float(r["seconds"]) for r in rows]
    nodes = [float(r["nodes"]) for r in rows]
    decided = won + lost
    return {
        "deals": n,
        "won": won,
        "lost": lost,
        "unknown": unknown,
        "decided_share": decided / n if n else 0.0,
        "share": won / decided if decided else None,
        "interval": [wilson(won, n)[0], wilson(won + unknown, n)[1]],
        "median_seconds": percentile(secs, 0.5),
        "p95_seconds": percentile(secs, 0.95),
        "median_nodes": percentile(nodes, 0.5),
        "p95_nodes": percentile(nodes, 0.95),
        "total_seconds": sum(secs),
    }


def format_summary(summary: dict[str, Any]) -> str:
    """A few human lines for a terminal."""
    s = summary
    share = "n/a" if s["share"] is None else f"{100 * s['share']:.1f}%"
    lo, hi = s["interval"]
    return (
        f"deals {s['deals']}: won {s['won']}, lost {s['lost']}, unknown {s['unknown']} "
        f"(decided {100 * s['decided_share']:.1f}%)\n"
        f"winnable {share}, Wilson 95% [{100 * lo:.1f}%, {100 * hi:.1f}%] "
        "(unknowns as lost / as won)\n"
        f"time median {s['median_seconds']:.2f} s, p95 {s['p95_seconds']:.2f} s, "
        f"sum {s['total_seconds']:.0f} s; nodes median {s['median_nodes']:.0f}, "
        f"p95 {s['p95_nodes']:.0f}"
    )


def write_rows(path: str, rows: Sequence[Row], summary: dict[str, Any] | None = None) -> None:
    """Write rows to ``path``: CSV, or JSON ``{"summary": ..., "rows": [...]}`` for ``.json``."""
    if path.endswith(".json"):
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({"summary": summary, "rows": list(rows)}, fh, indent=1)
            fh.write("\n")
        return
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["seed", "result", "moves", "nodes", "seconds"])
        writer.writeheader()
        writer.writerows(rows)
