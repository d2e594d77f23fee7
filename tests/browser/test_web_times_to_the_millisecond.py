# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""What a person sees in Chromium: two entrants ranked 1 and 2 by a time 29 ms apart
read two different times on the results page and the tournament page, on a desktop
and on a phone (both read "17.4" and "17.4 s" when times were shown in tenths)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.models import Tournament
from tests.browser.conftest import horizontal_overflow, screenshot
from tests.tournaments.factories import Result, TournamentFactory, finished_race


def test_times_that_break_a_tie_read_differently(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    cup = TournamentFactory(
        name="Close cup", scoring=Tournament.Scoring.CARDS_HOME, points_per_card=1, win_bonus=20
    )
    race = finished_race(cup, Result("ann", 14, 17_389), Result("bob", 14, 17_418), name="R1")
    for locale, width, ann, bob in (
        ("en-GB", 1280, "17.389", "17.418"),
        ("es-ES", 390, "17,389", "17,418"),
    ):
        ctx = chromium.new_context(viewport={"width": width, "height": 844}, locale=locale)
        page = ctx.new_page()
        page.goto(f"{live_server.url}/races/{race.id}/results")
        rows = page.locator("main table tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text(ann)
        expect(rows.nth(1)).to_contain_text(bob)
        screenshot(page, f"results-ms-{locale}-{width}")
        page.goto(f"{live_server.url}/tournaments/{cup.id}/")
        cells = page.locator("table.standings tbody td[data-time-ms]")
        assert cells.all_inner_texts() == [f"{ann}\xa0s", f"{bob}\xa0s"]
        assert not horizontal_overflow(page)
        screenshot(page, f"tournament-ms-{locale}-{width}")
        ctx.close()
