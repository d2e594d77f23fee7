# mypy: disable-error-code="no-untyped-call, arg-type, union-attr"
"""A window race's clock stops at the race's end, and the API says so.

Each entrant gets ``time_limit_s`` from their own start, but never past ``ends_at``
(README "Races"; the race page says "fewer if the window closes first"): a player who
starts 10 s before the end of a 60 s window race has 10 s.  The game view's ``deadline``
carries it; its schema said nothing of what the deadline is, and ``POST /start`` did not
say that a late start gets fewer seconds.  Times are injected (``now=``)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from games.selectors.games import game_view
from games.services.races import race_start
from tests.api.test_schema import generate
from tests.factories import create_user
from tests.tournaments.factories import window_race

pytestmark = pytest.mark.django_db


def test_a_late_start_gets_the_seconds_left_and_the_view_says_until_when(tmp_path: Path) -> None:
    race = window_race(name="w", ends_in=timedelta(minutes=5))
    early = race_start(race_id=race.id, player=create_user("early"), now=race.starts_at)
    late_at = race.ends_at - timedelta(seconds=10)
    late = race_start(race_id=race.id, player=create_user("late"), now=late_at)
    assert early.deadline == race.starts_at + timedelta(seconds=60)
    assert late.deadline == race.ends_at  # 10 s, not 60
    assert game_view(late, now=late_at)["deadline"] == race.ends_at

    schema: dict[str, Any] = generate(tmp_path)
    deadline = schema["components"]["schemas"]["GameView"]["properties"]["deadline"]
    assert "never after the race's ends_at" in deadline["description"]
    start = schema["paths"]["/api/v1/races/{race_id}/start"]["post"]["description"]
    assert "stops at the race's ``ends_at`` whatever is" in start
