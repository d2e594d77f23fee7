"""In Chromium: the move that blocks a practice game (RULES.md 3.9) leaves Undo enabled
(the board's data-undo, from the view's undo_allowed), and the button takes it back; the
controls were hidden and Undo disabled with every other control once the game was over."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start, move_play
from tests.browser.web_helpers import PASSWORD, log_in
from tests.games.test_undo_blocked import SEED, TO_BLOCKED


def test_the_blocking_move_can_be_taken_back_from_the_page(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    player = User.objects.create_user("ana", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    for move in TO_BLOCKED[:-1]:
        move_play(game_id=game.id, player=player, move=move)
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.get_by_text("Type a move").click()
    field = page.locator("#typed-move")
    field.fill("AD>f")
    field.press("Enter")
    page.wait_for_selector("#board[data-blocked], #board p[data-blocked]")
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_visible()
    expect(undo).to_be_enabled()
    expect(page.locator("#board")).to_have_attribute("data-move-number", "26")
    undo.click()
    page.wait_for_selector('#board[data-move-number="25"][data-move-url]')
    expect(page.locator("#board-message")).to_contain_text("Took back")


def test_the_u_key_takes_the_blocking_move_back(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """The U key is the Undo button: on a blocked game whose last move may be taken back
    it did nothing (the key handler stopped at a board with no move to play), after the
    blocking move was typed in the text field (the field, switched off with the board,
    kept the focus) as after a reload."""
    player = User.objects.create_user("uma", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    for move in TO_BLOCKED[:-1]:
        move_play(game_id=game.id, player=player, move=move)
    log_in(page, live_server.url, "uma")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.get_by_text("Type a move").click()
    field = page.locator("#typed-move")
    field.fill("AD>f")
    field.press("Enter")
    page.wait_for_selector('#board[data-undo][data-move-number="26"]')
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="25"][data-move-url]')
    expect(page.locator("#board-message")).to_contain_text("Took back")
    # Blocked again by a click-free move, then a fresh page: U takes it back too.
    move_play(game_id=game.id, player=player, move="AD>f")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_selector('#board[data-undo][data-move-number="26"]')
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="25"][data-move-url]')
