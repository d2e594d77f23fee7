"""The results page's last step of "how to check it" describes the race's own deal: with
a fixed base rank (storehouse) the four cards of that rank start the foundations and the
other 48 are laid out (reserve 13, tableau 4, stock 31; RULES.md 4), not the classic
deal of RULES.md 2.2 (base card D[13], stock of 34)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.ratings.helpers import Result, race_of
from web.views.races import fixed_base_words

pytestmark = pytest.mark.django_db

CLASSIC_WORDS = "the 14th starts the first foundation"
FIXED_WORDS = "the four cards of rank 2 are taken out and start the foundations"


def _page(variant: str) -> str:
    race = race_of(Result("ana", 30, 61_250), Result("bo", 20, 5_040), variant=variant)
    return Client().get(f"/races/{race.id}/results").content.decode()


def test_a_storehouse_race_results_page_describes_its_deal() -> None:
    """RULES.md 4, storehouse: the twos are taken out and the stock holds 31 cards."""
    page = _page("storehouse")
    assert FIXED_WORDS in page
    assert "the last 31 are the stock, the 18th card on top" in page
    assert CLASSIC_WORDS not in page


def test_a_classic_race_results_page_keeps_the_classic_deal() -> None:
    """RULES.md 2.2: D[13] starts the first foundation, the stock is D[18..51]."""
    page = _page("classic")
    assert CLASSIC_WORDS in page
    assert "the four cards of rank" not in page


@pytest.mark.parametrize(
    ("options", "words"),
    [({"base": "dealt"}, None), ({}, None), ({"base": "2"}, "2"), ({"base": "T"}, "10")],
)
def test_fixed_base_words(options: dict[str, str], words: str | None) -> None:
    """A fixed rank as the page writes it (ten as 10); ``None`` for a dealt base."""
    assert fixed_base_words(options) == words
