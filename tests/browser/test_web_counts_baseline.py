"""In Chromium: each count of the board's head (cards home, casino score, moves, redeals,
status, time left) reads on one line with its label, the label's words and the value's
on one baseline, on the play page and the replay, at 390 px and at 1,280 px.

A new user (Spanish phone, German desktop) saw every label ("Cartas en fundaciones:",
"Abgelegt:") sit 3 px above its bold value on the desktop play page and on the replay at
both widths: the labels, in smaller type, were aligned by their top edge; only a phone's
play page lined them up by their baseline.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.services.games import game_end, game_start, move_play
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in

WIDTHS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}

#: For each count of the head: its label, and how far (px) its value's baseline lies below
#: the label's (an empty inline-block's top edge sits on its line's baseline).
OFFSETS = """() => [...document.querySelectorAll('#board .stats > div')].map(div => {
  const baseline = (el) => {
    const mark = document.createElement('span');
    mark.style.cssText = 'display:inline-block;width:0;height:0';
    el.appendChild(mark);
    const y = mark.getBoundingClientRect().top;
    mark.remove();
    return y;
  };
  const dt = div.querySelector('dt'), dd = div.querySelector('dd');
  return [dt.textContent.trim(), baseline(dd) - baseline(dt)];
})"""


@pytest.mark.parametrize(("locale", "width"), [("es-ES", "phone"), ("de-DE", "desktop")])
def test_each_count_and_its_label_share_a_baseline(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str, width: str
) -> None:
    player = User.objects.create_user("ines", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    move_play(game_id=game.id, player=player, move="draw")
    game_end(game_id=game.id, player=player)  # resigned: the replay is open to its owner
    ctx = chromium.new_context(locale=locale, **WIDTHS[width])
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "ines")
        for name, path in (("play", f"/play/{game.id}/"), ("replay", f"/replay/{game.id}/")):
            page.goto(f"{live_server.url}{path}")
            offsets = page.evaluate(OFFSETS)
            screenshot(page, f"counts-baseline-{name}-{width}", full_page=False)
            assert len(offsets) >= 5, offsets
            assert [label for label, dy in offsets if abs(dy) > 0.5] == [], (name, offsets)
    finally:
        ctx.close()
