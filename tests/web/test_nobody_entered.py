"""A finished race that nobody entered says so on its results page and its race page
(the results page showed an empty ranking table, the race page "Nobody has joined yet."
under "Results"), in every language of the pages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.services.race_admin import race_close_now
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db

NOBODY = {
    "en": "Nobody entered this race.",
    "fr": "Personne n\u2019a participé à cette course.",
    "es": "Nadie participó en esta carrera.",
    "de": "Niemand hat an diesem Rennen teilgenommen.",
}


def _empty_finished_race() -> str:
    race = running_race(name="Empty race")
    race_close_now(race_id=race.id)
    race.refresh_from_db()
    assert race.status == "finished"
    return str(race.id)


@pytest.mark.parametrize("language", sorted(NOBODY))
def test_the_results_page_of_an_empty_race_says_nobody_entered(language: str) -> None:
    race_id = _empty_finished_race()
    page = Client().get(f"/races/{race_id}/results", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    html = page.content.decode()
    assert f"<p data-nobody>{NOBODY[language]}</p>" in html
    assert 'class="standings' not in html  # no ranking table with no row
    assert '<code class="wrap" data-seed>' in html  # the deal is still revealed


@pytest.mark.parametrize("language", sorted(NOBODY))
def test_the_race_page_of_an_empty_finished_race_says_nobody_entered(language: str) -> None:
    race_id = _empty_finished_race()
    client = Client()
    for url in (f"/races/{race_id}/", f"/races/{race_id}/live"):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f"<p data-nobody>{NOBODY[language]}</p>" in html, url
    english = client.get(f"/races/{race_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Nobody has joined yet." not in english


def test_a_running_race_without_entrants_still_says_nobody_has_joined_yet() -> None:
    race = running_race(name="Still running")
    html = Client().get(f"/races/{race.id}/").content.decode()
    assert "Nobody has joined yet." in html
    assert not re.search(r"data-nobody", html)
