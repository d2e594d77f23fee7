"""What a screen reader hears of the board's piles and cards, in Chromium.

A tableau pile's button gave its count alone ("Pile 4 (3 cards)"), and a covered card in
focus (Up and Down go among a pile's cards) was named as a top card is ("jack of
diamonds"): nothing said that cards lay on it. The reserve's, the waste's and each
pile's cards were named without their pile (the areas' headings named no group). Now a
pile's button names its top card, a covered card says how many cards lie on it, and
the reserve, the stock and waste, the foundations, the tableau and each tableau pile are
named groups. The stock's button still gives its count alone, and no name ever gives a
face-down card or the stock's order (RULES.md 7).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.engine import card_name, new_game, play
from games.services.games import game_start, move_play
from tests.browser.test_web_board_keyboard import MOVES, SEED
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations

#: After MOVES: pile 4 is JD TC 9H, pile 2 TD 9C 8H, the reserve's top card the five of
#: hearts (ten cards face down under it), the waste's the eight of spades; the stock
#: holds one card.
NAMES: dict[str, dict[str, Any]] = {
    "en-GB": {
        "pile-t4": "Pile 4 (3 cards), top card: nine of hearts",
        "pile-t3": "Pile 3 (1 card), top card: ace of clubs",
        "t4-JD": "jack of diamonds, under 2 cards",
        "t4-TC": "ten of clubs, under 1 card",
        "t4-9H": "nine of hearts",
        "group": "Pile 4",
        "reserve": "Reserve",
        "stock": re.compile(r"^Draw \(1 card in the stock\)$"),
    },
    "fr-FR": {
        "pile-t4": "Colonne 4 (3 cartes), carte du dessus\u202f: neuf de cœur",
        "pile-t3": "Colonne 3 (1 carte), carte du dessus\u202f: as de trèfle",
        "t4-JD": "valet de carreau, sous 2 cartes",
        "t4-TC": "dix de trèfle, sous 1 carte",
        "t4-9H": "neuf de cœur",
        "group": "Colonne 4",
        "reserve": "Réserve",
        "stock": re.compile(r"^Tirer \(1 carte au talon\)$"),
    },
}

RANKS = "ace two three four five six seven eight nine ten jack queen king".split()  # noqa: SIM905

#: Every card's English name, by code ("QH": "queen of hearts").
ENGLISH = {
    r + s: f"{rank} of {suit}"
    for r, rank in zip("A23456789TJQK", RANKS, strict=True)
    for s, suit in zip("CDHS", ("clubs", "diamonds", "hearts", "spades"), strict=True)
}


def _hidden() -> list[str]:
    """The codes of the cards a player may not see after MOVES: the stock and the
    reserve's face-down cards (all but its top card)."""
    state = new_game("classic", seed=SEED)
    for mv in MOVES:
        play(state, mv)
    return [card_name(c) for c in [*state.stock, *state.reserve[:-1]]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("locale", list(NAMES))
def test_piles_and_covered_cards_are_named_by_what_shows(
    live_server: Any, chromium: Any, locale: str
) -> None:
    player = User.objects.create_user("nam", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=SEED)
    for n, mv in enumerate(MOVES):
        move_play(game_id=game.id, player=player, move=mv, expected_move_number=n)
    names = NAMES[locale]
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    try:
        page = context.new_page()
        log_in(page, live_server.url, "nam")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.wait_for_selector("#board[data-move-url]")
        for key in ("pile-t4", "pile-t3", "t4-JD", "t4-TC", "t4-9H"):
            expect(page.locator(f'#board [data-key="{key}"]')).to_have_accessible_name(names[key])
        # The visible label starts the name (WCAG 2.5.3): "Pile 4 (3 cards)".
        label = page.locator('#board [data-key="pile-t4"]').inner_text()
        assert str(names["pile-t4"]).startswith(" ".join(label.split()).replace("\u00a0", " "))
        pile = page.get_by_role("group", name=names["group"], exact=True)
        expect(pile.locator("button[data-card]")).to_have_count(3)
        reserve = page.get_by_role("group", name=names["reserve"], exact=True)
        expect(reserve.locator("button")).to_have_count(1)
        expect(reserve.locator("button")).to_have_attribute("data-key", "reserve-5H")
        expect(page.locator('#board [data-action="stock"]')).to_have_accessible_name(names["stock"])
        if locale == "en-GB":
            # No name, text or label on the page gives a hidden card.
            tree = page.locator("body").aria_snapshot()
            html = page.content()
            for code in _hidden():
                assert ENGLISH[code] not in tree, code
                assert ENGLISH[code] not in html, code
            assert serious_violations(page) == []
    finally:
        context.close()
