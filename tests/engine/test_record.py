"""The game record (format canfield-record): round trip, checks, and how a game ended."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from games.engine import deal_deck, make_rules, new_game
from games.engine.cli import main
from games.engine.record import GameRecord, RecordError


def record(**kw: object) -> GameRecord:
    moves = ("draw", "draw")
    base = {"rules": make_rules("classic"), "deck": tuple(deal_deck("7")), "seed": "7"}
    return GameRecord(**{**base, "moves": moves, **kw})  # type: ignore[arg-type]


def test_round_trip_keeps_the_ending() -> None:
    rec = record(ended="resigned")
    data = rec.to_dict()
    assert data["ended"] == "resigned"
    assert GameRecord.from_dict(json.loads(json.dumps(data))) == rec


def test_replay_ends_the_game_as_recorded() -> None:
    state = record(ended="timed_out").replay()
    assert state.status() == "timed_out"
    assert state.legal_moves() == []
    expected = new_game("classic", seed="7")
    expected.play("draw")
    expected.play("draw")
    assert state.to_dict()["waste"] == expected.to_dict()["waste"]
    assert record().replay().status() == "playing"


def test_a_record_without_ended_still_reads() -> None:
    data = record().to_dict()
    del data["ended"]
    assert GameRecord.from_dict(data).ended is None


def test_bad_ended_is_refused() -> None:
    data = record().to_dict() | {"ended": "won"}
    with pytest.raises(RecordError, match="ended"):
        GameRecord.from_dict(data)


def test_cli_replay_of_a_resigned_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(ended="resigned").to_dict()))
    out = io.StringIO()
    assert main(["replay", str(path), "--colour", "never"], out=out) == 0
    text = out.getvalue()
    assert "resigned" in text
    assert "Status: resigned" in text
    assert "Legal moves" not in text
