"""Play page by the shortcut keys alone: focus survives every board they redraw.

A card sent from the reserve or the waste by its key (``R`` then ``H``, ``W`` then a pile's
digit) left focus on the board's message, whatever card took its place; the next key
that redrew the board (``D``) then dropped focus to the page's body (the message had no
key to find again), and a keyboard or screen reader user had to Tab in from the top of
the page. Focus now stays with the pile the card left (the reserve's or the waste's new
top card), and focus on the message stays on the new board's message.
"""

# mypy: disable-error-code="no-untyped-call, assignment"

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start, move_play
from tests.browser.web_helpers import PASSWORD, log_in

# Classic seed 7: after these moves the reserve's top card is the eight of diamonds,
# which goes home by R then H and leaves the ace of diamonds on top of the reserve; six
# draws then put the six of hearts on top of the waste, which goes on pile 3 (W, 3)
# and leaves the three of spades on top.
SEED = "7"
MOVES = ["9C>f", "KH>t2", "KC>t1"]

_ACTIVE = (
    "() => { const a = document.activeElement;"
    " return a === document.body ? 'body' : (a.dataset && a.dataset.key) || a.id || a.tagName; }"
)
_MOVES = "() => Number(document.getElementById('board').dataset.moveNumber)"


def _press(page: Any, key: str) -> None:
    """Press ``key`` when it plays a move: wait for the board that answers it."""
    before = page.evaluate(_MOVES)
    page.keyboard.press(key)
    page.wait_for_function(
        f"() => Number(document.getElementById('board').dataset.moveNumber) > {before}"
    )


@pytest.mark.django_db(transaction=True)
def test_focus_stays_on_the_board_after_shortcut_moves(live_server: Any, page: Any) -> None:
    player = User.objects.create_user("keys-only", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    for n, mv in enumerate(MOVES):
        move_play(game_id=game.id, player=player, move=mv, expected_move_number=n)
    log_in(page, live_server.url, "keys-only")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_selector("#board[data-move-url]")
    page.locator('#board [data-key="stock"]').focus()

    page.keyboard.press("r")
    assert page.evaluate(_ACTIVE) == "reserve-8D"
    _press(page, "h")
    # The reserve's new top card, not the message (the old code's place).
    assert page.evaluate(_ACTIVE) == "reserve-AD"
    assert page.locator("#announcer").text_content() == "The eight of diamonds to its foundation."

    # Focus on the message (where the old code put it) stays there across a draw.
    page.locator("#board-message").focus()
    _press(page, "d")
    assert page.evaluate(_ACTIVE) == "board-message"
    assert page.locator("#board-message").text_content() == (
        "Drew 3 cards to the waste; the jack of spades is on top."
    )
    for _ in range(5):
        _press(page, "d")
        assert page.evaluate(_ACTIVE) == "board-message"

    page.keyboard.press("w")
    assert page.evaluate(_ACTIVE) == "waste-6H"
    _press(page, "3")
    top = page.locator("#board .waste button[data-card]").last.get_attribute("data-key")
    assert top == "waste-3S"
    assert page.evaluate(_ACTIVE) == top
    page.keyboard.press("ArrowRight")  # the roving keys go on from there
    assert page.evaluate(_ACTIVE) == "f-C"


@pytest.mark.django_db(transaction=True)
def test_undo_by_its_key_keeps_focus_on_the_board(live_server: Any, page: Any) -> None:
    """U pressed on the board took focus out of it, to the Undo button (where the arrow
    keys do nothing: Shift+Tab back through every pile); it now stays where it was."""
    player = User.objects.create_user("keys-undo", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    for n, mv in enumerate(MOVES):
        move_play(game_id=game.id, player=player, move=mv, expected_move_number=n)
    log_in(page, live_server.url, "keys-undo")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_selector("#board[data-move-url]")
    page.locator('#board [data-key="stock"]').focus()
    _press(page, "Enter")  # draw
    assert page.evaluate(_ACTIVE) == "stock"
    page.keyboard.press("u")
    page.wait_for_function("() => document.getElementById('board').dataset.moveNumber === '3'")
    expect(page.locator("#announcer")).to_have_text("Took back the draw.")
    assert page.evaluate(_ACTIVE) == "stock"
    # The Undo button itself keeps its old behaviour: focus stays on the page's controls.
    page.locator('#board [data-key="f-C"]').focus()
    page.keyboard.press("u")
    page.wait_for_function("() => document.getElementById('board').dataset.moveNumber === '2'")
    expect(page.locator("#announcer")).to_have_text("Took back moving the king of clubs to pile 1.")
    assert page.evaluate(_ACTIVE) == "f-C"
    page.locator('[data-action="undo"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('board').dataset.moveNumber === '1'")
    expect(page.locator("#announcer")).to_have_text(
        "Took back moving the king of hearts to pile 2."
    )
    assert (
        page.evaluate(
            "() => document.activeElement.dataset.action || document.activeElement.dataset.key"
        )
        == "undo"
    )
