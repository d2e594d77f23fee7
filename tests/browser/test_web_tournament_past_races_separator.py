# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""A tournament page's past races on a phone, in Chromium: no line starts with a stray "·".

Each past race is a flex row (``.list li``: the race's link, when it ended, then
"Results" or "cancelled", separated by the row's gap, as the lobby's race rows are).
The " · " text
between them was a flex item of its own: where the race's name filled the line, the dot
wrapped and began the next line ("· Resultados"). The dot is gone; the row's gap
separates them, and what follows the name starts its line.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.tournaments.factories import Result, TournamentFactory, finished_race

NAME = "Copa de invierno \u2014 Wintercup mit einem sehr langen Namen #1"


def test_no_line_starts_with_a_dot(live_server: Any, chromium: Any, transactional_db: Any) -> None:
    tournament = TournamentFactory(name="Copa")
    finished_race(tournament, Result("ana", 5, 40_000), name=NAME)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/tournaments/{tournament.id}/")
        item = page.locator("main ul.list li", has_text=NAME)
        results = item.get_by_role("link", name="Resultados")
        expect(results).to_be_visible()
        assert "\u00b7" not in item.inner_text()
        # What follows the name (when the race ended, then "Results": tests/web/
        # test_finished_race_dates.py) starts its line, with no dot before it.
        name_box = item.get_by_role("link", name=NAME).bounding_box()
        ended_box = item.locator("small:has([data-ended])").bounding_box()
        results_box = results.bounding_box()
        item_box = item.bounding_box()
        assert name_box is not None
        assert ended_box is not None
        assert results_box is not None
        assert item_box is not None
        assert ended_box["y"] > name_box["y"] + name_box["height"] / 2  # wrapped: the case
        assert ended_box["x"] == item_box["x"]  # at the start of its line
        # "Results" after it: beside it or on the line below.
        assert results_box["x"] > ended_box["x"] + ended_box["width"] or (
            results_box["y"] > ended_box["y"] + ended_box["height"] / 2
        )
        item.scroll_into_view_if_needed()
        screenshot(page, "tournament-past-races-es-390", full_page=False)
    finally:
        context.close()
