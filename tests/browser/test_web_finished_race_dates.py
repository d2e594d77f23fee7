# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""Finished races say when they ended, in Chromium at 390 px: the lobby's "Recently
finished" and a tournament page's "Past" rows gave names alone.  The ``<time>`` reads in
the page's language and the viewer's time zone, named (app.js, as the other pages'
times), and the row still fits the phone's width."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Race
from tests.browser.conftest import screenshot
from tests.tournaments.factories import Result, TournamentFactory, finished_race

ENDS = datetime(2026, 3, 14, 15, 9, tzinfo=UTC)  # 16:09 in Paris and Berlin (CET)


def _fixed(race: Race) -> None:
    Race.objects.filter(id=race.id).update(
        opens_at=ENDS - timedelta(minutes=6),
        starts_at=ENDS - timedelta(minutes=5),
        ends_at=ENDS,
        closed_at=ENDS + timedelta(seconds=40),  # the sweep, a moment after the end
    )


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        # With the zone's name, as the language writes it (app.js).
        ("en-GB", re.compile(r"ended Mar 14, 2026, 4:09\s?PM\sGMT\+1$")),  # the page's "en"
        ("fr-FR", re.compile(r"terminée le 14 mars 2026, 16:09\sUTC\+1$")),
        ("es-ES", re.compile(r"terminó el 14 mar 2026, 16:09\sCET$")),
        ("de-DE", re.compile(r"beendet am 14\.03\.2026, 16:09\sMEZ$")),
    ],
)
def test_past_races_say_when_they_ended(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str, said: str | re.Pattern[str]
) -> None:
    tournament = TournamentFactory(name="Copa")
    race = finished_race(tournament, Result("ana", 5, 40_000), name="Heat one")
    _fixed(race)
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, locale=locale, timezone_id="Europe/Paris"
    )
    try:
        page = context.new_page()
        for url, where in [("/", "lobby"), (f"/tournaments/{tournament.id}/", "tournament")]:
            page.goto(f"{live_server.url}{url}")
            row = page.locator("main ul.list li", has_text="Heat one")
            ended = row.locator("[data-ended]")
            expect(ended).to_have_text(said)
            time = ended.locator("time")
            assert time.get_attribute("datetime") == "2026-03-14T15:09:00+00:00"
            row_box, ended_box = row.bounding_box(), ended.bounding_box()
            assert ended_box["x"] + ended_box["width"] <= row_box["x"] + row_box["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            row.scroll_into_view_if_needed()
            screenshot(page, f"finished-race-date-{where}-{locale}-390", full_page=False)
    finally:
        context.close()
