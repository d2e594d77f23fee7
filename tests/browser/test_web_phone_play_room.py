# mypy: disable-error-code="misc"
"""On a phone (360 and 390 px wide, 844 px high), in Chromium: the play page leaves the
tableau in sight above its sticky Undo / Resign bar.

A new user's race game at 390 px in French had its tableau's bottom cards half hidden
behind "Annuler un coup / Abandonner", and a card scrolled into view stopped behind the
bar.  Now a usual tableau (a pile of three cards) is in sight without scrolling (with
the header's two lines, tests/browser/test_web_phone_header_lines.py, and a tighter
title), and a long pile's last card is scrolled into view above the bar.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.engine import legal_moves, new_game, play
from games.services.games import move_play
from games.services.races import race_join
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race


def _grow(seed: str, target: int) -> list[str]:
    """Moves from the deal of ``seed`` that put cards on the tableau (a move that adds a
    card to it when there is one, else draw or redeal) until a pile holds ``target``."""
    state = new_game("classic", seed=seed)
    moves: list[str] = []
    while max(len(p) for p in state.tableau) < target:
        legal = legal_moves(state)
        chosen = None
        for move in legal:
            if ">t" in move:
                after = state.copy()
                play(after, move)
                if sum(map(len, after.tableau)) > sum(map(len, state.tableau)):
                    chosen = move
                    break
        if chosen is None:
            chosen = "draw" if "draw" in legal else "redeal"
        play(state, chosen)
        moves.append(chosen)
        assert len(moves) < 120, "the seed no longer grows a pile"
    return moves


def _race_game(monkeypatch: pytest.MonkeyPatch, seed: str, target: int) -> Any:
    """A running race game with Undo (the bar: Undo, Resign) whose longest pile holds
    ``target`` cards, for the player "bob"."""
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: seed)
    race = running_race(name="Saturday Cup #1", allow_undo=True)
    player = User.objects.create_user("bob", password=PASSWORD)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    for move in _grow(seed, target):
        move_play(game_id=game.id, player=player, move=move)
    return game


_LAST_CARDS = """() => {
  const bar = document.querySelector('.controls').getBoundingClientRect();
  return {bar: bar.top, barBottom: bar.bottom, cards: [...document.querySelectorAll(
    '#board .pile .stack-cards')].map(p => p.lastElementChild.getBoundingClientRect().bottom)};
}"""


@pytest.mark.parametrize("width", [390, 360])
def test_a_usual_tableau_is_in_sight_above_the_bar(
    live_server: Any,
    chromium: Any,
    transactional_db: Any,
    monkeypatch: pytest.MonkeyPatch,
    width: int,
) -> None:
    game = _race_game(monkeypatch, "1", 3)
    ctx = chromium.new_context(
        viewport={"width": width, "height": 844}, has_touch=True, is_mobile=True, locale="fr-FR"
    )
    try:
        page = ctx.new_page()
        log_in(page, live_server.url, "bob")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.wait_for_selector("#board[data-move-url]")
        seen = page.evaluate(_LAST_CARDS)
        assert seen["barBottom"] <= 844 + 1  # the bar in sight, stuck or in its place
        assert max(seen["cards"]) <= seen["bar"], seen  # every pile's last card above it
        screenshot(page, f"play-phone-tableau-above-bar-fr-{width}", full_page=False)
    finally:
        ctx.close()


def test_a_long_pile_scrolls_into_view_above_the_bar(
    live_server: Any, chromium: Any, transactional_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _race_game(monkeypatch, "3", 10)
    ctx = chromium.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="fr-FR"
    )
    try:
        page = ctx.new_page()
        log_in(page, live_server.url, "bob")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.wait_for_selector("#board[data-move-url]")
        piles = page.locator("#board .pile .stack-cards")
        longest = max(range(4), key=lambda i: piles.nth(i).locator("> *").count())
        assert piles.nth(longest).locator("> *").count() == 10
        last = piles.nth(longest).locator("> *").last
        # Scrolled into view as little as needed (as Tab from the card above, or a
        # script's scrollIntoView, does), it stops above the bar, not behind it.
        last.evaluate("e => e.scrollIntoView({block: 'nearest'})")
        assert page.evaluate("() => scrollY") > 0
        box = last.bounding_box()
        bar = page.locator(".controls").bounding_box()
        assert box is not None
        assert bar is not None
        assert box["y"] + box["height"] <= bar["y"], (box, bar)
        assert box["y"] >= 0
        screenshot(page, "play-phone-long-pile-focused-fr-390", full_page=False)
        # Scrolled to the page's end, the whole pile is above the bar too.
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        seen = page.evaluate(_LAST_CARDS)
        assert max(seen["cards"]) <= seen["bar"], seen
    finally:
        ctx.close()
