"""A covered tableau card names the cards that move with it (web.board.run_words), in
every language; the board gives each covered card its run and a top card none."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import new_game
from web.board import board_context, run_words

RUN = ["JD", "TC", "9H", "8S"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "jack of diamonds to eight of spades, 4 cards"),
        ("fr", "valet de carreau \u2013 huit de pique, 4 cartes"),
        ("es", "jota de diamantes \u2013 ocho de picas, 4 cartas"),
        ("de", "Karo-Bube bis Pik-Acht, 4 Karten"),
    ],
)
def test_a_run_is_named_from_its_first_card_to_its_last(lang: str, words: str) -> None:
    with translation.override(lang):
        assert run_words(RUN) == words


def test_one_card_is_its_name_alone() -> None:
    with translation.override("en"):
        assert run_words(["8S"]) == "eight of spades"


@pytest.mark.parametrize("tableau_moves", ["top-or-whole", "whole-pile", "any-run"])
def test_the_board_gives_covered_cards_their_run(tableau_moves: str) -> None:
    """Only a card that moves with the cards on it is named with them (RULES.md 3.4): the
    bottom card of a pile, or any card under ``any-run``; the others were named as a run
    that could not move."""
    state = new_game("classic", seed="12345")
    for mv in ["6D>f", "9C>t2", *["draw"] * 10, "TC>t4", "8H>t2", "9H>t4", "draw", "8S>t4"]:
        state.play(mv)
    d = state.to_dict()
    # The fields board_context reads, as games.selectors.games.game_view gives them.
    view = {
        "reserve": {"cards": d["reserve"][-1:], "count": len(d["reserve"]), "face_down": 10},
        "foundations": d["foundations"],
        "tableau": d["tableau"],
        "waste": {"cards": d["waste"]},
        "stock": {"count": 0},
        "legal_moves": state.legal_moves(),
        "base_rank": "6",
    }
    with translation.override("en"):
        pile = board_context(view, {"tableau_moves": tableau_moves})["tableau"][3]["cards"]
    assert [c.code for c in pile] == RUN
    middle = (
        ["ten of clubs to eight of spades, 3 cards", "nine of hearts to eight of spades, 2 cards"]
        if tableau_moves == "any-run"
        else ["", ""]
    )
    assert [c.run for c in pile] == ["jack of diamonds to eight of spades, 4 cards", *middle, ""]
