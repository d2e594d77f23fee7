# mypy: disable-error-code="no-untyped-call"
"""The lobby's "My recent games" and the player page's practice games tell two games
started the same second apart: each line names its deal's base rank (public: the first
foundation's card is dealt face up, RULES.md 2.2 and 7), and the start reads as a
relative time whose full date sits in the ``<time>`` element's ``datetime`` and
``title`` (no long date in the text)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from games.engine.cards import CARD_NAMES
from games.models import Game
from games.selectors.games import deal_base_rank
from games.services.games import game_start
from tests.factories import create_user
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

STARTED = datetime(2026, 12, 5, 4, 17, 17, tzinfo=UTC)  # only its attributes are asserted


def _deck(base_card: str) -> list[str]:
    """A deck whose first foundation card ``D[13]`` is ``base_card``."""
    rest = [c for c in CARD_NAMES if c != base_card]
    return [*rest[:13], base_card, *rest[13:]]


def _two_games_the_same_second() -> tuple[object, list[Game]]:
    ann = create_user("ann")
    games = [game_start(player=ann, deck=_deck(card)) for card in ("QH", "3C")]
    Game.objects.filter(player=ann).update(started_at=STARTED)
    return ann, games


def _lines(html: str) -> list[str]:
    return re.findall(r"<small>(.*?)</small>", html, re.S)


@pytest.mark.parametrize("page", ["/", "/players/ann/"])
def test_each_line_names_its_base_rank_and_keeps_the_date_in_the_time_element(page: str) -> None:
    ann, _ = _two_games_the_same_second()
    html = PageClient(ann).get(page).content.decode()
    lines = [line for line in _lines(html) if "base rank:" in line]
    assert len(lines) == 2
    assert sorted(re.search(r"base rank: (\w+)", line)[1] for line in lines) == ["queen", "three"]  # type: ignore[index]
    for line in lines:
        assert (
            '<time datetime="2026-12-05T04:17:17+00:00" title="2026-12-05 04:17:17 UTC" '
            "data-local-title>started " in line
        )
        assert "UTC</time>" not in line  # the date is no longer printed in the line
        assert re.search(r"data-local-title>started [^<]+</time>$", line)


def test_the_base_rank_is_translated() -> None:
    ann, _ = _two_games_the_same_second()
    for lang, words in (
        ("fr", ("rang de base\u202f: dame", "rang de base\u202f: trois")),
        ("es", ("rango base: reina", "rango base: tres")),
        ("de", ("Grundrang: Dame", "Grundrang: Drei")),
    ):
        html = PageClient(ann).get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        for word in words:
            assert word in html, (lang, word)


def test_the_base_rank_is_the_dealt_card_or_the_fixed_rank() -> None:
    ann = create_user("ann")
    dealt = game_start(player=ann, deck=_deck("TD"))
    storehouse = game_start(player=ann, variant="storehouse", seed="base-rank")
    assert deal_base_rank(dealt.deal) == "T"
    assert deal_base_rank(storehouse.deal) == "2"
    html = PageClient(ann).get("/").content.decode()
    assert "base rank: ten" in html
    assert "base rank: two" in html
    assert "base-rank" not in html  # the seed is never shown
