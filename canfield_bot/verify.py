"""Check published race results independently, with the pure rules engine.

:func:`verify_results` takes ``GET /api/v1/races/{id}/results`` and recomputes
everything it can: the commitment from the revealed seed, the deck from the seed
(RULES.md 2.1), each entrant's cards home by replaying their move list, and the
ranks from the ranking rule (RULES.md 6).  It returns a list of problems (empty
when everything checks out).
"""

from __future__ import annotations

import hashlib
from typing import Any

from games.engine import replay
from games.engine.deal import deal_deck


def rank_key(entry: dict[str, Any]) -> tuple[int, int, int]:
    """The ranking rule as a sort key: more cards home, then earlier, then fewer moves.

    A winner has 52 cards home and ``elapsed_ms`` is the time they took, so
    winners first by time is the same key.
    """
    return (-int(entry["cards_home"]), int(entry["elapsed_ms"] or 0), int(entry["moves"]))


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
    ranked = [e for e in results["entries"] if e["rank"] is not None]
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
            problems.append(f"{who}: replay gives {state.cards_home} cards home, not {entry}")
        if len(entry["move_list"]) != entry["moves"]:
            problems.append(
                f"{who}: {len(entry['move_list'])} moves listed, {entry['moves']} counted"
            )
        if entry["won"] != (state.cards_home == 52):
            problems.append(f"{who}: won={entry['won']} but replay has {state.cards_home} home")
    for entry in ranked:
        expected = 1 + sum(1 for other in ranked if rank_key(other) < rank_key(entry))
        if entry["rank"] != expected:
            problems.append(f"{entry['player']}: rank {entry['rank']}, the rule gives {expected}")
    return problems
