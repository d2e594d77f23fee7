"""The phone's message band, in Chromium at 390 x 844, as a new user found it: after
every move the band (a draw's words) lay over the cards until the next action, over the
"Reserve" heading, the reserve's face-up top card and the top half of the Draw button,
and a tap on that half landed on the band.  Now a tap goes through the band to what is
under it (all but its close button), and a message fades after 4 s, a refusal after
10 s; the page's clock is Playwright's, never the wall clock.  And a
blocked game keeps its stock pile drawn where the Draw button was: the pile went, only
"6 cards in the stock" stayed, and the board shrank and shifted."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start, move_play
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in
from tests.games.test_undo_blocked import SEED, TO_BLOCKED

PHONE = {"width": 390, "height": 844}
FADE_MS = 4000  # app.js FADE_MS
REFUSAL_FADE_MS = 10000  # app.js REFUSAL_FADE_MS


def _on_top(page: Any, locator: Any, *, upper: bool = False) -> bool:
    """Whether ``locator``'s element is what a tap finds at its middle (``upper``: at the
    middle of its top half), as document.elementFromPoint says."""
    box = locator.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] * (0.25 if upper else 0.5)
    return bool(
        page.evaluate(
            "([x, y, el]) => el.contains(document.elementFromPoint(x, y))",
            [box["x"] + box["width"] / 2, y, locator.element_handle()],
        )
    )


def _overlaps(page: Any, a: Any, b: Any) -> bool:
    """Whether the boxes of ``a`` and ``b`` overlap on the screen."""
    one, two = a.bounding_box(), b.bounding_box()
    assert one is not None
    assert two is not None
    return bool(
        one["y"] < two["y"] + two["height"]
        and two["y"] < one["y"] + one["height"]
        and one["x"] < two["x"] + two["width"]
        and two["x"] < one["x"] + one["width"]
    )


def _phone_page(chromium: Any, live_server: Any, username: str) -> tuple[Any, Any]:
    """A logged-in 390 x 844 touch page whose timers run only when the test says so
    (Playwright's clock, paused), reduced motion (the fade is at once)."""
    ctx = chromium.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB", reduced_motion="reduce"
    )
    page = ctx.new_page()
    log_in(page, live_server.url, username)
    page.clock.install()
    return ctx, page


def test_a_draws_words_fade_and_a_tap_goes_through_the_band(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    player = User.objects.create_user("nia", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx, page = _phone_page(chromium, live_server, "nia")
    try:
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.clock.pause_at(page.evaluate("Date.now()") + 1000)
        message = page.locator("#board-message")
        draw = page.locator('#board [data-action="stock"]')
        reserve_top = page.locator("#board .reserve button[data-card]")
        heading = page.locator("#reserve-h")
        draw.tap()
        page.wait_for_selector('#board[data-move-number="1"]')
        expect(message).to_have_text(re.compile(r"^Drew .*\.$"))
        expect(page.locator("#announcer")).to_have_text(message.inner_text())
        expect(message).to_be_visible()
        # The message takes the counts' place: it lies over neither the reserve nor the
        # Draw button (tests/browser/test_web_phone_message_place.py) ...
        assert not _overlaps(page, message, draw)
        assert not _overlaps(page, message, reserve_top)
        screenshot(page, "phone-band-after-draw", full_page=False)
        # ... and a tap on the Draw button draws.
        assert _on_top(page, draw, upper=True)
        box = draw.bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.25)
        page.wait_for_selector('#board[data-move-number="2"]')
        expect(message).to_have_text(re.compile(r"^Drew .*\.$"))
        # Still shown just before 4 s, gone after them: the cards are readable again.
        page.clock.run_for(FADE_MS - 100)
        expect(message).to_be_visible()
        page.clock.run_for(200)
        expect(message).to_be_hidden()
        expect(page.get_by_role("button", name="Hide this message")).to_be_hidden()
        for what in (heading, reserve_top):
            assert _on_top(page, what), what
        assert _on_top(page, draw, upper=True)
        # The screen reader heard it, and still has it.
        expect(page.locator("#announcer")).to_have_text(re.compile(r"^Drew .*\.$"))
        screenshot(page, "phone-band-faded", full_page=False)
        # Scrolled to the end, a draw's words under the counts fade too.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        draw.tap()
        page.wait_for_selector('#board[data-move-number="3"]')
        expect(message).to_be_visible()
        screenshot(page, "phone-band-scrolled", full_page=False)
        page.clock.run_for(FADE_MS + 100)
        expect(message).to_be_hidden()
        screenshot(page, "phone-band-scrolled-faded", full_page=False)
    finally:
        ctx.close()


def test_a_refusal_fades_after_10_s_and_the_close_button_still_works(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    player = User.objects.create_user("ola", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx, page = _phone_page(chromium, live_server, "ola")
    try:
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.clock.pause_at(page.evaluate("Date.now()") + 1000)
        message = page.locator("#board-message")
        close = page.get_by_role("button", name="Hide this message")
        # A destination tapped with no card chosen: refused.
        page.locator('#board [data-dest="t1"]').tap()
        expect(message).to_have_class(re.compile(r"\berror\b"))
        # It outlasts an ordinary message, then fades: a new user's refusal covered the
        # reserve's top card on a phone until the next action.
        page.clock.run_for(REFUSAL_FADE_MS - 100)
        expect(message).to_be_visible()
        page.clock.run_for(200)
        expect(message).to_be_hidden()
        expect(close).to_be_hidden()
        # Refused again: the band is back, with its close button.
        page.locator('#board [data-dest="t1"]').tap()
        expect(message).to_be_visible()
        # The band's own close button takes it (a tap on it is not passed through).
        assert _on_top(page, close)
        close.tap()
        expect(message).to_be_empty()
        expect(close).to_be_hidden()
        # A card chosen ("... now choose a destination"): Escape takes it too.
        page.locator("#board .reserve button[data-card]").tap()
        expect(message).to_have_text(re.compile(r"now choose a destination\.$"))
        expect(close).to_be_visible()
        page.keyboard.press("Escape")
        expect(message).to_be_empty()
    finally:
        ctx.close()


def test_a_blocked_game_keeps_its_stock_pile(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """At 1280 px: the blocked board's stock is a card back (not a button) the Draw
    button's size, in the Draw button's place; the foundations and tableau stay put."""
    player = User.objects.create_user("pia", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url, "pia")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_selector("#board[data-blocked]")
    pile = page.locator("#board .stock [data-stock]")
    expect(pile).to_have_count(1)
    expect(pile).to_have_text(re.compile(r"^\d+ cards? in the stock$"))
    assert pile.evaluate("el => el.tagName") == "SPAN"
    expect(pile).to_have_class(re.compile(r"\bback\b"))
    expect(page.locator('#board [data-action="stock"]')).to_have_count(0)
    blocked = {
        "pile": pile.bounding_box(),
        "tableau": page.locator("#board .tableau").bounding_box(),
        "foundations": page.locator("#board .foundations").bounding_box(),
    }
    screenshot(page, "blocked-stock-pile")
    page.get_by_role("button", name="Undo").click()
    page.wait_for_selector('#board[data-move-number="25"][data-move-url]')
    after = {
        "pile": page.locator('#board [data-action="stock"]').bounding_box(),
        "tableau": page.locator("#board .tableau").bounding_box(),
        "foundations": page.locator("#board .foundations").bounding_box(),
    }
    screenshot(page, "blocked-stock-pile-after-undo")
    for part, box in blocked.items():
        other = after[part]
        assert box is not None
        assert other is not None
        for side in ("x", "y", "width", "height"):
            assert abs(box[side] - other[side]) <= 1, (part, side, box, other)
