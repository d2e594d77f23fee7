# mypy: disable-error-code="no-untyped-call"
"""``/tournaments/``: the public tournaments for everyone, drafts for organisers only."""

from __future__ import annotations

import pytest

from games.models import Tournament
from tests.factories import OrganiserFactory
from tests.tournaments.factories import TournamentFactory
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def test_drafts_are_listed_for_organisers_only() -> None:
    TournamentFactory(name="Spring cup")
    TournamentFactory(name="Secret plan", status=Tournament.Status.DRAFT)
    public = PageClient().get("/tournaments/")
    assert public.status_code == 200
    html = public.content.decode()
    assert "Spring cup" in html
    assert "Secret plan" not in html
    staff = PageClient(OrganiserFactory()).get("/tournaments/").content.decode()
    assert "Secret plan" in staff
    assert "Drafts (organisers only)" in staff


def test_the_index_is_translated_and_refuses_a_post() -> None:
    TournamentFactory(name="Coupe", status=Tournament.Status.FINISHED)
    fr = PageClient().get("/tournaments/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tournois terminés" in fr
    assert PageClient().client.post("/tournaments/").status_code == 405
