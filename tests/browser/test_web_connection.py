"""The pages when the connection to the server fails for a while, in Chromium: what the
play page says when a move gets no answer, and how long it stays said; a race game's
page follows its event stream across a dropped connection."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game, RaceEntry
from games.services.games import game_start
from games.services.race_admin import race_entry_disqualify
from games.services.races import race_join
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race

OFFLINE = "The server did not answer; try again."

#: What a reverse proxy answers when the server behind it does not (nginx's own page).
GATEWAY_PAGE = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("failure", ["no answer", "gateway error"])
def test_the_server_did_not_answer_goes_once_a_move_is_answered(
    live_server: Any, page: Any, failure: str
) -> None:
    player = User.objects.create_user("nia", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    base = live_server.url
    log_in(page, base, "nia")
    page.goto(f"{base}/play/{game.id}/")
    if failure == "no answer":
        page.route("**/move", lambda route: route.abort("connectionrefused"))
    else:
        page.route(
            "**/move",
            lambda route: route.fulfill(status=502, content_type="text/html", body=GATEWAY_PAGE),
        )
    page.keyboard.press("d")
    message = page.locator("#board-message")
    expect(message).to_have_text(OFFLINE)  # not the proxy page's HTML
    expect(message).to_have_class("message error")
    assert Game.objects.get(id=game.id).move_number == 0
    # The server is back: the next move is played and the message goes with it.
    page.unroute("**/move")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(message).to_have_text("draw from the stock")
    expect(message).not_to_have_class("message error")
    expect(page.locator("#announcer")).to_have_text("draw from the stock")
    page.keyboard.press("w")
    page.keyboard.press("h")  # QD home (the waste's top card after one draw of e2e-5)
    page.wait_for_selector('#board[data-move-number="2"]')
    expect(page.locator("body")).not_to_contain_text(OFFLINE)
    assert Game.objects.get(id=game.id).move_number == 2


def _snapshot(disqualified_reason: str | None, *, retry_ms: int = 200) -> str:
    """A game stream's opening, as the stream server sends it (a snapshot of the game's
    status and disqualification; the page reads nothing else), after which it ends."""
    game = {"status": "playing", "disqualified_reason": disqualified_reason}
    return f"retry: {retry_ms}\nid: 1\nevent: snapshot\ndata: {json.dumps({'game': game})}\n\n"


@pytest.mark.django_db(transaction=True)
def test_a_race_game_follows_its_stream_across_a_dropped_connection(
    live_server: Any, page: Any
) -> None:
    """The live server here is WSGI, which refuses streams: the stream is played by the
    test (Playwright's routing), as an ASGI server would answer it.  Its first connection
    drops after the snapshot; while the page is reconnecting the organisers disqualify the
    player, and the reconnect's snapshot says so: the board is drawn again at once (the
    page stopped following after the first drop, so it showed nothing until a move)."""
    race = running_race(name="Night race")
    player = User.objects.create_user("ola", password=PASSWORD)
    entry = race_join(race_id=race.id, player=player).entry
    connections: list[str] = []

    def stream(route: Any) -> None:
        connections.append(route.request.url)
        if len(connections) == 1:
            body = _snapshot(None)  # then the connection drops
        else:
            if len(connections) == 2:
                race_entry_disqualify(entry_id=entry.id, reason="two accounts")
            body = _snapshot("two accounts", retry_ms=60_000)
        route.fulfill(status=200, content_type="text/event-stream", body=body)

    page.route(f"**/api/v1/games/{entry.game_id}/events", stream)
    log_in(page, live_server.url, "ola")
    page.goto(f"{live_server.url}/play/{entry.game_id}/")
    expect(page.locator("#board")).to_have_attribute("data-disqualified", "1", timeout=10_000)
    expect(page.locator("#board p.after")).to_contain_text(
        "The organisers have disqualified you from this race (two accounts): your game "
        "takes no more moves."
    )
    expect(page.locator('[data-stat="status"]')).to_have_text("disqualified")
    assert len(connections) >= 2
    assert RaceEntry.objects.get(id=entry.id).disqualified


@pytest.mark.django_db(transaction=True)
def test_a_race_game_stops_following_when_the_stream_is_refused(
    live_server: Any, page: Any
) -> None:
    """A stream the server refuses (the WSGI server's 503 here) is not asked for again and
    again: the browser gives it up and so does the page."""
    race = running_race(name="Quiet race")
    player = User.objects.create_user("pia", password=PASSWORD)
    entry = race_join(race_id=race.id, player=player).entry
    connections: list[str] = []
    page.on(
        "request",
        lambda request: connections.append(request.url) if "/events" in request.url else None,
    )
    log_in(page, live_server.url, "pia")
    page.goto(f"{live_server.url}/play/{entry.game_id}/")
    page.wait_for_timeout(1500)
    assert len(connections) == 1
    assert page.evaluate("() => document.querySelector('#board').dataset.gameEvents") == str(
        entry.game_id
    )
