# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""What a new user's walkthrough saw: the race page's standings squeezed into the left
half at 1280 px ("resignec", "timed out" on two lines, a sideways scroll beside an empty
right half), and on a phone the tournament's and player's tables with race names on four
lines and their Status column cut at the screen's edge."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Game
from games.services.races import race_create, race_join
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in

# Per table in <main>: [overflows its .scroll box, cells whose text is cut, headings].
FIT = """() => Array.from(document.querySelectorAll('main table')).map(t => {
  const box = t.closest('.scroll') || t.parentElement;
  // A phone's stacked table hides its heading row from view (each cell shows its label).
  const shown = c => !(c.closest('thead')
    && c.closest('thead').getBoundingClientRect().height <= 1);
  const right = box.getBoundingClientRect().right + 1;
  const cut = Array.from(t.querySelectorAll('th, td')).filter(shown).filter(
    c => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > right
  ).map(c => c.textContent.trim());
  return [box.scrollWidth > box.clientWidth + 1, cut];
})"""
# How many lines a cell's text takes.
LINES = """c => { const r = document.createRange(); r.selectNodeContents(c);
  return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; }"""


def _cup() -> tuple[Any, Any, Any, Any]:
    """A tournament with a finished race, a running one (alice playing, bob resigned,
    carol timed out) and an upcoming one alice has joined."""
    from tests.tournaments.factories import (
        Result,
        TournamentFactory,
        finished_race,
        play,
        running_race,
    )

    alice = User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    carol = User.objects.create_user("carol", password=PASSWORD)
    cup = TournamentFactory(name="Winter Cup")
    finished_race(cup, Result(alice, 4, 17200), Result(bob, 2, 22000), name="Winter Cup H10 #1")
    running = running_race(cup, name="Winter Cup H10 #2")
    play(running, Result(alice, 4, 17200, moves=11))
    for who, status in ((bob, Game.Status.RESIGNED), (carol, Game.Status.TIMED_OUT)):
        entry = play(running, Result(who, 2, 22000, moves=4))
        Game.objects.filter(id=entry.game_id).update(status=status)
    now = timezone.now()
    upcoming = race_create(
        name="Winter Cup H10 #3",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=10),
        ends_at=now + timedelta(minutes=20),
    )
    upcoming.tournament = cup
    upcoming.save(update_fields=["tournament"])
    race_join(race_id=upcoming.id, player=alice)
    return cup, running, upcoming, alice


@pytest.mark.parametrize(("width", "lang"), [(1280, "en"), (390, "en"), (390, "fr")])
def test_no_table_overflows_or_cuts_a_column(
    live_server: Any, chromium: Any, transactional_db: Any, width: int, lang: str
) -> None:
    """The race, tournament and player pages' tables fit their box: no sideways scroll,
    no cell whose text is cut; at 1280 px the race's Status column keeps "resigned" and
    "timed out" on one line; the tournament's upcoming race says so."""
    cup, running, _upcoming, _alice = _cup()
    ctx = chromium.new_context(
        viewport={"width": width, "height": 900}, extra_http_headers={"Accept-Language": lang}
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "alice")
        for name, url in (
            ("race", f"/races/{running.id}/"),
            ("tournament", f"/tournaments/{cup.id}/"),
            ("player", "/players/alice/"),
        ):
            page.goto(live_server.url + url)
            page.wait_for_load_state("networkidle")
            screenshot(page, f"web-tables-fit-{name}-{lang}{width}")
            fits = page.evaluate(FIT)
            assert fits, name
            assert [(name, f) for f in fits if f[0] or f[1]] == []
            assert page.evaluate("document.documentElement.scrollWidth") == width
            if name == "race" and width == 1280:
                cells = page.locator("table.standings tbody td:last-child")
                assert cells.all_inner_texts() == ["playing", "resigned", "timed out"]
                assert cells.evaluate_all(f"cs => cs.map({LINES})") == [1, 1, 1]
                assert page.locator(".scroll-cue:not([hidden])").count() == 0
            if name == "tournament":
                row = page.locator("#tm-h ~ .scroll tbody tr").last
                word = {"en": "upcoming", "fr": "à venir"}[lang]
                assert row.locator("td").last.inner_text() == word
            if width == 390 and name != "race":
                # Race names on at most two lines (they took four).
                links = page.locator("main table.stack tbody th a")
                assert max(links.evaluate_all(f"cs => cs.map({LINES})")) <= 2
    finally:
        ctx.close()


# How many lines the text from ``start`` to the end of an element's text takes.
TAIL_LINES = """(el, start) => { const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node = w.nextNode(); while (node && node.textContent.indexOf(start) < 0) node = w.nextNode();
  const r = document.createRange();
  r.setStart(node, node.textContent.indexOf(start)); r.setEnd(node, node.textContent.length);
  return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; }"""


# An "empty" slot's room between its text and its dashed edges, in px: [left, right].
SLOT_ROOM = """el => { const r = document.createRange(); r.selectNodeContents(el);
  const t = r.getBoundingClientRect(), b = el.getBoundingClientRect();
  return [t.left - b.left, b.right - t.right]; }"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_phone_keeps_pile_counts_and_the_variant_whole(
    live_server: Any, chromium: Any, transactional_db: Any, lang: str
) -> None:
    """At 390 px "Pile 1 (1 card)" broke between "(1" and "card)", "Arc-en-ciel" beside
    the heading at its hyphen, and the replay's "empty" slot touched its edges."""
    from games.services.games import game_end, game_start

    alice = User.objects.create_user("alice", password=PASSWORD)
    game = game_start(player=alice, variant="rainbow", seed="12345")
    ctx = chromium.new_context(
        viewport={"width": 390, "height": 900}, extra_http_headers={"Accept-Language": lang}
    )
    page = ctx.new_page()
    count = {"en": "(1\u00a0card)", "fr": "(1\u00a0carte)"}[lang]
    try:
        log_in(page, live_server.url, "alice")
        page.goto(f"{live_server.url}/play/{game.id}/")
        screenshot(page, f"web-phone-words-play-{lang}390")
        buttons = page.locator(".pilebtn")
        assert buttons.count() == 4
        for i in range(4):
            assert buttons.nth(i).inner_text().endswith(count)
            assert buttons.nth(i).evaluate(TAIL_LINES, count) == 1
        subtitle = page.locator("h1 small")
        assert subtitle.inner_text() == {"en": "Rainbow", "fr": "Arc-en-ciel"}[lang]
        assert subtitle.evaluate(LINES) == 1
        game_end(game_id=game.id, player=alice)  # its replay is open once it is over
        page.goto(f"{live_server.url}/replay/{game.id}/")
        screenshot(page, f"web-phone-words-replay-{lang}390")
        slot = page.locator(".board .slot").first
        left, right = slot.evaluate(SLOT_ROOM)
        assert min(left, right) >= 2, (left, right)
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_the_tournament_standings_fit_at_1280_px_in_each_language(
    live_server: Any, chromium: Any, transactional_db: Any, lang: str
) -> None:
    """With its "Total time" column the standings, in a half-page column, were cut at
    1280 px in French and German ("Temps total", "Gesamtzeit") under a "this table
    scrolls sideways" line: they now take the page's width."""
    from tests.tournaments.factories import Result, finished_race

    cup, _running, _upcoming, _alice = _cup()
    dave = User.objects.create_user("dave_the_long_named", password=PASSWORD)
    finished_race(cup, Result(dave, 52, 3_723_400, won=True), name="Winter Cup H10 #0")
    ctx = chromium.new_context(
        viewport={"width": 1280, "height": 900}, extra_http_headers={"Accept-Language": lang}
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "alice")
        page.goto(f"{live_server.url}/tournaments/{cup.id}/")
        page.wait_for_load_state("networkidle")
        screenshot(page, f"web-tournament-standings-{lang}1280")
        table = page.locator("#ts-h ~ .scroll table.standings")
        assert table.locator("tbody tr").count() == 3
        heads = table.locator("thead th").all_inner_texts()
        assert (
            heads[-1]
            == {
                "en": "Total time",
                "fr": "Temps total",
                "de": "Gesamtzeit",
                "es": "Tiempo total",
            }[lang]
        )
        box = page.locator("#ts-h ~ .scroll")
        for el in (box, table):
            sizes = el.evaluate("e => [e.scrollWidth, e.clientWidth]")
            assert sizes[0] <= sizes[1], (lang, sizes)
        assert page.locator("#ts-h ~ .scroll-cue:not([hidden])").count() == 0
        assert page.locator(".scroll-cue:not([hidden])").count() == 0
        # No heading or cell cut or on two lines.
        cells = table.locator("th, td")
        assert cells.evaluate_all("cs => cs.filter(c => c.scrollWidth > c.clientWidth + 1)") == []
        assert max(table.locator("thead th").evaluate_all(f"cs => cs.map({LINES})")) == 1
    finally:
        ctx.close()


def test_the_player_page_captions_span_a_phone_in_french(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """At 390 px the stacked tables' captions ("Cote de alice2 dans chaque classement",
    "Dernières courses classées") were squeezed into a narrow column beside empty
    space; they now span the table.  The French caption needs no elision ("Cote de
    alice2" wanted an elided "d\u2019alice2"): it starts with the name."""
    from games.services.ratings import race_rate
    from tests.ratings.helpers import Result, race_of

    alice = User.objects.create_user("alice2", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    race_rate(race_id=race_of(Result(alice, 30, 1000), Result(bob, 10, 1000), name="Cup #1").id)
    ctx = chromium.new_context(
        viewport={"width": 390, "height": 900}, extra_http_headers={"Accept-Language": "fr"}
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "alice2")
        page.goto(f"{live_server.url}/players/alice2/")
        page.wait_for_load_state("networkidle")
        screenshot(page, "web-player-captions-fr390")
        captions = page.locator("main table.stack caption")
        assert captions.all_inner_texts() == [
            "alice2\u202f: cote dans chaque classement des joueurs",
            "Dernières courses cotées",
        ]
        widths = captions.evaluate_all(
            "cs => cs.map(c => [c.getBoundingClientRect().width,"
            " c.closest('table').getBoundingClientRect().width])"
        )
        for caption, table in widths:
            assert table > 300
            assert caption >= table - 16, widths
    finally:
        ctx.close()
