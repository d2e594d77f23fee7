"""``GET /api/v1/races``: a fixed number of queries whatever the number of races listed.

Each race shows the viewer's entry (``joined``, ``game_id``, ``game_status``); those
entries are read for the whole page at once, not one query per race.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Race
from games.services.races import race_create, race_join

pytestmark = pytest.mark.django_db


def _running_race(name: str) -> Race:
    now = timezone.now()
    return race_create(
        name=name,
        opens_at=now - timedelta(minutes=1),
        starts_at=now - timedelta(seconds=5),
        ends_at=now + timedelta(minutes=10),
        late_join_s=None,
    )


def _list(client: APIClient) -> tuple[list[dict[str, Any]], int]:
    with CaptureQueriesContext(connection) as ctx:
        resp = client.get("/api/v1/races")
    assert resp.status_code == 200, resp.content
    return resp.json()["results"], len(ctx.captured_queries)


def test_race_list_queries_do_not_grow_with_the_races(
    make_client: Callable[..., APIClient],
) -> None:
    viewer = make_client("lister")
    joined = []
    for n in range(2):
        race = _running_race(f"race {n}")
        race_join(race_id=race.id, player=viewer.user)  # type: ignore[attr-defined]
        joined.append(str(race.id))
    _running_race("not joined 0")
    rows, few = _list(viewer)
    for n in range(2, 7):
        race = _running_race(f"race {n}")
        race_join(race_id=race.id, player=viewer.user)  # type: ignore[attr-defined]
        joined.append(str(race.id))
    _running_race("not joined 1")
    rows, many = _list(viewer)
    assert len(rows) == 9
    assert many == few
    # The entries read at once are still each race's own.
    by_id = {row["id"]: row for row in rows}
    for race_id in joined:
        assert by_id[race_id]["joined"] is True
        assert by_id[race_id]["game_id"] is not None
        assert by_id[race_id]["game_status"] == "playing"
    others = [row for row in rows if row["id"] not in joined]
    assert len(others) == 2
    assert all(not row["joined"] and row["game_id"] is None for row in others)
