# mypy: disable-error-code="misc"
"""In Chromium, on a phone, logged out: a race page open while the race ends early follows
the finish everywhere it depends on the race's phase, not only in its top part.

The poll refreshed "Now" (its countdown and standings) to "Finished. Results, seed and
replays", but "The race" below still said "or earlier: once joining has closed and every
player has finished, the race ends at once.", "the seed is revealed when the race is
over", no seed and no "Ended early" until a reload.  The live fragment is now both
sections, rendered by the same selectors (the seed only once the race is over).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Race
from games.services.games import game_end
from games.services.races import race_close, race_join
from tests.browser.conftest import screenshot
from tests.tournaments.factories import running_race

PHONE = {"width": 390, "height": 844}


@pytest.mark.django_db(transaction=True)
def test_the_race_facts_follow_a_live_early_finish(
    live_server: Any, chromium: Any, settings: Any
) -> None:
    settings.LIVE_REDIS_URL = ""
    race = running_race(name="Early finish")
    player = User.objects.create_user("ivy", password="a-long-browser-password-5")
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    # Joining closed 30 s after the start (a minute ago): the race may end early.
    Race.objects.filter(id=race.id).update(late_join_s=30)
    race.refresh_from_db()
    seed = race.deal.seed
    # A viewer in Paris: the page's own times name the viewer's zone ("GMT+1" in winter,
    # "GMT+2" in summer, as an English page words it); the server's, before the script
    # localises them, say UTC.
    context = chromium.new_context(
        viewport=PHONE, locale="en-GB", is_mobile=True, timezone_id="Europe/Paris"
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/races/{race.id}/")
        about = page.locator("section[aria-labelledby=about-h]")
        expect(page.locator("#live-h")).to_have_text("Now")
        expect(about).to_contain_text("or earlier: once joining has closed")
        expect(about).to_contain_text("the seed is revealed when the race is over")
        expect(about.locator("[data-seed]")).to_have_count(0)
        assert seed not in page.content()
        assert "{#" not in page.inner_text("main")  # no template comment shows
        screenshot(page, "race-live-finish-before-phone-en")

        game_end(game_id=game_id, player=player)  # resigned: every player has finished
        assert race_close(race_id=race.id) == "finished"
        race.refresh_from_db()
        assert race.closed_at is not None
        assert race.closed_at < race.ends_at

        # No reload: the poll brings the finish to both sections.
        expect(page.locator("#race-live [data-phase]")).to_have_attribute(
            "data-phase", "finished", timeout=10_000
        )
        expect(page.locator("#live-h")).to_have_text("Outcome")
        expect(about).not_to_contain_text("or earlier")
        expect(about).to_contain_text("the seed is now revealed")
        expect(about.locator("[data-seed]")).to_have_text(seed)
        expect(about).to_contain_text("Ended early")
        expect(about).to_contain_text("every player had finished")
        # The times of the refreshed part are in the viewer's time zone, as on a load.
        assert "UTC" not in about.inner_text()
        assert re.search(r"GMT\+[12]\b", about.inner_text())  # Paris, winter or summer
        screenshot(page, "race-live-finish-after-phone-en")
        # The same page, loaded afresh, says the same.
        live_text = about.inner_text()
        page.reload()
        expect(about).not_to_contain_text("UTC")  # localized
        assert about.inner_text() == live_text
    finally:
        context.close()
