"""In Chromium: a new user's pass over the play page (classic seed 7: reserve 5C; piles
KH, AC, KC, 9C; classic seed 224: one draw leaves QH, TS, 9H on the waste).

- After a refused move, and after an Undo, no card is still selected: the card focus
  comes back to is ringed in white (the focus), not in the selection's yellow (it was
  the same yellow ring), and after an Undo a tap on a pile no longer moves the card
  chosen before it (the page still held it as selected).
- The typed move gets the parser's own reason, as the API does ("'t9' is not a
  destination: use f (foundation) or t1, t2, t3, t4."), in the page's language.
- The phone's waste fan shows every card's rank and suit whole at 360 and 390 px (the
  five of diamonds' ring covered the ten of spades' suit).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start, move_play
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in

SELECTION_YELLOW = "rgb(255, 191, 0)"


def _outline(page: Any, selector: str) -> str:
    return str(page.locator(selector).evaluate("e => getComputedStyle(e).outlineColor"))


def test_a_refused_move_and_an_undo_leave_no_card_selected(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    player = User.objects.create_user("sel", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url, "sel")
    page.goto(f"{live_server.url}/play/{game.id}/")
    board = page.locator("#board")
    # R then 1: the five of clubs on the king of hearts, refused.
    page.keyboard.press("r")
    expect(page.locator("#board .card.selected")).to_have_count(1)
    page.keyboard.press("1")
    expect(page.locator("#board-message.error")).to_be_visible()
    expect(page.locator("#board .card.selected")).to_have_count(0)
    focused = '#board button[data-card="5C"]'
    expect(page.locator(focused)).to_be_focused()
    screenshot(page, "pass-refused-focus", full_page=False)
    assert _outline(page, focused) != SELECTION_YELLOW
    # A draw, then R (the five of clubs selected), then U: the draw is taken back.
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    page.keyboard.press("r")
    expect(page.locator("#board .card.selected")).to_have_count(1)
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="0"]')
    expect(page.locator("#board-message")).to_contain_text("Took back the draw")
    expect(page.locator("#board .card.selected")).to_have_count(0)
    screenshot(page, "pass-after-undo", full_page=False)
    for i in range(page.locator("#board .card:focus").count()):
        assert _outline(page, "#board .card:focus") != SELECTION_YELLOW, i
    # Nothing is selected any more: a pile's button asks for a card first (it tried
    # the five of clubs on pile 2, refused).
    page.locator('#board [data-dest="t2"]').click()
    expect(page.locator("#board-message")).to_have_text("Choose a card first.")
    expect(board).to_have_attribute("data-move-number", "0")


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-GB", "'t9' is not a destination: use f (foundation) or t1, t2, t3, t4."),
        (
            "fr-FR",
            "n\u2019est pas une destination\u202f: utilisez f (fondation) ou t1, t2, t3, t4.",
        ),
        ("es-ES", "«t9» no es un destino: use f (fundación) o t1, t2, t3, t4."),
        ("de-DE", "„t9“ ist kein Ziel: Verwenden Sie f (Ablagestapel) oder t1, t2, t3, t4."),
    ],
)
def test_the_typed_move_gets_the_parsers_reason(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str, words: str
) -> None:
    player = User.objects.create_user("typ", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "typ")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.locator("details.typed summary").click()
        field = page.locator("#typed-move")
        field.fill("QH>t9")
        field.press("Enter")
        message = page.locator("#board-message.error")
        expect(message).to_contain_text(words)
        screenshot(page, f"pass-typed-t9-{locale}", full_page=False)
        # An unknown suit, as the API's reason says it.
        field.fill("QX>f")
        field.press("Enter")
        expect(message).to_contain_text("QX")
        expect(message).not_to_contain_text("QH>t2, 5S>f, draw")
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [360, 390])
def test_the_phone_waste_fan_shows_every_rank_and_suit(
    live_server: Any, chromium: Any, transactional_db: Any, width: int
) -> None:
    player = User.objects.create_user("fan", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="224")
    move_play(game_id=game.id, player=player, move="draw")
    ctx = chromium.new_context(
        viewport={"width": width, "height": 800}, has_touch=True, is_mobile=True
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "fan")
        page.goto(f"{live_server.url}/play/{game.id}/")
        # The top card selected: its ring is drawn too.
        page.locator('#board .fan.waste button[data-card="9H"]').tap()
        expect(page.locator("#board .card.selected")).to_have_count(1)
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"pass-waste-fan-{width}", full_page=False)
        spans = page.evaluate(
            """() => Array.from(document.querySelectorAll('#board .fan.waste > .card')).map(
                 (c, i, all) => {
                   const next = all[i + 1];
                   let right = 0;
                   c.querySelectorAll('.rank, .suit').forEach(s => {
                     right = Math.max(right, s.getBoundingClientRect().right); });
                   if (!next) { return null; }
                   const st = getComputedStyle(next);
                   const ring = st.outlineStyle === 'none' ? 0
                     : parseFloat(st.outlineWidth) + parseFloat(st.outlineOffset);
                   return {card: c.textContent.replace(/ |\\n/g, ''), right: right,
                           next: next.getBoundingClientRect().left - ring};
                 }).filter(x => x)"""
        )
        assert [s["card"] for s in spans] == ["Q\u2665", "10\u2660"], spans
        assert all(s["right"] <= s["next"] + 0.5 for s in spans), spans
    finally:
        ctx.close()
