# mypy: disable-error-code="no-untyped-call, attr-defined, misc, arg-type"
"""The race list at 1,280 px: each Starts and Ends cell takes two lines at most (the
date, then the time with its zone); a new organiser saw "2026-12-05" / "05:27:00" / "UTC"
and, in French, "2026-12-" / "05" / "05:27:00" / "UTC"."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import horizontal_overflow, screenshot
from tests.browser.test_admin_pages import log_in
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race

pytestmark = pytest.mark.django_db(transaction=True)

#: Each date cell's lines: the distinct tops of its pieces, and whether a piece broke.
LINES = """() => [...document.querySelectorAll(
    '#result_list td.field-starts, #result_list td.field-ends')].map(td => {
    const pieces = [...td.querySelectorAll('span.nowrap')];
    return {
        pieces: pieces.length,
        broken: pieces.filter(s => s.getClientRects().length !== 1).length,
        lines: new Set(pieces.map(s => Math.round(s.getBoundingClientRect().top))).size,
        height: td.getBoundingClientRect().height,
    };
})"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_race_list_dates_take_two_lines_at_most(
    live_server: Any, chromium: Any, locale: str
) -> None:
    t = TournamentFactory(name="Saturday Cup")
    finished_race(t, Result("ann", 30, 1000), name="Saturday Cup #1")
    race = running_race(t, name="Saturday Cup #2")
    play(race, Result("bob", 12, 900))
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/admin/games/race/")
        expect(page.locator("#result_list tbody tr")).to_have_count(2)
        cells = page.evaluate(LINES)
        assert len(cells) == 4
        for cell in cells:
            assert cell["pieces"] == 2
            assert cell["broken"] == 0
            assert cell["lines"] <= 2
        assert horizontal_overflow(page) == 0
        assert screenshot(page, f"admin-race-list-dates-{locale}").stat().st_size > 1000
    finally:
        ctx.close()
