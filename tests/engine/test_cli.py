"""The terminal command: show, replay (moves file and record JSON), moves; exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import deal_deck, layout_dict, new_game, replay
from games.engine.cli import main, render
from games.engine.record import GameRecord, RecordError
from games.engine.rules import make_rules

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


def test_show_prints_the_deal_without_hidden_cards() -> None:
    code, text = run(["show", "--seed", "12345", "--variant", "classic"])
    assert code == 0
    lay = layout_dict(new_game("classic", seed="12345"))
    assert "Canfield, classic, seed 12345" in text
    assert "Reserve (13, 12 face down)" in text
    assert "Stock: 34 cards" in text
    assert "\033[" not in text  # no colour when not a terminal
    top = lay["reserve"][-1]
    assert top[0].replace("T", "10") + "\u2665\u2666\u2663\u2660"["HDCS".index(top[1])] in text
    assert "Legal moves: " + " ".join(new_game("classic", seed="12345").legal_moves()) in text


def test_show_reveal_and_colour() -> None:
    code, text = run(["show", "--seed", "12345", "--reveal", "--colour", "always"])
    assert code == 0
    assert "(draw order)" in text
    assert "\033[31m" in text


def test_show_options_and_variant() -> None:
    code, text = run(["show", "--seed", "7", "--variant", "storehouse", "-o", "draw=3"])
    assert code == 0
    assert "base rank 2" in text
    assert "Stock: 31 cards" in text


def test_moves_command() -> None:
    code, text = run(["moves", "--seed", "12345"])
    assert code == 0
    assert text.split() == new_game("classic", seed="12345").legal_moves()


def test_replay_moves_file(tmp_path: Path) -> None:
    moves = ["draw", "draw", "draw"]
    f = tmp_path / "moves.txt"
    f.write_text("# a comment\ndraw, draw\ndraw # the third\n")
    code, text = run(["replay", "--seed", "12345", str(f)])
    assert code == 0
    final = replay(moves, seed="12345")
    assert "   3. draw     home 1" in text
    assert f"Waste ({len(final.waste)})" in text


def test_replay_record_json(tmp_path: Path) -> None:
    state = new_game("draw-one", seed="42")
    played = []
    for _ in range(30):
        move = state.legal_moves()[0]
        state.play(move)
        played.append(move)
    record = GameRecord(
        rules=make_rules("draw-one"), deck=tuple(deal_deck("42")), seed="42", moves=tuple(played)
    )
    assert record.replay().to_dict() == state.to_dict()
    assert GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record
    f = tmp_path / "game.json"
    f.write_text(json.dumps(record.to_dict()))
    code, text = run(["replay", str(f)])
    assert code == 0
    assert "Replay, draw-one, seed 42" in text
    assert f"  30. {played[-1]:<8} home {state.cards_home}" in text


def test_record_from_explicit_deck_string() -> None:
    deck = " ".join(deal_deck("5")).replace("T", "10").lower()
    rec = GameRecord.from_dict(
        {"format": "canfield-record", "version": 1, "variant": "classic", "deck": deck}
    )
    assert list(rec.deck) == deal_deck("5")
    assert rec.replay().to_dict() == new_game("classic", seed="5").to_dict()


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"format": "x"}, "not a canfield-record document"),
        ({"format": "canfield-record", "version": 2}, "unsupported record version 2"),
        ({"format": "canfield-record", "version": 1}, "a record needs a seed or a deck"),
        (
            {"format": "canfield-record", "version": 1, "seed": "1", "deck": deal_deck("2")},
            "the deck does not match the seed",
        ),
        ({"format": "canfield-record", "version": 1, "seed": "1", "moves": "draw"}, "moves"),
        ({"format": "canfield-record", "version": 1, "seed": "1", "variant": "x"}, "unknown"),
        ({"format": "canfield-record", "version": 1, "deck": ["AC"]}, "a deck has 52 cards"),
    ],
)
def test_bad_records(data: dict[str, object], why: str) -> None:
    with pytest.raises(RecordError, match=why):
        GameRecord.from_dict(data)


def test_replay_illegal_move_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "moves.txt"
    f.write_text("draw\nQQ>t1\n")
    code, _ = run(["replay", "--seed", "12345", str(f)])
    assert code == 1
    assert "move 2 (QQ>t1) refused:" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["show"],
        ["show", "--seed", "bad seed"],
        ["show", "--seed", "1", "--variant", "nope"],
        ["show", "--seed", "1", "-o", "draw=2"],
        ["show", "--seed", "1", "-o", "draw"],
        ["show", "--deck", "AC 2C"],
        ["replay", "--seed", "1", "/nonexistent/moves.txt"],
    ],
)
def test_bad_input_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(argv)
    assert code == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_bad_record_exits_2(tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    f.write_text('{"format": "canfield-record", "version": 9}')
    assert run(["replay", str(f)])[0] == 2
    f.write_text("{not json")
    assert run(["replay", str(f)])[0] == 2


def test_argparse_errors_exit_2() -> None:
    with pytest.raises(SystemExit) as exc:
        run(["fly"])
    assert exc.value.code == 2


def test_render_player_view_hides_cards() -> None:
    state = new_game("classic", seed="12345")
    text = render(state)
    hidden = state.to_dict()["stock"]
    assert "draw order" not in text
    assert "Stock: 34 cards" in text
    assert len(hidden) == 34


def test_module_entry_point() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "show", "--seed", "12345", "--variant", "classic"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0
    assert "Canfield, classic, seed 12345" in proc.stdout
