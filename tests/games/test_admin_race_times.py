# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""The race admin gives an entry's time as the tournament's tables do ("1 min 00.000 s",
:func:`games.words.duration`): its entries, its standings and the entry list showed raw
milliseconds under "time (ms)" ("60000"), beside a tournament's "1 min 00.000 s"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.games.test_admin_language import get, text_of
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db

#: Each language's header (capitalised by Django above a column, as written in the
#: standings table) and the times of the first entrant (60,000 ms) and the second (2,500 ms).
EXPECTED = {
    "en": ("Time", "time", "1\xa0min 00.000\xa0s", "2.500\xa0s"),
    "fr": ("Temps", "temps", "1\xa0min 00,000\xa0s", "2,500\xa0s"),
    "es": ("Tiempo", "tiempo", "1\xa0min 00,000\xa0s", "2,500\xa0s"),
    "de": ("Zeit", "Zeit", "1\xa0min 00,000\xa0s", "2,500\xa0s"),
}


@pytest.fixture
def races() -> dict[str, Any]:
    """A running race and a finished one, each with ann (60 s) and bob (2.5 s)."""
    t = TournamentFactory(name="Evening Cup")
    live = running_race(t, name="R1")
    play(live, Result("ann", 30, 60_000))
    play(live, Result("bob", 12, 2_500))
    done = finished_race(t, Result("cy", 30, 60_000), Result("dee", 12, 2_500), name="R2")
    return {"running": live, "finished": done, "client": client_for(organiser())}


def _cells(page: str, column: str) -> list[str]:
    return [text_of(c) for c in re.findall(rf'class="field-{column}[^"]*">(.*?)</td>', page, re.S)]


@pytest.mark.parametrize("language", list(EXPECTED))
@pytest.mark.parametrize("which", ["running", "finished"])
def test_the_race_page_gives_times_as_durations(
    races: dict[str, Any], which: str, language: str
) -> None:
    header, in_table, first, second = EXPECTED[language]
    race = races[which]
    page, _ = get(races["client"], reverse("admin:games_race_change", args=[race.pk]), language)
    # The entries inline: one row per entrant, in joining order.
    assert _cells(page, "elapsed_now") == [first, second]
    heads = re.findall(r'<th class="column-elapsed_now">\s*(.*?)\s*</th>', page, re.S)
    assert heads == [header]
    # The standings table, in rank order.
    standings = re.search(r'class="form-row field-live_standings">(.*?)</table>', page, re.S)
    assert standings is not None
    rows = re.findall(r"<tr>(.*?)</tr>", standings.group(1), re.S)
    cells = [[text_of(c) for c in re.findall(r"<t[hd]>(.*?)</t[hd]>", r, re.S)] for r in rows]
    assert [row[4] for row in cells] == [in_table, first, second]
    assert "(ms)" not in page
    assert "60000" not in page


@pytest.mark.parametrize("language", list(EXPECTED))
def test_the_entry_list_gives_times_as_durations(races: dict[str, Any], language: str) -> None:
    header, _, first, second = EXPECTED[language]
    page, _ = get(races["client"], reverse("admin:games_raceentry_changelist"), language)
    assert sorted(_cells(page, "elapsed_now")) == sorted([first, second, first, second])
    heads = re.findall(
        r'<th scope="col" class="[^"]*column-elapsed_now[^"]*">(.*?)</th>', page, re.S
    )
    assert [text_of(h) for h in heads] == [header]
    assert "(ms)" not in page


def test_an_entry_without_a_time_shows_a_dash(races: dict[str, Any]) -> None:
    """An entry without a time (none stored) shows a dash, as before."""
    from games.models import RaceEntry

    race = races["finished"]
    RaceEntry.objects.filter(race=race, player__username="dee").update(elapsed_ms=None)
    page, _ = get(races["client"], reverse("admin:games_race_change", args=[race.pk]), "en")
    assert _cells(page, "elapsed_now") == ["1\xa0min 00.000\xa0s", "-"]
