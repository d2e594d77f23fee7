"""On a desktop (1,280 px) the board's message has a place of its own beside the counts.

While it showed, the message band lay over the top of the board: over the areas'
headings ("Reserve", "Stock and waste", "Foundations") and the top of the Draw button.
Now it sits beside the counts, in a cell that exists whether or not a message shows,
as high as the longest refusal of the language needs (tests/browser/
test_web_head_no_band.py), so it covers no heading
and no control, and still no card moves when it comes or goes (in Chromium).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in
from web.board import card_object, card_subject
from web.refusals import REFUSAL_TEXT

DESKTOP = {"width": 1280, "height": 900}

#: What the message must leave alone: the areas' headings and the board's controls
#: (CSS selectors inside #board), besides the counts.
UNCOVERED = {
    "Reserve heading": "#reserve-h",
    "Stock and waste heading": "#stock-h",
    "Foundations heading": "#found-h",
    "Tableau heading": "#tab-h",
    "reserve top card": ".reserve button[data-card]",
    "Draw button": "[data-action='stock']",
    "waste": ".fan.waste",
    "foundations": ".foundations .foundation",
    "tableau piles": ".pilebtn",
    "counts": ".stats",
}

#: The refusals a move on the board may get (not the practice form's or the lobby's).
BOARD_REFUSALS = [
    "already_home",
    "not_available",
    "already_there",
    "not_top",
    "part_of_pile",
    "whole_piles_only",
    "foundation_start",
    "foundation_next_wrap",
    "build_wrap",
    "build_base",
    "build_base_wrap",
    "waste_only",
    "reserve_fills",
]


def _longest_refusal(language: str) -> str:
    """The longest board refusal in ``language``, as the board says it ("Refused: " and
    the sentence), with long card names."""
    with translation.override(language):
        facts = {
            "card": card_subject("QD"),
            "top": card_object("QH"),
            "need": card_object("KS"),
            "pile": 4,
            "rank": card_object("QC"),
        }
        texts = [str(REFUSAL_TEXT[key]) % facts for key in BOARD_REFUSALS]
        return translation.gettext("Refused:") + " " + max(texts, key=len)


def _boxes(page: Any) -> dict[str, list[dict[str, float]]]:
    """The bounding boxes of every element of :data:`UNCOVERED`, by name."""
    out = {}
    for name, selector in UNCOVERED.items():
        items = page.locator(f"#board {selector}")
        assert items.count() > 0, name
        out[name] = [items.nth(i).bounding_box() for i in range(items.count())]
    return out


def _cards(page: Any) -> list[dict[str, float]]:
    """Where every card of the reserve, the foundations and the tableau is."""
    cards = page.locator("#board .reserve .card, #board .foundation, #board .tableau .card")
    return [cards.nth(i).bounding_box() for i in range(cards.count())]


def _overlap(one: dict[str, float], two: dict[str, float]) -> bool:
    """Whether two boxes overlap (a shared edge is none)."""
    return bool(
        one["y"] < two["y"] + two["height"] - 0.5
        and two["y"] < one["y"] + one["height"] - 0.5
        and one["x"] < two["x"] + two["width"] - 0.5
        and two["x"] < one["x"] + one["width"] - 0.5
    )


def _covers_nothing(page: Any) -> None:
    band = page.locator("#board-message").bounding_box()
    assert band is not None
    assert band["height"] > 10, band  # shown
    for name, boxes in _boxes(page).items():
        for box in boxes:
            assert not _overlap(band, box), (name, band, box)


@pytest.mark.parametrize(
    ("locale", "language"), [("en-GB", "en"), ("fr-FR", "fr"), ("de-DE", "de"), ("es-ES", "es")]
)
def test_the_message_covers_no_heading_or_control_and_moves_no_card(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str, language: str
) -> None:
    player = User.objects.create_user("dee", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(viewport=DESKTOP, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "dee")
        page.goto(f"{live_server.url}/play/{game.id}/")
        message = page.locator("#board-message")
        expect(message).to_be_empty()
        before = _cards(page)
        parts = _boxes(page)
        screenshot(page, f"band-place-none-{locale}", full_page=False)
        # A refusal: the ace of clubs on the nine of clubs.
        page.locator('#board button[data-card="AC"]').click()
        page.locator('#board [data-dest="t4"]').click()
        expect(message).to_have_class(re.compile(r"\berror\b"))
        screenshot(page, f"band-place-refused-{locale}", full_page=False)
        _covers_nothing(page)
        assert _cards(page) == before
        assert _boxes(page) == parts
        # The longest refusal a move can get in this language.
        longest = _longest_refusal(language)
        page.evaluate(
            "(t) => { const m = document.getElementById('board-message'); "
            "m.className = 'message error'; m.textContent = t; }",
            longest,
        )
        expect(message).to_have_text(longest)
        screenshot(page, f"band-place-longest-{locale}", full_page=False)
        _covers_nothing(page)
        assert _cards(page) == before
        assert _boxes(page) == parts
        # A draw's words (a real move: the waste changes, no other card moves).
        page.keyboard.press("Escape")
        expect(message).to_be_empty()
        page.locator('#board [data-action="stock"]').click()
        page.wait_for_selector('#board[data-move-number="1"]')
        expect(message).not_to_be_empty()
        screenshot(page, f"band-place-draw-{locale}", full_page=False)
        _covers_nothing(page)
        assert _cards(page) == before
        page.keyboard.press("Escape")
        expect(message).to_be_empty()
        assert _cards(page) == before
    finally:
        ctx.close()
