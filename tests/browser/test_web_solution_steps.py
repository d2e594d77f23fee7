"""A long solution as a person reads it, in Chromium: draws in a row are one numbered
step ("draw from the stock 7 times"), each step shows, on a line of its own under what to
do, the game's move numbers it covers and the cards home after it, and the line's move
count (every draw and redeal counted) is still stated exactly (a new user found 396
moves listed one by one, most of them "draw from the stock")."""

from __future__ import annotations

import itertools
import re
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.engine import new_game
from games.models import Solve
from games.services.games import game_end, game_start
from games.services.solver import solve_run
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations

#: What each language's step says: draws under draw three, its numbers, its cards home.
WORDS = {
    "en-GB": (
        r"draw from the stock (\d+) times",
        r"moves? (\d+)(?:\u2013(\d+))? \u00b7 (\d+) cards? home",
    ),
    "fr-FR": (
        r"tirer (\d+) fois du talon",
        r"coups? (\d+)(?: à (\d+))? \u00b7 (\d+) cartes? posées?",
    ),
}


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_long_solution_reads_as_numbered_steps_with_draws_together(
    live_server: Any, chromium: Any, transactional_db: Any, settings: Any, locale: str
) -> None:
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound seed 7 never reaches: no clock in play
    player = User.objects.create_user("ste", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")  # draw three
    game_end(game_id=game.id, player=player)
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = ctx.new_page()
    try:
        base = live_server.url
        log_in(page, base, "ste")
        with mock.patch("games.services.solver.enqueue_now"):  # the worker is this test
            page.goto(f"{base}/play/{game.id}/solution")
        line = solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=[]).id).solution
        page.goto(f"{base}/play/{game.id}/solution")
        if locale == "en-GB":
            expect(page.locator("main")).to_contain_text(
                f"The deal can be won in {len(line)} moves."
            )
        else:
            expect(page.locator("main")).to_contain_text(
                f"La donne peut être gagnée en {len(line)} coups."
            )
        items = page.locator("ol.steps > li")
        expect(items.first).to_be_visible()
        texts = items.evaluate_all(
            "els => els.map(li => [li.querySelector('.step-words').innerText,"
            " li.querySelector('.step-meta').innerText])"
        )
        # What the stored line says each step should be: runs of draws, other moves alone.
        runs: list[tuple[str, int]] = []
        for move, run in itertools.groupby(line):
            count = len(list(run))
            runs += [(move, count)] if move == "draw" else [(move, 1)] * count
        assert len(texts) == len(runs) < len(line) * 3 // 4
        draws_re, meta_re = (re.compile(w) for w in WORDS[locale])
        state, done = new_game("classic", seed="7"), 0
        for (words, meta), (move, count) in zip(texts, runs, strict=True):
            for _ in range(count):
                state.play(move)
            m = meta_re.fullmatch(meta)
            assert m is not None, meta
            first, last, home = int(m[1]), int(m[2] or m[1]), int(m[3])
            assert (first, last, home) == (done + 1, done + count, state.cards_home), meta
            if move == "draw" and count > 1:
                d = draws_re.fullmatch(words)
                assert d is not None, words
                assert int(d[1]) == count, words
            done += count
        assert done == len(line)  # every move counted, draws and redeals too
        assert state.cards_home == 52
        grouped = [i for i, (move, count) in enumerate(runs) if move == "draw" and count > 1]
        assert grouped  # this line has draws in a row to take together
        # Under what to do, on a line of its own: the numbers a player follows.
        step = items.nth(grouped[0])
        words_box = step.locator(".step-words").bounding_box()
        meta_box = step.locator(".step-meta").bounding_box()
        assert words_box is not None
        assert meta_box is not None
        assert meta_box["y"] >= words_box["y"] + words_box["height"] - 1
        assert serious_violations(page) == []
        screenshot(page, f"solution-steps-{locale}-1280", full_page=True)
    finally:
        ctx.close()
