"""The results page's address beside the site's other pages.

A new user typed ``/races/<id>/results/`` (the race page is ``/races/<id>/``, every
other page ends in a slash) and got a 404.  The page stays at ``/races/<id>/results``
(where every link and the API's ``results_url`` point); the slashed address answers a
``301`` to it for ``GET`` and ``HEAD``, and ``405`` for any other method (a ``POST`` is
never turned into a ``GET``).
"""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from tests.tournaments.factories import Result, finished_race

pytestmark = pytest.mark.django_db


def test_the_slashed_results_address_moves_permanently_to_the_page() -> None:
    race = finished_race(None, Result("ann", 30, 4000), Result("bob", 12, 2500), name="R1")
    c = Client()
    resp = c.get(f"/races/{race.id}/results/")
    assert resp.status_code == 301
    assert resp["Location"] == f"/races/{race.id}/results"
    assert c.head(f"/races/{race.id}/results/").status_code == 301
    resp = c.get(f"/races/{race.id}/results/?x=1&y=2")
    assert resp["Location"] == f"/races/{race.id}/results?x=1&y=2"
    page = c.get(f"/races/{race.id}/results/", follow=True)
    assert page.status_code == 200
    assert page.redirect_chain == [(f"/races/{race.id}/results", 301)]
    assert "ann" in page.content.decode()
    race_page = c.get(f"/races/{race.id}/").content.decode()
    assert f'href="/races/{race.id}/results"' in race_page  # the links use the page's address


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_only_get_and_head_are_redirected(method: str) -> None:
    race = finished_race(None, Result("ann", 30, 4000), name="R1")
    resp = getattr(Client(), method)(f"/races/{race.id}/results/")
    assert resp.status_code == 405
    assert "Location" not in resp


def test_an_unknown_race_is_still_404_after_the_redirect() -> None:
    resp = Client().get(f"/races/{uuid.uuid4()}/results/", follow=True)
    assert resp.status_code == 404
