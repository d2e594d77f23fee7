"""The bot's independent check of published results (``benchmarks.verify``), RULES.md 6.

The results table is built here with the pure engine, the way ``GET /races/{id}/results``
publishes it: one deal (seed 23, which the bots' strategies win), each entrant's move
list, and ranks by the rule.  Then single facts are falsified and each must be flagged.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

from benchmarks.verify import expected_ranks, rank_key, verify_results
from canfield_bot.strategy import DefaultStrategy, LookaheadStrategy, Strategy
from games.engine import new_game, player_view, replay
from games.engine.deal import deal_deck
from games.engine.ranking import rank_entries

SEED = "23"


def _line(strategy: Strategy) -> list[str]:
    """The moves ``strategy`` plays on the deal until the game ends or it gives up."""
    state = new_game("classic", seed=SEED)
    moves: list[str] = []
    while state.status() == "playing":
        move = strategy(player_view(state))
        if move is None:
            break
        state.play(move)
        moves.append(move)
    return moves


WIN_A = _line(DefaultStrategy())  # 142 moves
WIN_B = _line(LookaheadStrategy())  # 107 moves
WIN_C = _line(DefaultStrategy(seed=3))  # 146 moves


def _entry(
    player: str, moves: list[str] | None, elapsed_ms: int | None, status: str
) -> dict[str, Any]:
    """One published entry; ``moves`` None: never started."""
    if moves is None:
        cards = None
    else:
        cards = replay(moves, "classic", seed=SEED).cards_home
    return {
        "rank": None,
        "player": player,
        "status": status,
        "won": cards == 52,
        "cards_home": cards,
        "casino_score": None if cards is None else 5 * cards - 52,
        "moves": None if moves is None else len(moves),
        "elapsed_ms": elapsed_ms,
        "disqualified_reason": "two accounts" if status == "disqualified" else None,
        "game_id": None if moves is None else f"g-{player}",
        "move_list": moves or [],
        "rating_change": None,
    }


def _results() -> dict[str, Any]:
    entries = [
        _entry("alice", WIN_A, 61_000, "won"),
        _entry("bob", WIN_B, 61_000, "won"),  # same time, fewer moves: still a tie
        _entry("carol", WIN_C, 75_000, "won"),
        _entry("dave", WIN_A[:40], 30_000, "resigned"),
        _entry("erin", WIN_A[:45], 30_000, "timed_out"),  # same cards and time as dave
        _entry("frank", WIN_A[:38], 45_000, "blocked"),  # as many cards, reached later
        _entry("grace", WIN_A, 50_000, "disqualified"),  # the fastest win, but left out
        _entry("heidi", None, None, "did_not_start"),
        _entry("ivan", WIN_A[:31], 10_000, "timed_out"),  # early, but one card fewer
    ]
    for entry, rank in zip(entries, [1, 1, 3, 4, 4, 6, None, None, 7], strict=True):
        entry["rank"] = rank
    return {
        "race": "r1",
        "seed": SEED,
        "commitment": hashlib.sha256(SEED.encode()).hexdigest(),
        "commitment_verified": True,
        "variant": "classic",
        "options": {},
        "deck": deal_deck(SEED),
        "ranking_rule": "Players who won come first, by the time they took; ...",
        "entries": entries,
        "rating": None,
    }


def _by_player(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["player"]: e for e in results["entries"]}


def test_the_table_is_what_the_tests_need() -> None:
    assert (len(WIN_A), len(WIN_B), len(WIN_C)) == (142, 107, 146)
    cards = {p: e["cards_home"] for p, e in _by_player(_results()).items()}
    assert cards == {
        "alice": 52,
        "bob": 52,
        "carol": 52,
        "dave": 13,
        "erin": 13,
        "frank": 13,
        "grace": 52,
        "heidi": None,
        "ivan": 12,
    }


def test_ranks_follow_rules_6_with_ties() -> None:
    """Winners by time (two tied on time share rank 1, the next is 3rd), then the rest by
    cards home and the time they reached them; ties share a rank and the next skips;
    moves and how a game ended never count; disqualified and did-not-start: no rank."""
    entries = _results()["entries"]
    assert expected_ranks(entries) == {0: 1, 1: 1, 2: 3, 3: 4, 4: 4, 5: 6, 6: None, 7: None, 8: 7}
    # The server's own rule (games.engine.ranking) agrees.
    server = [{**e, "disqualified": e["status"] == "disqualified"} for e in entries]
    assert rank_entries(server) == list(expected_ranks(entries).values())


def test_the_rank_key_ignores_moves_and_status() -> None:
    base = {"cards_home": 13, "elapsed_ms": 30_000, "moves": 40, "status": "resigned"}
    assert rank_key(base) == (-13, 30_000)
    assert rank_key({**base, "moves": 5, "status": "timed_out"}) == rank_key(base)
    assert rank_key({"cards_home": 1, "elapsed_ms": None}) == (-1, 0)  # never moved a card


def test_only_ties_share_ranks() -> None:
    rows = [
        {"cards_home": 52, "elapsed_ms": 9_000, "status": "won"},
        {"cards_home": 52, "elapsed_ms": 9_000, "status": "won"},
        {"cards_home": 52, "elapsed_ms": 9_000, "status": "won"},
        {"cards_home": 20, "elapsed_ms": 1_000, "status": "playing"},
    ]
    assert expected_ranks(rows) == {0: 1, 1: 1, 2: 1, 3: 4}
    assert expected_ranks([]) == {}


def test_correct_results_verify() -> None:
    assert verify_results(_results()) == []


def _falsified(change: str) -> dict[str, Any]:
    results = copy.deepcopy(_results())
    who = _by_player(results)
    if change == "rank broken by moves":
        who["alice"]["rank"] = 2  # as if bob's fewer moves broke the tie on time
    elif change == "disqualified ranked":
        who["grace"]["rank"] = 1
    elif change == "commitment":
        results["commitment"] = hashlib.sha256(b"24").hexdigest()
    elif change == "server says unverified":
        results["commitment_verified"] = False
    elif change == "deck":
        results["deck"] = list(reversed(results["deck"]))
    elif change == "cards home":
        who["dave"]["cards_home"] = 14
    elif change == "move count":
        who["erin"]["moves"] = 44
    elif change == "won flag":
        who["bob"]["won"] = False
    elif change == "move list":
        who["dave"]["move_list"] = [*WIN_A[:40], "KH>t9"]
        who["dave"]["moves"] = 41
    return results


@pytest.mark.parametrize(
    ("change", "problems"),
    [
        ("rank broken by moves", ["alice: rank 2, the rule gives 1"]),
        ("disqualified ranked", ["grace: rank 1, the rule gives None"]),
        ("commitment", ["sha256(seed) != commitment"]),
        ("server says unverified", ["the server says the commitment does not verify"]),
        ("deck", ["the deck is not the deal of the revealed seed"]),
        (
            "cards home",  # and with 14 cards dave would rank 4th alone, erin 5th
            ["dave: replay gives 13 cards home, not 14", "erin: rank 4, the rule gives 5"],
        ),
        ("move count", ["erin: 45 moves listed, 44 counted"]),
        ("won flag", ["bob: won=False but replay has 52 home"]),
        (
            "move list",
            [
                "dave: move list does not replay: move 41 (KH>t9): 't9' is not a destination: "
                "use f (foundation) or t1, t2, t3, t4"
            ],
        ),
    ],
)
def test_a_wrong_result_is_flagged(change: str, problems: list[str]) -> None:
    assert verify_results(_falsified(change)) == problems
