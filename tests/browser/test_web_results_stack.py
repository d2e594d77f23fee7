"""In Chromium on a phone (360 and 390 px): a race's results table (nine columns) stacks
its rows, as the race, tournament and player tables do (app.css table.stack, app.js
labelStacks), rather than scroll sideways: each cell shows its column's heading before
its value, and nothing on the results page is wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations

#: Per body cell of each table in <main>: [its column's heading (its short form for a
#: stacked label where it has one: data-short), the label shown before its value (the
#: ::before content), the cell's left and right edges, its width].
CELLS = """() => Array.from(document.querySelectorAll('main table')).flatMap(t => {
  const heads = Array.from(t.querySelectorAll('thead th')).map(
    h => h.getAttribute('data-short') || h.textContent.trim());
  return Array.from(t.querySelectorAll('tbody tr')).flatMap(tr =>
    Array.from(tr.children).map((c, i) => {
      const r = c.getBoundingClientRect();
      const before = getComputedStyle(c, '::before');
      return [heads[i], before.display === 'none' ? '' : before.content, r.left, r.right,
              r.width];
    }));
})"""


def _race() -> Any:
    from tests.tournaments.factories import Result, finished_race

    alice = User.objects.create_user("alice", password=PASSWORD)
    return finished_race(
        None,
        Result(alice, 52, 171_200, moves=140, won=True),
        Result("bartholomew_the_long_named", 21, 220_000),
        Result("carol", 9, 0),
        name="Thursday evening sprint, heat one",
    )


@pytest.mark.parametrize(("width", "lang"), [(360, "en"), (360, "fr"), (390, "en"), (390, "fr")])
def test_the_results_table_stacks_its_rows_on_a_phone(
    live_server: Any, chromium: Any, transactional_db: Any, width: int, lang: str
) -> None:
    race = _race()
    ctx = chromium.new_context(
        viewport={"width": width, "height": 800}, extra_http_headers={"Accept-Language": lang}
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "alice")
        for name, url in (("results", f"/races/{race.id}/results"), ("race", f"/races/{race.id}/")):
            page.goto(live_server.url + url)
            page.wait_for_load_state("networkidle")
            screenshot(page, f"results-stack-{name}-{lang}{width}")
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name
            # Nor does a table's own box scroll sideways (it did, "scroll to see more").
            boxes = page.evaluate(
                "() => Array.from(document.querySelectorAll('main .scroll'))"
                ".map(b => b.scrollWidth - b.clientWidth)"
            )
            assert boxes, name
            assert max(boxes) <= 1, (name, boxes)
            assert page.locator(".scroll-cue:not([hidden])").count() == 0, name
            cells = page.evaluate(CELLS)
            assert len(cells) >= 3 * 6, name  # three entries, a row each
            for heading, label, left, right, shown in cells:
                assert heading, (name, cells)
                assert label == f'"{heading}"', (name, heading, label)  # the heading shows
                assert shown > 0, (name, heading)
                assert left >= 0, (name, heading, left)
                assert right <= width, (name, heading, right)
        assert serious_violations(page) == []
    finally:
        ctx.close()


def test_the_results_table_keeps_its_columns_on_a_desktop(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    race = _race()
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "alice")
        page.goto(f"{live_server.url}/races/{race.id}/results")
        page.wait_for_load_state("networkidle")
        head = page.locator("main table thead").bounding_box()
        assert head is not None
        assert head["height"] > 1  # the headings are a row, not hidden
        labels = page.evaluate(CELLS)
        assert {label for _h, label, *_rest in labels} <= {"none", ""}  # no label shown
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    finally:
        ctx.close()
