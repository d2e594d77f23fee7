"""Option validation, presets and aliases (RULES.md 4)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import OPTION_HELP, OPTION_NAMES, PRESETS, Rules, RulesError, make_rules, new_game
from games.engine.rules import MAX_REDEALS, variant_name

CLASSIC = {
    "draw": 3,
    "redeals": None,
    "build": "alternate-colour",
    "tableau_moves": "top-or-whole",
    "autofill": True,
    "empty_pile": "any",
    "reserve_face_up": False,
    "base": "dealt",
    "tableau_wrap": "modulo",
}

PRESET_DIFFS: dict[str, dict[str, Any]] = {
    "classic": {},
    "draw-one": {"draw": 1},
    "superior": {"reserve_face_up": True, "autofill": False},
    "rainbow": {"build": "any-suit", "draw": 1, "redeals": 0},
    "storehouse": {"base": "2", "build": "same-suit", "draw": 1, "redeals": 2},
    "one-pass": {"redeals": 0},
}


def test_option_names_and_help() -> None:
    assert set(OPTION_NAMES) == set(CLASSIC)
    assert set(OPTION_HELP) == set(CLASSIC)


@pytest.mark.parametrize("preset", list(PRESET_DIFFS))
def test_preset_values(preset: str) -> None:
    assert make_rules(preset).to_dict() == {**CLASSIC, **PRESET_DIFFS[preset]}
    assert variant_name(make_rules(preset)) == preset


def test_presets_are_exactly_the_six() -> None:
    assert set(PRESETS) == set(PRESET_DIFFS)


@pytest.mark.parametrize("alias", ["strict", "acey", "acey-canfield"])
def test_one_pass_aliases(alias: str) -> None:
    assert make_rules(alias) == make_rules("one-pass")
    assert new_game(alias, seed="1").rules.redeals == 0


def test_unknown_variant() -> None:
    with pytest.raises(RulesError, match="unknown variant 'klondike': use one of classic, "):
        make_rules("klondike")


def test_unknown_option() -> None:
    with pytest.raises(
        RulesError, match=r"unknown option\(s\) 'colour', 'speed': options are draw"
    ):
        make_rules("classic", speed=1, colour="red")


GOOD_VALUES: list[tuple[str, Any, Any]] = [
    ("draw", 1, 1),
    ("draw", 3, 3),
    ("redeals", 0, 0),
    ("redeals", 5, 5),
    ("redeals", None, None),
    ("redeals", "unlimited", None),
    ("build", "any-suit", "any-suit"),
    ("build", "same-suit", "same-suit"),
    ("build", "alternate-colour", "alternate-colour"),
    ("tableau_moves", "whole-pile", "whole-pile"),
    ("tableau_moves", "any-run", "any-run"),
    ("autofill", False, False),
    ("empty_pile", "waste-only", "waste-only"),
    ("reserve_face_up", True, True),
    ("base", "dealt", "dealt"),
    ("base", "7", "7"),
    ("base", 7, "7"),
    ("base", "10", "T"),
    ("base", "k", "K"),
    ("tableau_wrap", "base-relative", "base-relative"),
]


@pytest.mark.parametrize(("option", "value", "stored"), GOOD_VALUES)
def test_good_option_values(option: str, value: Any, stored: Any) -> None:
    assert getattr(make_rules("classic", **{option: value}), option) == stored


BAD_VALUES: list[tuple[str, Any, str]] = [
    ("draw", 2, "use 1 or 3"),
    ("draw", "3", "use 1 or 3"),
    ("draw", True, "use 1 or 3"),
    ("redeals", -1, "use a whole number 0..1000"),
    ("redeals", 1.5, "use a whole number 0..1000"),
    ("redeals", "two", "use a whole number 0..1000"),
    ("build", "down", "use one of alternate-colour, any-suit, same-suit"),
    ("tableau_moves", "top", "use one of top-or-whole, whole-pile, any-run"),
    ("autofill", "yes", "use true or false"),
    ("autofill", 1, "use true or false"),
    ("empty_pile", "kings", "use one of any, waste-only"),
    ("reserve_face_up", None, "use true or false"),
    ("base", "1", "use 'dealt' or a rank"),
    ("base", "X", "use 'dealt' or a rank"),
    ("base", None, "use 'dealt' or a rank"),
    ("tableau_wrap", "none", "use one of modulo, base-relative"),
    ("redeals", 1001, "use a whole number 0..1000"),
    ("redeals", 2**31, "use a whole number 0..1000"),
]


@pytest.mark.parametrize(("option", "value", "why"), BAD_VALUES)
def test_bad_option_values(option: str, value: Any, why: str) -> None:
    with pytest.raises(RulesError) as exc:
        make_rules("classic", **{option: value})
    assert f"option {option!r}" in str(exc.value)
    assert why in str(exc.value)


def test_redeals_bound_is_inclusive() -> None:
    assert make_rules("classic", redeals=MAX_REDEALS).redeals == MAX_REDEALS == 1000


def test_rules_round_trip_and_overrides() -> None:
    r = make_rules("storehouse", draw=3, redeals=None)
    assert Rules.from_dict(r.to_dict()) == r
    assert variant_name(r) is None
    assert r.fixed_base == 1
    assert make_rules("classic").fixed_base is None
    state = new_game(r, seed="9", draw=1)
    assert state.rules.draw == 1
    assert state.rules.base == "2"


def test_rules_are_immutable() -> None:
    r = make_rules("classic")
    with pytest.raises(AttributeError):
        r.draw = 1  # type: ignore[misc]


def test_direct_construction_validates() -> None:
    with pytest.raises(RulesError, match="option 'draw'"):
        Rules(draw=4)
