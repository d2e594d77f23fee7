"""In Chromium: the board's head keeps no more room under its counts than a message needs.

A new user's pass found an empty band under the counts of every board: about 45 px at
1,280 px (the message's cell beside the counts was three lines of 1 rem high, the counts
two lines), and on a phone (390 px) a 25 px band, or, while a one-line move message had
the counts' place, a blank strip above the Reserve heading (the head kept four lines of
1.2 for the longest refusal and more padding).  The room is now what the longest board
refusal of the language (or an ended game's last word) needs at that width, measured
here, and little more: the desktop's message is .9 rem at 1.3 lines in a cell of four
or (from 900 px) three of its lines, the phone's head four lines of .78 rem at 1.15 with
the counts in its middle.  The earlier guarantees stand (tests/browser/
test_web_band_place.py, test_web_phone_message_place.py, test_web_board_head.py,
test_web_phone_band_taps.py): the longest refusal of each language is whole on the
screen, covers no heading, and no card moves when it comes or goes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.conftest import screenshot
from tests.browser.test_web_band_place import _longest_refusal
from tests.browser.web_helpers import PASSWORD, log_in

#: The most room (px) between the counts' bottom edge and the Reserve heading's top
#: edge, by viewport width and language.  At 1,280 px the head's .5 rem margin (8 px)
#: and 18 px more: French and German's longest refusal takes three lines of the cell
#: where the counts take two, and in English a blocked game's last word does (Undo
#: must move no card, tests/browser/test_web_phone_band_taps.py); it was 44 px.  On a
#: phone the head's 12 px beyond two lines of counts are split above and below them
#: (it was 25 px).
BOUND = {
    (1280, "en"): 28,
    (1280, "fr"): 28,
    (1280, "de"): 28,
    (390, "en"): 14,
    (390, "fr"): 14,
    (390, "de"): 14,
}

#: A board's card boxes and headings: none may move when a message comes or goes.
STILL = (
    "#board .reserve .card, #board .foundation, #board .tableau .card, #board .fan.waste, "
    "#board [data-action='stock'], #board .pilebtn, #board h2"
)


def _gap(page: Any) -> float:
    """Pixels between the bottom edge of the board's counts and the Reserve heading."""
    return float(
        page.evaluate(
            """() => document.getElementById('reserve-h').getBoundingClientRect().top
                 - document.querySelector('#board .stats').getBoundingClientRect().bottom"""
        )
    )


def _still(page: Any) -> list[dict[str, float]]:
    items = page.locator(STILL)
    return [items.nth(i).bounding_box() for i in range(items.count())]


def _show(page: Any, text: str) -> None:
    """Put ``text`` in the board's message as a refusal (as app.js shows one)."""
    page.evaluate(
        "(t) => { const m = document.getElementById('board-message'); "
        "m.className = 'message error'; m.textContent = t; }",
        text,
    )


def _context(chromium: Any, width: int, locale: str) -> Any:
    phone = width < 768
    return chromium.new_context(
        viewport={"width": width, "height": 900}, has_touch=phone, is_mobile=phone, locale=locale
    )


@pytest.mark.parametrize(("width", "language"), list(BOUND))
def test_no_empty_band_under_the_counts_with_or_without_a_message(
    live_server: Any, chromium: Any, transactional_db: Any, width: int, language: str
) -> None:
    locale = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE"}[language]
    player = User.objects.create_user("gap", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = _context(chromium, width, locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "gap")
        page.goto(f"{live_server.url}/play/{game.id}/")
        message = page.locator("#board-message")
        expect(message).to_be_empty()
        screenshot(page, f"head-no-band-{width}-{language}", full_page=False)
        bound = BOUND[(width, language)]
        assert 0 <= _gap(page) <= bound, _gap(page)
        before = _still(page)
        # A real refusal (the ace of clubs on the nine of clubs).
        card = page.locator('#board button[data-card="AC"]')
        pile = page.locator('#board [data-dest="t4"]')
        if width < 768:
            card.tap()
            pile.tap()
        else:
            card.click()
            pile.click()
        expect(message).to_have_class(re.compile(r"\berror\b"))
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"head-no-band-refused-{width}-{language}", full_page=False)
        assert 0 <= _gap(page) <= bound, _gap(page)
        band = message.bounding_box()
        reserve = page.locator("#reserve-h").bounding_box()
        assert band is not None
        assert reserve is not None
        # The message ends above the Reserve heading; on a phone, where it has the
        # counts' place (the head's whole box), no further above it than the counts do.
        assert band["y"] + band["height"] <= reserve["y"] + 0.5, (band, reserve)
        if width < 768:
            assert reserve["y"] - (band["y"] + band["height"]) <= bound, (band, reserve)
        assert _still(page) == before
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("locale", "language"), [("en-GB", "en"), ("fr-FR", "fr"), ("es-ES", "es"), ("de-DE", "de")]
)
def test_the_longest_refusal_fits_and_moves_no_card_at_every_width(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str, language: str
) -> None:
    """From 360 to 1,280 px (each step where the head's room changes), the longest board
    refusal of the language is whole on the screen above the Reserve heading, and no card
    or heading moves when it comes or goes."""
    player = User.objects.create_user("lon", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    longest = _longest_refusal(language)
    for width in (360, 390, 768, 899, 900, 1024, 1280):
        ctx = _context(chromium, width, locale)
        page = ctx.new_page()
        try:
            log_in(page, live_server.url, "lon")
            page.goto(f"{live_server.url}/play/{game.id}/")
            message = page.locator("#board-message")
            expect(message).to_be_empty()
            before = _still(page)
            _show(page, longest)
            expect(message).to_have_text(longest)
            if width in (390, 1280):
                screenshot(page, f"head-longest-{width}-{language}", full_page=False)
            band = message.bounding_box()
            reserve = page.locator("#reserve-h").bounding_box()
            assert band is not None
            assert reserve is not None
            assert band["y"] + band["height"] <= reserve["y"] + 0.5, (width, band, reserve)
            assert message.evaluate("m => m.scrollHeight <= m.clientHeight + 1"), width
            assert _still(page) == before, width
            page.keyboard.press("Escape")
            expect(message).to_be_empty()
            assert _still(page) == before, width
        finally:
            ctx.close()
