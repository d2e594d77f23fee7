"""On a phone (360 and 390 px) the board's live message takes the counts' place.

A new user found the message band shown after nearly every action (a draw's or a
move's words for 4 s, a refusal for 10 s) lying over the reserve's top card and the
Draw button: "Abgelehnt: Die Kreuz-Sechs passt nicht auf die Herz-Neun, nur auf eine
rote Sieben." covered the whole reserve and stock.  The message now shows in the
counts' box (cards home, score, moves, redeals, status), in its place while it shows:
it covers no card and no control, the head keeps its height, and no card moves when it
comes or goes; the longest board refusal of each language fits there.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.conftest import screenshot
from tests.browser.test_web_band_place import _longest_refusal, _overlap
from tests.browser.web_helpers import PASSWORD, log_in

#: What the message must leave alone on a phone (CSS selectors inside #board).
UNCOVERED = {
    "reserve top card": ".reserve button[data-card]",
    "Draw button": "[data-action='stock']",
    "waste": ".fan.waste",
    "foundations": ".foundations .foundation",
    "pile buttons": ".pilebtn",
    "Reserve heading": "#reserve-h",
    "Stock and waste heading": "#stock-h",
}


def _boxes(page: Any) -> dict[str, list[dict[str, float]]]:
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


def _shown_in_the_counts_place(page: Any, head: dict[str, float], full: str) -> None:
    """The message is shown inside the head's box (the counts' place), over no card or
    control, the head the same size, and its words whole (not cut) on the screen."""
    message = page.locator("#board-message")
    band = message.bounding_box()
    assert band is not None
    assert band["height"] > 10, band
    now = page.locator("#board .board-head").bounding_box()
    assert now == head, (now, head)
    assert band["y"] >= head["y"] - 0.5, (band, head)
    assert band["y"] + band["height"] <= head["y"] + head["height"] + 0.5, (band, head)
    for name, boxes in _boxes(page).items():
        for box in boxes:
            assert not _overlap(band, box), (name, band, box)
    # Every word on the screen: the text's height fits the box.
    assert message.evaluate("m => m.scrollHeight <= m.clientHeight + 1"), full
    expect(message).to_have_text(full)


@pytest.mark.parametrize(
    ("locale", "language"), [("en-GB", "en"), ("fr-FR", "fr"), ("de-DE", "de")]
)
@pytest.mark.parametrize("width", [360, 390])
def test_the_phone_message_covers_no_card_or_control_and_moves_nothing(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str, language: str, width: int
) -> None:
    player = User.objects.create_user("pho", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(
        viewport={"width": width, "height": 780}, has_touch=True, is_mobile=True, locale=locale
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "pho")
        page.goto(f"{live_server.url}/play/{game.id}/")
        message = page.locator("#board-message")
        expect(message).to_be_empty()
        head = page.locator("#board .board-head").bounding_box()
        before = _cards(page)
        parts = _boxes(page)
        # A real refusal (the ace of clubs on the nine of clubs): the message shows it
        # and the live region has it whole.
        page.locator('#board button[data-card="AC"]').tap()
        page.locator('#board [data-dest="t4"]').tap()
        expect(message).to_have_class(re.compile(r"\berror\b"))
        page.evaluate("window.scrollTo(0, 0)")  # the tap may have scrolled to the pile
        refusal = message.inner_text().strip()
        expect(page.locator("#announcer")).to_have_text(refusal)
        assert message.get_attribute("aria-live") is None  # #announcer alone says it
        _shown_in_the_counts_place(page, head, refusal)
        assert _cards(page) == before
        assert _boxes(page) == parts
        # The longest refusal a move can get in this language.
        longest = _longest_refusal(language)
        page.evaluate(
            "(t) => { const m = document.getElementById('board-message'); "
            "m.className = 'message error'; m.textContent = t; }",
            longest,
        )
        screenshot(page, f"phone-message-longest-{width}-{locale}", full_page=False)
        _shown_in_the_counts_place(page, head, longest)
        assert _cards(page) == before
        assert _boxes(page) == parts
        # A draw's words (a real move: only the waste changes).
        page.keyboard.press("Escape")
        expect(message).to_be_empty()
        page.locator('#board [data-action="stock"]').tap()
        page.wait_for_selector('#board[data-move-number="1"]')
        expect(message).not_to_be_empty()
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"phone-message-draw-{width}-{locale}", full_page=False)
        # A move's words are out of sight on a phone (the counts keep their place:
        # test_web_phone_counts_after_moves.py); screen readers hear them.
        expect(message).to_have_class(re.compile(r"\bplayed\b"))
        drawn_box = message.bounding_box()
        assert drawn_box is not None
        assert drawn_box["height"] <= 1, drawn_box
        expect(page.locator("#announcer")).to_have_text(message.text_content().strip())
        assert page.locator("#board .board-head").bounding_box() == head
        assert _cards(page) == before
        drawn = _boxes(page)
        page.keyboard.press("Escape")
        expect(message).to_be_empty()
        assert _cards(page) == before
        assert _boxes(page) == drawn
        assert page.locator("#board .board-head").bounding_box() == head
    finally:
        ctx.close()
