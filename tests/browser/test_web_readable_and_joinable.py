# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined"
"""What a new user's walkthrough saw: a superior reserve whose suits were covered, a long
disqualification reason that widened the race page, Join buttons where joining was
impossible, and a play page that never noticed its race had finished."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in

# For every reserve card: is the middle of its rank and of its suit symbol drawn by that
# card (not covered by the next one)?  [rank, suit, rank seen, suit seen] per card.
SEEN = """els => els.map(c => {
  const seen = s => { const r = c.querySelector(s).getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return at !== null && c.contains(at); };
  return [c.querySelector('.rank').textContent, c.querySelector('.suit').textContent,
          seen('.rank'), seen('.suit')];
})"""


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_every_superior_reserve_card_shows_its_rank_and_suit(
    live_server: Any, chromium: Any, transactional_db: Any, width: int
) -> None:
    """Superior's 13 face-up reserve cards overlapped so that only a rank and a colour
    showed: 7 of clubs looked like 7 of spades.  Every one shows both, only the top card
    is a button, and the page is no wider than the screen."""
    player = User.objects.create_user("sup", password=PASSWORD)
    game = game_start(player=player, variant="superior", seed="12345")
    ctx = chromium.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "sup")
        page.goto(f"{live_server.url}/play/{game.id}/")
        cards = page.locator(".area.reserve .fan > .card")
        expect(cards).to_have_count(13)
        seen = cards.evaluate_all(SEEN)
        assert [s for s in seen if not (s[2] and s[3])] == []
        assert page.locator(".area.reserve button.card").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"web-superior-reserve-{width}")
    finally:
        ctx.close()


def test_long_typed_text_wraps_on_a_phone(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """A 300-character disqualification reason without a space made a phone's race page
    2,868 px wide; long race, tournament and player names did the same.  Every page stays
    within the screen's 390 px."""
    from games.services.race_admin import race_entry_disqualify
    from tests.tournaments.factories import Result, TournamentFactory, finished_race, play

    long_name = "W" * 150  # the longest username
    player = User.objects.create_user(long_name, password=PASSWORD)
    cup = TournamentFactory(name="T" * 120)
    done = finished_race(cup, Result(player, 30, 4200), name="R" * 120)
    entry = done.entries.get(player=player)
    race_entry_disqualify(entry_id=entry.id, reason="x" * 300)
    from tests.tournaments.factories import running_race

    running = running_race(cup, name="N" * 120)
    mine = play(running, Result(player, 3, 1000))
    ctx = chromium.new_context(viewport={"width": 390, "height": 800})
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, long_name)
        for name, url in (
            ("lobby", "/"),
            ("race-dq", f"/races/{done.id}/"),
            ("results", f"/races/{done.id}/results"),
            ("race-running", f"/races/{running.id}/"),
            ("play", f"/play/{mine.game_id}/"),
            ("tournament", f"/tournaments/{cup.id}/"),
            ("player", f"/players/{long_name}/"),
        ):
            page.goto(live_server.url + url)
            screenshot(page, f"web-long-text-{name}-390")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert (name, wide) == (name, 390)
        page.goto(f"{live_server.url}/races/{done.id}/")
        expect(page.locator("main")).to_contain_text("x" * 300)
    finally:
        ctx.close()
