# mypy: disable-error-code="misc"
"""On a phone (360 and 390 px wide), in Chromium: the site's header takes at most two
lines of links in French, Spanish and German, logged in or out, none hidden.

In French the links took three lines under the site's name (130 px of an 844 px
screen), pushing a race game's tableau under the play page's sticky Undo / Resign bar.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations

LOCALES = {"fr": "fr-FR", "es": "es-ES", "de": "de-DE"}


_NAV_LINES = """() => {
  const tops = new Set();
  const items = [...document.querySelectorAll('header.site nav li')];
  for (const li of items) { tops.add(Math.round(li.getBoundingClientRect().top)); }
  return {lines: tops.size, items: items.map(li => {
    const r = li.getBoundingClientRect();
    const s = getComputedStyle(li);
    return {w: r.width, h: r.height, left: r.left, right: r.right,
            shown: s.display !== 'none' && s.visibility !== 'hidden', text: li.innerText};
  })};
}"""


@pytest.mark.parametrize("language", ["fr", "es", "de"])
@pytest.mark.parametrize("width", [360, 390])
def test_the_header_links_take_two_lines_at_most_on_a_phone(
    live_server: Any, chromium: Any, transactional_db: Any, language: str, width: int
) -> None:
    User.objects.create_user("bob", password=PASSWORD)
    ctx = chromium.new_context(
        viewport={"width": width, "height": 844},
        has_touch=True,
        is_mobile=True,
        locale=LOCALES[language],
    )
    try:
        page = ctx.new_page()
        for logged_in in (False, True):
            if logged_in:
                log_in(page, live_server.url, "bob")
            page.goto(f"{live_server.url}/")
            nav = page.evaluate(_NAV_LINES)
            assert len(nav["items"]) == (6 if logged_in else 5), nav
            assert nav["lines"] <= 2, (language, width, logged_in, nav)
            for item in nav["items"]:  # every link shown whole, on the screen
                assert item["shown"], item
                assert item["w"] > 0, item
                assert item["left"] >= 0, item
                assert item["right"] <= width, item
                assert item["h"] < 30, item  # one line of its own, not broken in two
        assert serious_violations(page) == []  # links still big and far enough apart to tap
        screenshot(page, f"header-phone-{language}-{width}", full_page=False)
    finally:
        ctx.close()
