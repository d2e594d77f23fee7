# mypy: disable-error-code="misc"
"""An open play page learns at once that the organisers cancelled its race, in Chromium.

Cancelling told the race's stream but not the games' streams, so an open play page went
on showing "playing", a ticking clock and a working Draw button until its stream's next
heartbeat re-read the game (up to about 15 s); a Draw then got "Refused: The game is
over.".  Now each game the cancellation ended gets a ``game`` event on its stream and the
page draws the cancellation's last word at once.

The live server here is WSGI, which refuses streams: the game's stream is played by the
test (Playwright's routing) as the ASGI server plays it, from what the services publish
(``games.live.publish.local_broker``): a snapshot on the first connection, then a ``game``
event only once the game's topic is published to; otherwise a connection ends with no
event (the page reconnects, as after a heartbeat), so the heartbeat's re-read never
stands in for the event.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.live.publish import game_topic, local_broker
from games.models import Game
from games.services.races import race_cancel, race_join
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race


@pytest.mark.django_db(transaction=True)
def test_an_open_play_page_shows_the_cancellation_at_once(
    live_server: Any, page: Any, settings: Any
) -> None:
    settings.LIVE_REDIS_URL = ""  # the services publish to the in-process broker
    race = running_race(name="Evening race")
    player = User.objects.create_user("cara", password=PASSWORD)
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    topic = game_topic(game_id)
    heard: list[str] = []

    def listener(t: str, seq: int, body: str) -> None:
        if t == topic:
            heard.append(body)

    connections: list[str] = []

    def stream(route: Any) -> None:
        connections.append(route.request.url)
        game = Game.objects.get(id=game_id)
        view = {"status": game.status, "disqualified_reason": None}
        if len(connections) == 1:
            body = f"retry: 200\nid: 1\nevent: snapshot\ndata: {json.dumps({'game': view})}\n\n"
        elif heard:
            body = f"retry: 60000\nid: 2\nevent: game\ndata: {json.dumps(view)}\n\n"
        else:
            body = "retry: 200\n: heartbeat\n\n"  # no event: the page reconnects
        route.fulfill(status=200, content_type="text/event-stream", body=body)

    local_broker.listen(listener)
    try:
        page.route(f"**/api/v1/games/{game_id}/events", stream)
        log_in(page, live_server.url, "cara")
        page.goto(f"{live_server.url}/play/{game_id}/")
        expect(page.locator('[data-stat="status"]')).to_have_text("playing")
        expect(page.locator("#board[data-move-url]")).to_have_count(1)
        race_cancel(race_id=race.id, now=race.starts_at + timedelta(seconds=30))
        # At once (well within the old ~15 s): the last word, the status, no more moves.
        expect(page.locator("#board")).to_contain_text(
            "The organisers cancelled this race: your game ended with", timeout=3_000
        )
        expect(page.locator('[data-stat="status"]')).to_have_text("race cancelled")
        expect(page.locator("#board[data-move-url]")).to_have_count(0)
    finally:
        local_broker.unlisten(listener)
    assert heard, "the cancellation published nothing on the game's topic"
