"""Does a partial-order reduction shrink rainbow's searches?  Positions with and without.

Usage::

    .venv/bin/python benchmarks/rainbow_reduction.py [--seeds 34,64] [--nodes 1500000]
        [--endgames 1] [--sample-nodes 100000] [--every 997] [--count 25]

An experiment behind ``docs/winnability.md`` ("Rainbow"), not product code: the
product's search is unchanged.  It runs complete depth-first searches with a
transposition table over the Python solver's steps (``solver._Search.children``,
safe moves off so that a step is one move) in three ways, and counts the positions
each expands:

* ``plain``: positions, as the product's search (one search, standard order).
* ``lazy``: a tableau-to-tableau move must be followed at once by a move that
  depends on it (one that touches its source or target pile, or the card it moved).
  Sound: in any winning line such a move can be put off until just before the first
  later move that depends on it (the moves in between touch neither pile, so both
  orders are legal and reach the same position); a winning line always ends with a
  foundation move, so there is one.
* ``ordered``: two independent moves in a row must come in increasing order of the
  card moved (Anisimov and Knuth: every trace of independent moves has such a word).

"Touches": the piles a move changes (named by their bottom card before and after,
or as empty), the reserve, the stock and waste, each foundation.  Both reductions
must key a position together with the move that led to it (what may follow depends
on it), which is what they cost.  Prints, per deal (and, with ``--endgames 1``, for
``--count`` positions sampled every ``--every``-th of the first
``--sample-nodes`` of seed 1's plain search with the reserve empty and the stock
drawn to its end), the verdict, the positions expanded and the distinct positions
reached (keyed without the move that led there) of each way, and the ratio of
expanded positions to ``plain`` (above 1: more positions).  Verdicts never differ:
every way is a complete search.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import new_game
from games.engine.solver import _root_position, _Search

WAYS = ("plain", "lazy", "ordered")
_Pos = Any  # (nr, found, piles, talon, w, rl), the solver's position tuple


def touched(parent: _Pos, child: _Pos) -> frozenset[object]:
    """The locations one step changes (module doc): piles, reserve, talon, foundations."""
    pnr, pf, pp, pt, pw, _ = parent
    cnr, cf, cp, ct, cw, _ = child
    out: set[object] = set()
    for i in range(4):
        if pp[i] != cp[i]:
            out.add(("P", pp[i][0]) if pp[i] else "E")
            out.add(("P", cp[i][0]) if cp[i] else "E")
            if not pp[i]:
                out.add("R")  # an empty pile exists only while the reserve is empty
    if pnr != cnr:
        out.add("R")
    if pt != ct or pw != cw:
        out.add("W")
    for s in range(4):
        if (pf >> 4 * s) & 15 != (cf >> 4 * s) & 15:
            out.add(("F", s))
    return frozenset(out)


def search(search: _Search, root: _Pos, way: str, budget: int) -> tuple[str, int, int]:
    """One search from ``root``: (``won``/``lost``/``unknown``, positions expanded,
    distinct positions reached, not counting the move that led to them)."""

    def key(pos: _Pos, last: tuple[frozenset[object], str, bool] | None) -> bytes:
        nr, _found, piles, talon, w, rl = pos
        k = search.key(nr, piles, talon, w, rl)
        if last is None:
            return k
        return k + repr((sorted(map(str, last[0])), last[1], last[2])).encode()

    seen = {key(root, None)}
    positions = set(seen)
    stack: list[tuple[_Pos, tuple[frozenset[object], str, bool] | None]] = [(root, None)]
    nodes = 0
    while stack:
        pos, last = stack.pop()
        nodes += 1
        if nodes > budget:
            return "unknown", nodes, len(positions)
        nr, _found, piles, talon, _w, _rl = pos
        if not nr and not talon and not any(piles):
            return "won", nodes, len(positions)
        for moves, *rest in search.children(*pos):
            child = tuple(rest)
            where = touched(pos, child)
            card = moves[-1].split(">")[0]
            tableau = pos[0] == child[0] and pos[1] == child[1] and pos[3:5] == child[3:5]
            if last is not None and not (last[0] & where):
                if way == "lazy" and last[2]:
                    continue
                if way == "ordered" and card <= last[1]:
                    continue
            step = None
            if way == "lazy" and tableau:
                step = (where, card, True)
            elif way == "ordered":
                step = (where, card, False)
            k = key(child, step)
            if k not in seen:
                seen.add(k)
                positions.add(key(child, None))
                stack.append((child, step))
    return "lost", nodes, len(positions)


def endgames(seed: str, sample_nodes: int, every: int) -> tuple[_Search, list[_Pos]]:
    """Positions of a plain search with the reserve empty and the stock drawn to its end."""
    state = new_game("rainbow", seed=seed)
    s = _Search(state, False)
    root = _root_position(state)
    seen = {s.key(root[0], root[2], root[3], root[4], root[5])}
    stack: list[_Pos] = [root]
    nodes = 0
    out: list[_Pos] = []
    while stack and nodes < sample_nodes:
        pos = stack.pop()
        nodes += 1
        if nodes % every == 0 and pos[0] == 0 and pos[4] == len(pos[3]):
            out.append(pos)
        for _moves, *rest in s.children(*pos):
            child: _Pos = tuple(rest)
            k = s.key(child[0], child[2], child[3], child[4], child[5])
            if k not in seen:
                seen.add(k)
                stack.append(child)
    return s, out


def row(label: str, s: _Search, roots: list[_Pos], budget: int) -> None:
    counts = {}
    verdicts = {}
    for way in WAYS:
        start = time.perf_counter()
        results = [search(s, r, way, budget) for r in roots]
        counts[way] = sum(n for _v, n, _d in results)
        distinct = sum(d for _v, _n, d in results)
        verdicts[way] = "".join(v[0] for v, _n, _d in results)
        secs = time.perf_counter() - start
        print(
            f"{label:>24} {way:>8}: {verdicts[way][:25]:25} {counts[way]:>9,} expanded,"
            f" {distinct:>9,} distinct positions, {secs:5.1f} s"
        )
    for way in WAYS[1:]:
        print(f"{label:>24} {way:>8} / plain: {counts[way] / counts['plain']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="34,64")
    parser.add_argument("--nodes", type=int, default=1_500_000)
    parser.add_argument("--endgames", type=int, default=1)
    parser.add_argument("--sample-nodes", type=int, default=100_000)
    parser.add_argument("--every", type=int, default=997)
    parser.add_argument("--count", type=int, default=25)
    args = parser.parse_args()
    for seed in args.seeds.split(","):
        state = new_game("rainbow", seed=seed)
        row(f"rainbow seed {seed}", _Search(state, False), [_root_position(state)], args.nodes)
    if args.endgames:
        s, roots = endgames("1", args.sample_nodes, args.every)
        row(f"seed 1, {min(len(roots), args.count)} endgames", s, roots[: args.count], args.nodes)


if __name__ == "__main__":
    main()
