# mypy: disable-error-code="no-untyped-call, misc, arg-type, attr-defined"
"""A walkthrough's smaller findings: a finished tournament inviting the reader in, a
disqualified player unmarked in the tournament standings, equal ratings in different
places, and two translations that read wrong ("Ausgang", "Tableaux des cotes")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import PlayerRating, RatingPool, Tournament
from games.services.race_admin import race_entry_disqualify
from games.services.ratings import pool_for_options
from tests.tournaments.factories import Result, TournamentFactory, finished_race
from tests.web.conftest import PageClient
from tests.web.test_rating_pages import rows_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("status", [Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
def test_an_ended_tournament_does_not_invite_the_reader_in(player: Any, status: str) -> None:
    cup = TournamentFactory(status=status)
    html = PageClient(player).get(f"/tournaments/{cup.id}/").content.decode()
    assert "This tournament is over." in html
    assert "You are not in this tournament yet" not in html


def test_an_open_tournament_still_says_how_to_enter(player: Any) -> None:
    cup = TournamentFactory()
    html = PageClient(player).get(f"/tournaments/{cup.id}/").content.decode()
    assert "You are not in this tournament yet: joining one of its races enters you." in html


def test_the_tournament_standings_mark_a_disqualified_player() -> None:
    cup = TournamentFactory()
    race = finished_race(cup, Result("ann", 30, 4000), Result("bob", 20, 5000))
    race_entry_disqualify(entry_id=race.entries.get(player__username="bob").id, reason="cheat")
    html = PageClient().get(f"/tournaments/{cup.id}/").content.decode()
    names = [r[1] for r in rows_of(html)]
    assert "bob (disqualified in 1 race)" in names
    assert "ann" in names
    fr = PageClient().get(f"/tournaments/{cup.id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    # The player's gender is unknown: the marker names the disqualification, not the player.
    assert "bob (disqualification dans 1 course)" in [r[1] for r in rows_of(fr)]
    es = PageClient().get(f"/tournaments/{cup.id}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "bob (descalificación en 1 carrera)" in [r[1] for r in rows_of(es)]


def _rating(pool: RatingPool, name: str, ordinal: float) -> None:
    PlayerRating.objects.create(
        pool=pool,
        player=User.objects.create_user(name),
        mu=ordinal + 3 * 2.0,
        sigma=2.0,
        ordinal=ordinal,
        rating=round(1000 + 20 * ordinal),
        games_rated=3,
        provisional=False,
    )


def test_equal_displayed_ratings_share_a_place(player: Any) -> None:
    """ada and pia, both shown 1069, were placed 1 and 2 by digits nobody sees."""
    pool = pool_for_options({})
    assert pool.key == "classic"
    _rating(pool, "pia", 3.46)  # 1069.2
    _rating(pool, "zed", 3.44)  # 1068.8: also 1069
    _rating(pool, "kim", 2.0)  # 1040
    html = PageClient().get("/leaderboards/classic/").content.decode()
    got = [(r[0], r[1], r[2]) for r in rows_of(html)]
    assert got == [("1", "pia", "1069"), ("1", "zed", "1069"), ("3", "kim", "1040")]
    api = PageClient().get("/api/v1/leaderboards/classic").json()
    assert [(r["position"], r["player"]) for r in api["results"]] == [
        (1, "pia"),
        (1, "zed"),
        (3, "kim"),
    ]


def test_outcome_and_leaderboards_read_right() -> None:
    race = finished_race(None, Result("ann", 30, 4000))
    de = PageClient().get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert re.search(r"<h2[^>]*>Ergebnis</h2>", de)
    assert "Ausgang" not in de
    fr = PageClient().get("/leaderboards/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    # "Classements des joueurs": the rating leaderboards, apart from a race's or a tournament's
    # standings ("Classement"); not "cotes" in the menu (betting odds, beside races).
    assert '<a href="/leaderboards/">Classements des joueurs</a>' in fr
    assert "cotes" not in fr.split("<main")[0]
