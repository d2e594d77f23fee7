"""Pages name the preset a game or race was built from (``Deal.preset``), with what
differs from it, instead of the nearest preset or "A custom set of rules."."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.engine import PRESETS
from games.services.games import game_start
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient
from web.board import rules_label, rules_words

#: Rainbow dealt three at a time with unlimited redeals: the nearest preset is classic
#: (one option differs, build), not rainbow (two differ, draw and redeals).
RAINBOW_THREE = {**PRESETS["rainbow"].to_dict(), "draw": 3, "redeals": None}


def test_the_label_names_the_recorded_preset_not_the_nearest() -> None:
    with translation.override("en"):
        assert rules_label("custom", RAINBOW_THREE, "rainbow") == (
            "Rainbow (changed: Draw 3 cards at a time. Unlimited redeals.)"
        )
        # Without a recorded preset (an older deal) the nearest stands in, as before.
        assert rules_label("custom", RAINBOW_THREE) == (
            "Classic (changed: Build down regardless of suit.)"
        )
        assert rules_label("custom", RAINBOW_THREE, "custom") == rules_label(
            "custom", RAINBOW_THREE
        )
        assert rules_label("rainbow", PRESETS["rainbow"].to_dict(), "rainbow") == "Rainbow"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            [
                "Build down by rank regardless of colour; draw one card at a time; no redeal.",
                "Changes: Draw 3 cards at a time. Unlimited redeals.",
            ],
        ),
        (
            "fr",
            [
                "On descend par rang sans tenir compte de la couleur\u202f; une carte à la "
                "fois\u202f; pas de redonne.",
                "Modifications\u202f: Tirer 3 cartes à la fois. Redonnes illimitées.",
            ],
        ),
        (
            "es",
            [
                "Se construye en orden descendente sin importar el color; una carta cada vez; "
                "sin redistribución.",
                "Cambios: Robar 3 cartas cada vez. Redistribuciones ilimitadas.",
            ],
        ),
        (
            "de",
            [
                "Absteigend nach Rang ohne Rücksicht auf die Farbe bauen; eine Karte auf "
                "einmal; kein Neugeben.",
                "Änderungen: 3 Karten auf einmal ziehen. Unbegrenzt neu geben.",
            ],
        ),
    ],
)
def test_the_rules_in_words_start_from_the_recorded_preset(language: str, words: list[str]) -> None:
    with translation.override(language):
        assert rules_words("custom", RAINBOW_THREE, preset="rainbow") == words
    with translation.override("en"):
        # Without a preset: as before, every option in words.
        assert rules_words("custom", RAINBOW_THREE)[0] == "A custom set of rules."


@pytest.mark.django_db
def test_the_play_and_race_pages_name_the_preset(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="1", variant="draw-one", options={"redeals": 2})
    page = pages.get(f"/play/{game.id}/").content.decode()
    assert "Draw one (changed: 2 redeals.)" in page
    assert "Changes: 2 redeals." in page
    assert "A custom set of rules." not in page

    race = running_race(variant="rainbow", options={"draw": 3, "redeals": None})
    page = pages.get(f"/races/{race.id}/").content.decode()
    assert "Rainbow (changed: Draw 3 cards at a time. Unlimited redeals.)" in page
    assert "Changes: Draw 3 cards at a time. Unlimited redeals." in page
    assert "Classic (changed:" not in page
