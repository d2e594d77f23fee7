"""Reads never write (issue 18 item 6): an overdue race stays as it is until the sweeper runs.

Closing and scoring belong to the Celery beat sweeper (``games.race_sweep``); reading a
race, the race list, its standings or its results must not close it, even long after
``ends_at``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game, Race
from games.tasks import race_sweep
from tests.api.test_races import create_race, expire

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE")


def test_reading_an_overdue_race_closes_nothing(make_client: Callable[..., APIClient]) -> None:
    staff = make_client("organiser", staff=True)
    race = create_race(staff)
    ann = make_client("ann")
    game_id = ann.post(f"/api/v1/races/{race['id']}/join").json()["game_id"]
    expire(race["id"])  # ends_at is now in the past; nobody has swept

    anon = APIClient()
    with CaptureQueriesContext(connection) as queries:
        detail = anon.get(f"/api/v1/races/{race['id']}").json()
        listed = anon.get("/api/v1/races", {"phase": "closing"}).json()["results"]
        standings = anon.get(f"/api/v1/races/{race['id']}/standings")
        results = anon.get(f"/api/v1/races/{race['id']}/results")
    writes = [
        q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(WRITES)
    ]
    assert writes == []
    assert (detail["status"], detail["phase"]) == ("scheduled", "closing")
    assert [r["id"] for r in listed] == [race["id"]]
    assert standings.status_code == 200
    assert results.status_code == 409
    assert results.json()["code"] == "race_not_finished"
    assert Race.objects.get(id=race["id"]).status == Race.Status.SCHEDULED
    assert Game.objects.get(id=game_id).status == Game.Status.PLAYING

    # The sweeper (what beat runs) closes it; then the results are public.
    assert race_sweep() == [f"{race['id']}:finished"]
    assert Race.objects.get(id=race["id"]).status == Race.Status.FINISHED
    assert Game.objects.get(id=game_id).status == Game.Status.TIMED_OUT
    assert anon.get(f"/api/v1/races/{race['id']}/results").status_code == 200
