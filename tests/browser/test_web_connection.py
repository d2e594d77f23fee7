"""The pages when the connection to the server fails for a while, in Chromium: what the
play page says when a move gets no answer, and how long it stays said; a race game's
page follows its event stream across a dropped connection; the race page says while its
live connection is down."""

from __future__ import annotations

import http.server
import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, RaceEntry
from games.services.games import game_start
from games.services.race_admin import race_entry_disqualify
from games.services.races import race_join
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race

OFFLINE = "The server did not answer; try again."

#: What a reverse proxy answers when the server behind it does not (nginx's own page).
GATEWAY_PAGE = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)


def _stream_requests(page: Any) -> list[str]:
    """The addresses of the event-stream requests ``page`` sends from now on, as a list
    that grows while the test runs."""
    urls: list[str] = []
    page.on(
        "request", lambda request: urls.append(request.url) if "/events" in request.url else None
    )
    return urls


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
    drew = "Drew 3 cards to the waste; the queen of diamonds is on top."
    expect(message).to_have_text(drew)
    expect(message).not_to_have_class("message error")
    expect(page.locator("#announcer")).to_have_text(drew)
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
    expect(page.locator("#board-message")).to_contain_text(
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
    connections = _stream_requests(page)
    log_in(page, live_server.url, "pia")
    page.goto(f"{live_server.url}/play/{entry.game_id}/")
    page.wait_for_timeout(1500)
    assert len(connections) == 1
    assert page.evaluate("() => document.querySelector('#board').dataset.gameEvents") == str(
        entry.game_id
    )


@pytest.mark.django_db(transaction=True)
def test_a_refused_game_stream_is_asked_for_by_one_timer_not_by_every_board(
    live_server: Any, page: Any
) -> None:
    """After the server refused the game's stream (the WSGI server's 503 here, as during a
    Redis outage), moves redraw the board without asking for the stream again (each
    redrawn board opened a new one: a request per move); one timer asks again, 5 s later,
    then 10 s after that (the page's clock is Playwright's, moved by the test)."""
    race = running_race(name="Refused race")
    player = User.objects.create_user("qia", password=PASSWORD)
    entry = race_join(race_id=race.id, player=player).entry
    connections = _stream_requests(page)

    def connections_reach(n: int) -> None:
        for _ in range(100):
            if len(connections) >= n:
                return
            page.wait_for_timeout(50)

    log_in(page, live_server.url, "qia")
    start = timezone.now()
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))  # the page's timers wait for the test
    page.goto(f"{live_server.url}/play/{entry.game_id}/")
    connections_reach(1)
    for number in range(1, 5):  # four draws: four boards drawn again
        page.keyboard.press("d")
        expect(page.locator("#board")).to_have_attribute("data-move-number", str(number))
    page.wait_for_timeout(300)
    assert len(connections) == 1
    assert Game.objects.get(race_entry=entry).move_number == 4
    page.clock.run_for(3000)  # the first wait (5 s) is not over
    page.wait_for_timeout(300)
    assert len(connections) == 1
    page.clock.run_for(3000)
    connections_reach(2)
    assert len(connections) == 2
    page.keyboard.press("d")
    expect(page.locator("#board")).to_have_attribute("data-move-number", "5")
    page.clock.run_for(8000)  # refused again: the next wait is 10 s
    page.wait_for_timeout(300)
    assert len(connections) == 2
    page.clock.run_for(3000)
    connections_reach(3)
    assert len(connections) == 3
    assert set(connections) == {f"{live_server.url}/api/v1/games/{entry.game_id}/events"}


class _Stream(http.server.BaseHTTPRequestHandler):
    """An event stream that stays open until the test ends it (``SERVER.done``): what the
    ASGI server does between events.  The live server here is WSGI (it refuses streams)."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(b'retry: 300\nid: 1\nevent: snapshot\ndata: {"race": {}}\n\n')
        self.wfile.flush()
        self.server.done.wait(30)  # type: ignore[attr-defined]

    def log_message(self, *args: Any) -> None:
        pass


PAUSED = {
    "fr": "Mises à jour en direct interrompues — reconnexion…",
    "es": "Actualizaciones en directo en pausa — reconectando…",
    "de": "Live-Aktualisierung unterbrochen \u2013 Verbindung wird wiederhergestellt …",
}

#: The live notice's text and its changes, recorded from the page's first paint.
NOTE_RECORDER = """
(() => {
  window.__notes = [];
  document.addEventListener("DOMContentLoaded", () => {
    const note = document.getElementById("live-note");
    new MutationObserver(() => window.__notes.push(note.textContent))
      .observe(note, { childList: true, characterData: true, subtree: true });
  });
})();
"""


@pytest.mark.django_db(transaction=True)
def test_the_race_page_says_while_its_live_connection_is_down(live_server: Any, page: Any) -> None:
    """The race's stream is served by a stand-in that keeps it open (as the ASGI server
    does); it drops once and the server stays unreachable for a while: the page says
    "Live updates paused — reconnecting…" (a polite live region) until the stream is open
    again, then says nothing; it gave no sign before (and stopped following for good)."""
    race = running_race(name="Live race")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Stream)
    server.done = threading.Event()  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    stand_in = f"http://127.0.0.1:{server.server_address[1]}/events"
    state = {"connections": 0, "down": False}

    def stream(route: Any) -> None:
        state["connections"] += 1
        if state["down"]:
            route.abort("connectionrefused")
        elif state["connections"] == 1:  # opens, then drops at once
            state["down"] = True
            route.fulfill(
                status=200,
                content_type="text/event-stream",
                body='retry: 300\nid: 1\nevent: snapshot\ndata: {"race": {}}\n\n',
            )
        else:
            route.continue_(url=stand_in)

    try:
        page.add_init_script(NOTE_RECORDER)
        page.route(f"**/api/v1/races/{race.id}/events", stream)
        page.goto(f"{live_server.url}/races/{race.id}/")
        note = page.locator("#live-note")
        expect(note).to_have_text("Live updates paused — reconnecting…")
        expect(note).to_be_visible()
        expect(note).to_have_attribute("aria-live", "polite")
        screenshot(page, "race-live-paused", full_page=False)
        # The standings still come, by polling, while the stream is down.
        expect(page.locator("#race-live")).to_contain_text("Nobody has joined yet.")
        for _ in range(100):  # a reconnect refused, and still reconnecting after it
            if state["connections"] >= 3:
                break
            page.wait_for_timeout(100)
        expect(note).to_have_text("Live updates paused — reconnecting…")
        state["down"] = False
        expect(note).to_have_text("", timeout=10_000)
        expect(note).to_be_hidden()
        assert page.evaluate("() => document.getElementById('race-live').dataset.stream") == (
            "open"
        )
        notes = page.evaluate("() => window.__notes")
        assert notes[0] == "Live updates paused — reconnecting…"
        assert notes[-1] == ""
        assert state["connections"] >= 4  # the first, refused tries, the one that held
        # In the other languages of the pages too.
        for language, words in PAUSED.items():
            html = Client().get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE=language)
            assert f'aria-live="polite" data-paused="{words}"' in html.content.decode()
    finally:
        server.done.set()  # type: ignore[attr-defined]
        server.shutdown()
        server.server_close()
