"""The board's reviewed words at 390 px: French says "défausse" for the waste (was
"rebut", a word none of the French rule documents use) and "posées" for cards home
(was "rentrées"), Spanish says "Tableau" (was "Tablero", the word for the board) and
"¡Ha ganado!", German "Gewonnen: Alle ...". The longest of them (the stock button once
the stock is empty, the waste count, the win message) stay inside a phone's width:
the page never scrolls sideways and each of them ends inside the viewport."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game
from games.services.games import game_start, move_play
from tests.browser.conftest import screenshot
from tests.browser.test_web_last_word import _won
from tests.browser.web_helpers import PASSWORD, log_in

WIDTH = 390

#: locale -> (stock heading, waste count of 34 cards, redeal button, tableau heading)
EMPTY_STOCK = {
    "fr-FR": (
        "Talon et défausse",
        "Défausse\u202f: 34 cartes",
        "Redonner (retourner la défausse)",
        "Tableau",
    ),
    "es-ES": (
        "Mazo y descarte",
        "Descarte: 34 cartas",
        "Redistribuir (dar la vuelta al descarte)",
        "Tableau",
    ),
    "de-DE": ("Talon und Abwurf", "Abwurf: 34 Karten", "Neu geben (Abwurf umdrehen)", "Tableau"),
}

#: locale -> the win message's opening words
WON = {
    "fr-FR": "Gagné\u202f! Les 52 cartes sont posées",
    "es-ES": "¡Ha ganado! Las 52 cartas están en las fundaciones",
    "de-DE": "Gewonnen: Alle 52 Karten liegen auf den Ablagestapeln",
}


def _drawn_out(player: User) -> Game:
    """A classic practice game whose 34-card stock was drawn onto the waste, three at a
    time (12 draws), so the stock button offers Redeal."""
    game = game_start(player=player, variant="classic", seed="7")
    for _ in range(12):
        move_play(game_id=game.id, player=player, move="draw")
    game.refresh_from_db()
    return game


def _fits(page: Any, selector: str) -> None:
    """``selector``'s box ends inside the 390 px viewport, and nothing scrolls sideways."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= WIDTH, (selector, box)
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= WIDTH, scroll


@pytest.mark.parametrize("locale", sorted(EMPTY_STOCK))
def test_the_redeal_button_and_waste_words_fit_at_390_px(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str
) -> None:
    player = User.objects.create_user("ines", password=PASSWORD)
    game = _drawn_out(player)
    heading, waste, redeal, tableau = EMPTY_STOCK[locale]
    ctx = chromium.new_context(viewport={"width": WIDTH, "height": 844}, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "ines")
        page.goto(f"{live_server.url}/play/{game.id}/")
        expect(page.locator("#stock-h")).to_have_text(heading)
        expect(page.locator("#board .stock .count")).to_have_text(waste)
        expect(page.locator('#board [data-action="stock"]')).to_have_text(redeal)
        expect(page.locator("#tab-h")).to_have_text(tableau)
        screenshot(page, f"board-redeal-{locale}-{WIDTH}", full_page=False)
        _fits(page, '#board [data-action="stock"]')
        _fits(page, "#board .stock .count")
    finally:
        ctx.close()


@pytest.mark.parametrize("locale", sorted(WON))
def test_the_win_message_fits_at_390_px(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str
) -> None:
    player = User.objects.create_user("ines", password=PASSWORD)
    game = _won(player)
    ctx = chromium.new_context(viewport={"width": WIDTH, "height": 844}, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "ines")
        page.goto(f"{live_server.url}/play/{game.id}/")
        message = page.get_by_text(WON[locale])
        expect(message).to_be_visible()
        screenshot(page, f"board-won-{locale}-{WIDTH}", full_page=False)
        box = message.bounding_box()
        assert box is not None
        assert box["x"] >= 0, box
        assert box["x"] + box["width"] <= WIDTH, box
        assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    finally:
        ctx.close()
