"""Each outcome on the play page is in one live region only, in Chromium.

The board's message (``#board-message``) was a polite live region (``role="status"``)
and comes back with the board, swapped in whole after every move, Undo, Hint or the
time running out; ``#announcer``, the live region that stays on the page, carries the
same words (``app.js`` ``announce``). A screen reader that reads a live region added to
the page (several do) said each outcome twice. Now ``#announcer`` is the play page's one
live region for the board: the message still shows (a refusal, a win, the time up) but
is no live region, and the words the page writes on the board itself (a selection's
"now choose a destination", "Choose a card first.") are said through ``#announcer`` too.
A race game over notes that the results come later: that note was a live region of its
own, added with the board; ``#announcer`` says it after the board's message. When the
race then finishes, the board drawn again said the time-up words once more (or nothing
new): it now says what is new, the links to the replay and the results.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import new_game
from games.engine.solver import solve
from games.models import Game
from games.services.games import game_start, move_play
from games.services.races import race_close, race_join
from tests.browser.test_web_last_word import EASY_DECK
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race

#: The live regions of the page (by id, else class) whose text holds the given words:
#: an aria-live other than "off", or a role that is live by itself.
_CARRIERS = """(words) => Array.from(document.querySelectorAll(
    '[aria-live], [role=status], [role=alert], [role=log], [role=marquee]'))
  .filter((el) => el.getAttribute('aria-live') !== 'off')
  .filter((el) => el.textContent.replace(/\\s+/g, ' ').includes(words))
  .map((el) => el.id || el.className)"""


def _carriers(page: Any, words: str) -> list[str]:
    return list(page.evaluate(_CARRIERS, words))


@pytest.mark.django_db(transaction=True)
def test_moves_refusals_and_the_pages_own_words_are_said_once(live_server: Any, page: Any) -> None:
    player = User.objects.create_user("una", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    log_in(page, live_server.url, "una")
    page.goto(f"{live_server.url}/play/{game.id}/")
    message = page.locator("#board-message")
    announcer = page.locator("#announcer")
    # The page's own words: a selection.
    page.keyboard.press("1")
    expect(message).to_contain_text("now choose a destination")
    expect(announcer).to_contain_text("now choose a destination")
    assert _carriers(page, "now choose a destination") == ["announcer"]
    # A refusal from the server (the top card of pile 1 onto pile 1), still shown.
    page.keyboard.press("1")
    expect(message).to_contain_text("Refused:")
    expect(message).to_be_visible()
    expect(announcer).to_have_text(message.inner_text().strip())
    assert _carriers(page, "Refused:") == ["announcer"]
    # "Choose a card first." (H with nothing selected).
    page.keyboard.press("h")
    expect(message).to_have_text("Choose a card first.")
    expect(announcer).to_have_text("Choose a card first.")
    assert _carriers(page, "Choose a card first.") == ["announcer"]
    # A move played (a draw).
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    drew = message.inner_text().strip()
    assert drew.startswith("Drew ")
    expect(announcer).to_have_text(drew)
    assert _carriers(page, drew) == ["announcer"]
    # Escape empties the message and says nothing new.
    page.keyboard.press("Escape")
    expect(message).to_be_empty()
    expect(announcer).to_have_text(drew)


@pytest.mark.django_db(transaction=True)
def test_a_win_is_said_once(live_server: Any, page: Any) -> None:
    player = User.objects.create_user("wyn", password=PASSWORD)
    game = game_start(player=player, variant="classic", deck=EASY_DECK)
    line = solve(new_game("classic", deck=EASY_DECK), max_seconds=None, max_nodes=100_000)
    *before, last = line.moves
    for n, mv in enumerate(before):
        move_play(game_id=game.id, player=player, move=mv, expected_move_number=n)
    log_in(page, live_server.url, "wyn")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.click("details.typed summary")
    page.fill("#typed-move", last)
    page.press("#typed-move", "Enter")
    message = page.locator("#board-message")
    expect(message).to_contain_text("You won: all 52 cards are home")
    expect(message).to_be_visible()
    expect(page.locator("#announcer")).to_have_text(message.inner_text().strip())
    assert _carriers(page, "You won") == ["announcer"]


@pytest.mark.django_db(transaction=True)
def test_the_time_up_and_the_results_note_are_said_once(live_server: Any, page: Any) -> None:
    race = running_race(name="Said once")  # ends in five minutes
    player = User.objects.create_user("tia", password=PASSWORD)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    log_in(page, live_server.url, "tia")
    start = timezone.now()
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))
    page.goto(f"{live_server.url}/play/{game.id}/")
    past = race.starts_at + timedelta(seconds=30)
    Game.objects.filter(id=game.id).update(
        deadline=past, status=Game.Status.TIMED_OUT, finished_at=past
    )
    page.clock.run_for(6 * 60 * 1000)  # the page's countdown reaches the race's end
    message = page.locator("#board-message")
    expect(message).to_contain_text("Time is up")
    expect(message).to_be_visible()
    note = "Your game is over. The results, the seed and the replays appear"
    expect(page.locator("#board .after")).to_contain_text(note)
    announcer = page.locator("#announcer")
    expect(announcer).to_contain_text("Time is up")
    expect(announcer).to_contain_text(note)
    assert "To the race page" not in (announcer.text_content() or "")
    assert _carriers(page, "Time is up") == ["announcer"]
    assert _carriers(page, note) == ["announcer"]
    # The race finishes: the board waiting for the results asks again (every 10 s) and
    # says what is new, the revealed deal's links, not the time-up words once more.
    assert race_close(race_id=race.id, now=race.ends_at + timedelta(seconds=1)) == "finished"
    page.clock.run_for(11_000)
    expect(page.locator("#board .after")).to_contain_text("The deal is revealed")
    page.clock.run_for(100)  # htmx settles the new board after a timer (20 ms)
    expect(announcer).to_have_text("The deal is revealed: Replay · Results · Back to the lobby")
    expect(message).to_contain_text("Time is up")
    assert _carriers(page, "The deal is revealed") == ["announcer"]
