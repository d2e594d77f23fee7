# mypy: disable-error-code="no-untyped-call, assignment, misc"
"""A new user's walkthrough on a Spanish phone (390 px) and a German desktop, in
Chromium: the header's links were 16 px high (too small a target for a finger), the
leaderboard's four columns scrolled sideways while the other tables stacked their rows,
the race standings' stacked label "Última carta a la fundación (segundos desde el
inicio)" took four lines, and the practice form's checkbox was 13 px square."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations

LOCALES = {"en": "en-GB", "fr": "fr-FR", "es": "es-ES", "de": "de-DE"}

#: Each link (and the log-out button) of the site's header: its height and width in px.
_NAV_TARGETS = """() => [...document.querySelectorAll(
    'header.site nav a, header.site nav button')].map(el => {
  const r = el.getBoundingClientRect();
  return {text: el.innerText, h: r.height, w: r.width, top: r.top, bottom: r.bottom};
})"""

#: Per body cell of each table in <main>: [its column's heading, the label shown before
#: its value (the ::before content), the cell's left and right edges, its height].
_CELLS = """() => Array.from(document.querySelectorAll('main table')).flatMap(t => {
  const heads = Array.from(t.querySelectorAll('thead th')).map(h => h.textContent.trim());
  return Array.from(t.querySelectorAll('tbody tr')).flatMap(tr =>
    Array.from(tr.children).map((c, i) => {
      const r = c.getBoundingClientRect();
      const before = getComputedStyle(c, '::before');
      return [heads[i], before.display === 'none' ? '' : before.content, r.left, r.right,
              r.height];
    }));
})"""


def _phone(chromium: Any, lang: str, width: int = 390) -> Any:
    return chromium.new_context(
        viewport={"width": width, "height": 844},
        has_touch=True,
        is_mobile=True,
        locale=LOCALES[lang],
        extra_http_headers={"Accept-Language": lang},
    )


@pytest.mark.parametrize("lang", ["es", "fr", "de"])
@pytest.mark.parametrize("width", [360, 390])
def test_the_header_links_are_targets_a_finger_can_tap_on_a_phone(
    live_server: Any, chromium: Any, transactional_db: Any, lang: str, width: int
) -> None:
    """Each header link was 16 px high on a phone: at least 24 px now (WCAG 2.5.8), on
    the same two lines at most (tests/browser/test_web_phone_header_lines.py), not
    overlapping the next line's links."""
    User.objects.create_user("bob", password=PASSWORD)
    ctx = _phone(chromium, lang, width)
    try:
        page = ctx.new_page()
        for logged_in in (False, True):
            if logged_in:
                log_in(page, live_server.url, "bob")
            page.goto(f"{live_server.url}/")
            screenshot(page, f"h6-header-targets-{lang}{width}-{logged_in}", full_page=False)
            targets = page.evaluate(_NAV_TARGETS)
            assert len(targets) == (6 if logged_in else 5), targets
            for target in targets:
                assert target["h"] >= 24, (lang, width, logged_in, target)
            lines = sorted({round(t["top"]) for t in targets})
            assert len(lines) <= 2, targets
            if len(lines) == 2:  # the second line starts below the first one's targets
                first = max(t["bottom"] for t in targets if round(t["top"]) == lines[0])
                assert lines[1] >= first - 0.5, targets
            header = page.locator("header.site").bounding_box()
            assert header is not None
            assert header["height"] <= 110, header  # 844 px screen: the page stays in view
        assert serious_violations(page) == []
    finally:
        ctx.close()


def _leaderboard() -> None:
    from games.services.ratings import race_rate
    from tests.ratings.helpers import Result, race_of

    alice = User.objects.create_user("alice", password=PASSWORD)
    race = race_of(
        Result(alice, 30, 1000),
        Result("bartholomew_the_long_named", 20, 1000),
        Result("carol", 25, 1000),
    )
    race_rate(race_id=race.id)


def test_the_leaderboard_stacks_its_rows_on_a_phone(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """At 390 px the leaderboard's table (place, player, rating, rated races) scrolled
    sideways; it stacks its rows as the race, results, tournament and player tables do
    (app.css table.stack, app.js labelStacks): each cell shows its heading before its
    value, nothing wider than the screen."""
    _leaderboard()
    ctx = _phone(chromium, "es")
    try:
        page = ctx.new_page()
        log_in(page, live_server.url, "alice")
        page.goto(f"{live_server.url}/leaderboards/classic/")
        page.wait_for_load_state("networkidle")
        screenshot(page, "h6-leaderboard-es390")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        boxes = page.evaluate(
            "() => Array.from(document.querySelectorAll('main .scroll'))"
            ".map(b => b.scrollWidth - b.clientWidth)"
        )
        assert boxes
        assert max(boxes) <= 1, boxes
        assert page.locator(".scroll-cue:not([hidden])").count() == 0
        cells = page.evaluate(_CELLS)
        assert len(cells) == 3 * 4, cells
        for heading, label, left, right, _height in cells:
            assert heading, cells
            assert label == f'"{heading}"', (heading, label)
            assert left >= 0, (heading, left)
            assert right <= 390, (heading, right)
        assert serious_violations(page) == []
    finally:
        ctx.close()


def test_the_leaderboard_keeps_its_columns_on_a_desktop(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    _leaderboard()
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/leaderboards/classic/")
        page.wait_for_load_state("networkidle")
        screenshot(page, "h6-leaderboard-de1280")
        head = page.locator("main table thead").bounding_box()
        assert head is not None
        assert head["height"] > 1  # the headings are a row, not hidden
        labels = {label for _h, label, *_rest in page.evaluate(_CELLS)}
        assert labels <= {"none", ""}, labels
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_the_stacked_standings_labels_take_two_lines_at_most(
    live_server: Any, chromium: Any, transactional_db: Any, lang: str
) -> None:
    """A race's stacked standings on a phone: "Última carta a la fundación (segundos
    desde el inicio)" took four lines beside its value.  No label takes more than two
    lines (a cell at most about twice as high as the one-line "Jugadas" cell)."""
    from tests.tournaments.factories import Result, finished_race

    alice = User.objects.create_user("alice", password=PASSWORD)
    race = finished_race(
        None, Result(alice, 52, 171_200, moves=140, won=True), Result("carol", 9, 20_000)
    )
    ctx = _phone(chromium, lang)
    try:
        page = ctx.new_page()
        for name, url, columns in (("race", "/", 6), ("results", "/results", 9)):
            page.goto(f"{live_server.url}/races/{race.id}{url}")
            page.wait_for_load_state("networkidle")
            screenshot(page, f"h6-standings-{name}-{lang}390")
            cells = page.evaluate(_CELLS)
            assert len(cells) == 2 * columns, cells
            one_line = min(height for *_rest, height in cells)
            for heading, label, _left, right, height in cells:
                if not heading:  # the results' replay links: a column with no heading
                    continue
                # Every value keeps a label, in the page's language ("Última carta
                # colocada (s)"; not the English "Last card home (s)" on a Spanish page).
                assert label.strip('"').split()[0] == heading.split()[0], (heading, label)
                assert height <= 2.3 * one_line, (lang, name, heading, label, height)
                assert right <= 390, (heading, right)
            assert serious_violations(page) == []
    finally:
        ctx.close()


def test_the_practice_checkbox_is_a_comfortable_size_on_a_phone(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """The practice form's "winnable deal" checkbox was 13 px square on a phone: 24 px at
    least now, beside its label, and a tap on the label still ticks it."""
    User.objects.create_user("alice", password=PASSWORD)
    ctx = _phone(chromium, "es")
    try:
        page = ctx.new_page()
        log_in(page, live_server.url, "alice")
        page.goto(f"{live_server.url}/practice")
        screenshot(page, "h6-practice-es390")
        boxes = page.locator("main input[type=checkbox]")
        assert boxes.count() >= 1
        for i in range(boxes.count()):
            box = boxes.nth(i).bounding_box()
            assert box is not None
            assert box["width"] >= 24, box
            assert box["height"] >= 24, box
            assert box["x"] >= 0, box
            assert box["x"] + box["width"] <= 390, box
        first = boxes.first
        checked = first.is_checked()
        page.locator(f"label[for={first.get_attribute('id')}]").click()
        assert first.is_checked() is not checked
        assert serious_violations(page) == []
    finally:
        ctx.close()
