# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""What a new user's walkthrough saw: a superior reserve whose suits were covered, a long
disqualification reason that widened the race page, Join buttons where joining was
impossible, and a play page that never noticed its race had finished."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in

# For every reserve card: is the middle of its rank and of its suit symbol drawn by that
# card (not covered by the next one)?  [rank, suit, rank seen, suit seen] per card.
SEEN = """els => els.map(c => {
  const seen = s => { const r = c.querySelector(s).getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return at !== null && c.contains(at); };
  return [c.querySelector('.rank').textContent, c.querySelector('.suit').textContent,
          seen('.rank'), seen('.suit')];
})"""


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_every_superior_reserve_card_shows_its_rank_and_suit(
    live_server: Any, chromium: Any, transactional_db: Any, width: int
) -> None:
    """Superior's 13 face-up reserve cards overlapped so that only a rank and a colour
    showed: 7 of clubs looked like 7 of spades.  Every one shows both, only the top card
    is a button, and the page is no wider than the screen."""
    player = User.objects.create_user("sup", password=PASSWORD)
    game = game_start(player=player, variant="superior", seed="12345")
    ctx = chromium.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "sup")
        page.goto(f"{live_server.url}/play/{game.id}/")
        cards = page.locator(".area.reserve .fan > .card")
        expect(cards).to_have_count(13)
        seen = cards.evaluate_all(SEEN)
        assert [s for s in seen if not (s[2] and s[3])] == []
        assert page.locator(".area.reserve button.card").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"web-superior-reserve-{width}")
    finally:
        ctx.close()


def test_long_typed_text_wraps_on_a_phone(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """A 300-character disqualification reason without a space made a phone's race page
    2,868 px wide; long race, tournament and player names did the same.  Every page stays
    within the screen's 390 px."""
    from games.services.race_admin import race_entry_disqualify
    from tests.tournaments.factories import Result, TournamentFactory, finished_race, play

    long_name = "W" * 150  # the longest username
    player = User.objects.create_user(long_name, password=PASSWORD)
    cup = TournamentFactory(name="T" * 120)
    done = finished_race(cup, Result(player, 30, 4200), name="R" * 120)
    entry = done.entries.get(player=player)
    race_entry_disqualify(entry_id=entry.id, reason="x" * 300)
    from tests.tournaments.factories import running_race

    running = running_race(cup, name="N" * 120)
    mine = play(running, Result(player, 3, 1000))
    ctx = chromium.new_context(viewport={"width": 390, "height": 800})
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, long_name)
        for name, url in (
            ("lobby", "/"),
            ("race-dq", f"/races/{done.id}/"),
            ("results", f"/races/{done.id}/results"),
            ("race-running", f"/races/{running.id}/"),
            ("play", f"/play/{mine.game_id}/"),
            ("tournament", f"/tournaments/{cup.id}/"),
            ("player", f"/players/{long_name}/"),
        ):
            page.goto(live_server.url + url)
            screenshot(page, f"web-long-text-{name}-390")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert (name, wide) == (name, 390)
        page.goto(f"{live_server.url}/races/{done.id}/")
        expect(page.locator("main")).to_contain_text("x" * 300)
    finally:
        ctx.close()


# A stand-in for the browser's EventSource: the test says what the server's stream sends.
FAKE_EVENTS = """
window.__sources = [];
window.EventSource = function (url) {
  this.url = url; this.readyState = 1; this.listeners = {}; window.__sources.push(this);
};
window.EventSource.CONNECTING = 0; window.EventSource.OPEN = 1; window.EventSource.CLOSED = 2;
window.EventSource.prototype.addEventListener = function (t, f) {
  (this.listeners[t] = this.listeners[t] || []).push(f);
};
window.EventSource.prototype.close = function () { this.readyState = 2; };
window.__emit = function (part, type, data) {
  window.__sources.filter(function (s) { return s.url.indexOf(part) >= 0; }).forEach(
    function (s) { (s.listeners[type] || []).forEach(function (f) {
      f({ data: JSON.stringify(data) }); }); });
};
"""


def test_the_play_page_shows_the_results_once_the_race_is_finished(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """The only entrant, out of time, read "the results appear when the race is finished
    for everyone" after it was, without a results link until a reload.  The race's event
    stream saying it is finished brings the link at once (the board's poll asks only
    every 10 s), and "Time is up" is said once."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game
    from games.services.race_admin import race_close_now
    from games.services.races import race_join
    from tests.tournaments.factories import running_race

    player = User.objects.create_user("solo", password=PASSWORD)
    race = running_race(None, name="Short race")
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    Game.objects.filter(id=game_id).update(deadline=timezone.now() - timedelta(seconds=1))
    page.add_init_script(FAKE_EVENTS)
    log_in(page, live_server.url, "solo")
    page.goto(f"{live_server.url}/play/{game_id}/")
    board = page.locator("#board")
    expect(board).to_contain_text("appear when the race is finished for everyone")
    expect(page.get_by_text("Time is up", exact=False)).to_have_count(1)
    events = f"/api/v1/races/{race.id}/events"
    # (wait_for_function evaluates a string: the pages' CSP refuses it)
    asked = "window.__sources.map(s => new URL(s.url, location.href).pathname)"
    for _ in range(30):
        if events in page.evaluate(asked):
            break
        page.wait_for_timeout(100)
    assert events in page.evaluate(asked)
    race_close_now(race_id=race.id)
    page.evaluate(f"window.__emit('{events}', 'phase', {{phase: 'finished'}})")
    expect(board.get_by_role("link", name="Results")).to_be_visible(timeout=3_000)
    expect(board).not_to_contain_text("appear when the race is finished")
    screenshot(page, "web-play-race-finished")


def test_no_join_button_for_an_invite_only_race_and_a_logout_page(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """A race of an invite-only tournament offered Join, which answered "This tournament
    is for invited players only." with the button still there; GET /accounts/logout/ was
    a blank 405 page."""
    from games.models import Tournament
    from tests.tournaments.factories import TournamentFactory, running_race

    User.objects.create_user("paul", password=PASSWORD)
    cup = TournamentFactory(name="Members' cup", entry=Tournament.Entry.INVITE)
    race = running_race(cup, name="Members' night")
    ctx = chromium.new_context(viewport={"width": 390, "height": 800}, locale="fr-FR")
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "paul")
        page.goto(f"{live_server.url}/")
        row = page.locator("li.race", has_text="Members' night")
        expect(row.get_by_role("button")).to_have_count(0)
        expect(row).to_contain_text("Réservé aux joueurs invités")
        screenshot(page, "web-lobby-invite-only-390-fr")
        page.goto(f"{live_server.url}/races/{race.id}/")
        expect(page.locator("#race-live").get_by_role("button")).to_have_count(0)
        expect(page.locator("[data-joining=invite_only]")).to_be_visible()
        screenshot(page, "web-race-invite-only-390-fr")
        page.goto(f"{live_server.url}/accounts/logout/")
        expect(page.locator("main h1")).to_have_text("Se déconnecter")
        screenshot(page, "web-logout-get-390-fr")
        page.locator("main").get_by_role("button", name="Se déconnecter").click()
        page.wait_for_url(f"{live_server.url}/")
        expect(
            page.get_by_role("navigation").get_by_role("link", name="Se connecter")
        ).to_be_visible()
    finally:
        ctx.close()
