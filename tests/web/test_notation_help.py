"""The typed-move help on the play page says that 10 is written T (RULES.md 5: the
output is canonical, ``TH``; ``10H`` is read as ``TH``), in every language of the pages;
it listed the ranks as "2 to 10", so a player reading ``TH>t2`` among the legal moves
or on the board had no word of what T is."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.engine.moves import canonical
from games.services.games import game_start
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

RANKS = {
    "en": "(A, 2 to 9, T for 10, J jack, Q queen, K king; 10 is understood too)",
    "fr": "(A as, 2 à 9, T pour 10, J valet, Q dame, K roi\u202f; 10 est compris aussi)",
    "es": "(A as, 2 a 9, T para el 10, J jota, Q reina, K rey; también se entiende 10)",
    "de": "(A Ass, 2 bis 9, T für 10, J Bube, Q Dame, K König; 10 wird auch verstanden)",
}


@pytest.mark.parametrize("language", sorted(RANKS))
def test_the_move_help_says_t_for_10(pages: PageClient, player: Any, language: str) -> None:
    game = game_start(player=player, seed="7")
    html = pages.get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    help_text = re.search(r'<small class="help" id="typed-move-help">(.*?)</small>', html, re.S)
    assert help_text is not None
    assert RANKS[language] in help_text.group(1)
    assert "2 to 10" not in help_text.group(1)


def test_what_the_help_says_is_what_the_server_reads() -> None:
    # T is the canonical rank (RULES.md 5); 10 is accepted and read as T.
    assert canonical("TH>t2") == "TH>t2"
    assert canonical("10h>T2") == "TH>t2"
