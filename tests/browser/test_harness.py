"""The browser harness itself: Chromium loads a page the live server renders."""

from __future__ import annotations

import pytest

from tests.browser.conftest import horizontal_overflow, screenshot


@pytest.mark.django_db(transaction=True)
def test_admin_login_page_renders_in_chromium(live_server: object, page: object) -> None:
    page.goto(f"{live_server.url}/admin/login/")  # type: ignore[attr-defined]
    assert page.locator("input[name=username]").count() == 1  # type: ignore[attr-defined]
    assert horizontal_overflow(page) == 0
    assert screenshot(page, "harness-admin-login").stat().st_size > 1000
