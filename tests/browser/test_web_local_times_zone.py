# mypy: disable-error-code="misc"
"""In Chromium: the pages' local times name their time zone, so a race across a change of
summer time reads right.

A race of 45 minutes from 00:30 to 01:15 UTC on the last Sunday of October, seen in
Paris (the clocks go back from 03:00 CEST to 02:00 CET at 01:00 UTC), read "Starts ...
02:30:00" and "Ends ... 02:15:00": it ended before it started, as far as the page said.
app.js now writes each time with its zone ("02:30:00 CEST", "02:15:00 CET"); the server's
text, before the script runs, stays UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.services.races import race_create


def _clocks_go_back(year: int) -> datetime:
    """01:00 UTC on the last Sunday of October of ``year`` (the EU's end of summer time)."""
    day = datetime(year, 10, 31, 1, tzinfo=UTC)
    return day - timedelta(days=(day.weekday() + 1) % 7)


@pytest.mark.parametrize(
    ("locale", "times"),
    [
        (
            "en-GB",  # the page's language is English ("en"): its format
            [
                "{eve:%b %-d, %Y}, 3:00:00 AM GMT+2",
                "{day:%b %-d, %Y}, 2:30:00 AM GMT+2",
                "{day:%b %-d, %Y}, 2:30:00 AM GMT+2",
                "{day:%b %-d, %Y}, 2:15:00 AM GMT+1",
            ],
        ),
        (
            "de-DE",
            [
                "{eve:%d.%m.%Y}, 03:00:00 MESZ",
                "{day:%d.%m.%Y}, 02:30:00 MESZ",
                "{day:%d.%m.%Y}, 02:30:00 MESZ",
                "{day:%d.%m.%Y}, 02:15:00 MEZ",
            ],
        ),
    ],
)
@pytest.mark.django_db(transaction=True)
def test_a_race_across_the_change_of_time_reads_in_order(
    live_server: Any, chromium: Any, locale: str, times: list[str]
) -> None:
    change = _clocks_go_back(timezone.now().year + 1)
    race = race_create(
        name="Across the change",
        opens_at=change - timedelta(days=1),
        starts_at=change - timedelta(minutes=30),
        ends_at=change + timedelta(minutes=15),
    )
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900}, locale=locale, timezone_id="Europe/Paris"
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/races/{race.id}/")
        # Joining opens (the day before), starts, joining closes (at the start), ends:
        # without the zones the last read 02:15:00, before the start's 02:30:00.
        shown = page.locator("dl.facts time[data-local=seconds]")
        eve = change - timedelta(days=1)
        expect(shown).to_have_text([t.format(day=change, eve=eve) for t in times])
    finally:
        context.close()
