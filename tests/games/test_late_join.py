"""Per-race ``late_join_s``: joining stays open that long after the start (issue 13 item 2).

Times are injected (``now=``); nothing here depends on the wall clock except races
whose start lies minutes in the past or future.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Race, RaceEntry
from games.services.errors import InvalidRace, RaceNotOpen
from games.services.races import race_create, race_join
from games.services.tournaments import RaceSchedule, tournament_create, tournament_races_add
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def _race(**kw: Any) -> Race:
    start = timezone.now() + timedelta(minutes=5)
    params: dict[str, Any] = {
        "name": "r",
        "opens_at": start - timedelta(minutes=10),
        "starts_at": start,
        "ends_at": start + timedelta(minutes=10),
        **kw,
    }
    return race_create(**params)


def test_scheduled_race_closes_joining_at_the_start_by_default() -> None:
    race = _race()
    assert race.late_join_s == 0
    assert race.join_closes_at == race.starts_at
    early = race_join(
        race_id=race.id, player=create_user("early"), now=race.starts_at - timedelta(microseconds=1)
    )
    assert early.created
    with pytest.raises(RaceNotOpen) as refused:
        race_join(race_id=race.id, player=create_user("late"), now=race.starts_at)
    assert refused.value.code == "race_not_open"
    assert not RaceEntry.objects.filter(race=race, player__username="late").exists()
    # A player who joined in time may call join again (idempotent) after it closed.
    again = race_join(
        race_id=race.id, player=early.entry.player, now=race.starts_at + timedelta(minutes=1)
    )
    assert not again.created
    assert again.entry.pk == early.entry.pk


def test_late_join_window_is_enforced_to_the_second() -> None:
    race = _race(late_join_s=30)
    assert race.join_closes_at == race.starts_at + timedelta(seconds=30)
    inside = race.starts_at + timedelta(seconds=29, microseconds=999_999)
    joined = race_join(race_id=race.id, player=create_user("in-time"), now=inside)
    assert joined.created
    assert joined.entry.game is not None  # scheduled: the game exists at once
    assert joined.entry.game.deadline == race.ends_at  # a late joiner still stops at ends_at
    assert race.joining_open(inside)
    assert not race.joining_open(race.join_closes_at)
    with pytest.raises(RaceNotOpen):
        race_join(race_id=race.id, player=create_user("too-late"), now=race.join_closes_at)


def test_null_late_join_keeps_joining_open_until_the_end() -> None:
    race = _race(late_join_s=None)
    assert race.join_closes_at == race.ends_at
    assert race_join(
        race_id=race.id, player=create_user("a"), now=race.ends_at - timedelta(seconds=1)
    ).created
    with pytest.raises(RaceNotOpen):
        race_join(race_id=race.id, player=create_user("b"), now=race.ends_at)


def test_window_race_defaults_to_joining_until_the_end() -> None:
    race = _race(mode=Race.Mode.WINDOW, time_limit_s=60)
    assert race.late_join_s is None
    assert race.join_closes_at == race.ends_at


@pytest.mark.parametrize(
    ("kw", "fragment"),
    [
        ({"late_join_s": 601}, "longer than the race"),
        ({"late_join_s": -1}, "whole number"),
        ({"late_join_s": True}, "whole number"),
    ],
)
def test_bad_late_join_is_refused(kw: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidRace, match=fragment):
        _race(**kw)
    assert not Race.objects.exists()


def test_a_race_nobody_could_join_is_refused() -> None:
    start = timezone.now() + timedelta(minutes=1)
    with pytest.raises(InvalidRace, match="never be open"):
        race_create(name="r", opens_at=start, starts_at=start, ends_at=start + timedelta(minutes=1))


def test_tournament_races_carry_late_join() -> None:
    t = tournament_create(name="Cup")
    races = tournament_races_add(
        tournament_id=t.id,
        schedule=RaceSchedule(
            count=2,
            first_starts_at=timezone.now() + timedelta(hours=1),
            duration=timedelta(minutes=5),
        ),
        late_join_s=45,
    )
    assert [r.late_join_s for r in races] == [45, 45]
    default = tournament_races_add(
        tournament_id=t.id,
        schedule=RaceSchedule(
            count=1,
            first_starts_at=timezone.now() + timedelta(hours=2),
            duration=timedelta(minutes=5),
        ),
    )
    assert default[0].late_join_s == 0


def _staff() -> APIClient:
    client = APIClient()
    client.force_authenticate(create_user("staff", staff=True))
    return client


def test_api_shows_and_enforces_late_join() -> None:
    now = timezone.now()
    staff = _staff()
    body = {
        "name": "sprint",
        "opens_at": (now - timedelta(minutes=2)).isoformat(),
        "starts_at": (now - timedelta(seconds=10)).isoformat(),
        "ends_at": (now + timedelta(minutes=10)).isoformat(),
        "late_join_s": 20,
    }
    created = staff.post("/api/v1/races", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["late_join_s"] == 20
    # A minute later: joining closed 20 s after the start.  (Announced with joining
    # closed already, the race is refused: test_race_joining_closed_at_creation.py.)
    Race.objects.filter(id=created.json()["id"]).update(
        opens_at=F("opens_at") - timedelta(minutes=1),
        starts_at=F("starts_at") - timedelta(minutes=1),
    )
    race = APIClient().get(f"/api/v1/races/{created.json()['id']}").json()
    assert race["late_join_s"] == 20
    assert race["joining_open"] is False
    starts = Race.objects.get(id=race["id"]).starts_at
    assert race["join_closes_at"] == (starts + timedelta(seconds=20)).isoformat().replace(
        "+00:00", "Z"
    )

    player = APIClient()
    player.force_authenticate(create_user("latecomer"))
    refused = player.post(f"/api/v1/races/{race['id']}/join")
    assert refused.status_code == 409
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "race_not_open"
    assert not RaceEntry.objects.filter(race_id=race["id"]).exists()

    shown = APIClient().get(f"/api/v1/races/{race['id']}").json()
    assert shown["late_join_s"] == 20
    assert shown["joining_open"] is False


def test_api_refuses_bad_late_join() -> None:
    now = timezone.now()
    base = {
        "name": "r",
        "starts_at": (now + timedelta(minutes=1)).isoformat(),
        "ends_at": (now + timedelta(minutes=2)).isoformat(),
    }
    staff = _staff()
    too_long = staff.post("/api/v1/races", {**base, "late_join_s": 61}, format="json")
    assert too_long.status_code == 400
    assert too_long.json()["code"] == "invalid_race"
    negative = staff.post("/api/v1/races", {**base, "late_join_s": -5}, format="json")
    assert negative.status_code == 400
    assert negative.json()["code"] == "validation_error"
    assert not Race.objects.exists()
