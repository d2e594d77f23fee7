"""The lobby's race rows in Chromium: what a player reads about a race not open yet."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import expect

from games.services.races import race_create
from tests.browser.conftest import screenshot


def _seconds(countdown: str) -> int:
    """``h:mm:ss`` or ``m:ss``, as app.js writes a countdown, in seconds."""
    parts = [int(p) for p in countdown.split(":")]
    total = 0
    for p in parts:
        total = total * 60 + p
    return total


def test_an_upcoming_race_counts_down_to_joining_then_to_its_start(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """An upcoming race's row said only "starts in", so a player waited for the start to
    join when joining opened an hour earlier.  It now counts down to both, in that order,
    and the two counts are exactly the hour apart that the race's times are (both are read
    from one clock in one tick, so the difference does not depend on when the test runs)."""
    now = timezone.now()
    race_create(
        name="Evening race",
        opens_at=now + timedelta(hours=1),
        starts_at=now + timedelta(hours=2),
        ends_at=now + timedelta(hours=3),
    )
    page.goto(f"{live_server.url}/")
    row = page.locator("li.race", has_text="Evening race")
    when = row.locator(".when")
    expect(when).to_contain_text(re.compile(r"joining opens in \d+:\d\d(:\d\d)? · starts in \d"))
    counts = when.locator("[data-countdown]")
    expect(counts).to_have_count(2)
    expect(counts.nth(0)).to_have_attribute("role", "timer")
    page.wait_for_function(
        "() => [...document.querySelectorAll('li.race .when [data-countdown]')]"
        ".every((el) => /\\d:\\d\\d$/.test(el.textContent))"
    )
    texts = page.evaluate(
        "() => { const els = [...document.querySelectorAll('li.race .when [data-countdown]')];"
        " return els.map((el) => el.textContent); }"
    )
    opens, starts = (_seconds(t) for t in texts)
    assert starts - opens == 3600
    assert 0 < opens <= 3600
    screenshot(page, "lobby-upcoming-race")
