"""An empty stock on a board that takes no move (a won game, a replay's last position)
is drawn as the other empty slots: a dashed outline on the felt with readable words.
It was a blank white card, its "0 cards in the stock" white on white; then, on a phone,
its words sat on the Draw button's dark chip."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_web_last_word import _won
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations


def _looks_like_an_empty_slot(page: Any) -> None:
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
    # The slot beside it (the empty waste, the foundations) is drawn the same way.
    assert serious_violations(page) == []


@pytest.mark.parametrize("width", [390, 1280])
def test_an_empty_stock_reads_on_a_won_board_and_a_replay(
    live_server: Any, chromium: Any, transactional_db: Any, width: int
) -> None:
    player = User.objects.create_user("sam", password=PASSWORD)
    game = _won(player)
    ctx = chromium.new_context(viewport={"width": width, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "sam")
        page.goto(f"{live_server.url}/play/{game.id}/")
        _looks_like_an_empty_slot(page)
        screenshot(page, f"empty-stock-won-{width}", full_page=False)
        page.goto(f"{live_server.url}/replay/{game.id}/?step={game.move_number}")
        expect(page.locator("[data-replay-step]")).to_have_attribute(
            "data-replay-step", str(game.move_number)
        )
        _looks_like_an_empty_slot(page)
        screenshot(page, f"empty-stock-replay-{width}", full_page=False)
    finally:
        ctx.close()
