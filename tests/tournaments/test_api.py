# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Tournament API: list, detail, standings (cursor-paginated), my results, staff endpoints."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import RaceEntry, Tournament
from games.services.race_admin import race_entry_disqualify
from tests.api.conftest import client_for
from tests.factories import StaffFactory, UserFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race, running_race

#: A year always ahead of the clock (a fixed one fails once it has passed).
YEAR = timezone.now().year + 3

pytestmark = pytest.mark.django_db


def organiser_client() -> APIClient:
    user: User = StaffFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    return client_for(user)


def test_organiser_creates_a_tournament_and_adds_races() -> None:
    c = organiser_client()
    resp = c.post(
        "/api/v1/tournaments",
        {"name": "Spring", "scoring": "cards_home", "win_bonus": 25, "max_entrants": 8},
        format="json",
    )
    assert resp.status_code == 201, resp.json()
    body = resp.json()
    assert (body["scoring"], body["win_bonus"], body["points_per_card"], body["status"]) == (
        "cards_home",
        25,
        1,
        "open",
    )
    assert "win_bonus = 25" in body["scoring_rule"]
    resp = c.post(
        f"/api/v1/tournaments/{body['id']}/races",
        {"count": 2, "first_starts_at": f"{YEAR}-05-01T12:00:00Z", "duration_s": 600, "gap_s": 60},
        format="json",
    )
    assert resp.status_code == 201, resp.json()
    races = resp.json()["races"]
    assert [r["starts_at"] for r in races] == [f"{YEAR}-05-01T12:00:00Z", f"{YEAR}-05-01T12:11:00Z"]
    assert [r["seed"] for r in races] == [None, None]
    assert races[0]["commitment"] != races[1]["commitment"]
    detail = APIClient().get(f"/api/v1/tournaments/{body['id']}").json()
    assert [r["name"] for r in detail["races"]] == ["Spring #1", "Spring #2"]


def test_invalid_points_table_is_a_problem() -> None:
    resp = organiser_client().post(
        "/api/v1/tournaments", {"name": "x", "points_table": [1, 9]}, format="json"
    )
    assert resp.status_code == 400
    assert resp.json()["code"] == "invalid_tournament"


@pytest.mark.parametrize("staff", [False, True])
def test_non_organisers_are_refused_staff_endpoints(staff: bool) -> None:
    t = TournamentFactory()
    user = StaffFactory() if staff else UserFactory()
    for c, expected in ((client_for(user), 403), (APIClient(), 401)):
        for url, data in (
            ("/api/v1/tournaments", {"name": "x"}),
            (
                f"/api/v1/tournaments/{t.id}/races",
                {"count": 1, "first_starts_at": f"{YEAR}-01-01T00:00:00Z", "duration_s": 60},
            ),
            (f"/api/v1/tournaments/{t.id}/rescore", {}),
        ):
            resp = c.post(url, data, format="json")
            assert resp.status_code == expected, (url, resp.json())
    assert Tournament.objects.count() == 1
    assert t.races.count() == 0


def test_list_hides_drafts_from_players() -> None:
    TournamentFactory(name="public")
    TournamentFactory(name="secret", status=Tournament.Status.DRAFT)
    names = [t["name"] for t in APIClient().get("/api/v1/tournaments").json()["results"]]
    assert names == ["public"]
    draft = Tournament.objects.get(name="secret")
    assert APIClient().get(f"/api/v1/tournaments/{draft.id}").status_code == 404
    staff_names = {
        t["name"] for t in organiser_client().get("/api/v1/tournaments").json()["results"]
    }
    assert staff_names == {"public", "secret"}


def test_standings_are_cursor_paginated() -> None:
    t = TournamentFactory()
    finished_race(t, *[Result(f"p{i}", 40 - i, 1000) for i in range(5)])
    c = APIClient()
    page = c.get(f"/api/v1/tournaments/{t.id}/standings?page_size=2").json()
    seen: list[Any] = []
    while True:
        seen += [(r["rank"], r["player"], r["points"]) for r in page["results"]]
        if not page["next"]:
            break
        page = c.get(page["next"]).json()
    assert seen == [(1, "p0", 10), (2, "p1", 8), (3, "p2", 6), (4, "p3", 5), (5, "p4", 4)]


def test_my_results_show_points_and_the_disqualification_reason() -> None:
    t = TournamentFactory()
    me: User = UserFactory(username="me")
    r1 = finished_race(t, Result(me, 40, 100), Result("other", 30, 100), name="first")
    r2 = finished_race(t, Result(me, 35, 100), Result("other", 30, 100), name="second")
    entry = RaceEntry.objects.get(race=r2, player=me)
    race_entry_disqualify(entry_id=entry.id, reason="shared the deal", by=StaffFactory())
    running = running_race(t, name="third")
    resp = client_for(me).get(f"/api/v1/tournaments/{t.id}/me")
    assert resp.status_code == 200
    body = resp.json()
    assert body["admitted"] is True
    assert body["standing"]["points"] == 10
    assert body["standing"]["disqualifications"] == 1
    lines = {r["name"]: r for r in body["races"]}
    assert (lines["first"]["rank"], lines["first"]["points"], lines["first"]["counted"]) == (
        1,
        10,
        True,
    )
    assert lines["second"]["disqualified"] is True
    assert lines["second"]["disqualified_reason"] == "shared the deal"
    assert (lines["second"]["points"], lines["second"]["status"]) == (0, "disqualified")
    assert "third" not in lines  # not entered
    assert str(r1.id) in {r["race"] for r in body["races"]}
    assert str(running.id) not in {r["race"] for r in body["races"]}  # a race not entered
    assert t.races.count() == 3
    assert APIClient().get(f"/api/v1/tournaments/{t.id}/me").status_code == 401


def test_joining_an_invite_only_tournament_race_is_refused() -> None:
    t = TournamentFactory(entry=Tournament.Entry.INVITE)
    race = running_race(t)
    resp = client_for(UserFactory()).post(f"/api/v1/races/{race.id}/join")
    assert resp.status_code == 403
    assert resp.json()["code"] == "tournament_invite_only"


def test_the_race_list_shows_a_seed_exactly_when_the_race_does() -> None:
    """A cancelled race showed its seed on its own page but not in its tournament's list."""
    from games.services.race_admin import race_cancel_now

    t = TournamentFactory()
    running = running_race(t, name="running")
    cancelled = running_race(t, name="cancelled")
    race_cancel_now(race_id=cancelled.id)
    done = finished_race(t, Result("ann", 30, 1000), name="done")
    listed = {
        r["name"]: r["seed"] for r in APIClient().get(f"/api/v1/tournaments/{t.id}").json()["races"]
    }
    shown = {
        r.name: APIClient().get(f"/api/v1/races/{r.id}").json()["seed"]
        for r in (running, cancelled, done)
    }
    assert listed == shown
    csv_rows = APIClient().get(f"/api/v1/tournaments/{t.id}/races.csv").content.decode()
    in_csv = {row.split(",")[3]: row.split(",")[-1].strip() for row in csv_rows.splitlines()[1:]}
    assert in_csv == {name: seed or "" for name, seed in listed.items()}
    assert listed["running"] is None
    assert listed["cancelled"] == cancelled.deal.seed
    assert listed["done"] == done.deal.seed


@pytest.mark.parametrize(("depth", "code"), [(50, "validation_error"), (5000, "malformed_request")])
def test_a_points_table_nested_deeply_is_a_problem(depth: int, code: str) -> None:
    """The API's parser already says a body nested past its depth is malformed; a
    shallower nesting is the field's error (a list of integers)."""
    body = '{"name": "Deep", "points_table": ' + "[" * depth + "]" * depth + "}"
    resp = organiser_client().post("/api/v1/tournaments", body, content_type="application/json")
    assert resp.status_code == 400
    assert resp["Content-Type"] == "application/problem+json"
    assert resp.json()["code"] == code
    assert not Tournament.objects.filter(name="Deep").exists()


def test_every_points_value_the_services_accept_fits_its_column() -> None:
    """``points_per_card`` and ``win_bonus`` are 0 to 100,000
    (:func:`games.services.tournaments.scoring_validate`): each column holds that on
    every database (``points_per_card`` was a smallint, 32,767 at most on PostgreSQL)."""
    from django.db import models
    from django.db.backends.base.operations import BaseDatabaseOperations

    ranges = BaseDatabaseOperations.integer_field_ranges
    for name in ("points_per_card", "win_bonus"):
        field = Tournament._meta.get_field(name)
        assert isinstance(field, models.Field)
        low, high = ranges[field.get_internal_type()]
        assert low <= 0
        assert high >= 100_000, name


@pytest.mark.postgres
@pytest.mark.parametrize("points", [32_768, 100_000])
def test_points_per_card_past_a_smallint_is_stored(points: int) -> None:
    """PostgreSQL refused 32,768 points per card ("smallint out of range"): a 500."""
    resp = organiser_client().post(
        "/api/v1/tournaments",
        {"name": "Big", "scoring": "cards_home", "points_per_card": points, "win_bonus": points},
        format="json",
    )
    assert resp.status_code == 201, resp.content
    assert resp.json()["points_per_card"] == points
    assert Tournament.objects.get(name="Big").points_per_card == points
