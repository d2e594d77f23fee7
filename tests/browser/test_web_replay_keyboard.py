"""The replay with the keyboard alone, in Chromium.

Each step swaps the replay's content, its buttons with it: focus on Forward went with
the old content to the page's body, so a keyboard user's second Enter on Forward did
nothing (Tab from the top of the page again, every move). The step's words ("Move 2 of
4: ...") were in the swapped content too, a live region added to the page, which screen
readers do not read. Now focus goes to the same control of the new content, and the
words are said through ``#replay-announcer``, which stays on the page.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_end, game_start, move_play
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations

MOVES = ["draw", "draw", "draw", "draw"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_enter_on_forward_again_and_again(live_server: Any, chromium: Any, width: int) -> None:
    player = User.objects.create_user("remi", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    for n, move in enumerate(MOVES):
        move_play(game_id=game.id, player=player, move=move, expected_move_number=n)
    game_end(game_id=game.id, player=player)  # resigned: the deal is revealed, a replay
    context = chromium.new_context(viewport={"width": width, "height": 844}, locale="en-GB")
    try:
        page = context.new_page()
        log_in(page, live_server.url, "remi")
        page.goto(f"{live_server.url}/replay/{game.id}/")
        forward = page.locator('[data-replay] [data-step="next"]')
        forward.focus()
        said = page.locator("#replay-announcer")
        for step in (1, 2, 3):
            page.keyboard.press("Enter")
            expect(page.locator("[data-replay-step]")).to_have_attribute(
                "data-replay-step", str(step)
            )
            expect(forward).to_be_focused()
            expect(said).to_have_text(f"Move {step} of 4: draw from the stock")
        back = page.locator('[data-replay] [data-step="prev"]')
        page.keyboard.press("Shift+Tab")
        expect(back).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("[data-replay-step]")).to_have_attribute("data-replay-step", "2")
        expect(back).to_be_focused()
        expect(said).to_have_text("Move 2 of 4: draw from the stock")
        # The move number and Go: focus stays on Go.
        page.fill("#step", "4")
        go = page.locator("[data-replay] form button")
        go.focus()
        page.keyboard.press("Enter")
        expect(page.locator("[data-replay-step]")).to_have_attribute("data-replay-step", "4")
        expect(go).to_be_focused()
        expect(said).to_have_text("Move 4 of 4: draw from the stock")
        assert serious_violations(page) == []
    finally:
        context.close()
