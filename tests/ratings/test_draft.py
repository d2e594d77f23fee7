# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, return-value"
"""A race of a draft tournament is not rated until the tournament is published.

Organisers rehearse races in a draft tournament, hidden from everyone else; rated,
their changes reached the public ratings and leaderboards.  Now such a race is
processed as ``not_rated`` (reason ``draft_tournament``); publishing the tournament
marks its finished races stale, and the sweep rates them in race order.
"""

from __future__ import annotations

import importlib

import pytest
from rest_framework.test import APIClient

from games.models import Race, RaceRating, RatingPool, Tournament
from games.selectors.ratings import race_rating
from games.services.ratings import pool_recompute, race_rate, ratings_sweep
from games.services.tournaments import tournament_set_status
from tests.api.conftest import client_for
from tests.factories import create_user
from tests.ratings.helpers import Result, expected_fold, race_of, ranks_of, ratings
from tests.tournaments.factories import TournamentFactory, finished_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def assert_matches(expected: dict[str, tuple[float, float, int]]) -> None:
    got = ratings()
    assert set(got) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9), name
        assert got[name][1] == pytest.approx(sigma, abs=1e-9), name
        assert got[name][2] == games, name


def draft_race(*results: Result) -> tuple[Tournament, Race]:
    """A finished race of a draft tournament (played while open, then made a draft:
    players do not see a draft's races)."""
    t = TournamentFactory()
    race = finished_race(t, *results)
    Tournament.objects.filter(id=t.id).update(status=Tournament.Status.DRAFT)
    return t, race


def three_races() -> tuple[Tournament, Race, Race, Race]:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), Result("cat", 20, 1000))
    t, r2 = draft_race(Result("cat", 45, 1000), Result("bob", 35, 1000), Result("ann", 25, 1000))
    r3 = race_of(Result("bob", 50, 1000), Result("ann", 40, 1000), Result("dan", 30, 1000))
    return t, r1, r2, r3


def stale(race: Race) -> bool:
    return Race.objects.values_list("rating_stale", flat=True).get(id=race.id)


def test_a_draft_race_changes_no_rating_until_published_then_is_rated_in_race_order() -> None:
    t, r1, r2, r3 = three_races()
    assert ratings_sweep() == [f"{r1.id}:rated", f"{r2.id}:not_rated", f"{r3.id}:rated"]
    assert RaceRating.objects.get(race=r2).reason == "draft_tournament"
    assert_matches(expected_fold([ranks_of(r1), ranks_of(r3)]))
    assert race_rating(race=Race.objects.get(id=r2.id))["status"] == "not_rated"
    assert race_rating(race=Race.objects.get(id=r2.id))["reason"] == "draft_tournament"
    # Rated again (a task, a recompute): still left out.
    assert race_rate(race_id=r2.id) == "unchanged"
    pool_recompute(pool_id=RatingPool.objects.get(key="classic").pk)
    assert_matches(expected_fold([ranks_of(r1), ranks_of(r3)]))
    assert ratings()["cat"][2] == 1

    tournament_set_status(tournament_id=t.id, status=Tournament.Status.OPEN)
    assert stale(r2) is True
    assert race_rating(race=Race.objects.get(id=r2.id))["status"] == "pending"
    assert ratings_sweep() == [f"{r2.id}:rated"]
    assert stale(r2) is False
    assert race_rating(race=Race.objects.get(id=r2.id))["status"] == "rated"
    # The pool is the fold of the three races in race order (r3 replayed after r2).
    assert_matches(expected_fold([ranks_of(r) for r in (r1, r2, r3)]))
    assert ratings_sweep() == []


def test_a_draft_race_rated_by_its_task_is_not_rated_and_finishing_the_draft_rates_it() -> None:
    t, r2 = draft_race(Result("ann", 40, 1000), Result("bob", 30, 1000))
    assert race_rate(race_id=r2.id) == "not_rated"
    assert ratings() == {}
    tournament_set_status(tournament_id=t.id, status=Tournament.Status.FINISHED)
    assert ratings_sweep() == [f"{r2.id}:rated"]
    assert_matches(expected_fold([ranks_of(r2)]))


def test_publishing_an_open_tournament_again_marks_nothing_stale() -> None:
    t = TournamentFactory()
    race = finished_race(t, Result("ann", 40, 1000), Result("bob", 30, 1000))
    assert race_rate(race_id=race.id) == "rated"
    tournament_set_status(tournament_id=t.id, status=Tournament.Status.OPEN)
    assert stale(race) is False
    assert ratings_sweep() == []


def test_organisers_see_why_a_draft_race_is_not_rated_and_the_pool_does_not_show_it() -> None:
    _t, race = draft_race(Result("ann", 40, 1000), Result("bob", 30, 1000))
    assert ratings_sweep() == [f"{race.id}:not_rated"]
    organiser = client_for(create_user("org", staff=True))
    body = organiser.get(f"/api/v1/races/{race.id}/rating").json()
    assert (body["status"], body["reason"]) == ("not_rated", "draft_tournament")
    assert APIClient().get(f"/api/v1/races/{race.id}/rating").status_code == 404
    assert APIClient().get("/api/v1/leaderboards/classic").json()["results"] == []


def test_the_results_page_tells_organisers_a_draft_race_is_not_rated_yet() -> None:
    _t, race = draft_race(Result("ann", 40, 1000), Result("bob", 30, 1000))
    ratings_sweep()
    client = PageClient(create_user("org", staff=True))
    page = client.get(f"/races/{race.id}/results").content.decode()
    assert "Not rated yet: the tournament is a draft" in page
    page = client.get(f"/races/{race.id}/results", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Pas encore cotée\u202f: le tournoi est un brouillon" in page
    assert PageClient().get(f"/races/{race.id}/results").status_code == 404


def test_the_migration_marks_stale_a_draft_race_rated_before_and_the_sweep_takes_it_out() -> None:
    from django.apps import apps

    migration = importlib.import_module("games.migrations.0019_race_rating_draft_tournament")
    t = TournamentFactory()
    race = finished_race(t, Result("ann", 40, 1000), Result("bob", 30, 1000))
    assert race_rate(race_id=race.id) == "rated"  # as the old code did for a draft's race
    Tournament.objects.filter(id=t.id).update(status=Tournament.Status.DRAFT)
    migration.mark_draft_races_stale(apps, None)
    assert stale(race) is True
    assert ratings_sweep() == [f"{race.id}:not_rated"]
    assert ratings() == {}
