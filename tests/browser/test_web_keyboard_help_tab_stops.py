"""The play page's key list says what Shift+Tab does and that the message's close button
is a Tab stop, in every language, and both are true, in Chromium.

The list gave Tab alone ("go from pile to pile"): Shift+Tab, which goes back, was not
listed, nor the close button (a multiplication sign) of the board's message, a Tab stop
before the reserve while a message shows. The Left and Right arrows follow the same order
as Tab (from pile 1 Left goes to the spades foundation): the list says so.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.web_helpers import PASSWORD, log_in

#: The rows the list must have, by language: (keys as shown, words of its description).
ROWS = {
    "en-GB": [
        ("Tab", "its close button (\u00d7) comes before the reserve"),
        ("Shift+Tab", "go back from pile to pile"),
        ("← →", "in the order of Tab (← on pile 1 goes to the spades foundation)"),
    ],
    "fr-FR": [
        ("Tab", "son bouton de fermeture (\u00d7) vient avant la réserve"),
        ("Maj+Tab", "revenir de pile en pile"),
        ("← →", "dans l\u2019ordre de Tab (← sur la colonne 1 mène à la fondation pique)"),
    ],
    "es-ES": [
        ("Tab", "su botón de cierre (\u00d7) va antes de la reserva"),
        ("Mayús+Tab", "volver de montón en montón"),
        ("← →", "en el orden de Tab (← en la columna 1 lleva a la fundación de picas)"),
    ],
    "de-DE": [
        ("Tab", "kommt ihre Schließen-Schaltfläche (\u00d7) vor der Reserve"),
        ("Umschalt+Tab", "von Stapel zu Stapel zurückgehen"),
        ("← →", "(← auf Stapel 1 führt zum Ablagestapel Pik)"),
    ],
}

_KEY = "() => document.activeElement && document.activeElement.dataset.key || null"
_ACTION = "() => document.activeElement && document.activeElement.dataset.action || null"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("locale", list(ROWS))
def test_the_key_list_gives_shift_tab_and_the_close_button(
    live_server: Any, chromium: Any, locale: str
) -> None:
    player = User.objects.create_user("hal", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    try:
        page = context.new_page()
        log_in(page, live_server.url, "hal")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.locator("#shortcuts summary").click()
        rows = page.locator("#shortcuts table tbody tr").evaluate_all(
            """trs => trs.map(tr => [
                 tr.querySelector('th').textContent.replace(/\\s+/g, ' ').trim(),
                 tr.querySelector('td').textContent.replace(/\\s+/g, ' ').trim()])"""
        )
        for keys, words in ROWS[locale]:
            assert any(th == keys and words in td for th, td in rows), (keys, words, rows)
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_what_the_key_list_says_of_tab_is_so(live_server: Any, page: Any) -> None:
    player = User.objects.create_user("tab", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    log_in(page, live_server.url, "tab")
    page.goto(f"{live_server.url}/play/{game.id}/")
    reserve = page.locator("#board .area.reserve button[data-card]")
    # No message: Shift+Tab from the reserve's top card leaves the board's piles.
    reserve.focus()
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(_ACTION) != "dismiss-message"
    # A message shows ("Choose a card first."): its close button is the stop before the
    # reserve, both ways.
    page.keyboard.press("h")
    expect(page.locator("#board-message")).to_have_text("Choose a card first.")
    reserve.focus()
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(_ACTION) == "dismiss-message"
    page.keyboard.press("Tab")
    expect(reserve).to_be_focused()
    # Shift+Tab goes back pile by pile: from pile 1's top card to the spades
    # foundation, as Left does.
    top = page.locator('#board [data-pile="t1"] button[data-card]').last
    top.focus()
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(_KEY) == "f-S"
    top.focus()
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(_KEY) == "f-S"
