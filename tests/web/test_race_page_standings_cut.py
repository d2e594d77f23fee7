# mypy: disable-error-code="no-untyped-call, assignment"
"""A race page shows the first rows of the standings, then the viewer's own, and links
the CSV for the rest: a 10,000-entrant race's whole table took 5 s to render on every
poll of the live part (benchmarks/public_reads.py), for anyone, signed in or not."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Race
from games.services.race_admin import race_close_now
from tests.tournaments.factories import Result, play, running_race
from web.views import races as race_views

pytestmark = pytest.mark.django_db

RESULTS = [Result("ann", 9, 1000), Result("bob", 7, 1000), Result("cyd", 5, 1000)]


def _rows(html: str) -> list[str]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<th scope="row"><a href="/players/([^/]+)/">', body)


def _race(monkeypatch: pytest.MonkeyPatch, *, finished: bool) -> Race:
    monkeypatch.setattr(race_views, "PAGE_STANDINGS_ROWS", 1)
    race = running_race(None)
    for r in RESULTS:
        play(race, r)
    if finished:
        race_close_now(race_id=race.id)
    return race


@pytest.mark.parametrize("finished", [False, True])
def test_the_page_shows_the_first_rows_then_the_viewers_own(
    monkeypatch: pytest.MonkeyPatch, finished: bool
) -> None:
    race = _race(monkeypatch, finished=finished)
    for url in (f"/races/{race.id}/", f"/races/{race.id}/live"):
        anonymous = Client().get(url).content.decode()
        assert _rows(anonymous) == ["ann"]
        assert "The first 1 of 3 entrants are shown" in anonymous
        assert f'href="/api/v1/races/{race.id}/standings.csv"' in anonymous
        cyd = Client()
        cyd.force_login(User.objects.get(username="cyd"))
        assert _rows(cyd.get(url).content.decode()) == ["ann", "cyd"]


def test_no_cut_when_every_row_fits() -> None:
    race = running_race(None)
    for r in RESULTS:
        play(race, r)
    html = Client().get(f"/races/{race.id}/").content.decode()
    assert _rows(html) == ["ann", "bob", "cyd"]
    assert "data-standings-cut" not in html


def test_the_results_page_shows_the_first_rows_then_the_viewers_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    race = _race(monkeypatch, finished=True)
    url = f"/races/{race.id}/results"
    anonymous = Client().get(url).content.decode()
    assert _rows(anonymous) == ["ann"]
    assert "The first 1 of 3 entrants are shown" in anonymous
    assert f'href="/api/v1/races/{race.id}/standings.csv"' in anonymous
    cyd = Client()
    cyd.force_login(User.objects.get(username="cyd"))
    page = cyd.get(url).content.decode()
    assert _rows(page) == ["ann", "cyd"]
    assert "Replay cyd" in page
    # The API's results stay whole.
    assert len(Client().get(f"/api/v1/races/{race.id}/results").json()["entries"]) == 3
