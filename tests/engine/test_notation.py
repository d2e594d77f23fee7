"""Move notation (RULES.md 5) and card names (RULES.md 1)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import CardError, MoveParseError, canonical, card_name, parse_card, parse_move
from games.engine.moves import CARD, DRAW, FOUNDATION, REDEAL, format_move


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("draw", "draw"),
        ("DRAW", "draw"),
        (" Draw ", "draw"),
        ("redeal", "redeal"),
        ("ReDeal", "redeal"),
        ("QH>t2", "QH>t2"),
        ("qh>T2", "QH>t2"),
        ("qH > t2", "QH>t2"),
        ("10h>t3", "TH>t3"),
        ("10D>F", "TD>f"),
        ("th>f", "TH>f"),
        ("  5s>f  ", "5S>f"),
        ("KC>t1", "KC>t1"),
        ("as>t4", "AS>t4"),
    ],
)
def test_canonical(text: str, out: str) -> None:
    assert canonical(text) == out


def test_parsed_shape() -> None:
    assert parse_move("draw") == (DRAW, -1, 0)
    assert parse_move("redeal") == (REDEAL, -1, 0)
    assert parse_move("AC>f") == (CARD, 0, FOUNDATION)
    assert parse_move("QS>t2") == (CARD, 50, 1)
    assert format_move((CARD, 50, 1)) == "QS>t2"


def test_every_card_and_destination_round_trips() -> None:
    for c in range(52):
        for dest in ("f", "t1", "t2", "t3", "t4"):
            text = f"{card_name(c)}>{dest}"
            assert canonical(text) == text
            assert canonical(text.lower()) == text


MALFORMED: list[tuple[Any, str]] = [
    ("", "empty move"),
    ("   ", "empty move"),
    ("x" * 17, "at most 16 characters"),
    ("QH", "is not a move"),
    ("shuffle", "is not a move"),
    ("ZH>t1", "unknown rank 'Z'"),
    ("QX>t1", "unknown suit 'X'"),
    ("1H>t1", "is not a card"),
    ("QHH>t1", "is not a card"),
    (">t1", "is not a card"),
    ("QH>t5", "'t5' is not a destination"),
    ("QH>t0", "'t0' is not a destination"),
    ("QH>", "'' is not a destination"),
    ("QH>foundation", "is not a destination"),
    ("QH>t1>t2", "is not a destination"),
    (None, "a move is a string"),
    (12, "a move is a string"),
    (["QH>t1"], "a move is a string"),
    (b"draw", "a move is a string"),
]


@pytest.mark.parametrize(("text", "why"), MALFORMED)
def test_malformed(text: Any, why: str) -> None:
    with pytest.raises(MoveParseError) as exc:
        parse_move(text)
    assert why in exc.value.reason
    assert exc.value.code == "malformed_move"


def test_parse_card_forms_and_errors() -> None:
    assert parse_card("QH") == parse_card("qh") == parse_card("Qh") == parse_card(" qH ")
    assert parse_card("10D") == parse_card("td") == parse_card("TD")
    assert card_name(parse_card("10c")) == "TC"
    with pytest.raises(CardError, match="unknown rank"):
        parse_card("1D")
    with pytest.raises(CardError, match="unknown suit"):
        parse_card("QZ")
    with pytest.raises(CardError, match="write rank then suit"):
        parse_card("Q")
    with pytest.raises(CardError, match="is not a card"):
        parse_card(5)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["Q\u017f>f", "q\u017f>t1", "10\u017f>t2"])
def test_letters_that_unicode_upper_cases_to_a_suit_are_not_cards(text: str) -> None:
    """RULES.md 1 and 5: a card is its rank letter then one of the suit letters C D H
    S, and input is case-insensitive in those letters only.  ``str.upper`` maps the
    long s (U+017F) to ``S``, so ``"Q\u017f>f"`` was played as ``QS>f``; it is
    malformed (``MoveParseError``, code ``malformed_move``)."""
    with pytest.raises(MoveParseError) as exc:
        parse_move(text)
    assert exc.value.why == "card_suit"


def test_the_long_s_is_an_unknown_suit() -> None:
    """The refusal names the letter it does not know (``card_suit``, RULES.md 5)."""
    with pytest.raises(CardError) as exc:
        parse_card("Q\u017f")
    assert exc.value.why == "card_suit"
    assert exc.value.facts["letter"] == "\u017f"
