"""The tournament page states its scoring and standings rules in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Tournament
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "scoring", "standings"),
    [
        ("en", "the places of a race earn 10, 8, 6, 5, 4, 3, 2, 1 points", "Ordered by points"),
        ("fr", "rapportent 10, 8, 6, 5, 4, 3, 2, 1 points", "Classement par points"),
        ("de", "bringen der Reihe nach 10, 8, 6, 5, 4, 3, 2, 1 Punkte", "Reihenfolge nach Punkten"),
    ],
)
def test_place_points_rule_in_words(language: str, scoring: str, standings: str) -> None:
    t: Any = TournamentFactory(points_table=[])  # type: ignore[no-untyped-call]
    html = Client().get(f"/tournaments/{t.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert scoring in html.replace("\u2019", "'")
    assert standings in html
    assert "points_table" not in html


def test_cards_bonus_rule_in_words() -> None:
    t: Any = TournamentFactory(  # type: ignore[no-untyped-call]
        scoring=Tournament.Scoring.CARDS_HOME, points_per_card=2, win_bonus=30
    )
    html = Client().get(f"/tournaments/{t.id}/").content.decode()
    assert "2 points per card home, plus 30 points for a won game." in html
