# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined"
"""Joining a race answers the race's own state before its tournament's.

A finished race of a cancelled tournament was refused with ``tournament_not_open``
("the tournament is cancelled"), while the first reason is that the race is over.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Tournament
from games.services.tournaments import tournament_set_status
from tests.tournaments.factories import Result, TournamentFactory, finished_race, running_race

pytestmark = pytest.mark.django_db

NOW = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_joining_a_finished_race_of_a_cancelled_tournament_says_the_race_is_finished(
    make_client: Callable[..., APIClient],
) -> None:
    t = TournamentFactory()
    race = finished_race(t, Result("ann", 30, 1000))
    tournament_set_status(tournament_id=t.id, status="cancelled", now=NOW)

    answer = make_client("zoe").post(reverse("api:race-join", args=[race.id]))

    assert answer.status_code == 409
    assert answer.json()["code"] == "race_not_open"
    assert "finished" in answer.json()["detail"]


def test_an_open_race_of_a_finished_tournament_still_answers_tournament_not_open(
    make_client: Callable[..., APIClient],
) -> None:
    t = TournamentFactory()
    race = running_race(t)
    t.status = Tournament.Status.FINISHED
    t.save(update_fields=["status"])

    answer = make_client("zoe").post(reverse("api:race-join", args=[race.id]))

    assert (answer.status_code, answer.json()["code"]) == (409, "tournament_not_open")
