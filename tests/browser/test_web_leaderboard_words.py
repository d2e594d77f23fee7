"""A leaderboard with its provisional players hidden, in Chromium: why it is empty."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.rating_model import PROVISIONAL_RACES
from games.services.ratings import race_rate
from tests.browser.conftest import screenshot
from tests.ratings.helpers import Result, race_of


def test_hiding_every_provisional_player_says_why_the_list_is_empty(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """ "Hide provisional players" on a new pool showed "No player in this list yet." next
    to a count of 2 players: a new user took it for a fault.  It now says that nobody has
    played the provisional number of rated races yet, and links back to the full list."""
    assert PROVISIONAL_RACES == 5  # the number the page states
    race = race_of(Result("ann", 20, 1000), Result("bob", 10, 1000))
    race_rate(race_id=race.id)
    page.goto(f"{live_server.url}/leaderboards/classic/")
    expect(page.locator("table.standings tbody tr")).to_have_count(2)
    page.get_by_role("link", name="Hide provisional players").click()
    page.wait_for_url("**/leaderboards/classic/?provisional=false")
    main = page.locator("main")
    expect(main).to_contain_text(
        "Nobody has played 5 rated races in this pool yet, so every rating here is still"
        " provisional."
    )
    expect(main).not_to_contain_text("No player in this list yet.")
    expect(page.locator("table.standings")).to_have_count(0)
    screenshot(page, "leaderboard-all-provisional-hidden")
    main.get_by_role("link", name="Show provisional players too").last.click()
    expect(page.locator("table.standings tbody tr")).to_have_count(2)
