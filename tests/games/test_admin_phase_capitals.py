# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""The race list said "Programmée" beside "en cours": the stored status (a choice's label,
capitalised as Django shows it) beside the phase now in lower case.  Both are capitalised
now, on the race list, the race page and the tournament page's races, in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.games.test_admin_language import get, text_of
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db

#: Each language's words for "running" and "finished" in the phase column, capitalised
#: as the stored status beside them ("Programmée").
PHASES = {
    "en": ("Running", "Finished"),
    "fr": ("En cours", "Terminée"),
    "es": ("En curso", "Terminada"),
    "de": ("Läuft", "Beendet"),
}


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
def test_the_race_list_capitalises_both_status_columns(cup: dict[str, Any], language: str) -> None:
    page, _ = get(cup["client"], reverse("admin:games_race_changelist"), language)
    assert sorted(_cells(page, "phase_now")) == sorted(PHASES[language])
    assert len(_cells(page, "status")) == 2  # the stored statuses beside them
    for word in _cells(page, "phase_now") + _cells(page, "status"):
        assert word[0].isupper(), word


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_the_race_page_capitalises_the_phase(cup: dict[str, Any], language: str) -> None:
    race = cup["finished"]
    page, _ = get(cup["client"], reverse("admin:games_race_change", args=[race.pk]), language)
    phase = re.search(
        r'class="form-row field-phase_now">.*?class="readonly">(.*?)</div>', page, re.S
    )
    assert phase is not None
    assert text_of(phase.group(1)) == PHASES[language][1]


def test_the_tournament_page_capitalises_the_race_phases(cup: dict[str, Any]) -> None:
    t = cup["tournament"]
    page, _ = get(cup["client"], reverse("admin:games_tournament_change", args=[t.pk]), "fr")
    assert sorted(_cells(page, "phase")) == ["En cours", "Terminée"]
