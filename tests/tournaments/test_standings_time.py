# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The standings show the total time, the last tie-break of their order, in the API (ms)
and on the tournament page (a duration), and only that of finished races."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Tournament
from games.services.race_admin import race_entry_disqualify
from games.services.races import race_create, race_join
from tests.api.test_schema import generate
from tests.factories import UserFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied() -> Any:
    """Ann and Bob equal on points, wins and cards; Ann reached her count sooner.
    A running race where Bob is quicker does not count yet."""
    t = TournamentFactory(scoring=Tournament.Scoring.CARDS_HOME, points_per_card=1, win_bonus=20)
    finished_race(t, Result("ann", 20, 300_000), Result("bob", 20, 303_400), name="R1")
    live = running_race(t, name="R2")
    play(live, Result("ann", 5, 9_000))
    play(live, Result("bob", 30, 1_000))
    return t


def test_the_api_gives_the_total_time_in_ms_of_finished_races(tied: Any) -> None:
    rows = APIClient().get(f"/api/v1/tournaments/{tied.id}/standings").json()["results"]
    assert [
        (r["rank"], r["player"], r["points"], r["wins"], r["cards_home_total"], r["time_ms_total"])
        for r in rows
    ] == [(1, "ann", 20, 0, 20, 300_000), (2, "bob", 20, 0, 20, 303_400)]


def test_the_schema_says_the_unit_and_the_rule(tmp_path: Path) -> None:
    schema = generate(tmp_path)
    field = schema["components"]["schemas"]["StandingView"]["properties"]["time_ms_total"]
    assert field["description"].startswith("total time in milliseconds")
    assert "last tie-break" in field["description"]


def _standings_table(html: str) -> str:
    start = html.index('<h2 id="ts-h">')
    return html[start : html.index("</table>", start)]


@pytest.mark.parametrize(
    ("language", "header", "ann", "bob"),
    [
        ("en", "Total time", "5\xa0min 00.000\xa0s", "5\xa0min 03.400\xa0s"),
        ("fr", "Temps total", "5\xa0min 00,000\xa0s", "5\xa0min 03,400\xa0s"),
        ("es", "Tiempo total", "5\xa0min 00,000\xa0s", "5\xa0min 03,400\xa0s"),
        ("de", "Gesamtzeit", "5\xa0min 00,000\xa0s", "5\xa0min 03,400\xa0s"),
    ],
)
def test_the_page_shows_the_total_time_as_a_duration(
    tied: Any, language: str, header: str, ann: str, bob: str
) -> None:
    html = Client().get(f"/tournaments/{tied.id}/", HTTP_ACCEPT_LANGUAGE=language)
    table = _standings_table(html.content.decode())
    headers = re.findall(r'<th scope="col">([^<]*)</th>', table)
    assert headers[-1] == header
    cells = re.findall(r'<td data-time-ms="(\d+)">([^<]*)</td>', table)
    assert cells == [("300000", ann), ("303400", bob)]


def test_durations_read_as_hours_minutes_seconds() -> None:
    from web.templatetags.web_tags import duration

    assert duration(None) == ""
    assert duration(0) == "0.000\xa0s"
    assert duration(2_549) == "2.549\xa0s"  # to the millisecond, as the ranking
    assert duration(59_960) == "59.960\xa0s"
    assert duration(60_000) == "1\xa0min 00.000\xa0s"
    assert duration(600_000) == "10\xa0min 00.000\xa0s"
    assert duration(3_723_400) == "1\xa0h 02\xa0min 03.400\xa0s"


@pytest.mark.parametrize(
    ("language", "deal", "zero", "ann"),
    [
        ("en", "at the deal", "0.000\xa0s", "5\xa0min 00.000\xa0s"),
        ("fr", "dès la donne", "0,000\xa0s", "5\xa0min 00,000\xa0s"),
        ("es", "al repartir", "0,000\xa0s", "5\xa0min 00,000\xa0s"),
        ("de", "beim Austeilen", "0,000\xa0s", "5\xa0min 00,000\xa0s"),
    ],
)
def test_a_total_time_of_nothing_is_a_duration_the_race_page_says_at_the_deal(
    language: str, deal: str, zero: str, ann: str
) -> None:
    """Dora put no card home after the dealt base card.  The race page says her last card
    home came "at the deal" (fr "dès la donne"): a moment, in a column of moments.  The
    tournament's *Total time* is a sum of durations: a later new user found "at the deal"
    confusing there, so it reads "0.0 s" ("0,0 s"), in the column's unit.  Bob's only
    entry was disqualified: he has no time at all, and gets the race page's dash."""
    t = TournamentFactory()
    race = finished_race(
        t, Result("ann", 20, 300_000), Result("dora", 1, 0, moves=0), Result("bob", 10, 5_000)
    )
    race_entry_disqualify(entry_id=race.entries.get(player__username="bob").id, reason="bot")
    html = Client().get(f"/tournaments/{t.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    table = _standings_table(html)
    cells = dict(
        re.findall(r'<a href="/players/(\w+)/">.*?<td data-time-ms="\d+">([^<]*)</td>', table)
    )
    assert cells == {"ann": ann, "dora": zero, "bob": "\u2013"}
    page = Client().get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(rf">dora</a></th>(?:<td[^>]*>[^<]*</td>){{2}}<td>{deal}</td>", page)


def test_a_row_with_no_time_shows_a_dash_as_its_other_empty_cells() -> None:
    """An entrant whose game has not started has no count, no moves and no time: the
    race page showed a dash for the first two and left the time empty."""
    now = timezone.now()
    race = race_create(
        name="Evening race",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=10),
        ends_at=now + timedelta(minutes=20),
    )
    race_join(race_id=race.id, player=UserFactory(username="ann"))
    for url in (f"/races/{race.id}/", f"/races/{race.id}/live"):
        page = Client().get(url).content.decode()
        row = re.search(r">ann</a></th>(.*?)</tr>", page, re.S)
        assert row is not None
        assert re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))[:3] == ["\u2013"] * 3
