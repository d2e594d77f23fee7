"""An empty stock on a board that takes no move (a won game, a replay's last position)
is drawn as the other empty slots: a dashed outline on the felt with readable words.
It was a blank white card, its "0 cards in the stock" white on white; then, on a phone,
its words sat on the Draw button's dark chip.  Below a desktop's width it was as narrow as a
card (the empty slots' width), its words broken over four lines in the slots' smallest
type ("0 / cards / in the / stock") where the stock beside a card back is a wide chip."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_web_last_word import _won
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations


def _looks_like_an_empty_slot(page: Any, lines: int) -> None:
    stock = page.locator("#board .stock [data-stock]")
    expect(stock).to_have_text("0 cards in the stock")
    style = stock.evaluate(
        """s => { const c = getComputedStyle(s);
            const felt = getComputedStyle(document.getElementById('board'));
            return [c.backgroundColor, c.color, c.borderTopStyle, felt.backgroundColor]; }"""
    )
    background, colour, border, felt = style
    assert background == "rgba(0, 0, 0, 0)", style  # the felt shows through
    assert colour == "rgb(255, 255, 255)", style  # white words on the green felt
    assert felt == "rgb(31, 95, 58)", style
    assert border == "dashed", style
    # Its words too: the phone's solid chip for the Draw button's label drew a dark box.
    label = stock.locator(".stocklabel").evaluate("l => getComputedStyle(l).backgroundColor")
    assert label == "rgba(0, 0, 0, 0)", label
    # As wide as its words need (up to the stock button's width), not a card's width:
    # "0 cards in the stock" on ``lines`` lines (two in a tablet's larger card type, as the
    # Draw button's words there), in the stock button's type, not the slots'.
    one_line = stock.locator(".stocklabel").evaluate(
        """l => { const c = getComputedStyle(l); const r = l.getBoundingClientRect();
            return [r.height, parseFloat(c.lineHeight) || 1.3 * parseFloat(c.fontSize),
                    parseFloat(c.fontSize)]; }"""
    )
    height, line, size = one_line
    assert height < (lines + 0.5) * line, one_line
    assert size >= 12.8, one_line  # the stock button's .8 rem at least (the slots' .65 rem: 10.4)
    # The slot beside it (the empty waste, the foundations) is drawn the same way.
    assert serious_violations(page) == []


@pytest.mark.parametrize(("width", "lines"), [(390, 1), (800, 2), (1280, 1)])
def test_an_empty_stock_reads_on_a_won_board_and_a_replay(
    live_server: Any, chromium: Any, transactional_db: Any, width: int, lines: int
) -> None:
    player = User.objects.create_user("sam", password=PASSWORD)
    game = _won(player)
    ctx = chromium.new_context(viewport={"width": width, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "sam")
        page.goto(f"{live_server.url}/play/{game.id}/")
        _looks_like_an_empty_slot(page, lines)
        screenshot(page, f"empty-stock-won-{width}", full_page=False)
        page.goto(f"{live_server.url}/replay/{game.id}/?step={game.move_number}")
        expect(page.locator("[data-replay-step]")).to_have_attribute(
            "data-replay-step", str(game.move_number)
        )
        _looks_like_an_empty_slot(page, lines)
        screenshot(page, f"empty-stock-replay-{width}", full_page=False)
    finally:
        ctx.close()
