# mypy: disable-error-code="misc"
"""On a phone (360 and 390 px), a tableau pile's label keeps its count in parentheses
on one line, in every language.

At 390 px in French a 10-card pile's button read "Colonne 2 (10 cartes" with ")" alone
on the next line: the page lets a word too long for its box break anywhere
(``overflow-wrap: anywhere``), and "(10\u00a0cartes)" is one word.  The count is now
one unbreakable piece ("(10 cartes)" in a ``nowrap`` span) that fits the button."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_web_phone_play_room import _race_game
from tests.browser.web_helpers import log_in

#: For each pile button: the line tops of the count's first digit and of its ")" (a
#: Range on each character), and whether the text stays inside the button.
_COUNT_LINES = """() => [...document.querySelectorAll('#board .pilebtn')].map(b => {
  const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
  const chars = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    for (let i = 0; i < n.data.length; i++) chars.push([n, i]);
  const text = chars.map(([n, i]) => n.data[i]).join('');
  const top = k => { const r = document.createRange(); r.setStart(chars[k][0], chars[k][1]);
    r.setEnd(chars[k][0], chars[k][1] + 1); return Math.round(r.getBoundingClientRect().top); };
  const open = text.lastIndexOf('('), close = text.lastIndexOf(')');
  const all = document.createRange(); all.selectNodeContents(b);
  const t = all.getBoundingClientRect(), box = b.getBoundingClientRect();
  return {text, open: top(open), digit: top(open + 1), close: top(close),
          inside: t.left >= box.left - 0.5 && t.right <= box.right + 0.5};
})"""


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("width", [360, 390])
def test_a_ten_card_pile_keeps_its_count_on_one_line(
    live_server: Any,
    chromium: Any,
    transactional_db: Any,
    monkeypatch: pytest.MonkeyPatch,
    width: int,
    lang: str,
) -> None:
    game = _race_game(monkeypatch, "3", 10)
    ctx = chromium.new_context(
        viewport={"width": width, "height": 844},
        has_touch=True,
        is_mobile=True,
        extra_http_headers={"Accept-Language": lang},
    )
    try:
        page = ctx.new_page()
        log_in(page, live_server.url, "bob")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.wait_for_selector("#board[data-move-url]")
        labels = page.evaluate(_COUNT_LINES)
        screenshot(page, f"play-phone-pile-count-{lang}-{width}", full_page=False)
        assert len(labels) == 4
        ten = {"fr": "(10\u00a0cartes)", "de": "(10\u00a0Karten)"}[lang]
        assert any(label["text"].endswith(ten) for label in labels), labels
        for label in labels:
            assert label["open"] == label["digit"] == label["close"], (width, lang, label)
            assert label["inside"], (width, lang, label)
    finally:
        ctx.close()


def test_a_pile_heading_keeps_the_space_before_its_count(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """Where the board takes no moves (a replay, an ended or blocked game) a pile's label
    is a heading laid out as a flex box, whose two items ("Pile 1", "(2 cards)") lost the
    space between them: it read "Pile 1(2 cards)" at 1,280 px."""
    from django.contrib.auth.models import User

    from games.services.games import game_end, game_start
    from tests.browser.web_helpers import PASSWORD

    player = User.objects.create_user("bob", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    game_end(game_id=game.id, player=player)  # resigned: the board takes no moves
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    try:
        page = ctx.new_page()
        log_in(page, live_server.url, "bob")
        page.goto(f"{live_server.url}/play/{game.id}/")
        heads = page.locator("#board .pilehead")
        assert heads.count() == 4
        gaps = page.evaluate(
            """() => [...document.querySelectorAll('#board .pilehead')].map(h => {
                const count = h.querySelector('.pilecount');
                const r = document.createRange();
                r.setStart(h.firstChild, 0);
                r.setEnd(h.firstChild, h.firstChild.data.trimEnd().length);
                return count.getBoundingClientRect().left - r.getBoundingClientRect().right;
            })"""
        )
        screenshot(page, "ended-board-pile-headings-1280", full_page=False)
        assert all(gap >= 2 for gap in gaps), gaps
    finally:
        ctx.close()
