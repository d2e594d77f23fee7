"""The play page's keyboard shortcuts keep each key combination on one line, in Chromium.

At 390 px the German "Umschalt+1 to 4" (Shift, then 1 and 4 with an en dash between
them) broke after the dash, the "4" alone on a second line. Each row's keys are one piece
now (``white-space: nowrap``), and the table still fits the screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.conftest import horizontal_overflow, screenshot
from tests.browser.web_helpers import PASSWORD, log_in


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("locale", "shift"), [("de-DE", "Umschalt"), ("fr-FR", "Maj")])
def test_each_shortcut_is_one_line_at_390(
    live_server: Any, chromium: Any, locale: str, shift: str
) -> None:
    player = User.objects.create_user("kai", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    try:
        page = context.new_page()
        log_in(page, live_server.url, "kai")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.locator("#shortcuts summary").click()
        keys = page.locator("#shortcuts table th[scope=row]")
        expect(keys.nth(1)).to_contain_text(shift)
        # Every key of a row (each <kbd>) sits on the same line as the row's first key.
        lines = keys.evaluate_all(
            """ths => ths.map(th => new Set([...th.querySelectorAll("kbd")].map(
                 k => Math.round(k.getBoundingClientRect().top))).size)"""
        )
        assert lines == [1] * keys.count()
        assert horizontal_overflow(page) == 0
        keys.nth(1).scroll_into_view_if_needed()
        screenshot(page, f"shortcut-keys-{locale}-390", full_page=False)
    finally:
        context.close()
