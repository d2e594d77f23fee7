"""A winning line as the solution page lists it (``web.board.solution_steps``): draws in a
row are one step with the right count and plural in each language, every other move is
a step of its own, and the steps keep every move counted with its game move number."""

from __future__ import annotations

import pytest
from django.utils import translation

from web.board import Step, draws_words, solution_steps

LINE = ["9C>f", "draw", "draw", "draw", "KH>t2", "draw", "redeal", "draw", "draw", "QS>f"]
HOMES = [2, 2, 2, 2, 2, 2, 2, 2, 2, 3]


def test_draws_in_a_row_are_one_step_and_every_move_keeps_its_number() -> None:
    with translation.override("en"):
        steps = solution_steps(LINE, HOMES, draw=1)
    assert steps == [
        Step("the nine of clubs to its foundation", 1, 1, 2),
        Step("draw 3 cards from the stock", 2, 4, 2),
        Step("the king of hearts to pile 2", 5, 5, 2),
        Step("draw from the stock", 6, 6, 2),
        Step("redeal", 7, 7, 2),
        Step("draw 2 cards from the stock", 8, 9, 2),
        Step("the queen of spades to its foundation", 10, 10, 3),
    ]
    assert sum(s.last - s.first + 1 for s in steps) == len(LINE)  # draws, redeals counted


def test_a_line_from_where_a_game_ended_keeps_the_game_numbers() -> None:
    with translation.override("en"):
        steps = solution_steps(["draw", "draw", "AS>f"], [5, 5, 6], first=30, draw=3)
    assert steps == [
        Step("draw from the stock 2 times", 30, 31, 5),
        Step("the ace of spades to its foundation", 32, 32, 6),
    ]
    assert solution_steps([], []) == []
    with pytest.raises(ValueError, match="cards home after each move"):
        solution_steps(["draw"], [])


@pytest.mark.parametrize(
    ("lang", "draw", "count", "words"),
    [
        ("en", 1, 1, "draw from the stock"),
        ("en", 3, 1, "draw from the stock"),
        ("en", 1, 7, "draw 7 cards from the stock"),
        ("en", 3, 7, "draw from the stock 7 times"),
        ("fr", 1, 7, "tirer 7 cartes du talon"),
        ("fr", 3, 7, "tirer 7 fois du talon"),
        ("es", 1, 7, "robar 7 cartas del mazo"),
        ("es", 3, 7, "robar 7 veces del mazo"),
        ("de", 1, 7, "7 Karten vom Talon ziehen"),
        ("de", 3, 7, "7-mal vom Talon ziehen"),
    ],
)
def test_draws_words_say_cards_under_draw_one_and_times_under_draw_three(
    lang: str, draw: int, count: int, words: str
) -> None:
    with translation.override(lang):
        assert draws_words(count, draw=draw) == words
