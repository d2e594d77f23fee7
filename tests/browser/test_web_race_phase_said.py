# mypy: disable-error-code="misc"
"""In Chromium: a race page says to screen readers when its race starts and ends.

The page's live part (``#race-live``: "Now", the countdown, the Play button, the
standings) is replaced by each poll; a live region swapped in is not read, so a screen
reader user waiting on the page for the start heard nothing when "Running; ends in ..."
and the Play button came, nor when the race finished. A change of phase is now said
through ``#phase-said``, a region outside the replaced part; a refresh that changes no
phase says nothing new.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, Race
from games.services.games import game_end
from games.services.races import race_close, race_create, race_join
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations


@pytest.mark.django_db(transaction=True)
def test_the_start_and_the_finish_are_said(live_server: Any, chromium: Any, settings: Any) -> None:
    settings.LIVE_REDIS_URL = ""  # no stream: the page polls every second
    now = timezone.now()
    race = race_create(
        name="Said race",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=10),
        ends_at=now + timedelta(minutes=20),
        late_join_s=None,
    )
    player = User.objects.create_user("noor", password=PASSWORD)
    race_join(race_id=race.id, player=player)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    try:
        page = context.new_page()
        log_in(page, live_server.url, "noor")
        page.goto(f"{live_server.url}/races/{race.id}/")
        said = page.locator("#phase-said")
        expect(page.locator("#race-live [data-phase]")).to_have_attribute("data-phase", "open")
        page.wait_for_timeout(2500)  # two polls, the phase unchanged: nothing said
        expect(said).to_have_text("")
        # The start comes (the race's times moved, as the clock would): running.
        starts, ends = now - timedelta(minutes=2), now + timedelta(minutes=5)
        Race.objects.filter(id=race.id).update(
            opens_at=now - timedelta(minutes=3), starts_at=starts, ends_at=ends, late_join_s=0
        )
        Game.objects.filter(race_entry__race=race).update(started_at=starts, deadline=ends)
        expect(said).to_contain_text("Running; ends in", timeout=10_000)
        expect(page.get_by_role("link", name="Play")).to_be_visible()
        assert serious_violations(page) == []
        # Every player has finished and the race is closed: finished.
        entry = race.entries.get(player=player)
        game_end(game_id=entry.game_id, player=player)
        assert race_close(race_id=race.id) == "finished"
        expect(said).to_have_text("Finished. Results, seed and replays", timeout=10_000)
    finally:
        context.close()
