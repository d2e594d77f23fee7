"""The lists the API answers whole, and a player's history filtered by pool.

A race's standings and results, a player's results in a tournament and the rating pools
come in one document (not paginated), while
every other list is cursor-paginated: they took ``?cursor=`` and ``?page_size=`` as
absent, so a client paging them saw a full "page" and no sign that nothing was paged.
They now refuse both with ``400 not_paginated`` (the results and a player's
tournament results too, the same way).  A ``?pool=`` that names no pool on a
player's history was a ``404 not_found`` (as if the player did not exist), where a wrong
value of any other list filter is ``400 invalid_filter``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Tournament
from games.services.ratings import race_rate
from tests.ratings.helpers import Result, race_of
from tests.tournaments.factories import finished_race

pytestmark = pytest.mark.django_db

PAGING = ["cursor=x", "cursor=", "page_size=1", "page_size=500", "cursor=x&page_size=1"]


@pytest.fixture
def race_id() -> str:
    race = race_of(Result("ann", 20, 1000), Result("bob", 10, 1000))
    race_rate(race_id=race.id)
    return str(race.id)


@pytest.mark.parametrize("query", PAGING)
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/races/{race}/standings",
        "/api/v1/races/{race}/results",
        "/api/v1/tournaments/{tournament}/me",
        "/api/v1/leaderboards",
    ],
)
def test_a_list_that_comes_whole_refuses_paging(race_id: str, path: str, query: str) -> None:
    client = APIClient()
    tournament = Tournament.objects.create(name="Cup", status=Tournament.Status.OPEN)
    finished_race(tournament, Result("cy", 12, 900))
    client.force_authenticate(User.objects.get(username="cy"))
    url = path.format(race=race_id, tournament=tournament.id)
    whole = client.get(url)
    assert whole.status_code == 200
    assert "next" not in whole.json()  # one document, no pages
    answer = client.get(f"{url}?{query}")
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    problem = answer.json()
    assert problem["code"] == "not_paginated"
    asked = {part.split("=")[0] for part in query.split("&")}
    assert problem["detail"] == (
        "This list is not paginated: it comes whole. Leave out "
        + " and ".join(p for p in ("cursor", "page_size") if p in asked)
        + "."
    )


def test_the_whole_lists_still_answer_their_rows(race_id: str) -> None:
    client = APIClient()
    standings = client.get(f"/api/v1/races/{race_id}/standings").json()
    assert [row["player"] for row in standings["standings"]] == ["ann", "bob"]
    pools = client.get("/api/v1/leaderboards").json()
    assert [p["key"] for p in pools["pools"]] == ["classic"]


@pytest.mark.parametrize("pool", ["x", "draw-one", "CLASSIC", ""])
def test_a_history_pool_that_names_no_pool_is_an_invalid_filter(race_id: str, pool: str) -> None:
    client = APIClient()
    assert client.get("/api/v1/players/ann/history?pool=classic").status_code == 200
    answer = client.get(f"/api/v1/players/ann/history?pool={pool}")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid_filter"
    # An unknown player is still 404, whatever the pool.
    assert client.get(f"/api/v1/players/nobody/history?pool={pool}").status_code == 404
