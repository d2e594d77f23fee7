"""Pages say variants by name and times with the decimal mark of their language.

A walkthrough in French and German saw the codes ("classic") and "83.4" where a reader
expects "Classique" and "83,4"; the API and the CLI keep the codes (RULES.md 4).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.services.games import game_start
from tests.ratings.helpers import Result, race_of
from tests.web.conftest import PageClient
from web.templatetags.web_tags import seconds, variant

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "elapsed", "name"),
    [("en", "83.412", "Draw one"), ("fr", "83,412", "Une carte"), ("de", "83,412", "Eine Karte")],
)
def test_filters_follow_the_language(language: str, elapsed: str, name: str) -> None:
    with translation.override(language):
        assert seconds(83_412) == elapsed
        assert seconds(5_000) == "5" + elapsed[2] + "000"  # always three decimals
        assert seconds(None) == ""
        assert variant("draw-one") == name
        assert variant("no-such-preset") == "no-such-preset"


def test_the_play_page_and_the_lobby_name_the_variant(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, variant="storehouse", seed="3")
    fr = pages.get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<small class="nowrap">Entrepôt</small>' in fr
    lobby = pages.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<option value="classic" selected>Klassisch</option>' in lobby
    assert "<dt>Klassisch</dt>" in lobby
    assert " · Lagerhaus</a>" in lobby  # the player's games, by name
    assert "storehouse" not in lobby.replace('value="storehouse"', "")


def test_results_show_times_with_the_pages_decimal_mark(pages: PageClient) -> None:
    race = race_of(Result("ana", 30, 61_250), Result("bo", 20, 5_040))
    fr = pages.get(f"/races/{race.id}/results", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "<td>61,250</td>" in fr
    assert "<td>5,040</td>" in fr
    en = pages.get(f"/races/{race.id}/results", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<td>61.250</td>" in en
    assert "<td>5.040</td>" in en
