"""An empty race is listed under "Running" only between its start and its end (a report
said an empty scheduled race was listed as running; checked: the lists follow
:meth:`~games.models.Race.phase`, entrants or not, and these tests keep it so)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Race
from games.selectors.races import RACE_PHASES, race_list
from games.services.race_admin import race_close_now
from games.services.races import race_create

pytestmark = pytest.mark.django_db


def _lobby_lists() -> dict[str, list[str]]:
    """The lobby's race lists as a reader sees them: heading to the race names under it."""
    html = Client().get("/lobby/races").content.decode()
    lists: dict[str, list[str]] = {}
    for part in re.split(r"(?=<h3>)", html)[1:]:
        heading = re.search(r"<h3>(.*?)</h3>", part)
        assert heading is not None
        lists[heading.group(1)] = re.findall(r'<a href="/races/[^"]+/">([^<]+)</a>', part)
    return lists


def test_empty_races_are_listed_by_their_phase() -> None:
    now = timezone.now()

    def minutes(n: int) -> datetime:
        return now + timedelta(minutes=n)

    race_create(name="later", opens_at=minutes(5), starts_at=minutes(10), ends_at=minutes(20))
    race_create(name="soon", opens_at=minutes(-5), starts_at=minutes(10), ends_at=minutes(20))
    race_create(
        name="now",
        opens_at=minutes(-5),
        starts_at=minutes(-1),
        ends_at=minutes(20),
        now=minutes(-5),
    )
    race_create(
        name="window", mode="window", time_limit_s=60,
        opens_at=minutes(-5), starts_at=minutes(-1), ends_at=minutes(25),
    )  # fmt: skip
    done = race_create(
        name="done",
        opens_at=minutes(-5),
        starts_at=minutes(-1),
        ends_at=minutes(20),
        now=minutes(-5),
    )
    race_close_now(race_id=done.id)
    assert Race.objects.get(id=done.id).status == "finished"
    assert _lobby_lists() == {
        "Running": ["now", "window"],  # by their end
        "Open for joining": ["soon"],
        "Upcoming": ["later"],
        "Recently finished": ["done"],
    }


def test_an_empty_race_is_running_from_its_start_to_its_end_only() -> None:
    now = timezone.now()
    race = race_create(
        name="empty",
        opens_at=now + timedelta(minutes=1),
        starts_at=now + timedelta(minutes=2),
        ends_at=now + timedelta(minutes=4),
    )
    assert race.entries.count() == 0

    def listed(at: timedelta) -> list[str]:
        when = now + at
        phases = [p for p in RACE_PHASES if race_list(phase=p, now=when).filter(id=race.id)]
        assert phases == [race.phase(when)]  # the list and the race page agree
        return phases

    assert listed(timedelta(minutes=0)) == ["upcoming"]
    assert listed(timedelta(minutes=1)) == ["open"]
    assert listed(timedelta(minutes=2) - timedelta(microseconds=1)) == ["open"]
    assert listed(timedelta(minutes=2)) == ["running"]
    assert listed(timedelta(minutes=4) - timedelta(microseconds=1)) == ["running"]
    assert listed(timedelta(minutes=4)) == ["closing"]  # over, until the sweeper closes it
