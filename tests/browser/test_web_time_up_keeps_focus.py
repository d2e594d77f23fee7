"""A race game's time running out with the keyboard's focus on the board, in Chromium.

At its deadline the play page draws the board again by itself (the countdown's
``data-refresh-board``, ``app.js`` ``refreshBoard``): the game over has no buttons left,
so the focused pile button went with the old board and focus fell to the page's body; a
keyboard user had to Tab from the top of the page again to find out what happened. Now
focus that was in the board goes to the same card or button when the new board has it,
else to the board's message, which says that the time is up. The page's clock is
Playwright's, moved by the test past the race's end.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from games.services.races import race_join
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_focus_goes_to_the_last_word_when_the_time_is_up(
    live_server: Any, chromium: Any, width: int
) -> None:
    race = running_race(name="Against the clock")  # ends in five minutes
    player = User.objects.create_user("tess", password=PASSWORD)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    context = chromium.new_context(viewport={"width": width, "height": 844}, locale="en-GB")
    try:
        page = context.new_page()
        log_in(page, live_server.url, "tess")
        start = timezone.now()
        page.clock.install(time=start)
        page.clock.pause_at(start + timedelta(seconds=1))
        page.goto(f"{live_server.url}/play/{game.id}/")
        pile = page.locator('[data-key="pile-t1"]')
        pile.focus()
        expect(pile).to_be_focused()
        # The server's side of the deadline: the game is over, out of time.
        past = race.starts_at + timedelta(seconds=30)
        Game.objects.filter(id=game.id).update(
            deadline=past, status=Game.Status.TIMED_OUT, finished_at=past
        )
        page.clock.run_for(6 * 60 * 1000)  # the page's countdown reaches the race's end
        status = page.locator('[data-stat="status"]')
        expect(status).to_have_text("timed out")
        message = page.locator("#board-message")
        expect(message).to_contain_text("Time is up")
        expect(message).to_be_focused()
        expect(page.locator("#announcer")).to_contain_text("Time is up")
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_focus_outside_the_board_stays_where_it_is(live_server: Any, page: Any) -> None:
    race = running_race(name="Header race")
    player = User.objects.create_user("theo", password=PASSWORD)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    log_in(page, live_server.url, "theo")
    start = timezone.now()
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))
    page.goto(f"{live_server.url}/play/{game.id}/")
    lobby = page.locator("header.site a", has_text="Lobby")
    lobby.focus()
    past = race.starts_at + timedelta(seconds=30)
    Game.objects.filter(id=game.id).update(
        deadline=past, status=Game.Status.TIMED_OUT, finished_at=past
    )
    page.clock.run_for(6 * 60 * 1000)
    expect(page.locator("#board-message")).to_contain_text("Time is up")
    expect(lobby).to_be_focused()
