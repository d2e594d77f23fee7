"""Check published race results independently, with the pure rules engine.

:func:`verify_results` takes ``GET /api/v1/races/{id}/results`` and recomputes
everything it can: the commitment from the revealed seed, the deck from the seed
(RULES.md 2.1), each entrant's cards home by replaying their move list, and the
ranks from the ranking rule (RULES.md 6).  It returns a list of problems (empty
when everything checks out).

It lives here, beside the benchmarks that use it, and not in ``canfield_bot``: replaying
a move list needs the rules engine (``games.engine``, pure Python, usable without Django),
and the bot package is a client of the public API only that never imports ``games/``
(DESIGN.md, "Layers").  The ranks are recomputed by :func:`rank_key`, written here
apart from the server's ranking code.
"""

from __future__ import annotations

import hashlib
from typing import Any

from games.engine import replay
from games.engine.deal import deal_deck


def rank_key(entry: dict[str, Any]) -> tuple[int, int]:
    """RULES.md 6 as a sort key (smaller first), written here independently of the server.

    Winners first by the time they took, the rest by more cards home, then by the
    earlier time at which they reached that count.  A winner has 52 cards home
    and ``elapsed_ms`` is its win time, so one key serves both.  The number of
    moves and how the game ended never count; equal keys share a rank.
    """
    return (-int(entry["cards_home"]), int(entry["elapsed_ms"] or 0))


def expected_ranks(entries: list[dict[str, Any]]) -> dict[int, int | None]:
    """Rank of each entry (by position in ``entries``) under RULES.md 6: disqualified
    entries and entrants who never started get ``None``; ties share a rank (1, 2, 2, 4)."""
    ranked = [
        i
        for i, e in enumerate(entries)
        if e["status"] != "disqualified" and e["cards_home"] is not None
    ]
    out: dict[int, int | None] = dict.fromkeys(range(len(entries)))
    for i in ranked:
        key = rank_key(entries[i])
        out[i] = 1 + sum(1 for j in ranked if rank_key(entries[j]) < key)
    return out


def verify_results(results: dict[str, Any]) -> list[str]:
    """Problems found in ``results`` (empty list: verified)."""
    problems: list[str] = []
    seed = results["seed"]
    if hashlib.sha256(seed.encode()).hexdigest() != results["commitment"]:
        problems.append("sha256(seed) != commitment")
    if not results.get("commitment_verified"):
        problems.append("the server says the commitment does not verify")
    if results["deck"] != deal_deck(seed):
        problems.append("the deck is not the deal of the revealed seed")
    for entry in results["entries"]:
        who = entry["player"]
        if entry["game_id"] is None:
            continue
        try:
            state = replay(entry["move_list"], results["variant"], seed=seed, **results["options"])
        except ValueError as exc:
            problems.append(f"{who}: move list does not replay: {exc}")
            continue
        if state.cards_home != entry["cards_home"]:
            problems.append(
                f"{who}: replay gives {state.cards_home} cards home, not {entry['cards_home']}"
            )
        if len(entry["move_list"]) != entry["moves"]:
            problems.append(
                f"{who}: {len(entry['move_list'])} moves listed, {entry['moves']} counted"
            )
        if entry["won"] != (state.cards_home == 52):
            problems.append(f"{who}: won={entry['won']} but replay has {state.cards_home} home")
    expected = expected_ranks(results["entries"])
    for i, entry in enumerate(results["entries"]):
        if entry["rank"] != expected[i]:
            problems.append(
                f"{entry['player']}: rank {entry['rank']}, the rule gives {expected[i]}"
            )
    return problems
