# mypy: disable-error-code="no-untyped-call, attr-defined, misc, arg-type"
"""*Add a tournament* at 1,280 px shows only the chosen scoring scheme's fields: a new
organiser saw "Points per card" and "Win bonus" beside "points by place".  Without
scripts every field stays in sight (the server ignores the other scheme's)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Tournament
from tests.browser.conftest import horizontal_overflow, screenshot
from tests.browser.test_admin_pages import log_in

pytestmark = pytest.mark.django_db(transaction=True)

ROWS = (
    ".form-row.field-points_table",
    ".form-row.field-points_per_card",
    ".form-row.field-win_bonus",
)


def _visible(page: Any) -> list[bool]:
    return [page.locator(row).is_visible() for row in ROWS]


def test_add_tournament_shows_the_chosen_schemes_fields(live_server: Any, chromium: Any) -> None:
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/admin/games/tournament/add/")
        expect(page.locator("#id_scoring")).to_have_value("place_points")
        assert _visible(page) == [True, False, False]
        assert horizontal_overflow(page) == 0
        assert screenshot(page, "admin-tournament-add-place-points").stat().st_size > 1000
        page.select_option("#id_scoring", "cards_home")
        assert _visible(page) == [False, True, True]
        assert horizontal_overflow(page) == 0
        assert screenshot(page, "admin-tournament-add-cards-home").stat().st_size > 1000
        page.fill("#id_name", "Cards Cup")
        page.fill("#id_points_per_card", "2")
        page.fill("#id_win_bonus", "30")
        page.click("input[name=_save]")
        expect(page.locator("ul.messagelist")).to_contain_text("was added successfully")
        t = Tournament.objects.get(name="Cards Cup")
        assert (t.scoring, t.points_per_card, t.win_bonus) == ("cards_home", 2, 30)
    finally:
        ctx.close()


def test_without_scripts_every_scoring_field_stays_in_sight(
    live_server: Any, chromium: Any
) -> None:
    ctx = chromium.new_context(
        viewport={"width": 1280, "height": 900}, locale="en-GB", java_script_enabled=False
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/admin/games/tournament/add/")
        assert _visible(page) == [True, True, True]
        help_texts = page.locator(".form-row.field-win_bonus .help").inner_text()
        assert help_texts == "cards home scheme: extra points for a won game"
    finally:
        ctx.close()
