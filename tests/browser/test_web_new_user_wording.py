"""What a new user reported, as a person sees it in Chromium (phone and desktop): a draw
now names the card it left on the waste and Undo the move it took back, both in the
board's message and through the lasting live region (#announcer); every message of the
board, a refusal, a played move and a selection too, reads as a sentence; the replay's
pile headings read as headings, not buttons; the standings' time column says what it
counts.  Page-level checks: tests/web/test_new_user_wording.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_end, game_start, move_play
from tests.browser.conftest import horizontal_overflow, screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations
from tests.tournaments.factories import Result, finished_race

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def _expect_said(page: Any, text: str) -> None:
    """The board's message reads ``text``, and the live region that stays says it too."""
    expect(page.locator("#board-message")).to_have_text(text)
    expect(page.locator("#announcer")).to_have_text(text)


def _context(chromium: Any, width: str) -> Any:
    phone = width == "phone"
    return chromium.new_context(
        viewport=WIDTHS[width], has_touch=phone, is_mobile=phone, locale="en-GB"
    )


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_draw_and_undo_say_which_cards(
    live_server: Any, chromium: Any, transactional_db: Any, width: str
) -> None:
    player = User.objects.create_user("dora", password=PASSWORD)
    game = game_start(player=player, variant="draw-one", seed="7")  # 7H first in the stock
    ctx = _context(chromium, width)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "dora")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.locator('#board [data-action="stock"]').click()
        page.wait_for_selector('#board[data-move-number="1"]')
        _expect_said(page, "Drew the seven of hearts to the waste.")
        expect(page.locator("#board button[data-from=waste]")).to_have_attribute(
            "aria-label", "seven of hearts"
        )
        screenshot(page, f"wording-play-drew-{width}", full_page=False)
        # King of hearts (pile 1) onto the ace of clubs (pile 2): the reserve's 5C fills pile
        # 1 (RULES.md 3.7); then taken back, both.
        # Every message is a sentence: a capital first, a full stop last (a played move
        # said "king of hearts to pile 2; ... fills pile 1"; the selection too).
        page.locator('#board button[data-card="KH"]').click()
        expect(page.locator("#board-message")).to_have_text(
            "King of hearts — now choose a destination."
        )
        page.locator('#board [data-dest="t2"]').click()
        page.wait_for_selector('#board[data-move-number="2"]')
        _expect_said(
            page, "The king of hearts to pile 2; the five of clubs from the reserve fills pile 1."
        )
        screenshot(page, f"wording-play-moved-{width}", full_page=False)
        page.get_by_role("button", name="Undo").click()
        page.wait_for_selector('#board[data-move-number="1"]')
        _expect_said(page, "Took back moving the king of hearts to pile 2.")
        screenshot(page, f"wording-play-took-back-{width}", full_page=False)
        # Taking back the draw does not name the card that goes back face down.
        page.get_by_role("button", name="Undo").click()
        page.wait_for_selector('#board[data-move-number="0"]')
        _expect_said(page, "Took back the draw.")
        expect(page.locator("#board")).not_to_contain_text("seven of hearts")
        # A refusal is a sentence: a capital after "Refused:", a full stop at the end.
        page.locator('#board button[data-card="AC"]').click()
        page.locator('#board [data-dest="t4"]').click()
        _expect_said(
            page,
            "Refused: The ace of clubs cannot go on the nine of clubs, only on a red two.",
        )
        screenshot(page, f"wording-play-refused-{width}", full_page=False)
        assert serious_violations(page) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_replay_pile_headings_read_as_headings(
    live_server: Any, chromium: Any, transactional_db: Any, width: str
) -> None:
    player = User.objects.create_user("remy", password=PASSWORD)
    game = game_start(player=player, seed="7")
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=0)
    move_play(game_id=game.id, player=player, move="KH>t2", expected_move_number=1)
    game_end(game_id=game.id, player=player)
    ctx = _context(chromium, width)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "remy")
        page.goto(f"{live_server.url}/replay/{game.id}/?step=2")
        headings = page.get_by_role("heading", level=3, name="Pile")
        expect(headings).to_have_count(4)
        expect(page.locator("#board").get_by_role("button")).to_have_count(0)
        style = page.evaluate(
            """() => [...document.querySelectorAll('#board h3')].map(h => {
                const s = getComputedStyle(h);
                return [s.backgroundColor, s.borderTopWidth, s.borderLeftWidth,
                        s.borderRightWidth, s.borderTopLeftRadius, s.cursor, s.color,
                        s.borderBottomStyle];
            })"""
        )
        # No fill, no box, no rounded corners, no pointer: a white heading on the felt
        # over a rule (as the other headings of the board), not a button.
        assert (
            style
            == [
                [
                    "rgba(0, 0, 0, 0)",
                    "0px",
                    "0px",
                    "0px",
                    "0px",
                    "default",
                    "rgb(255, 255, 255)",
                    "solid",
                ]
            ]
            * 4
        )
        assert serious_violations(page) == []  # colour contrast included
        assert horizontal_overflow(page) == 0
        screenshot(page, f"wording-replay-{width}")
        page.goto(f"{live_server.url}/play/{game.id}/")  # the game over: the same headings
        expect(page.get_by_role("heading", level=3, name="Pile")).to_have_count(4)
        assert serious_violations(page) == []
        screenshot(page, f"wording-play-over-{width}")
    finally:
        ctx.close()


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_results_say_what_the_time_column_counts(
    live_server: Any, chromium: Any, transactional_db: Any, width: str
) -> None:
    race = finished_race(None, Result("ann", 30, 254_300), Result("bob", 1, 0), name="Wording race")
    ctx = _context(chromium, width)
    page = ctx.new_page()
    try:
        for url, name in ((f"/races/{race.id}/results", "results"), (f"/races/{race.id}/", "race")):
            page.goto(live_server.url + url)
            header = page.get_by_role(
                "columnheader", name="Last card home (seconds after the start)"
            )
            expect(header).to_have_count(1)
            row = page.get_by_role("row", name="ann")
            expect(row).to_contain_text("254.3")
            expect(page.locator("body")).not_to_contain_text("(s)")
            assert serious_violations(page) == []
            assert horizontal_overflow(page) == 0
            screenshot(page, f"wording-{name}-{width}")
    finally:
        ctx.close()
