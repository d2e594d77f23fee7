# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""The race admin named the rules by their code: a new user read "Variante : classic" on
a race's page in French.  The race list (a new *Variant* column) and the race page show
the preset's name in the page's language, as the site's pages do (``web.board``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from tests.games.test_admin_language import get, text_of
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser
from web.board import rules_label

pytestmark = pytest.mark.django_db

#: The classic preset's name in each language (web.board.PRESET_NAMES).
CLASSIC = {"en": "Classic", "fr": "Classique", "es": "Clásico", "de": "Klassisch"}


@pytest.fixture
def cup() -> dict[str, Any]:
    """A tournament with a finished race and a running one of another preset."""
    t = TournamentFactory(name="Evening Cup")
    done = finished_race(t, Result("ann", 30, 4000, moves=70), name="R1")
    live = running_race(t, name="R2", variant="draw-one")
    play(live, Result("ann", 20, 3000, moves=50))
    return {"tournament": t, "finished": done, "running": live, "client": client_for(organiser())}


def _cells(page: str, column: str) -> list[str]:
    return [text_of(c) for c in re.findall(rf'class="field-{column}[^"]*">(.*?)</td>', page, re.S)]


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_the_race_list_names_the_rules(cup: dict[str, Any], language: str) -> None:
    page, _ = get(cup["client"], reverse("admin:games_race_changelist"), language)
    draw_one = {"en": "Draw one", "fr": "Une carte", "es": "Una carta", "de": "Eine Karte"}
    assert sorted(_cells(page, "variant")) == sorted([CLASSIC[language], draw_one[language]])


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_the_race_page_names_the_rules(cup: dict[str, Any], language: str) -> None:
    race = cup["finished"]
    page, _ = get(cup["client"], reverse("admin:games_race_change", args=[race.pk]), language)
    shown = re.search(r'class="form-row field-variant">.*?class="readonly">(.*?)</div>', page, re.S)
    assert shown is not None
    assert text_of(shown.group(1)) == CLASSIC[language]


def test_other_rules_are_named_by_their_preset_and_what_changed(cup: dict[str, Any]) -> None:
    """A race on rules no preset has: the preset they were built from and the change
    (``web.board.rules_label``), as the race's page on the site says."""
    race = running_race(cup["tournament"], name="R3", variant="classic", options={"redeals": 2})
    race.refresh_from_db()
    page, _ = get(cup["client"], reverse("admin:games_race_changelist"), "fr")
    with translation.override("fr"):
        expected = rules_label(race.deal.variant, race.deal.options, race.deal.preset)
    assert expected.startswith("Classique (")
    assert expected in _cells(page, "variant")
