"""State serialisation (format ``canfield-state`` v1): round trip and validation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import GameState, StateError, new_game


def doc(**changes: Any) -> dict[str, Any]:
    d = new_game("classic", seed="12345").to_dict()
    d.update(changes)
    return d


def test_round_trip_keeps_everything() -> None:
    s = new_game("superior", seed="9", redeals=1)
    for move in ("draw", "draw"):
        s.play(move)
    s.end("resigned")
    text = s.to_json()
    assert json.loads(text)["format"] == "canfield-state"
    assert json.loads(text)["version"] == 1
    back = GameState.from_json(text)
    assert back.to_json() == text
    assert back == s
    assert back.rules == s.rules


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"format": "other"}, "not a canfield-state document"),
        (doc(version=2), "unsupported state version 2"),
        (doc(base_rank=""), "invalid base rank ''"),
        (doc(base_rank="23"), "invalid base rank '23'"),
        (doc(tableau=[["3C"], ["4S"], ["9C"]]), "tableau|each of the 52 cards"),
        (doc(waste=["AC"]), "each of the 52 cards exactly once"),
        (doc(ended="won"), "invalid ended value 'won'"),
        (doc(rules={"draw": 2}), "option 'draw'"),
        (doc(reserve=["ZZ"]), "invalid state"),
    ],
)
def test_invalid_states(data: dict[str, Any], why: str) -> None:
    with pytest.raises(StateError, match=why):
        GameState.from_dict(data)


def test_foundation_must_be_built_from_the_base() -> None:
    d = doc()
    ranks = "A23456789TJQK"
    wrong = ranks[(ranks.index(d["base_rank"]) + 1) % 13] + "S"
    d["foundations"]["S"] = [wrong]
    with pytest.raises(StateError, match="foundation S is not built up in suit from the base"):
        GameState.from_dict(d)


def test_fixed_base_must_match_base_rank() -> None:
    d = new_game("storehouse", seed="1").to_dict()
    d["base_rank"] = "3"
    with pytest.raises(StateError):
        GameState.from_dict(d)
    d["base_rank"] = "2"
    assert GameState.from_dict(d).base == 1


def test_invalid_json_text() -> None:
    with pytest.raises(StateError, match="invalid JSON"):
        GameState.from_json("{")
