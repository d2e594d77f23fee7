"""A form sent from a page left open across a log-in in another tab, in Chromium.

Logging in again in a second tab changes the CSRF token; the practice form of the lobby
still open in the first tab then fails Django's CSRF check. That answered Django's bare
page (no header, ``lang="en"`` around German words, "More information is available with
DEBUG=True."); it is the site's page now (``web.csrf``), in the page's language, that
says what to do, and it passes axe-core.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations


@pytest.mark.django_db(transaction=True)
def test_a_stale_form_gets_the_sites_page(live_server: Any, chromium: Any) -> None:
    User.objects.create_user("lena", password=PASSWORD)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    try:
        first = context.new_page()
        log_in(first, live_server.url, "lena")  # the lobby, with the practice form
        second = context.new_page()
        second.goto(f"{live_server.url}/")
        second.get_by_role("button", name="lena abmelden").click()
        second.wait_for_url(f"{live_server.url}/")
        log_in(second, live_server.url, "lena")
        first.click("main form button.primary")  # Start a practice game, stale token
        expect(first.locator("h1")).to_have_text("Formular abgelehnt")
        expect(first.locator("html")).to_have_attribute("lang", "de")
        expect(first.locator("main p[role=alert]")).to_contain_text("Dieses Formular war veraltet")
        expect(first.get_by_role("link", name="Zurück zur Lobby")).to_be_visible()
        expect(first.locator("body")).not_to_contain_text("DEBUG")
        screenshot(first, "csrf-failure-de-390")
        assert serious_violations(first) == []
        assert Game.objects.count() == 0
    finally:
        context.close()
