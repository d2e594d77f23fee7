# mypy: disable-error-code="no-untyped-call, attr-defined, misc, arg-type"
"""A tournament's page in the admin on a phone (390 px): the two CSV export buttons
each keep their own box.  The second ("Races, with the seeds of finished and cancelled
races") wraps there, and as an inline link its second line was drawn over the first
button ("Standings"), whose label it cut."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import horizontal_overflow, screenshot
from tests.browser.test_admin_pages import log_in
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two bounding boxes (x, y, width, height in px) share any area."""
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_the_export_buttons_do_not_overlap_on_a_phone(
    live_server: Any, chromium: Any, locale: str
) -> None:
    cup = TournamentFactory(name="Phone cup")
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/admin/games/tournament/{cup.pk}/change/")
        buttons = page.locator(".field-exports a.button")
        assert buttons.count() == 2
        first, second = (buttons.nth(i).bounding_box() for i in range(2))
        assert first is not None
        assert second is not None
        assert not _overlap(first, second)
        assert second["x"] + second["width"] <= 390
        assert horizontal_overflow(page) == 0
        screenshot(page, f"admin-tournament-exports-{locale}-390")
    finally:
        ctx.close()
