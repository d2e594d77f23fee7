"""An ended game's last word (the board's message) hides no card or control, in Chromium.

On a phone (390 px) the message of a game that has ended (won, out of time, its race
cancelled) lay as a band over the top of the board, over the reserve's top card, the
Draw button (the stock) and the foundations, until the player tapped its close button.
Now an ended board lays its message out in the page's flow, under the counts, and the
board comes below it; on a desktop (1,280 px) it has its own place beside the counts.
Live messages during play stay a band that moves no card (tests/browser/
test_web_phone_band_taps.py, test_web_board_head.py, test_web_band_place.py).
"""

from __future__ import annotations

from collections.abc import Callable
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
from games.services.races import race_join, races_cancel
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

#: A deal the solver wins at once (tests/engine/test_solver.py): base rank ace, the
#: clubs in the reserve, the diamonds on the tableau.
EASY_DECK = " ".join(
    (
        "AD KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC 2D 3D 4D 5D",
        "6D 7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
    )
).split()

#: The board's parts the last word must not cover (CSS selectors inside #board).
PARTS = {
    "reserve top": ".reserve .fan > :last-child",
    "waste": ".fan.waste",
    "Draw button": "[data-stock], [data-action='stock']",
    "foundations": ".foundations .piles4",
    "Reserve heading": "#reserve-h",
    "Stock and waste heading": "#stock-h",
    "Foundations heading": "#found-h",
}


def _won(player: User) -> Game:
    """A practice game won: every move of the solver's line played through the service."""
    game = game_start(player=player, variant="classic", deck=EASY_DECK)
    line = solve(new_game("classic", deck=EASY_DECK), max_seconds=None, max_nodes=100_000)
    for move in line.moves:
        move_play(game_id=game.id, player=player, move=move)
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    return game


def _timed_out(player: User) -> Game:
    """A race game whose time is up (its deadline passed; the race still runs)."""
    race = running_race(name="Time trial")
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    past = race.starts_at + timedelta(seconds=30)
    assert past < timezone.now()
    Game.objects.filter(id=game.id).update(
        deadline=past, status=Game.Status.TIMED_OUT, finished_at=past
    )
    return game


def _cancelled(player: User) -> Game:
    """A race game its race's cancellation ended."""
    race = running_race(name="Called off")
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    races_cancel(race_ids=[race.id], now=race.starts_at + timedelta(seconds=40))
    return game


ENDINGS: dict[str, Callable[[User], Game]] = {
    "won": _won,
    "time-up": _timed_out,
    "cancelled": _cancelled,
}

#: The start of each ending's words, by language.
WORDS = {
    ("won", "en-GB"): "You won: all 52 cards are home",
    ("won", "fr-FR"): "Gagné\u202f! Les 52 cartes sont posées",
    ("time-up", "en-GB"): "Time is up: your game has ended with",
    ("time-up", "fr-FR"): "Le temps est écoulé",
    ("cancelled", "en-GB"): "The organisers cancelled this race",
    ("cancelled", "fr-FR"): "Les organisateurs ont annulé cette course",
}


def _overlap(one: dict[str, float], two: dict[str, float]) -> bool:
    """Whether two bounding boxes overlap (a shared edge is no overlap)."""
    return bool(
        one["y"] < two["y"] + two["height"] - 0.5
        and two["y"] < one["y"] + one["height"] - 0.5
        and one["x"] < two["x"] + two["width"] - 0.5
        and two["x"] < one["x"] + one["width"] - 0.5
    )


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize("ending", list(ENDINGS))
def test_an_ended_games_last_word_hides_no_card_or_control(
    live_server: Any, chromium: Any, transactional_db: Any, ending: str, width: str, locale: str
) -> None:
    player = User.objects.create_user("eve", password=PASSWORD)
    game = ENDINGS[ending](player)
    phone = width == "phone"
    ctx = chromium.new_context(
        viewport=PHONE if phone else DESKTOP,
        has_touch=phone,
        is_mobile=phone,
        locale=locale,
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "eve")
        page.goto(f"{live_server.url}/play/{game.id}/")
        message = page.locator("#board-message")
        expect(message).to_contain_text(WORDS[ending, locale])
        expect(message).to_be_visible()
        screenshot(page, f"last-word-{ending}-{width}-{locale}", full_page=False)
        band = message.bounding_box()
        assert band is not None
        for name, selector in PARTS.items():
            part = page.locator(f"#board {selector}").first
            expect(part).to_be_visible()
            box = part.bounding_box()
            assert box is not None, name
            assert not _overlap(band, box), (name, band, box)
        # The counts are not covered either.
        stats = page.locator("#board .stats").bounding_box()
        assert stats is not None
        assert not _overlap(band, stats), (band, stats)
        # Its close button (or Escape) still takes it away, at the player's choice.
        if locale == "en-GB":
            page.get_by_role("button", name="Hide this message").click()
        else:
            page.keyboard.press("Escape")
        expect(message).to_be_empty()
    finally:
        ctx.close()
