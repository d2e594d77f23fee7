# mypy: disable-error-code="misc"
"""In Chromium: a link of the race page's live part keeps keyboard focus when the part
is refreshed.

The race page replaces ``#race-live`` (both sections: "Now" and "The race") with each
update; a link in it that had focus (the tournament link under "The race", a player of
the standings) was swapped out with the old content and focus fell to the page's body,
so a keyboard user had to start again from the top.  The same link in the new content
is now focused."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.races import race_join
from games.services.tournaments import tournament_create
from tests.browser.conftest import screenshot
from tests.tournaments.factories import running_race

_FOCUSED = """() => { const a = document.activeElement;
  return {tag: a.tagName, href: a.getAttribute('href'),
          live: !!a.closest('#race-live'), old: a === window.before,
          oldGone: !!window.before && !window.before.isConnected}; }"""


@pytest.mark.django_db(transaction=True)
def test_a_focused_link_keeps_focus_when_the_race_page_updates(
    live_server: Any, chromium: Any, settings: Any
) -> None:
    settings.LIVE_REDIS_URL = ""  # no event stream: the page polls every second
    cup = tournament_create(name="Winter Cup")
    race = running_race(cup, name="Winter Cup #1")
    race_join(race_id=race.id, player=User.objects.create_user("ann"))
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/races/{race.id}/")
        rows = page.locator("#race-live table.standings tbody tr")
        expect(rows).to_have_count(1)

        link = page.locator(f'#race-live a[href="/tournaments/{cup.id}/"]')
        link.focus()
        page.evaluate("() => { window.before = document.activeElement; }")
        race_join(race_id=race.id, player=User.objects.create_user("bob"))
        expect(rows).to_have_count(2, timeout=10_000)  # the live part was replaced
        assert page.evaluate(_FOCUSED) == {
            "tag": "A",
            "href": f"/tournaments/{cup.id}/",
            "live": True,
            "old": False,
            "oldGone": True,
        }
        screenshot(page, "race-live-keeps-focus-tournament-link")

        # A player's link in the standings too, though the rows around it changed.
        ann = page.locator('#race-live table.standings a[href="/players/ann/"]')
        ann.focus()
        page.evaluate("() => { window.before = document.activeElement; }")
        race_join(race_id=race.id, player=User.objects.create_user("carl"))
        expect(rows).to_have_count(3, timeout=10_000)
        assert page.evaluate(_FOCUSED) == {
            "tag": "A",
            "href": "/players/ann/",
            "live": True,
            "old": False,
            "oldGone": True,
        }
    finally:
        context.close()
