"""What the play page tells a player after each action, in Chromium, as a new user's
trial found it: every outcome is said through the page's lasting live region (not only
through the board's message, which is swapped with the board), focus is never left on
the page's body after Undo, the phone's message band leaves the header and the links
alone, and a game out of time says so; and the lobby tells a visitor how to get a
practice game."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, Solve
from games.services.games import game_start
from games.services.races import race_join
from games.services.solver import solve_run
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations
from tests.tournaments.factories import running_race

PHONE = {"width": 390, "height": 844}


def _said(page: Any) -> str:
    """The board's message as the page shows it (what #announcer must say too)."""
    return " ".join(page.locator("#board-message").inner_text().split())


def _expect_announced(page: Any, text: str) -> None:
    """The board's message reads ``text`` and the lasting live region says the same."""
    expect(page.locator("#board-message")).to_have_text(text)
    expect(page.locator("#announcer")).to_have_text(text)


def test_every_outcome_is_said_in_the_lasting_live_region(
    live_server: Any, page: Any, transactional_db: Any, settings: Any
) -> None:
    """#announcer (outside the board, always there) was updated for clicked and keyed
    moves only: a typed move, Undo, Hint and Resign changed only the board's own message,
    which is swapped whole with the board, so a screen reader could miss it."""
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound seed 0 never reaches: no clock in play
    player = User.objects.create_user("ana", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="0")  # won from the deal
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/play/{game.id}/")
    announcer = page.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    # A typed move refused, then played.
    page.get_by_text("Type a move").click()
    field = page.locator("#typed-move")
    field.fill("zz>t9")
    field.press("Enter")
    expect(page.locator("#board-message")).to_contain_text("Refused:")
    _expect_announced(page, _said(page))
    field.fill("zz>t9")  # the same refusal again: said again (the region changes)
    field.press("Enter")
    expect(page.locator("#board-message")).to_contain_text("Refused:")
    expect(announcer).to_contain_text("Refused:")
    field.fill("draw")
    field.press("Enter")
    page.wait_for_selector('#board[data-move-number="1"]')
    played = _said(page)
    assert played
    assert "Refused" not in played
    expect(announcer).to_have_text(played)
    # Undo, with the button and with the U key.
    page.get_by_role("button", name="Undo").click()
    page.wait_for_selector('#board[data-move-number="0"]')
    _expect_announced(page, "Took back the draw.")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(announcer).to_have_text(played)  # the same draw, said again
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="0"]')
    _expect_announced(page, "Took back the draw.")
    # Hint: the solver's "working" note, then the hint when the board asks again.
    with mock.patch("games.services.solver.enqueue_now"):  # no worker takes it yet
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#board-message")).to_contain_text(
            "The solver is working", timeout=15_000
        )
        expect(announcer).to_contain_text("The solver is working")
        solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=[]).id)
        expect(page.locator("#board-message")).to_contain_text("Hint: ", timeout=45_000)
    _expect_announced(page, _said(page))
    # Resign.
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator('[data-stat="status"]')).to_have_text("resigned")
    home = page.locator('[data-stat="cards-home"]').inner_text()
    _expect_announced(page, f"You resigned: {home} card{'s' if home != '1' else ''} home.")


def test_focus_stays_on_the_page_after_undo(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """After Undo (the U key or the button) focus fell to the page's body: a keyboard
    user had to Tab from the top of the page again.  U pressed on the board keeps focus
    on the board (the waste's top card, the stock once the waste is empty); from the
    Undo button focus stays on it while there is a move to take back, then goes to the
    board's first card."""
    player = User.objects.create_user("uma", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    log_in(page, live_server.url, "uma")
    page.goto(f"{live_server.url}/play/{game.id}/")
    undo = page.get_by_role("button", name="Undo")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="2"]')
    page.keyboard.press("w")  # the waste's top card, focused
    expect(page.locator("#board button[data-from=waste]")).to_be_focused()
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(page.locator("#board button[data-from=waste]")).to_be_focused()
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="0"]')
    expect(page.locator('#board [data-key="stock"]')).to_be_focused()  # the waste is empty
    # From the Undo button, the keyboard goes on from there.
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="2"]')
    undo.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(undo).to_be_focused()
    # Enter takes back the move before.
    page.keyboard.press("Enter")
    page.wait_for_selector('#board[data-move-number="0"]')
    expect(undo).to_be_disabled()  # nothing left to take back: the board's first card
    first = page.locator("#board button[data-card]").first
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => document.activeElement !== document.body")
    # The button clicked with the mouse keeps focus on the page too.
    page.keyboard.press("Escape")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="2"]')
    undo.click()
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(undo).to_be_focused()


def _uncovered(page: Any, locator: Any) -> bool:
    """Whether the middle of ``locator``'s element is drawn on top there (not under the
    message band or anything else)."""
    box = locator.bounding_box()
    assert box is not None
    return bool(
        page.evaluate(
            "([x, y, el]) => el.contains(document.elementFromPoint(x, y))",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, locator.element_handle()],
        )
    )


def _race_clock_in_the_message(page: Any, kind: str) -> None:
    """On a phone a message has the counts' place for its few seconds, and with them a
    race's time left: a copy of the clock shows in the message's right margin, under its
    close button, and no word of the message is drawn over it (a practice game has no
    clock)."""
    band_clock = page.locator("#board .band-clock")
    if kind != "race":
        expect(band_clock).to_have_count(0)
        return
    expect(band_clock).to_be_visible()
    expect(band_clock).to_have_text(re.compile(r"^\d+:\d\d$"))
    assert band_clock.get_attribute("aria-hidden") == "true"  # the counts' timer says it
    clock = band_clock.bounding_box()
    head = page.locator("#board .board-head").bounding_box()
    close = page.get_by_role("button", name="Hide this message").bounding_box()
    assert clock is not None
    assert head is not None
    assert close is not None
    assert head["y"] <= clock["y"]
    assert clock["y"] + clock["height"] <= head["y"] + head["height"]
    assert clock["x"] + clock["width"] <= head["x"] + head["width"]
    assert close["y"] + close["height"] <= clock["y"]  # under the close button
    words = page.evaluate(
        """() => { const r = document.createRange();
        r.selectNodeContents(document.getElementById('board-message'));
        return [...r.getClientRects()].map(b => [b.left, b.top, b.right, b.bottom]); }"""
    )
    assert words
    for left, top, right, bottom in words:
        apart = (
            right <= clock["x"]
            or left >= clock["x"] + clock["width"]
            or bottom <= clock["y"]
            or top >= clock["y"] + clock["height"]
        )
        assert apart, ((left, top, right, bottom), clock)


def _band_at_the_top_when_scrolled(page: Any, *, ended: bool = False) -> None:
    """Scrolled to the page's end, a playing board's head is at the screen's top edge (or
    at the board's top while that is still on the screen: a short page), its message in
    its box, in the counts' place.  ``ended``: an ended board's last word is in the
    head, under the counts, and nothing of the counts is under it (it makes the head
    taller: tests/browser/test_web_last_word.py); that head scrolls with the page, at
    the board's top (stuck at the screen's top it lay over the board's headings:
    tests/browser/test_web_ended_head_not_sticky.py)."""
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    board = page.locator("#board").bounding_box()
    head = page.locator("#board .board-head").bounding_box()
    band = page.locator("#board-message").bounding_box()
    assert board is not None
    assert head is not None
    assert band is not None
    if ended:
        assert abs(head["y"] - board["y"]) <= 1, (head, board)
        stats = page.locator("#board .stats").bounding_box()
        assert stats is not None
        assert band["y"] >= stats["y"] + stats["height"] - 1, (band, stats)
        assert band["y"] + band["height"] <= head["y"] + head["height"] + 1, (band, head)
    else:
        assert 0 <= head["y"] <= max(0, board["y"]) + 1, (head, board)
        # A playing board's message takes the counts' place for its few seconds, in the
        # head's box (tests/browser/test_web_phone_message_place.py); the counts are
        # back once it fades or is closed (the callers check).
        assert band["y"] >= head["y"] - 1, (band, head)
        assert band["y"] + band["height"] <= head["y"] + head["height"] + 1, (band, head)
    assert band["y"] + band["height"] <= PHONE["height"], band


def _counts_in_sight(page: Any) -> None:
    """Every count of the board (cards home, ..., a race's time left) is on the screen
    and drawn on top: not under the message band."""
    counts = page.locator("#board dl.stats > div")
    assert counts.count() >= 5
    for i in range(counts.count()):
        box = counts.nth(i).bounding_box()
        assert box is not None
        assert box["y"] >= 0, (i, box)
        assert _uncovered(page, counts.nth(i)), counts.nth(i).inner_text()


def test_the_phone_message_band_leaves_the_header_and_links_uncovered(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """On a 390 x 844 phone the board's message band sat at the screen's top edge until
    the next action, over the site's header (its home link) and, scrolled, over the
    page's heading and its "Race page and standings" link ("You resigned." stayed there
    for good).  It now sits below them while they are on the screen, at the top once
    they are scrolled away (under the board's counts, which stay in sight:
    :func:`test_the_time_left_stays_in_sight_under_the_message_band`), and it can be
    closed."""
    race = running_race(name="Phone race")
    player = User.objects.create_user("pia", password=PASSWORD)
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    ctx = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "pia")
        page.goto(f"{live_server.url}/play/{game_id}/")
        message = page.locator("#board-message")
        home = page.locator("header.site .brand")
        heading = page.get_by_role("heading", level=1)
        race_link = page.get_by_role("link", name="Race page and standings")
        # A refusal: it stays 10 s (an ordinary message fades after 4 s, which the checks
        # below must not race on a loaded machine).
        page.keyboard.press("1")
        page.keyboard.press("1")
        expect(message).to_contain_text("Refused:")
        expect(message).to_be_visible()
        for what in (home, heading, race_link):
            assert _uncovered(page, what), what
        band = message.bounding_box()
        link = race_link.bounding_box()
        assert band is not None
        assert link is not None
        assert band["y"] >= link["y"] + link["height"] - 1, (band, link)
        screenshot(page, "web-play-phone-band-top", full_page=False)
        # Scrolled a little (the header gone, the heading and link still on the screen).
        page.evaluate("window.scrollTo(0, 60)")
        for what in (heading, race_link):
            assert _uncovered(page, what), what
        # Scrolled down: the band is at the screen's top, where the player looks, under
        # the board's counts.
        _band_at_the_top_when_scrolled(page)
        # It can be closed by a tap (a phone has no Escape key).
        close = page.get_by_role("button", name="Hide this message")
        expect(close).to_be_visible()
        assert _uncovered(page, close)
        close.tap()
        expect(message).to_be_hidden()
        expect(close).to_be_hidden()
        _counts_in_sight(page)
        # An ended game's last word ("You resigned: 1 card home.") does not cover them either.
        page.evaluate("window.scrollTo(0, 0)")
        page.once("dialog", lambda d: d.accept())
        page.locator("button.danger").tap()
        expect(message).to_have_text(re.compile(r"^You resigned: \d+ cards? home\.$"))
        for what in (home, heading, race_link):
            assert _uncovered(page, what), what
        screenshot(page, "web-play-phone-band-resigned", full_page=False)
        page.evaluate("window.scrollTo(0, 60)")
        for what in (heading, race_link):
            assert _uncovered(page, what), what
        _band_at_the_top_when_scrolled(page, ended=True)
        assert serious_violations(page) == []
        page.get_by_role("button", name="Hide this message").tap()
        expect(message).to_be_hidden()
        page.evaluate("window.scrollTo(0, 0)")
        race_link.tap()
        page.wait_for_url(f"{live_server.url}/races/{race.id}/")
    finally:
        ctx.close()


def _card_places(page: Any) -> dict[str, float]:
    """Each card's top in the page (not the screen): where a tap finds it."""
    places: dict[str, float] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#board [data-card]')]
            .map(c => [c.dataset.card, c.getBoundingClientRect().top + window.scrollY]))"""
    )
    return places


def _moved(before: dict[str, float], after: dict[str, float], lifted: str = "") -> list[str]:
    """The cards whose place changed (``lifted``, a selected card, rises 3 px)."""
    return [
        code
        for code, y in before.items()
        if abs(after.get(code, y) - y) > (4 if code == lifted else 0.5)
    ]


@pytest.mark.parametrize("kind", ["race", "practice"])
@pytest.mark.parametrize("width", [360, 390])
def test_the_time_left_stays_in_sight_under_the_message_band(
    live_server: Any, chromium: Any, transactional_db: Any, width: int, kind: str
) -> None:
    """On a phone the message band was sticky at the screen's top edge: scrolled, it
    covered the board's counts, a race's time left among them, until the player closed
    it or acted again.  The counts now stay at the screen's top edge (sticky); a message
    takes their place in the head's box for its few seconds (over no card:
    tests/browser/test_web_phone_message_place.py) and they are back once it fades or
    is closed; neither takes room in the page, so no card moves when a message comes or
    goes."""
    height = 740 if width == 360 else 844
    player = User.objects.create_user(f"rae{width}{kind}", password=PASSWORD)
    if kind == "race":
        race = running_race(name="Phone race")
        game_id = race_join(race_id=race.id, player=player).entry.game_id
    else:
        game_id = game_start(player=player, variant="classic", seed="7").id
    ctx = chromium.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        locale="en-GB",
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, f"rae{width}{kind}")
        page.goto(f"{live_server.url}/play/{game_id}/")
        message = page.locator("#board-message")
        clock = page.locator("#board .stats [data-countdown]")
        if kind == "race":
            expect(clock).to_have_text(re.compile(r"\d:\d\d"))
        else:
            expect(clock).to_have_count(0)
        # A card tapped: "... — now choose a destination." over the board, under the counts.
        places = _card_places(page)
        reserve = page.locator("#board .reserve button[data-card]")
        lifted = reserve.get_attribute("data-card") or ""
        reserve.tap()
        expect(message).to_have_text(re.compile(r"^[A-Z].* — now choose a destination\.$"))
        assert _moved(places, _card_places(page), lifted) == []
        screenshot(page, f"web-play-counts-{kind}-{width}-top", full_page=False)
        _race_clock_in_the_message(page, kind)
        page.keyboard.press("Escape")
        expect(message).to_be_empty()
        assert _moved(places, _card_places(page)) == []
        _counts_in_sight(page)
        if kind == "race":
            assert _uncovered(page, clock)
        # Scrolled to the end: a draw's words come, the counts stay in sight above them.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert page.evaluate("window.scrollY") > 0  # the board is taller than the screen
        page.locator('#board [data-action="stock"]').tap()
        page.wait_for_selector('#board[data-move-number="1"]')
        expect(message).to_have_text(re.compile(r"^Drew .*\.$"))
        # A refusal stays 10 s (the draw's words fade after 4 s, which the checks below
        # must not race on a loaded machine).
        page.keyboard.press("1")
        page.keyboard.press("1")
        expect(message).to_contain_text("Refused:")
        _band_at_the_top_when_scrolled(page)
        screenshot(page, f"web-play-counts-{kind}-{width}-scrolled", full_page=False)
        _race_clock_in_the_message(page, kind)
        # The message closed: no card moves (the draw moved only the waste's cards), and
        # the counts, a race's time left among them, are back at the screen's top.
        places = _card_places(page)
        page.get_by_role("button", name="Hide this message").tap()
        expect(message).to_be_empty()
        assert _moved(places, _card_places(page)) == []
        _counts_in_sight(page)
        if kind == "race":
            assert _uncovered(page, clock)
            expect(clock).to_have_text(re.compile(r"\d:\d\d"))
        assert serious_violations(page) == []
    finally:
        ctx.close()


def test_a_race_game_out_of_time_says_so(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """When a race game's time ran out, only "Status: timed out" changed: the message
    area stayed empty.  The page's clock is Playwright's (no waiting for real time)."""
    race = running_race(name="Short race")
    player = User.objects.create_user("tom", password=PASSWORD)
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    assert game_id is not None
    log_in(page, live_server.url, "tom")
    page.clock.install()
    page.goto(f"{live_server.url}/play/{game_id}/")
    expect(page.locator("#board .stats [data-countdown]")).to_have_text(re.compile(r"\d:\d\d"))
    expect(page.locator("#board-message")).to_be_empty()
    # The server's clock passes the game's deadline; the page's countdown reaches zero.
    Game.objects.filter(id=game_id).update(deadline=timezone.now() - timedelta(seconds=1))
    page.clock.run_for("06:00")
    expect(page.locator('[data-stat="status"]')).to_have_text("timed out")
    home = Game.objects.get(id=game_id).cards_home
    words = f"Time is up: your game has ended with {home} card{'s' if home != 1 else ''} home."
    # The live region says the note that the results come later after it (it was a live
    # region of its own, added with the board: test_web_outcome_said_once.py).
    expect(page.locator("#board-message")).to_have_text(words)
    note = (
        "Your game is over. The results, the seed and the replays appear when the race is "
        "finished for everyone."
    )
    expect(page.locator("#announcer")).to_have_text(f"{words} {note}")
    page.reload()
    expect(page.locator("#board-message")).to_have_text(words)
    screenshot(page, "web-play-timed-out", full_page=False)


def test_the_lobby_tells_a_visitor_how_to_play_a_practice_game(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    """A logged-out visitor saw neither the practice form nor that an account gives one."""
    User.objects.create_user("vic", password=PASSWORD)
    page.goto(f"{live_server.url}/")
    practice = page.get_by_role("region", name="Practice")
    expect(practice).to_contain_text("Sign up or log in to play a practice game.")
    expect(practice.get_by_role("link", name="Sign up")).to_have_attribute(
        "href", "/accounts/signup/"
    )
    expect(practice.get_by_role("link", name="log in")).to_have_attribute(
        "href", "/accounts/login/"
    )
    assert serious_violations(page) == []
    screenshot(page, "web-lobby-anonymous-practice", full_page=False)
    practice.get_by_role("link", name="log in").click()
    page.fill("#id_username", "vic")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    expect(page.get_by_role("region", name="Practice").locator("form")).to_be_visible()
