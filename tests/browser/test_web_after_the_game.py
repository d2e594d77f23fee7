"""What a page shows once a game is over, in Chromium: a race game resigned without a
reload (no countdown, no "Play" on the race page) and a long solution's numbered columns
(each number clear of the column before it), as a walkthrough found them."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.engine import new_game
from games.engine.solver import solve
from games.models import Solve
from games.services.games import game_end, game_start, move_play
from games.services.races import race_join
from games.services.solver import position_key, solve_run
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations
from tests.tournaments.factories import running_race

#: Per list item: its box and where its number ("188. ") starts, measured in its own font.
MARKERS = """
els => {
  const ctx = document.createElement("canvas").getContext("2d");
  return els.map((li, i) => {
    const cs = getComputedStyle(li);
    ctx.font = cs.font;
    const r = li.getBoundingClientRect();
    return {left: r.left, right: r.right, marker: r.left - ctx.measureText((i + 1) + ". ").width};
  });
}
"""


def test_a_resigned_race_game_offers_nothing_more(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    race = running_race(name="Evening race")
    player = User.objects.create_user("rhea", password=PASSWORD)
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    base = live_server.url
    log_in(page, base, "rhea")
    page.goto(f"{base}/play/{game_id}/")
    expect(page.locator("#board")).to_contain_text("Time left")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator('[data-stat="status"]')).to_have_text("resigned")
    # The race runs on for the others; this game's clock is no longer shown.
    expect(page.locator("#board")).not_to_contain_text("Time left")
    expect(page.locator("#board .stats [data-countdown]")).to_have_count(0)
    page.get_by_role("link", name="Race page and standings").click()
    page.wait_for_url(f"{base}/races/{race.id}/")
    expect(page.locator("[data-my-game=over]")).to_have_text(
        "Your game is over: resigned · See your game"
    )
    expect(page.get_by_role("link", name="Play", exact=True)).to_have_count(0)
    assert serious_violations(page) == []
    screenshot(page, "web-race-after-resigning")
    page.get_by_role("link", name="See your game").click()
    page.wait_for_url(f"{base}/play/{game_id}/")


def test_a_long_solution_keeps_each_number_clear_of_the_column_before(
    live_server: Any, page: Any, transactional_db: Any, settings: Any
) -> None:
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound seed 7 never reaches: no clock in play
    player = User.objects.create_user("sol", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    game_end(game_id=game.id, player=player)
    base = live_server.url
    log_in(page, base, "sol")
    with mock.patch("games.services.solver.enqueue_now"):  # the worker is this test
        page.goto(f"{base}/play/{game.id}/solution")
    solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=[]).id)
    page.goto(f"{base}/play/{game.id}/solution")
    items = page.locator("ol.moves li")
    expect(items.first).to_be_visible()
    boxes = items.evaluate_all(MARKERS)
    assert len(boxes) >= 100  # three-digit numbers: the widest that collided
    columns: dict[float, list[dict[str, float]]] = defaultdict(list)
    for box in boxes:
        columns[round(box["left"])].append(box)
    lefts = sorted(columns)
    assert len(lefts) >= 3  # 1,280 px holds several columns
    for before, after in itertools.pairwise(lefts):
        right_edge = max(b["right"] for b in columns[before])
        first_number = min(b["marker"] for b in columns[after])
        assert first_number >= right_edge, (before, after, first_number, right_edge)
    assert min(b["marker"] for b in columns[lefts[0]]) >= 0
    screenshot(page, "web-solution-desktop", full_page=False)


def test_a_game_resigned_after_moves_shows_a_line_from_where_it_stopped(
    live_server: Any, page: Any, transactional_db: Any, settings: Any
) -> None:
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound seed 7 never reaches: no clock in play
    player = User.objects.create_user("stu", password=PASSWORD)
    line = solve(new_game("classic", seed="7"), max_seconds=None).moves
    game = game_start(player=player, variant="classic", seed="7")
    for n, move in enumerate(line[:3]):
        move_play(game_id=game.id, player=player, move=move, expected_move_number=n)
    game_end(game_id=game.id, player=player)
    base = live_server.url
    log_in(page, base, "stu")
    with mock.patch("games.services.solver.enqueue_now"):  # the worker is this test
        page.goto(f"{base}/play/{game.id}/solution")
    expect(page.locator("[data-pending]")).to_contain_text("The solver is working")
    for job in Solve.objects.filter(deal=game.deal):
        solve_run(solve_id=job.id)
    page.goto(f"{base}/play/{game.id}/solution")
    headings = page.get_by_role("heading", level=2)
    expect(headings).to_have_text(["From the deal", "From where your game ended, after 3 moves"])
    rest = Solve.objects.get(deal=game.deal, position_key=position_key(line[:3])).solution
    ended = page.locator("section[aria-labelledby=from-end-h]")
    # Steps (draws in a row taken together) keep the game's move numbers: from move 4.
    expect(ended.locator("ol.moves li .step-meta").first).to_contain_text(
        re.compile(r"^moves? 4\b")
    )
    expect(ended).to_contain_text(
        f"Your game could still have been won from there in {len(rest)} more moves."
    )
    assert serious_violations(page) == []
    screenshot(page, "web-solution-from-where-it-stopped", full_page=True)


@pytest.mark.parametrize(("variant", "width"), [("superior", 1280), ("classic", 360)])
def test_foundations_hold_full_size_cards(
    live_server: Any, chromium: Any, transactional_db: Any, variant: str, width: int
) -> None:
    """Under superior's face-up reserve the foundations were squeezed into one narrow grid
    track on a desktop (their cards drawn narrower than the others)."""
    player = User.objects.create_user("fen", password=PASSWORD)
    game = game_start(player=player, variant=variant, seed="7")
    ctx = chromium.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "fen")
        page.goto(f"{live_server.url}/play/{game.id}/")
        card = page.locator(".tableau .card").first.bounding_box()
        assert card is not None
        slots = page.locator(".foundation").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().width)"
        )
        inner = page.locator(".foundation > .card, .foundation > .slot").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().width)"
        )
        assert len(slots) == len(inner) == 4
        assert min(slots) >= card["width"]
        assert min(inner) >= card["width"] - 0.5, (inner, card)
        screenshot(page, f"web-foundations-{variant}-{width}")
    finally:
        ctx.close()


def test_a_finished_race_page_asks_the_server_nothing_more(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """A walkthrough's finished race page asked for its live part every second, for as
    long as it stayed open (58 requests a minute), after opening a stream that could
    only end at once.  Over, it opens no stream and asks once a minute."""
    from tests.tournaments.factories import Result, finished_race

    race = finished_race(None, Result("ann", 30, 4200), name="Done race")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"{live_server.url}/races/{race.id}/")
    expect(page.locator("#race-live [data-phase]")).to_have_attribute("data-phase", "finished")
    page.wait_for_timeout(4_000)
    live = [u for u in asked if u.endswith("/live") or "/events" in u]
    assert live == []


def test_the_undo_key_in_a_race_without_undo_says_why_nothing_happens(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """A walkthrough pressed U in a race that does not allow undo: nothing happened and
    the board kept its last message."""
    race = running_race(name="No undo race")
    assert not race.allow_undo
    player = User.objects.create_user("ulla", password=PASSWORD)
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    log_in(page, live_server.url, "ulla")
    page.goto(f"{live_server.url}/play/{game_id}/")
    expect(page.locator("[data-action=undo]")).to_have_count(0)
    page.keyboard.press("u")
    expect(page.locator("#board-message")).to_have_text(
        "This game does not allow taking moves back."
    )
    expect(page.locator("#board-message")).to_have_class(re.compile(r"\berror\b"))
