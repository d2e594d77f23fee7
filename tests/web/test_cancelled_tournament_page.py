"""A cancelled tournament's page says so in words (not only "Status: cancelled"), no longer
offers an entry "open to everyone", and marks its cancelled races."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.models import Tournament
from games.services.races import race_join
from games.services.tournaments import tournament_set_status
from tests.tournaments.factories import TournamentFactory, running_race

pytestmark = pytest.mark.django_db

NOTICE = (
    "The organisers cancelled this tournament; its standings are final: "
    "those of its finished races."
)


def _page(t: Any, language: str = "en") -> str:
    html = Client().get(f"/tournaments/{t.id}/", HTTP_ACCEPT_LANGUAGE=language)
    return re.sub(r"[ \t\n]+", " ", html.content.decode())  # keeps U+202F


def test_a_cancelled_tournament_says_so(player: Any) -> None:
    t: Any = TournamentFactory(status=Tournament.Status.OPEN)  # type: ignore[no-untyped-call]
    race = running_race(tournament=t, name="Heat one")
    race_join(race_id=race.id, player=player)
    tournament_set_status(tournament_id=t.id, status="cancelled")
    html = _page(t)
    assert NOTICE in html
    assert "open to everyone" not in html
    assert "<dt>Players</dt><dd>1 player</dd>" in html
    # Its race is listed as cancelled, with no Results link (it never has any).
    assert (
        f'<a href="/races/{race.id}/">Heat one</a> '
        '<span data-phase="cancelled">cancelled</span>' in html
    )
    assert f"/races/{race.id}/results" not in html
    fr = _page(t, "fr")
    assert "Les organisateurs ont annulé ce tournoi\u202f; son classement est définitif" in fr
    assert "ouverte à tous" not in fr


def test_a_finished_tournament_drops_the_entry_line_without_the_notice() -> None:
    t: Any = TournamentFactory(status=Tournament.Status.OPEN)  # type: ignore[no-untyped-call]
    tournament_set_status(tournament_id=t.id, status="finished")
    html = _page(t)
    assert "open to everyone" not in html
    assert "<dt>Players</dt><dd>0 players</dd>" in html
    assert NOTICE not in html


def test_an_open_tournament_keeps_its_entry_line() -> None:
    t: Any = TournamentFactory(status=Tournament.Status.OPEN)  # type: ignore[no-untyped-call]
    html = _page(t)
    assert "open to everyone" in html
    assert NOTICE not in html


def test_a_cancelled_tournament_with_nothing_scored_does_not_say_yet(player: Any) -> None:
    """A new user read "No race has been scored yet." (fr "Aucune course n\u2019a encore été
    comptée.") under the notice that the standings are final: nothing more will be."""
    t: Any = TournamentFactory(status=Tournament.Status.OPEN)  # type: ignore[no-untyped-call]
    race = running_race(tournament=t, name="Heat one")
    race_join(race_id=race.id, player=player)
    open_page = _page(t)
    assert "No race has been scored yet." in open_page
    tournament_set_status(tournament_id=t.id, status="cancelled")
    html = _page(t)
    assert "No race of this tournament was scored." in html
    assert "yet" not in html.split("<main", 1)[1].split("</main>", 1)[0]
    fr = _page(t, "fr")
    assert "Aucune course de ce tournoi n\u2019a été comptée." in fr
    assert "encore été comptée" not in fr
    c = Client()
    c.force_login(player)
    mine = re.sub(r"[ \t\n]+", " ", c.get(f"/tournaments/{t.id}/").content.decode())
    assert "You were in this tournament; no race of yours was scored." in mine
    assert "You are in this tournament" not in mine
