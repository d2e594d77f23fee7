# mypy: disable-error-code="no-untyped-call"
"""A window race's stream sends the standings when an entrant's own time runs out.

No write marks a window entrant's deadline (their start plus ``time_limit_s``): the
standings read them as timed out from that instant, but no message came, so every
watcher of the race stream saw them "playing" until someone else moved or the race
ended (minutes later).  The race topic's clock now wakes at the next entrant's deadline
(``games.selectors.races.next_game_deadline``) and sends the standings.  With Redis
configured (a dead address here) the clock otherwise sleeps until the race's end; the
wait is bounded and the asserted values are the event's data."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from api.streams import RaceHandler
from games.live.hub import Topic
from games.models import Game
from games.selectors.races import next_game_deadline
from games.services.races import race_join, race_start
from tests.factories import make_user
from tests.tournaments.factories import window_race

pytestmark = pytest.mark.django_db(transaction=True)


def _events(sent: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for frame in sent:
        if not isinstance(frame, bytes):
            continue
        fields = dict(line.split(": ", 1) for line in frame.decode().splitlines() if line)
        out.append((fields["event"], json.loads(fields["data"])))
    return out


def test_the_stream_says_when_an_entrants_own_time_runs_out() -> None:
    race = window_race()
    ann, bob = make_user(username="ann"), make_user(username="bob")
    race_join(race_id=race.id, player=bob)  # entered, never started: no deadline
    game = race_start(race_id=race.id, player=ann)
    # Ann's minute ends in 0.4 s (as if she had started 59.6 s ago).
    due = timezone.now() + timedelta(seconds=0.4)
    Game.objects.filter(id=game.id).update(deadline=due)
    assert next_game_deadline(race_id=race.id, now=timezone.now()) == due
    sent: list[Any] = []

    async def run() -> None:
        topic = Topic(f"race:{race.id}", RaceHandler)
        topic.broadcast = sent.append  # type: ignore[method-assign, assignment]
        with override_settings(LIVE_REDIS_URL="redis://127.0.0.1:1/0"):
            await topic.handler.start()
            try:
                limit = time.monotonic() + 10
                while not _events(sent) and time.monotonic() < limit:
                    await asyncio.sleep(0.05)
            finally:
                topic.handler.stop()

    asyncio.run(run())
    events = _events(sent)
    assert [name for name, _ in events] == ["standings"]
    data = events[0][1]
    assert {row["player"]: row["status"] for row in data["standings"]} == {
        "ann": "timed_out",
        "bob": "not_started",
    }
    assert data["oldest_change_ms"] == data["latest_change_ms"] == int(due.timestamp() * 1000)
    assert data["phase"] == "running"
    # Nothing else is due: the next deadline is none (bob has not started).
    assert next_game_deadline(race_id=race.id, now=due) is None
