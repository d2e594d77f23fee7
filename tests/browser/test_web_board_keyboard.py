"""The board by keyboard and screen reader, in Chromium: one Tab stop per pile.

Every card of a tableau pile was a Tab stop of its own (some 19 presses of Tab per
action with a long pile). The board now follows the WAI-ARIA Authoring Practices'
roving tabindex: Tab goes from pile to pile (the reserve, the stock, the waste, each
foundation, each tableau pile), Up and Down (Home, End) go among a pile's cards, Left and
Right to the pile before or after, Enter and Space press the card or pile in focus as
before; the shortcut keys still work. A covered card selected (a whole pile) was named
by its bottom card alone; the selection now names the run, in every language.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game
from games.services.games import game_start, move_play
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations

# Seed 12345 (classic).  After these moves pile 2 is TD 9C 8H, pile 4 is JD TC 9H and
# the waste's top card the eight of spades, which goes on pile 4 (RUN_LAST makes it
# JD TC 9H 8S); the reserve's top card is the five of hearts.
SEED = "12345"
MOVES = ["6D>f", "9C>t2", *["draw"] * 10, "TC>t4", "8H>t2", "9H>t4", "draw"]
RUN_LAST = "8S>t4"

#: The Tab stops of the board, in order, by data-key (one per pile).
STOPS = ["reserve-5H", "stock", "waste-8S", "f-C", "f-D", "f-H", "f-S"]

_KEY = "() => document.activeElement && document.activeElement.dataset.key || null"


def _game(name: str, moves: list[str]) -> Game:
    player = User.objects.create_user(name, password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    for n, mv in enumerate(moves):
        move_play(game_id=game.id, player=player, move=mv, expected_move_number=n)
    return game


def _tab_stops(page: Any) -> list[str]:
    """The board's Tab stops from the reserve's top card on, until focus leaves it."""
    page.locator('#board [data-key="reserve-5H"]').focus()
    seen = [page.evaluate(_KEY)]
    for _ in range(40):
        page.keyboard.press("Tab")
        if not page.evaluate(
            "() => document.getElementById('board').contains(document.activeElement)"
        ):
            break
        seen.append(page.evaluate(_KEY))
    return seen


@pytest.mark.django_db(transaction=True)
def test_tab_goes_pile_to_pile_and_arrows_go_among_the_cards(live_server: Any, page: Any) -> None:
    game = _game("rover", MOVES)
    log_in(page, live_server.url, "rover")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_selector("#board[data-move-url]")
    assert _tab_stops(page) == [*STOPS, "t1-5S", "t2-8H", "t3-AC", "t4-9H"]
    # Each card and pile button keeps its name for a screen reader (a covered card says
    # how many cards lie on it: test_web_board_names.py), and only face-up cards are
    # buttons: the reserve's face-down cards are never reached.
    names = page.locator("#board button[data-card]").evaluate_all(
        "bs => bs.map(b => [b.dataset.card, b.getAttribute('aria-label')])"
    )
    assert ["TD", "ten of diamonds, under 2 cards"] in names
    assert (
        page.locator("#board .reserve .back[tabindex], #board .reserve span[tabindex]").count() == 0
    )

    # The waste's eight of spades onto pile 4 by the keyboard alone.
    page.locator('#board [data-key="waste-8S"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('#board [data-key="waste-8S"]')).to_have_attribute("aria-pressed", "true")
    for _ in range(5):  # f-C, f-D, f-H, f-S, then pile 1
        page.keyboard.press("ArrowRight")
    assert page.evaluate(_KEY) == "t1-5S"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.evaluate(_KEY) == "t4-9H"
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#board[data-move-number="{len(MOVES) + 1}"]')
    pile = page.locator('#board [data-pile="t4"] button[data-card]')
    expect(pile).to_have_count(4)

    # Up and Down among pile 4's cards, then its button; Home and End its ends.
    page.locator('#board [data-key="t4-8S"]').focus()
    page.keyboard.press("ArrowUp")
    focused = page.locator("#board :focus")
    expect(focused).to_have_attribute("data-key", "t4-9H")
    expect(focused).to_have_accessible_name("nine of hearts, under 1 card")
    for key in ("t4-TC", "t4-JD", "pile-t4", "pile-t4"):
        page.keyboard.press("ArrowUp")
        assert page.evaluate(_KEY) == key
    page.keyboard.press("ArrowDown")
    assert page.evaluate(_KEY) == "t4-JD"
    page.keyboard.press("End")
    assert page.evaluate(_KEY) == "t4-8S"
    page.keyboard.press("Home")
    assert page.evaluate(_KEY) == "pile-t4"
    page.keyboard.press("ArrowDown")
    # The pile keeps its place: Tab away and back comes to the jack of diamonds.
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(_KEY) == "t3-AC"
    page.keyboard.press("Tab")
    assert page.evaluate(_KEY) == "t4-JD"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(_KEY) == "t3-AC"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(_KEY) == "t4-JD"
    # The jack of diamonds, covered, selected with Space: the run is named.
    page.keyboard.press(" ")
    expect(page.locator('#board [data-key="t4-JD"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board-message")).to_have_text(
        "Jack of diamonds to eight of spades, 4 cards — now choose a destination."
    )
    page.keyboard.press("Escape")
    # The shortcut keys still work, and the card they focus is its pile's Tab stop.
    page.keyboard.press("2")
    expect(page.locator('#board [data-key="t2-8H"]')).to_be_focused()
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Digit2")
    expect(page.locator('#board [data-key="t2-TD"]')).to_be_focused()
    expect(page.locator('#board [data-key="t2-TD"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate(_KEY) == "t2-TD"
    page.keyboard.press("d")
    page.wait_for_selector(f'#board[data-move-number="{len(MOVES) + 2}"]')
    assert serious_violations(page) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en-GB", "Jack of diamonds to eight of spades, 4 cards — now choose a destination."),
        (
            "fr-FR",
            "Valet de carreau \u2013 huit de pique, 4 cartes — choisissez maintenant une "
            "destination.",
        ),
        ("es-ES", "Jota de diamantes \u2013 ocho de picas, 4 cartas — ahora elija un destino."),
        ("de-DE", "Karo-Bube bis Pik-Acht, 4 Karten — wählen Sie jetzt ein Ziel."),
    ],
)
def test_a_whole_pile_selected_is_named_as_its_run(
    live_server: Any, chromium: Any, locale: str, said: str
) -> None:
    game = _game("runa", [*MOVES, RUN_LAST])
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    try:
        page = context.new_page()
        log_in(page, live_server.url, "runa")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.wait_for_selector("#board[data-move-url]")
        page.keyboard.press("Shift+Digit4")  # the whole pile: its bottom card
        jack = page.locator('#board [data-key="t4-JD"]')
        expect(jack).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#board-message")).to_have_text(said)
        # Its own name stays the card's, with the cards on it counted, for a screen
        # reader in focus on it.
        name = {
            "en-GB": "jack of diamonds, under 3 cards",
            "fr-FR": "valet de carreau, sous 3 cartes",
        }.get(locale)
        if name:
            expect(jack).to_have_accessible_name(name)
        # A top card is named alone.
        page.keyboard.press("Escape")
        page.keyboard.press("4")
        expect(page.locator("#board-message")).not_to_contain_text("4")
    finally:
        context.close()
