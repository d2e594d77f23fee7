# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, index"
"""Rating endpoints: leaderboards (keyset pages), player profiles and histories, results."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import PlayerRating, Race, RatingChange
from games.services.ratings import race_rate
from tests.api.conftest import client_for
from tests.factories import UserFactory, create_user
from tests.ratings.helpers import Result, race_of
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


def rated(*results: Result, **kw: Any) -> Race:
    race = race_of(*results, **kw)
    race_rate(race_id=race.id)
    return race


def all_pages(client: APIClient, url: str) -> tuple[list[dict[str, Any]], list[str | None]]:
    """Follow ``next`` to the end; return every row and each page's ``previous``."""
    rows: list[dict[str, Any]] = []
    previous: list[str | None] = []
    while url:
        body = client.get(url).json()
        rows += body["results"]
        previous.append(body["previous"])
        url = body["next"]
    return rows, previous


def test_leaderboard_pages_cover_every_player_once_in_order() -> None:
    users = [UserFactory(username=f"p{i:02d}") for i in range(7)]
    rated(*(Result(u, 10 + 5 * i, 1000) for i, u in enumerate(users)))
    # Two players with exactly the same rating: the player id orders them, one place.
    rated(Result("x1", 30, 1000), Result("x2", 30, 1000))
    client = APIClient()
    rows, previous = all_pages(client, "/api/v1/leaderboards/classic?page_size=3")
    assert len(rows) == 9
    assert previous[0] is None
    assert all(p is not None for p in previous[1:])
    # Equal display ratings share a place (1, 1, 3), across a page break too.
    ratings = [r["rating"] for r in rows]
    assert [r["position"] for r in rows] == [1 + sum(x > y for x in ratings) for y in ratings]
    expected = list(
        PlayerRating.objects.filter(pool__key="classic")
        .order_by("-ordinal", "player_id")
        .values_list("player__username", "rating")
    )
    assert [(r["player"], r["rating"]) for r in rows] == expected
    assert rows[0]["player"] == "p06"
    x1, x2 = (next(r for r in rows if r["player"] == n) for n in ("x1", "x2"))
    assert x1["rating"] == x2["rating"]
    assert x1["position"] == x2["position"]
    assert {"mu", "sigma", "games_rated", "provisional", "updated_at"} <= set(rows[0])


def test_leaderboard_previous_link_goes_back_one_page() -> None:
    rated(*(Result(f"q{i}", 10 + 5 * i, 1000) for i in range(6)))
    client = APIClient()
    first = client.get("/api/v1/leaderboards/classic?page_size=2").json()
    second = client.get(first["next"]).json()
    back = client.get(second["previous"]).json()
    assert back["results"] == first["results"]
    assert back["previous"] is None
    assert [r["position"] for r in second["results"]] == [3, 4]


def test_leaderboard_filters_and_errors() -> None:
    rated(Result("ann", 40, 1000), Result("bob", 30, 1000))
    client = APIClient()
    body = client.get("/api/v1/leaderboards/classic?provisional=false").json()
    assert body["results"] == []
    assert body["pool"]["key"] == "classic"
    assert body["pool"]["players"] == 2
    assert len(client.get("/api/v1/leaderboards/classic?provisional=true").json()["results"]) == 2
    for url, status, code in [
        ("/api/v1/leaderboards/nope", 404, "not_found"),
        ("/api/v1/leaderboards/classic?cursor=garbage", 400, "invalid_cursor"),
        ("/api/v1/leaderboards/classic?cursor=WzEsMiwieCJd", 400, "invalid_cursor"),
        ("/api/v1/leaderboards/classic?provisional=maybe", 400, "invalid_filter"),
        ("/api/v1/leaderboards/classic?page_size=0", 400, "validation_error"),
        ("/api/v1/leaderboards/classic?page_size=-3", 400, "validation_error"),
        ("/api/v1/leaderboards/classic?page_size=\u0663", 400, "validation_error"),
    ]:
        response = client.get(url)
        assert response.status_code == status, url
        assert response["Content-Type"] == PROBLEM
        assert response.json()["code"] == code


def test_a_page_size_past_the_maximum_gives_the_maximum() -> None:
    """As on every other list (and as the API docs say): 201 is read as 200, not refused."""
    rated(Result("ann", 40, 1000), Result("bob", 30, 1000))
    client = APIClient()
    capped = client.get("/api/v1/leaderboards/classic?page_size=201&provisional=true")
    assert capped.status_code == 200, capped.content
    assert len(capped.json()["results"]) == 2
    history = client.get("/api/v1/players/ann/history?page_size=100000")
    assert history.status_code == 200, history.content
    assert len(history.json()["results"]) == 1


def test_pools_list() -> None:
    rated(Result("ann", 40, 1000), Result("bob", 30, 1000))
    rated(Result("ann", 40, 1000), Result("cat", 30, 1000), variant="classic", options={"draw": 1})
    body = APIClient().get("/api/v1/leaderboards").json()
    assert [(p["key"], p["players"], p["races_rated"]) for p in body["pools"]] == [
        ("classic", 2, 1),
        ("draw-one", 2, 1),
    ]
    assert "mu - 3 * sigma" in body["rating_rule"]


def test_player_profile_and_history() -> None:
    r1 = rated(Result("ann", 40, 1000), Result("bob", 30, 1000))
    r2 = rated(Result("bob", 45, 1000), Result("ann", 25, 1000), Result("cat", 20, 1000))
    client = APIClient()
    body = client.get("/api/v1/players/ann").json()
    assert body["username"] == "ann"
    (line,) = body["ratings"]
    ann = PlayerRating.objects.get(player__username="ann")
    assert (line["pool"], line["rating"], line["games_rated"]) == ("classic", ann.rating, 2)
    assert line["position"] == 1 + PlayerRating.objects.filter(ordinal__gt=ann.ordinal).count()
    assert [(r["race"], r["rank"]) for r in body["recent_races"]] == [
        (str(r2.id), 2),
        (str(r1.id), 1),
    ]
    first = RatingChange.objects.get(race=r1, player__username="ann")
    assert body["recent_races"][1]["change"] == first.rating_after - first.rating_before
    assert body["recent_races"][0]["rating_before"] == first.rating_after
    assert client.get("/api/v1/players/ANN").json()["username"] == "ann"
    history, previous = all_pages(client, "/api/v1/players/ann/history?page_size=1")
    assert [h["race"] for h in history] == [str(r2.id), str(r1.id)]
    assert previous == [None, previous[1]]
    # A pool key that names no pool is a filter's wrong value (it was a 404, as for a
    # player who does not exist): tests/api/test_whole_lists.py.
    unknown_pool = client.get("/api/v1/players/ann/history?pool=draw-one")
    assert (unknown_pool.status_code, unknown_pool.json()["code"]) == (400, "invalid_filter")
    missing = client.get("/api/v1/players/nobody")
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"


def test_results_carry_each_entry_rating_change() -> None:
    race = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    client = APIClient()
    before = client.get(f"/api/v1/races/{race.id}/results").json()
    assert before["rating"]["status"] == "pending"
    assert [e["rating_change"] for e in before["entries"]] == [None, None]
    race_rate(race_id=race.id)
    body = client.get(f"/api/v1/races/{race.id}/results").json()
    assert body["rating"] == {
        "race": str(race.id),
        "rated": True,
        "status": "rated",
        "reason": None,
        "pool": "classic",
        "entries_rated": 2,
    }
    changes = {e["player"]: e["rating_change"] for e in body["entries"]}
    bob = RatingChange.objects.get(race=race, player__username="bob")
    assert changes["bob"] == {
        "pool": "classic",
        "rating_before": 1000,
        "rating_after": bob.rating_after,
        "change": bob.rating_after - 1000,
    }
    assert changes["ann"]["change"] > changes["bob"]["change"]


def test_organisers_mark_a_race_unrated_through_the_api() -> None:
    race = rated(Result("ann", 40, 1000), Result("bob", 30, 1000))
    staff = client_for(create_user("org", staff=True))
    url = f"/api/v1/races/{race.id}/rating"
    assert (
        client_for(create_user("eve")).put(url, {"rated": False}, format="json").status_code == 403
    )
    assert APIClient().put(url, {"rated": False}, format="json").status_code == 401
    bad = staff.put(url, {"rated": "no"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "validation_error"
    response = staff.put(url, {"rated": False}, format="json")
    assert response.status_code == 200
    assert response.json()["rated"] is False
    race_rate(race_id=race.id)  # the task the service enqueued on commit
    body = APIClient().get(url).json()
    assert (body["status"], body["reason"]) == ("not_rated", "unrated")
    assert not PlayerRating.objects.exists()
    assert APIClient().get(f"/api/v1/races/{race.id}").json()["rated"] is False


def test_staff_create_an_unrated_race() -> None:
    from datetime import timedelta

    from django.db.models.signals import post_save
    from django.utils import timezone

    staff = client_for(create_user("org", staff=True))
    now = timezone.now()
    body = {
        "name": "friendly",
        "starts_at": (now + timedelta(minutes=1)).isoformat(),
        "ends_at": (now + timedelta(minutes=5)).isoformat(),
        "rated": False,
    }
    saved: list[tuple[bool, bool]] = []

    def record(sender: type, instance: Race, created: bool, **kwargs: object) -> None:
        saved.append((created, instance.rated))

    post_save.connect(record, sender=Race)
    try:
        response = staff.post("/api/v1/races", body, format="json")
    finally:
        post_save.disconnect(record, sender=Race)
    assert response.status_code == 201, response.json()
    assert response.json()["rated"] is False
    # Stored by the create itself: never, even after a failure between two writes, a
    # rated race.
    assert saved == [(True, False)]
    assert Race.objects.get(id=response.json()["id"]).rated is False
    running = running_race()
    assert APIClient().get(f"/api/v1/races/{running.id}/rating").json()["status"] == "not_finished"


def test_a_draft_tournament_race_is_left_out_of_rating_histories() -> None:
    """Races of a draft tournament are the organisers' until it is published: the
    player's races list left them out, but their rating history (API and the page's
    "Recent rated races") named them."""
    from games.models import Tournament
    from tests.tournaments.factories import TournamentFactory

    race = rated(Result("ann", 30, 1000), Result("bob", 10, 1000), name="Secret rehearsal")
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    Race.objects.filter(id=race.id).update(tournament=draft)
    body = APIClient().get("/api/v1/players/ann/history").json()
    assert body["results"] == []
    profile = APIClient().get("/api/v1/players/ann").json()
    assert profile["recent_races"] == []
    page = APIClient().get("/players/ann/").content.decode()
    assert "Secret rehearsal" not in page
    Tournament.objects.filter(id=draft.id).update(status=Tournament.Status.OPEN)
    body = APIClient().get("/api/v1/players/ann/history").json()
    assert [r["race_name"] for r in body["results"]] == ["Secret rehearsal"]
