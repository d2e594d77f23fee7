"""At 1,280 px the stock button's label is one line in every language: in German
"Ziehen (17 Karten im Talon)" wrapped to two or three lines, a taller button than in
English."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.services.games import game_start
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in


def _label(page: Any) -> dict[str, float]:
    """The Draw button's height and its label's line height and number of lines."""
    result: dict[str, float] = page.evaluate(
        """() => { const b = document.querySelector('#board [data-action="stock"]');
            const r = document.createRange();
            r.selectNodeContents(b.querySelector('.stocklabel') || b);  // its words' lines
            const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
            return {lines: tops.size, height: b.getBoundingClientRect().height,
                    text: r.getBoundingClientRect().height,
                    line: parseFloat(getComputedStyle(b).lineHeight)}; }"""
    )
    return result


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "es-ES", "de-DE"])
def test_the_draw_label_is_one_line_at_1280_px(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str
) -> None:
    player = User.objects.create_user("lea", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "lea")
        page.goto(f"{live_server.url}/play/{game.id}/")
        label = _label(page)
        screenshot(page, f"stock-label-{locale}", full_page=False)
        assert label["lines"] == 1, label
        assert label["text"] <= label["line"] * 1.5, label  # one line of text
        # The button is a card's height, as in English.
        card = page.locator("#board .tableau .card").first.bounding_box()
        assert card is not None
        assert abs(label["height"] - card["height"]) <= 1, (label, card)
    finally:
        ctx.close()
