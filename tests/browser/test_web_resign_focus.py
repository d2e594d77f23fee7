"""Where the keyboard's focus goes after Resign, in Chromium.

After Resign the board is drawn again with the game over: no card or pile button is
left, and focus went to the board's only button, the close button of the message, so a
screen reader said "Hide this message, button" and not the result. Focus now goes to
the message itself, the result ("You resigned: 9 cards home."); once the message is
closed, focus goes on to the first link after the board (Replay), not to the page's
body.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start, move_play
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations


@pytest.mark.django_db(transaction=True)
def test_focus_goes_to_the_result_after_resign(live_server: Any, page: Any) -> None:
    player = User.objects.create_user("resa", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="12345")
    move_play(game_id=game.id, player=player, move="6D>f", expected_move_number=0)
    log_in(page, live_server.url, "resa")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_selector("#board[data-move-url]")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Resign").focus()
    page.keyboard.press("Enter")
    expect(page.locator('[data-stat="status"]')).to_have_text("resigned")
    message = page.locator("#board-message")
    expect(message).to_have_text("You resigned: 2 cards home.")
    expect(message).to_be_focused()
    assert serious_violations(page) == []
    # Closed with its close button (reached by Tab from the message), focus goes on to Replay.
    page.keyboard.press("Tab")
    close = page.locator("#board .message-close")
    expect(close).to_be_focused()
    page.keyboard.press("Enter")
    expect(message).to_have_text("")
    expect(page.locator("#board .after a").first).to_be_focused()
    expect(page.locator("#board .after a").first).to_have_text("Replay")


@pytest.mark.django_db(transaction=True)
def test_escape_on_the_result_moves_focus_on_to_replay(live_server: Any, page: Any) -> None:
    """A new user closed the result with Escape (the page's help: "Esc ... hide the
    message"): the message emptied but kept the focus, an empty element a screen reader
    names as nothing.  Escape now does what the close button does: focus goes on to the
    first link after the board (Replay)."""
    player = User.objects.create_user("resb", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="12345")
    move_play(game_id=game.id, player=player, move="6D>f", expected_move_number=0)
    log_in(page, live_server.url, "resb")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_selector("#board[data-move-url]")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Resign").focus()
    page.keyboard.press("Enter")
    message = page.locator("#board-message")
    expect(message).to_have_text("You resigned: 2 cards home.")
    expect(message).to_be_focused()
    page.keyboard.press("Escape")
    expect(message).to_have_text("")
    replay = page.locator("#board .after a").first
    expect(replay).to_have_text("Replay")
    expect(replay).to_be_focused()
