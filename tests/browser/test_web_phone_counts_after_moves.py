"""On a phone the board's counts stay in sight while a game is played.

A new user on a 390 px phone almost never saw the counts (cards home, casino score,
moves, redeals left, status): every draw and every move showed its words in the
counts' place for 4 s, every refusal for 10 s.  A move just played is now not described
over the counts on a phone (its outcome is on the board; #announcer still says it to
screen readers); a refusal still takes the counts' place, whole.  The Draw button's
words lie on a solid chip (they wrapped over the striped card back, hard to read), and
on a desktop the message's close button is level with its first line.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in

#: The counts' words in each language (dt), and the Draw button's first word.
WORDS = {
    "en": ("Cards home", "Moves", "Refused:"),
    "de": ("Abgelegt", "Züge", "Abgelehnt:"),
}


def _counts_in_sight(page: Any) -> dict[str, str]:
    """Each count's term and value, after checking that each is on the screen and that
    no card or control lies over it (the element at its centre is the count itself; the
    message band takes no taps, so _move_out_of_sight_and_heard checks its size)."""
    out = {}
    items = page.locator("#board .board-head .stats > div")
    assert items.count() == 5
    for i in range(items.count()):
        item = items.nth(i)
        for part in ("dt", "dd"):
            el = item.locator(part)
            box = el.bounding_box()
            assert box is not None
            assert box["width"] > 0, part
            assert box["height"] > 0, part
            on_top = el.evaluate(
                "e => { const r = e.getBoundingClientRect(); "
                "const t = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); "
                "return !!t && (t === e || e.contains(t)); }"
            )
            assert on_top, (part, item.inner_text())
        out[item.locator("dt").inner_text().strip()] = item.locator("dd").inner_text().strip()
    return out


def _move_out_of_sight_and_heard(page: Any) -> str:
    """The board's message holds the move's words, out of sight, and #announcer says them."""
    message = page.locator("#board-message")
    expect(message).to_have_class(re.compile(r"\bplayed\b"))
    words = (message.text_content() or "").strip()
    assert len(words) > 5, words
    box = message.bounding_box()
    assert box is not None
    assert box["height"] <= 1, box
    assert box["width"] <= 1, box
    expect(page.locator("#announcer")).to_have_text(words)
    expect(page.locator("#board .message-close")).to_be_hidden()
    return words


@pytest.mark.parametrize(("locale", "language"), [("en-GB", "en"), ("de-DE", "de")])
def test_the_phone_counts_show_after_a_move_and_a_draw_and_a_refusal_shows(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str, language: str
) -> None:
    home_word, moves_word, refused_word = WORDS[language]
    player = User.objects.create_user("cnt", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale=locale
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "cnt")
        page.goto(f"{live_server.url}/play/{game.id}/")
        message = page.locator("#board-message")
        expect(message).to_be_empty()
        head = page.locator("#board .board-head").bounding_box()
        counts = _counts_in_sight(page)
        assert counts[moves_word] == "0"
        # A refusal (the ace of clubs on the nine of clubs) takes the counts' place, whole.
        page.locator('#board button[data-card="AC"]').tap()
        page.locator('#board [data-dest="t4"]').tap()
        expect(message).to_have_class(re.compile(r"\berror\b"))
        page.evaluate("window.scrollTo(0, 0)")
        refusal = message.inner_text().strip()
        assert refusal.startswith(refused_word), refusal
        expect(page.locator("#announcer")).to_have_text(refusal)
        band = message.bounding_box()
        assert band is not None
        assert band["height"] > 30, band
        assert message.evaluate("m => m.scrollHeight <= m.clientHeight + 1")
        expect(message).to_be_visible()
        expect(page.locator("#board .message-close")).to_be_visible()
        screenshot(page, f"phone-counts-refusal-{locale}", full_page=False)
        # A draw: its words are heard, the counts seen and updated.
        page.locator('#board [data-action="stock"]').tap()
        page.wait_for_selector('#board[data-move-number="1"]')
        page.evaluate("window.scrollTo(0, 0)")
        _move_out_of_sight_and_heard(page)
        counts = _counts_in_sight(page)
        assert counts[moves_word] == "1"
        assert page.locator("#board .board-head").bounding_box() == head
        screenshot(page, f"phone-counts-draw-{locale}", full_page=False)
        # A card moved (the first legal move that is not the stock's), by taps.
        legal = page.locator("#board").get_attribute("data-legal") or ""
        moves = [m for m in legal.split() if ">" in m]
        assert moves, legal
        card, dest = moves[0].split(">")
        home_before = int(counts[home_word])
        page.locator(f'#board button[data-card="{card}"]').first.tap()
        key = f"f-{card[-1]}" if dest == "f" else f"pile-{dest}"
        page.locator(f'#board [data-key="{key}"]').tap()
        page.wait_for_selector('#board[data-move-number="2"]')
        page.evaluate("window.scrollTo(0, 0)")
        _move_out_of_sight_and_heard(page)
        counts = _counts_in_sight(page)
        assert counts[moves_word] == "2"
        assert int(counts[home_word]) == home_before + (1 if dest == "f" else 0)
        assert page.locator("#board .board-head").bounding_box() == head
        screenshot(page, f"phone-counts-move-{locale}", full_page=False)
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize(("locale", "words"), [("en-GB", "Draw (34 cards"), ("de-DE", "Ziehen")])
def test_the_draw_buttons_words_lie_on_a_solid_chip(
    live_server: Any, chromium: Any, transactional_db: Any, width: int, locale: str, words: str
) -> None:
    player = User.objects.create_user("chip", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(
        viewport={"width": width, "height": 780}, has_touch=True, is_mobile=True, locale=locale
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "chip")
        page.goto(f"{live_server.url}/play/{game.id}/")
        label = page.locator('#board [data-action="stock"] .stocklabel')
        expect(label).to_contain_text(words)
        style = label.evaluate(
            "e => { const s = getComputedStyle(e); return [s.backgroundColor, s.color]; }"
        )
        assert style == ["rgb(15, 29, 74)", "rgb(255, 255, 255)"], style
        # Every line of the words is inside the button.
        button = page.locator('#board [data-action="stock"]').bounding_box()
        assert button is not None
        rects = label.evaluate(
            "e => Array.from(e.getClientRects()).map(r => [r.left, r.top, r.right, r.bottom])"
        )
        assert len(rects) >= 1
        for left, top, right, bottom in rects:
            assert left >= button["x"] - 0.5, (rects, button)
            assert right <= button["x"] + button["width"] + 0.5, (rects, button)
            assert top >= button["y"] - 0.5, (rects, button)
            assert bottom <= button["y"] + button["height"] + 0.5, (rects, button)
        screenshot(page, f"phone-draw-chip-{width}-{locale}", full_page=False)
    finally:
        ctx.close()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_desktop_close_button_is_level_with_the_messages_first_line(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str
) -> None:
    player = User.objects.create_user("desk", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "desk")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.locator('#board [data-action="stock"]').click()
        page.wait_for_selector('#board[data-move-number="1"]')
        message = page.locator("#board-message")
        expect(message).not_to_be_empty()
        # On a desktop a move's words show beside the counts, as before.
        expect(message).to_be_visible()
        line = message.evaluate(
            "m => { const r = document.createRange(); r.selectNodeContents(m); "
            "const f = r.getClientRects()[0]; return [f.top, f.bottom]; }"
        )
        close = page.locator("#board .message-close")
        box = close.bounding_box()
        assert box is not None
        glyph = close.locator("span").bounding_box()
        assert glyph is not None
        line_mid = (line[0] + line[1]) / 2
        assert abs((box["y"] + box["height"] / 2) - line_mid) <= 2, (box, line)
        assert abs((glyph["y"] + glyph["height"] / 2) - line_mid) <= 2, (glyph, line)
        # Still a finger's width to tap.
        assert box["width"] >= 40, box
        screenshot(page, f"desk-close-level-{locale}", full_page=False)
    finally:
        ctx.close()
