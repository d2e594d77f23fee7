"""The rules of a game in words: the preset's sentence, then only what it does not say
(the results page read "draw three cards at a time, unlimited redeals, ... Draw 3 cards
at a time. Unlimited redeals. ...")."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import PRESETS
from web.board import PRESET_STATES, pool_words, rules_label, rules_text, rules_words


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        (
            "classic",
            [
                "Classic Canfield: draw three cards at a time, unlimited redeals, build down "
                "in alternate colours."
            ],
        ),
        (
            "draw-one",
            [
                "Classic Canfield, drawing one card at a time.",
                "Unlimited redeals.",
                "Build down in alternate colours.",
            ],
        ),
        (
            "superior",
            [
                "The whole reserve is face up; empty tableau piles are not filled "
                "automatically: any available card may fill a space.",
                "Draw 3 cards at a time.",
                "Unlimited redeals.",
                "Build down in alternate colours.",
            ],
        ),
        (
            "rainbow",
            ["Build down by rank regardless of colour; draw one card at a time; no redeal."],
        ),
        (
            "storehouse",
            [
                "The four twos start the foundations; build down in suit; draw one card at a "
                "time; two redeals."
            ],
        ),
        (
            "one-pass",
            [
                "Classic Canfield with no redeal (strict or Acey Canfield).",
                "Draw 3 cards at a time.",
                "Build down in alternate colours.",
            ],
        ),
    ],
)
def test_a_preset_is_said_once(variant: str, words: list[str]) -> None:
    with translation.override("en"):
        assert rules_words(variant, PRESETS[variant].to_dict()) == words


def test_custom_rules_say_every_option() -> None:
    options = {**PRESETS["classic"].to_dict(), "draw": 1, "redeals": 2, "base": "5"}
    with translation.override("en"):
        assert rules_words("custom", options) == [
            "A custom set of rules.",
            "Draw 1 card at a time.",
            "2 redeals.",
            "Build down in alternate colours.",
            "The foundations start with the five.",
        ]
        # The pools still compare every phrase: a preset's own options change nothing.
        assert pool_words("storehouse", PRESETS["storehouse"].to_dict())["changes"] == []


def test_every_preset_says_what_it_states() -> None:
    assert set(PRESET_STATES) == set(PRESETS)


def test_other_rules_are_named_by_the_nearest_preset() -> None:
    """A draw-one game with two redeals was titled only "Custom rules"."""
    draw_one = PRESETS["draw-one"].to_dict()
    with translation.override("en"):
        assert rules_label("draw-one", draw_one) == "Draw one"
        assert rules_label("custom", {**draw_one, "redeals": 2}) == (
            "Draw one (changed: 2 redeals.)"
        )
        classic = PRESETS["classic"].to_dict()
        assert rules_label("custom", {**classic, "base": "5"}) == (
            "Classic (changed: The foundations start with the five.)"
        )
    with translation.override("fr"):
        assert rules_label("custom", {**draw_one, "redeals": 2}).startswith("Une carte (")


def test_the_solver_comparison_options_have_words() -> None:
    """``tableau_moves``, ``empty_pile`` and ``tableau_wrap`` were shown as
    ``option: value`` in English on every page (a Spanish leaderboard read "tableau_wrap:
    base-relative")."""
    strict = {
        **PRESETS["classic"].to_dict(),
        "tableau_moves": "whole-pile",
        "empty_pile": "waste-only",
        "tableau_wrap": "base-relative",
    }
    with translation.override("en"):
        assert rules_words("custom", strict)[-3:] == [
            "Only whole piles move between tableau piles.",
            "Once the reserve is empty, only the waste may fill an empty pile.",
            "No building across the base rank.",
        ]
        assert rules_label("custom", {**strict, "tableau_moves": "any-run"}) == (
            "Classic (changed: Any card of a tableau pile may move, with the cards on it. "
            "Once the reserve is empty, only the waste may fill an empty pile. "
            "No building across the base rank.)"
        )
    with translation.override("es"):
        assert "tableau_wrap" not in rules_label("custom", strict)
        assert ":" not in pool_words("classic", strict)["changes"][-1]


def test_the_rules_text_follows_the_game_options() -> None:
    """A new user read, on a rainbow game (no redeal, building regardless of suit), that
    redeal turns the waste over and that a card goes on one "of the other colour in the
    classic game"; superior (no auto-fill) read that the reserve fills an empty pile."""

    def text(variant: str) -> str:
        options = PRESETS[variant].to_dict()
        with translation.override("en"):
            return " ".join(rules_text(options))

    rainbow, classic, superior = text("rainbow"), text("classic"), text("superior")
    assert "There is no redeal: once the stock is empty" in rainbow
    assert "redeal turns the waste over" not in rainbow
    assert "redeal turns the waste over" in classic
    assert "other colour" not in classic + rainbow + superior
    assert "An empty tableau pile is filled from the reserve at once." in classic
    assert "An empty tableau pile stays empty until you put a card there." in superior
    assert "filled from the reserve" not in superior
    # Whole piles only: the option's own phrase says how piles move, not this text.
    whole = {**PRESETS["classic"].to_dict(), "tableau_moves": "whole-pile"}
    assert "Move the top card of a pile" not in " ".join(rules_text(whole))
    assert "Move the top card of a pile, or a whole pile at once." in classic
