"""In Chromium: a reopened ended game shows its last word under the counts, on screen.

A new user's pass reopened a practice game that had become blocked: its head said only
"Status: blocked" over an empty strip, and why ("The game is blocked: ... Undo takes back
the move ...; Resign ends the game.") was at the board's foot under the tableau, on a
phone (390 px) under the sticky Undo/Hint/Resign bar, off the first screen.  The README
puts an ended game's last word under the counts, as a time-up that happens while the
page is open does.  Every ending (won, blocked, resigned, timed out, race cancelled,
disqualified), opened again at 390 and 1,280 px, now has its words there, once, in
sight without scrolling.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game, RaceEntry
from games.services.games import game_end, game_start, move_play
from games.services.race_admin import race_entry_disqualify
from games.services.races import race_join
from tests.browser.conftest import screenshot
from tests.browser.test_web_last_word import _cancelled, _timed_out, _won
from tests.browser.web_helpers import PASSWORD, log_in
from tests.games.test_undo_blocked import SEED, TO_BLOCKED
from tests.tournaments.factories import running_race

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _blocked(player: User) -> Game:
    """A practice game that became blocked by its last move (which Undo may take back)."""
    game = game_start(player=player, variant="classic", seed=SEED)
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    game.refresh_from_db()
    assert game.status == Game.Status.BLOCKED
    return game


def _resigned(player: User) -> Game:
    game = game_start(player=player, variant="classic", seed="7")
    move_play(game_id=game.id, player=player, move="draw")
    return game_end(game_id=game.id, player=player)


def _disqualified(player: User) -> Game:
    race = running_race(name="Judged")
    entry = race_join(race_id=race.id, player=player).entry
    assert entry.game is not None
    race_entry_disqualify(entry_id=RaceEntry.objects.get(id=entry.id).id, reason="two accounts")
    return entry.game


ENDINGS: dict[str, tuple[Callable[[User], Game], str]] = {
    "won": (_won, "You won: all 52 cards are home"),
    "blocked": (
        _blocked,
        "The game is blocked: drawing and redealing alone can never bring a card that may "
        "be played, so no move is left that changes anything. Undo takes back the move "
        "that blocked it; Resign ends the game.",
    ),
    "resigned": (_resigned, "You resigned: "),
    "time-up": (_timed_out, "Time is up: your game has ended with"),
    "cancelled": (_cancelled, "The organisers cancelled this race"),
    "disqualified": (
        _disqualified,
        "The organisers have disqualified you from this race (two accounts): your game "
        "takes no more moves.",
    ),
}


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("ending", list(ENDINGS))
def test_a_reopened_ended_game_says_why_under_its_counts(
    live_server: Any, chromium: Any, transactional_db: Any, ending: str, width: int
) -> None:
    player = User.objects.create_user("rea", password=PASSWORD)
    make, words = ENDINGS[ending]
    game = make(player)
    phone = width == 390
    ctx = chromium.new_context(
        viewport=PHONE if phone else DESKTOP, has_touch=phone, is_mobile=phone, locale="en-GB"
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "rea")
        page.goto(f"{live_server.url}/play/{game.id}/")
        message = page.locator("#board-message")
        expect(message).to_contain_text(words)
        screenshot(page, f"reopened-{ending}-{width}", full_page=False)
        band = message.bounding_box()
        stats = page.locator("#board .stats").bounding_box()
        reserve = page.locator("#reserve-h").bounding_box()
        assert band is not None
        assert stats is not None
        assert reserve is not None
        # Under the counts on a phone, beside them on a desktop; above the board's areas.
        if phone:
            assert band["y"] >= stats["y"] + stats["height"] - 1, (band, stats)
        else:
            assert band["x"] >= stats["x"] + stats["width"] - 1, (band, stats)
        assert band["y"] + band["height"] <= reserve["y"] + 0.5, (band, reserve)
        # On the first screen, above the sticky controls where they show.
        bottom = float(page.evaluate("window.innerHeight"))
        controls = page.locator(".controls:not(.idle)")
        if controls.count():
            bar = controls.bounding_box()
            assert bar is not None
            bottom = min(bottom, bar["y"])
        assert band["y"] + band["height"] <= bottom, (band, bottom)
        # Said once: not again at the board's foot.
        assert page.locator("#board").inner_text().count(words.split(":")[0] + ":") == 1
    finally:
        ctx.close()
