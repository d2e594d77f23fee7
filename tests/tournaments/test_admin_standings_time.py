# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The tournament page's standings in the admin give the total time as the public
tournament page does ("22.824 s", "0.000 s" for 0: a total time is a duration, "at the deal"
read oddly there; a dash before any race counts) under a translated header; they showed
raw milliseconds under "Time ms total"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import TournamentStanding
from tests.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db

EXPECTED = {
    "en": ("Total time", ["22.824\xa0s", "5\xa0min 03.400\xa0s", "0.000\xa0s", "\u2013"]),
    "fr": ("Temps total", ["22,824\xa0s", "5\xa0min 03,400\xa0s", "0,000\xa0s", "\u2013"]),
}


def _cells(page: str, name: str) -> list[str]:
    """The texts of the standings' ``name`` column, row by row."""
    return [
        re.sub(r"<[^>]+>", "", m).strip()
        for m in re.findall(rf'<td class="field-{name}">(.*?)</td>', page, flags=re.S)
    ]


@pytest.mark.parametrize("language", list(EXPECTED))
def test_the_standings_total_time_reads_as_on_the_tournament_page(language: str) -> None:
    t = TournamentFactory()
    for rank, (name, played, ms) in enumerate(
        [("ann", 2, 22_824), ("bob", 2, 303_400), ("cy", 1, 0), ("dee", 0, 0)], start=1
    ):
        TournamentStanding.objects.create(
            tournament=t,
            player=UserFactory(username=name),
            rank=rank,
            races_played=played,
            time_ms_total=ms,
        )
    page = (
        client_for(organiser())
        .get(reverse("admin:games_tournament_change", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    header, cells = EXPECTED[language]
    assert _cells(page, "total_time") == cells
    headers = re.findall(r'<th class="column-total_time">\s*(.*?)\s*</th>', page, flags=re.S)
    assert headers == [header]
    assert "time_ms_total" not in page
    assert "22824" not in page
