"""The site's messages ("Welcome, ...: your account is ready") in Chromium, with axe-core.

``base.html`` put ``role="status"`` on the ``<ul class="messages">`` itself: the role
replaced the list's, so its ``<li>`` items had no list around them for a screen reader
(axe-core ``listitem``, serious; ``aria-allowed-role`` too). The list now sits inside a
``<div role="status">``: still announced, and still a list of one item per message.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.web_helpers import serious_violations, sign_up


@pytest.mark.django_db(transaction=True)
def test_the_welcome_message_is_a_list_in_a_status_region(live_server: Any, page: Any) -> None:
    sign_up(page, live_server.url, "mira")
    item = page.locator("[role=status] > ul.messages > li")
    expect(item).to_have_text("Welcome, mira: your account is ready, and you are logged in.")
    assert page.locator("ul.messages").get_attribute("role") is None
    assert serious_violations(page) == []
