"""The solution page while the solver works, in Chromium: its answers are fetched in
place, not the whole page reloaded.

The page reloaded itself every 5 s until the solver had answered, and each reload sent a
screen reader back to the page's top. It now asks for its answers alone (htmx) and
swaps them in; once they are in, what they say is read from a polite live region that
stays on the page. Without JavaScript a link loads the page again.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Solve
from games.services.games import game_end, game_start
from games.services.solver import solve_run
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations


@pytest.mark.django_db(transaction=True)
def test_the_answer_comes_in_place_and_is_said(live_server: Any, page: Any, settings: Any) -> None:
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound seed 7 never reaches: no clock in play
    player = User.objects.create_user("sol", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    game_end(game_id=game.id, player=player)
    log_in(page, live_server.url, "sol")
    with mock.patch("games.services.solver.enqueue_now"):  # the worker is this test
        page.goto(f"{live_server.url}/play/{game.id}/solution")
        expect(page.locator("main")).to_contain_text("The solver is working on this deal")
        assert serious_violations(page) == []
        # A mark on the page's window: a reload would take it away.
        page.evaluate("() => { window.stayed = true; }")
        page.get_by_role("link", name="Back to the game").focus()
        # No reload while the job waits: the answers are asked for, still pending.
        with page.expect_response(lambda r: r.url.endswith("/solution")) as first:
            pass
        assert first.value.status == 202
        assert page.evaluate("() => window.stayed === true")
        solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=[]).id)
        line = Solve.objects.get(deal=game.deal, moves=[]).solution
        expect(page.locator("ol.steps > li").first).to_be_visible(timeout=15000)
    assert page.evaluate("() => window.stayed === true")
    expect(page.get_by_text("The solver is working on this deal")).to_have_count(0)
    expect(page.get_by_role("link", name="Back to the game")).to_be_focused()
    said = page.locator("#solution-said")
    expect(said).to_have_attribute("aria-live", "polite")
    expect(said).to_contain_text(f"The deal can be won in {len(line)} moves.")
    assert serious_violations(page) == []


@pytest.mark.django_db(transaction=True)
def test_without_javascript_a_link_loads_the_page_again(
    live_server: Any, chromium: Any, settings: Any
) -> None:
    settings.SOLVER_BUDGET_SECONDS = 120
    player = User.objects.create_user("nojs", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    game_end(game_id=game.id, player=player)
    context = chromium.new_context(java_script_enabled=False, locale="en-GB")
    try:
        page = context.new_page()
        log_in(page, live_server.url, "nojs")
        with mock.patch("games.services.solver.enqueue_now"):
            page.goto(f"{live_server.url}/play/{game.id}/solution")
        again = page.get_by_role("link", name="Load the page again to see it.")
        expect(again).to_be_visible()
        solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=[]).id)
        again.click()
        expect(page.locator("ol.steps > li").first).to_be_visible()
        expect(page.get_by_role("link", name="Load the page again to see it.")).to_have_count(0)
    finally:
        context.close()
