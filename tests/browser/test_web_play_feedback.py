"""What the play page tells a player after each action, in Chromium, as a new user's
trial found it: every outcome is said through the page's lasting live region (not only
through the board's message, which is swapped with the board), and focus is never left
on the page's body after Undo."""

from __future__ import annotations

from typing import Any
from unittest import mock

from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Solve
from games.services.games import game_start
from games.services.solver import solve_run
from tests.browser.web_helpers import PASSWORD, log_in


def _said(page: Any) -> str:
    """The board's message as the page shows it (what #announcer must say too)."""
    return " ".join(page.locator("#board-message").inner_text().split())


def _expect_announced(page: Any, text: str) -> None:
    """The board's message reads ``text`` and the lasting live region says the same."""
    expect(page.locator("#board-message")).to_have_text(text)
    expect(page.locator("#announcer")).to_have_text(text)


def test_every_outcome_is_said_in_the_lasting_live_region(
    live_server: Any, page: Any, transactional_db: Any, settings: Any
) -> None:
    """#announcer (outside the board, always there) was updated for clicked and keyed
    moves only: a typed move, Undo, Hint and Resign changed only the board's own message,
    which is swapped whole with the board, so a screen reader could miss it."""
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound seed 0 never reaches: no clock in play
    player = User.objects.create_user("ana", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="0")  # won from the deal
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/play/{game.id}/")
    announcer = page.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    # A typed move refused, then played.
    page.get_by_text("Type a move").click()
    field = page.locator("#typed-move")
    field.fill("zz>t9")
    field.press("Enter")
    expect(page.locator("#board-message")).to_contain_text("Refused:")
    _expect_announced(page, _said(page))
    field.fill("zz>t9")  # the same refusal again: said again (the region changes)
    field.press("Enter")
    expect(page.locator("#board-message")).to_contain_text("Refused:")
    expect(announcer).to_contain_text("Refused:")
    field.fill("draw")
    field.press("Enter")
    page.wait_for_selector('#board[data-move-number="1"]')
    played = _said(page)
    assert played
    assert "Refused" not in played
    expect(announcer).to_have_text(played)
    # Undo, with the button and with the U key.
    page.get_by_role("button", name="Undo").click()
    page.wait_for_selector('#board[data-move-number="0"]')
    _expect_announced(page, "Move taken back.")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(announcer).not_to_have_text("Move taken back.")
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="0"]')
    _expect_announced(page, "Move taken back.")
    # Hint: the solver's "working" note, then the hint when the board asks again.
    with mock.patch("games.services.solver.enqueue_now"):  # no worker takes it yet
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#board-message")).to_contain_text(
            "The solver is working", timeout=15_000
        )
        expect(announcer).to_contain_text("The solver is working")
        solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=[]).id)
        expect(page.locator("#board-message")).to_contain_text("Hint: ", timeout=45_000)
    _expect_announced(page, _said(page))
    # Resign.
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator('[data-stat="status"]')).to_have_text("resigned")
    _expect_announced(page, "You resigned.")


def test_focus_stays_on_the_page_after_undo(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """After Undo (the U key or the button) focus fell to the page's body: a keyboard
    user had to Tab from the top of the page again.  It goes to the Undo button while
    there is a move to take back, then to the board's first card."""
    player = User.objects.create_user("uma", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    log_in(page, live_server.url, "uma")
    page.goto(f"{live_server.url}/play/{game.id}/")
    undo = page.get_by_role("button", name="Undo")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="2"]')
    page.keyboard.press("w")  # the waste's top card, focused
    expect(page.locator("#board button[data-from=waste]")).to_be_focused()
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(undo).to_be_focused()
    # The keyboard goes on from there: Enter takes back the move before.
    page.keyboard.press("Enter")
    page.wait_for_selector('#board[data-move-number="0"]')
    expect(undo).to_be_disabled()  # nothing left to take back: the board's first card
    first = page.locator("#board button[data-card]").first
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => document.activeElement !== document.body")
    # The button clicked with the mouse keeps focus on the page too.
    page.keyboard.press("Escape")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="2"]')
    undo.click()
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(undo).to_be_focused()
