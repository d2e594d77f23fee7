"""The ring of a covered card (focused or selected) goes round the part of it in sight.

A pile's cards overlap (``.stack-cards``: each later card covers ``--overlap`` of the
card under it) and a later card is drawn over an earlier one. A covered card's focus
ring (white) and selection ring (yellow) were its own outline, round its whole box: the
cards on it were drawn over the ring's middle, so the ring took them in too, and the six
of diamonds under the five of spades looked like both cards were focused or selected
(at 390 px a queen's ring took in the jack and the ten). The ring is now drawn by the
card's ``::after`` over the strip of the card in sight, above the next card: its height
is the distance from the card's top to the next card's top.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start, move_play
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in

# The deal of seed 12345 (classic): pile 4 is the six of diamonds, pile 1 the five of
# spades; 5S>t4 makes pile 4 "six of diamonds, five of spades".
SEED = "12345"

_RING = """key => {
  const card = document.querySelector(`[data-key="${key}"]`);
  const next = card.nextElementSibling;
  const own = getComputedStyle(card);
  const ring = getComputedStyle(card, "::after");
  return {
    own: own.outlineStyle,
    ring: ring.content === "none" ? null : ring.outlineStyle,
    colour: ring.outlineColor,
    height: parseFloat(ring.height),
    strip: next.getBoundingClientRect().top - card.getBoundingClientRect().top,
  };
}"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_a_covered_cards_ring_is_round_its_strip(
    live_server: Any, chromium: Any, width: int
) -> None:
    player = User.objects.create_user("cora", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    move_play(game_id=game.id, player=player, move="5S>t4", expected_move_number=0)
    context = chromium.new_context(viewport={"width": width, "height": 844}, locale="en-GB")
    try:
        page = context.new_page()
        log_in(page, live_server.url, "cora")
        page.goto(f"{live_server.url}/play/{game.id}/")
        covered = page.locator('[data-key="t4-6D"]')
        expect(covered).to_have_attribute("aria-label", "six of diamonds, under 1 card")
        page.locator('[data-key="pile-t4"]').focus()
        page.keyboard.press("ArrowDown")  # keyboard focus: :focus-visible
        expect(covered).to_be_focused()
        focus = page.evaluate(_RING, "t4-6D")
        assert focus["own"] == "none"
        assert focus["ring"] == "solid"
        assert focus["colour"] == "rgb(255, 255, 255)"
        assert focus["height"] == pytest.approx(focus["strip"], abs=0.5)
        assert 0 < focus["strip"] < covered.bounding_box()["height"] / 2
        page.keyboard.press("Enter")
        expect(covered).to_have_attribute("aria-pressed", "true")
        chosen = page.evaluate(_RING, "t4-6D")
        assert chosen["own"] == "none"
        assert chosen["colour"] == "rgb(255, 191, 0)"  # the selection's yellow (--sel)
        assert chosen["height"] == pytest.approx(chosen["strip"], abs=0.5)
        screenshot(page, f"covered-card-ring-{width}")
        # The pile's top card keeps its own ring round its whole face.
        page.keyboard.press("Escape")
        page.keyboard.press("ArrowDown")
        top = page.locator('[data-key="t4-5S"]')
        expect(top).to_be_focused()
        assert top.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
        assert top.evaluate("e => getComputedStyle(e, '::after').content") == "none"
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_covered_cards_hint_ring_is_round_its_strip(live_server: Any, chromium: Any) -> None:
    """A whole-pile hint names the pile's bottom card, a covered one: its dotted ring
    (``.hinted``, set by app.js markHint) took in the cards on it too."""
    player = User.objects.create_user("hester", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    move_play(game_id=game.id, player=player, move="5S>t4", expected_move_number=0)
    context = chromium.new_context(viewport={"width": 1280, "height": 844}, locale="en-GB")
    try:
        page = context.new_page()
        log_in(page, live_server.url, "hester")
        page.goto(f"{live_server.url}/play/{game.id}/")
        covered = page.locator('[data-key="t4-6D"]')
        covered.evaluate("e => e.classList.add('hinted')")  # as markHint does
        hint = page.evaluate(_RING, "t4-6D")
        assert hint["own"] == "none"
        assert hint["ring"] == "dotted"
        assert hint["colour"] == "rgb(255, 191, 0)"
        assert hint["height"] == pytest.approx(hint["strip"], abs=0.5)
        # The pile's top card, hinted, keeps the dotted ring round its whole face.
        top = page.locator('[data-key="t4-5S"]')
        top.evaluate("e => e.classList.add('hinted')")
        assert top.evaluate("e => getComputedStyle(e).outlineStyle") == "dotted"
        assert top.evaluate("e => getComputedStyle(e, '::after').content") == "none"
        screenshot(page, "covered-card-hint-ring-1280")
    finally:
        context.close()
