"""In Chromium at 1,280 px: the board's head keeps no empty strip above its counts.

A blocked game's board (classic seed 295 is dealt blocked) showed an empty strip above
its counts on a desktop: the room the message band kept for words it had none of.  The
message now takes no room above the counts (it has its place beside them on a desktop,
tests/browser/test_web_band_place.py), so the strip is gone and still no card moves when
a message comes or goes (the earlier design, tests/browser/test_web_pages.py).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game
from games.services.games import game_start
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations

DESKTOP = {"width": 1280, "height": 900}


def _gap_above_counts(page: Any) -> float:
    """Pixels between the board's top edge (inside its padding) and its counts."""
    return float(
        page.evaluate(
            """() => {
              const board = document.getElementById('board');
              const pad = parseFloat(getComputedStyle(board).paddingTop);
              const stats = board.querySelector('.stats').getBoundingClientRect();
              return stats.top - board.getBoundingClientRect().top - pad;
            }"""
        )
    )


#: The start of a blocked game's message (``web.refusals``, RULES.md 3.9), by locale.
BLOCKED_WORDS = {"en-GB": "The game is blocked", "fr-FR": "La partie est bloquée"}


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_blocked_board_has_no_empty_strip_above_its_counts(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str
) -> None:
    player = User.objects.create_user("bea", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="295")
    assert Game.objects.get(id=game.id).status == Game.Status.BLOCKED  # dealt blocked
    ctx = chromium.new_context(viewport=DESKTOP, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "bea")
        page.goto(f"{live_server.url}/play/{game.id}/")
        # Why the game ended is the board's message (as when it happens live), in the
        # counts' row: it makes no strip above them.
        expect(page.locator("#board-message")).to_contain_text(BLOCKED_WORDS[locale])
        screenshot(page, f"board-head-blocked-{locale}", full_page=False)
        assert _gap_above_counts(page) <= 2
        assert serious_violations(page) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_no_card_moves_when_a_message_comes_or_goes_on_a_desktop(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str
) -> None:
    """A playing board at 1,280 px: no strip above the counts, and a message of one line
    or of three (a refusal across the wrap of ranks, in French) moves no card."""
    player = User.objects.create_user("cid", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(viewport=DESKTOP, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "cid")
        page.goto(f"{live_server.url}/play/{game.id}/")
        message = page.locator("#board-message")
        expect(message).to_be_empty()
        assert _gap_above_counts(page) <= 2
        cards = page.locator("#board .tableau .card")
        before = [cards.nth(i).bounding_box() for i in range(4)]
        stock = page.locator('[data-action="stock"]').bounding_box()
        screenshot(page, f"board-head-playing-{locale}", full_page=False)
        # A refusal: the ace of clubs on the nine of clubs.
        page.locator('#board button[data-card="AC"]').click()
        page.locator('#board [data-dest="t4"]').click()
        expect(message).to_have_class(re.compile(r"\berror\b"))
        screenshot(page, f"board-head-refused-{locale}", full_page=False)
        assert [cards.nth(i).bounding_box() for i in range(4)] == before
        assert page.locator('[data-action="stock"]').bounding_box() == stock
        # A long message, as a refusal across the wrap of ranks reads in French.
        page.evaluate(
            "document.getElementById('board-message').textContent = "
            "'Refusé : le roi de pique ne va pas sur le deux de trèfle, seulement sur un as "
            "rouge (les rangs bouclent : un roi va sur un as). ' .repeat(3)"
        )
        screenshot(page, f"board-head-long-{locale}", full_page=False)
        assert [cards.nth(i).bounding_box() for i in range(4)] == before
        # The message does not cover the counts (beside them, tests/browser/
        # test_web_band_place.py).
        band = message.bounding_box()
        stats = page.locator("#board .stats").bounding_box()
        assert band is not None
        assert stats is not None
        assert (
            band["x"] >= stats["x"] + stats["width"] - 1
            or band["y"] >= stats["y"] + stats["height"] - 1
        ), (band, stats)
        page.keyboard.press("Escape")
        expect(message).to_be_empty()
        assert [cards.nth(i).bounding_box() for i in range(4)] == before
    finally:
        ctx.close()
