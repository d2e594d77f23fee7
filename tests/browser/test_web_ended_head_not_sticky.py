# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""An ended game's last word hides nothing, however the page is scrolled (Chromium).

On a phone (390 px) the board's head (the counts) stays at the screen's top edge while
the board scrolls, so that a racer sees the time left.  An ended board's last word is in
that head, under the counts: after "Resign" in a race with the page scrolled (the Resign
button is on the bar at the screen's bottom), the head, counts and "You resigned: ..."
together, stuck at the top and lay over the "Reserve" and "Stock" headings and the top
of the board under them (the German and French words are longer, the head taller).  An
ended board's head now scrolls with the page: at every scroll position it covers no
heading of the board.  On a desktop (1,280 px) the head was never sticky; checked too.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.races import race_join
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import running_race

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}

#: What the board says once the game is resigned, by the page's language.
RESIGNED = {
    "en-GB": ("Resign", "You resigned"),
    "fr-FR": ("Abandonner", "Vous avez abandonné"),
    "es-ES": ("Abandonar", "Ha abandonado"),
    "de-DE": ("Aufgeben", "Sie haben aufgegeben"),
}

#: The headings the head must never lie over (ids inside #board).
HEADINGS = ("#reserve-h", "#stock-h", "#found-h")


def _overlap(one: dict[str, float], two: dict[str, float]) -> float:
    """The height, in px, over which two boxes overlap (0 when they do not)."""
    across = min(one["x"] + one["width"], two["x"] + two["width"]) - max(one["x"], two["x"])
    down = min(one["y"] + one["height"], two["y"] + two["height"]) - max(one["y"], two["y"])
    return max(down, 0.0) if across > 0.5 else 0.0


@pytest.mark.parametrize("locale", list(RESIGNED))
@pytest.mark.parametrize("size", list(SIZES))
def test_a_resigned_boards_head_covers_no_heading_at_any_scroll(
    live_server: Any, chromium: Any, transactional_db: Any, size: str, locale: str
) -> None:
    race = running_race(name="Evening race")
    User.objects.create_user("rhea", password=PASSWORD)
    player = User.objects.get(username="rhea")
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    phone = size == "phone"
    ctx = chromium.new_context(
        viewport=SIZES[size], has_touch=phone, is_mobile=phone, locale=locale
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "rhea")
        page.goto(f"{live_server.url}/play/{game_id}/")
        resign, said = RESIGNED[locale]
        # Scrolled to the bottom, where a phone's Resign button is (on its sticky bar).
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.once("dialog", lambda d: d.accept())
        page.get_by_role("button", name=resign).click()
        expect(page.locator("#board-message")).to_contain_text(said)
        expect(page.locator("#board.over")).to_have_count(1)
        # Not sticky, the last word is still in sight after Resign, scrolled as it was.
        expect(page.locator("#board-message")).to_be_in_viewport(ratio=1)
        screenshot(page, f"ended-head-after-resign-{size}-{locale}", full_page=False)
        head = page.locator("#board .board-head")
        top = page.evaluate("document.documentElement.scrollHeight - window.innerHeight")
        worst: tuple[float, int, str] = (0.0, 0, "")
        for y in [*range(0, top, 10), top]:
            page.evaluate(f"window.scrollTo(0, {y})")
            head_box = head.bounding_box()
            for heading in HEADINGS:
                box = page.locator(f"#board {heading}").bounding_box()
                worst = max(worst, (_overlap(head_box, box), y, heading))
        if worst[0] == 0.0 and phone:
            # The head still holds the counts and the last word, above the board.
            message = page.locator("#board-message").bounding_box()
            assert _overlap(head.bounding_box(), message) > 0
        # Scrolled to the board's top edge and past it, as the player who resigned was.
        board_top = page.evaluate(
            "document.getElementById('board').getBoundingClientRect().top + window.scrollY"
        )
        page.evaluate(f"window.scrollTo(0, {board_top + 60})")
        screenshot(page, f"ended-head-scrolled-{size}-{locale}", full_page=False)
        assert worst[0] == 0.0, f"the head covers {worst[2]} by {worst[0]} px at scrollY {worst[1]}"
    finally:
        ctx.close()
