# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment"
"""One permission model for organiser actions (issue 12 item 6).

Organiser actions need the model permissions of ``games.permissions.REQUIRED`` (the
``organisers`` group holds them); ``is_staff`` alone grants none of them, through any
endpoint.  A draft tournament's race answers players exactly as a race that does not
exist, on every method of every race endpoint.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Race, Tournament
from games.permissions import REQUIRED, OrganiserAction, may_organise, may_see_drafts
from tests.api.conftest import client_for
from tests.factories import OrganiserFactory, StaffFactory, UserFactory
from tests.tournaments.factories import TournamentFactory, running_race

pytestmark = pytest.mark.django_db

RACE_PATHS = ("", "/join", "/start", "/standings", "/results")
METHODS = ("get", "post", "put", "patch", "delete", "options")


def _race_body() -> dict[str, Any]:
    now = timezone.now()
    return {
        "name": "staff race",
        "starts_at": (now + timedelta(minutes=1)).isoformat(),
        "ends_at": (now + timedelta(minutes=5)).isoformat(),
    }


def test_staff_outside_the_organisers_group_may_organise_nothing() -> None:
    """The fault: a staff account without organiser permissions created races."""
    staff = StaffFactory()
    assert staff.is_staff
    assert not staff.is_superuser
    assert not any(may_organise(staff, action) for action in OrganiserAction)
    c = client_for(staff)
    resp = c.post("/api/v1/races", _race_body(), format="json")
    assert resp.status_code == 403, resp.json()
    assert resp.json()["code"] == "permission_denied"
    assert Race.objects.count() == 0


def test_organiser_permission_without_staff_is_enough_for_the_api() -> None:
    """The permission, not ``is_staff``, decides: a non-staff group member may create races."""
    user: User = UserFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    user = User.objects.get(pk=user.pk)  # fresh permission cache
    assert not user.is_staff
    assert all(may_organise(user, action) for action in OrganiserAction)
    resp = client_for(user).post("/api/v1/races", _race_body(), format="json")
    assert resp.status_code == 201, resp.json()


@pytest.mark.parametrize("action", list(OrganiserAction))
def test_each_action_needs_exactly_its_permissions(action: OrganiserAction) -> None:
    """Granting each required permission but one refuses; all of them allow."""
    from django.contrib.auth.models import Permission

    def perm(name: str) -> Permission:
        app, codename = name.split(".")
        return Permission.objects.get(content_type__app_label=app, codename=codename)

    required = REQUIRED[action]
    for missing in required:
        user: User = StaffFactory()
        user.user_permissions.add(*(perm(p) for p in required if p != missing))
        assert not may_organise(User.objects.get(pk=user.pk), action)
    user = UserFactory()
    user.user_permissions.add(*(perm(p) for p in required))
    assert may_organise(User.objects.get(pk=user.pk), action)
    user.is_active = False
    assert not may_organise(user, action)


def test_drafts_are_the_organisers_not_the_staffs() -> None:
    """A plain staff account sees no draft tournament nor its races; an organiser does."""
    draft = TournamentFactory(name="secret", status=Tournament.Status.DRAFT)
    race = running_race(draft, name="draft race")
    staff, organiser = StaffFactory(), OrganiserFactory()
    assert not may_see_drafts(staff)
    assert may_see_drafts(organiser)
    for user, visible in ((staff, False), (organiser, True)):
        c = client_for(user)
        races = {r["name"] for r in c.get("/api/v1/races").json()["results"]}
        tournaments = {t["name"] for t in c.get("/api/v1/tournaments").json()["results"]}
        assert ("draft race" in races) is visible
        assert ("secret" in tournaments) is visible
        assert (c.get(f"/api/v1/races/{race.id}").status_code == 200) is visible
        assert (c.get(f"/api/v1/tournaments/{draft.id}").status_code == 200) is visible


def _answer(client: APIClient, method: str, url: str) -> tuple[int, dict[str, Any], str]:
    resp = getattr(client, method)(url, {}, format="json")
    body = resp.json() if resp.content else {}
    body.pop("instance", None)  # the request's own path
    return resp.status_code, body, resp.get("Allow", "")


@pytest.mark.parametrize("mode", ["scheduled", "window"])
def test_draft_tournament_race_answers_as_a_missing_race(mode: str) -> None:
    """Every method on every race endpoint: the same status, code, detail and headers as for
    an id that does not exist (the fault: join/start said 409 "the tournament is draft")."""
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    kw: dict[str, Any] = {"mode": mode}
    if mode == "window":
        kw["time_limit_s"] = 60
    race = running_race(draft, **kw)
    assert race.phase() == "running"  # joinable, so only the draft hides it
    missing = uuid.uuid4()
    player = client_for(UserFactory())
    for client in (player, APIClient()):
        for path in RACE_PATHS:
            for method in METHODS:
                seen = _answer(client, method, f"/api/v1/races/{race.id}{path}")
                expected = _answer(client, method, f"/api/v1/races/{missing}{path}")
                assert seen == expected, (method, path, seen, expected)
    assert not race.entries.exists()
    # Published, the same race is joinable: the draft status was the only reason.
    Tournament.objects.filter(pk=draft.pk).update(status=Tournament.Status.OPEN)
    assert player.post(f"/api/v1/races/{race.id}/join").status_code == 201
