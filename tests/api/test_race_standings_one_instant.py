"""``GET /api/v1/races/{id}/standings`` reads the race's phase and its rows at one instant:
a request that straddles the start must not say ``open`` over rows already ``playing``
and ranked (nor ``running`` over rows ``not_started``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.services.races import race_create, race_join
from tests.factories import create_user
from tests.helpers import ticking

pytestmark = pytest.mark.django_db


def test_standings_phase_and_rows_agree_across_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    created = timezone.now()
    starts = created + timedelta(minutes=5)
    race = race_create(
        name="Straddle",
        opens_at=created,
        starts_at=starts,
        ends_at=starts + timedelta(minutes=10),
    )
    for name in ("ann", "bob"):
        race_join(race_id=race.id, player=create_user(name), now=created)
    client = APIClient()
    seen = set()
    # The start falls between any two readings of the clock for one of these requests.
    for before in range(12):
        clock = ticking(starts - timedelta(seconds=before))
        monkeypatch.setattr(timezone, "now", lambda clock=clock: next(clock))
        body = client.get(f"/api/v1/races/{race.id}/standings").json()
        statuses = {row["status"] for row in body["standings"]}
        ranks = {row["rank"] for row in body["standings"]}
        seen.add(body["phase"])
        if body["phase"] == "open":
            assert statuses == {"not_started"}, (before, body)
            assert ranks == {None}
        else:
            assert body["phase"] == "running"
            assert statuses == {"playing"}, (before, body)
            assert ranks == {1}
    assert seen == {"open", "running"}


def test_stream_standings_payload_agrees_across_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    from api.streams import race_standings_payload

    created = timezone.now()
    starts = created + timedelta(minutes=5)
    race = race_create(
        name="Straddle",
        opens_at=created,
        starts_at=starts,
        ends_at=starts + timedelta(minutes=10),
    )
    race_join(race_id=race.id, player=create_user("ann"), now=created)
    seen = set()
    for before in range(6):
        clock = ticking(starts - timedelta(seconds=before))
        monkeypatch.setattr(timezone, "now", lambda clock=clock: next(clock))
        body = race_standings_payload(str(race.id))
        [row] = body["standings"]
        seen.add(body["phase"])
        expected = "not_started" if body["phase"] == "open" else "playing"
        assert row["status"] == expected, (before, body["phase"], row)
    assert seen == {"open", "running"}


def test_stream_snapshot_agrees_across_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The race stream's ``snapshot`` event (``race_snapshot``) read the race's phase
    (``race_public``) and the standings at two instants, as the endpoint did."""
    from django.contrib.auth.models import AnonymousUser

    from api.streams import race_snapshot

    created = timezone.now()
    starts = created + timedelta(minutes=5)
    race = race_create(
        name="Straddle",
        opens_at=created,
        starts_at=starts,
        ends_at=starts + timedelta(minutes=10),
    )
    race_join(race_id=race.id, player=create_user("ann"), now=created)
    seen = []
    for before in range(6):
        clock = ticking(starts - timedelta(seconds=before))
        monkeypatch.setattr(timezone, "now", lambda clock=clock: next(clock))
        body = race_snapshot(str(race.id), AnonymousUser())
        [row] = body["standings"]
        phase = body["race"]["phase"]
        seen.append(phase)
        expected = "not_started" if phase == "open" else "playing"
        assert row["status"] == expected, (before, phase, row)
    assert set(seen) == {"open", "running"}


def test_the_race_snapshot_has_the_fields_the_api_documentation_lists() -> None:
    """The stream's documentation: `snapshot` {race, standings, count, url, ranking_rule,
    server_time, last_event_id} (the stream adds the last); ranking_rule was missing."""
    from api.streams import race_snapshot
    from games.engine.ranking import RANKING_RULE

    created = timezone.now()
    race = race_create(
        name="Snapshot",
        opens_at=created,
        starts_at=created + timedelta(minutes=5),
        ends_at=created + timedelta(minutes=15),
    )
    snap = race_snapshot(str(race.id), create_user("ann"))
    assert sorted(snap) == ["count", "race", "ranking_rule", "server_time", "standings", "url"]
    assert snap["ranking_rule"] == RANKING_RULE
    assert (snap["count"], snap["url"]) == (0, f"/api/v1/races/{race.id}/standings")


def test_the_stream_documentation_says_how_a_stream_ends() -> None:
    from api.streams_schema import _COMMON, _STREAMS

    assert "has an id ending in `.end` (`82.end`)" in _COMMON
    race_events = _STREAMS["/api/v1/races/{race_id}/events"]["events"]
    assert "the final standings (without the change times)" in race_events
    assert "one with an older id (or none) gets the race's final" in race_events
    assert "results_url (null until `finished`)" in race_events
