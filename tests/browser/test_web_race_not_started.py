"""A move from the play page answered "race not started", in Chromium.

The server answers such a move (a race game before its race's start) with a redirect to
the race page, whose message says why: ``204`` with ``HX-Redirect`` for the page's own
requests (``web.views.play._until_started``).  htmx follows it for the typed move; a
click or a key goes through the page's own ``fetch`` (``app.js`` ``send``), which showed
an empty error instead and stayed on the board.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, Race
from games.services.races import race_join
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["click", "key", "typed"])
def test_a_move_before_the_race_starts_goes_to_the_race_page(
    live_server: Any, page: Any, how: str
) -> None:
    race = running_race(name="Early race")
    player = User.objects.create_user("rho", password=PASSWORD)
    entry = race_join(race_id=race.id, player=player).entry
    game_id = entry.game_id
    assert game_id is not None
    base = live_server.url
    log_in(page, base, "rho")
    page.goto(f"{base}/play/{entry.game_id}/")
    expect(page.locator("#board")).to_have_attribute("data-move-number", "0")
    # The page's board is from a running race; the race now starts in an hour (as if
    # the board were drawn by a clock ahead of the server's): every move is refused
    # with race_not_started.
    later = timezone.now() + timedelta(hours=1)
    Race.objects.filter(id=race.id).update(
        opens_at=later - timedelta(minutes=1), starts_at=later, ends_at=later + timedelta(minutes=5)
    )
    Game.objects.filter(id=game_id).update(started_at=later, deadline=later + timedelta(minutes=5))
    if how == "click":
        page.click("#board [data-action=stock]")
    elif how == "key":
        page.keyboard.press("d")
    else:
        page.click("details.typed summary")
        page.fill("#typed-move", "draw")
        page.press("#typed-move", "Enter")
    expect(page).to_have_url(f"{base}/races/{race.id}/")
    expect(page.locator("ul.messages")).to_have_text("The race has not started yet.")
    assert Game.objects.get(id=game_id).move_number == 0
