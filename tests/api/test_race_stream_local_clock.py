"""On the embedded default a race stream hears the worker's early close within seconds.

Its in-process broker does not carry the messages of the Celery worker, another
process: a walkthrough's race page said "Running; ends in 8:18" for 15 s (the page's
safety poll) after the sweeper had closed the race for being over for everyone.  The
race topic's clock now reads a running race's phase every
``LOCAL_RUNNING_POLL_S`` when there is no Redis.  Here the close is written to the
database with no message published in this process, as the worker's would be; the
wait is bounded, the asserted values are the phase events' data."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from api.streams import LOCAL_RUNNING_POLL_S, RaceHandler
from games.live.hub import Topic
from games.models import Race
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db(transaction=True)


def phases_after_close(redis_url: str) -> list[str]:
    race = running_race(name="local clock", late_join_s=0)
    sent: list[Any] = []

    async def run() -> None:
        topic = Topic(f"race:{race.id}", RaceHandler)
        topic.broadcast = sent.append  # type: ignore[method-assign, assignment]
        with override_settings(LIVE_REDIS_URL=redis_url):
            await topic.handler.start()
            try:
                await asyncio.sleep(0.2)
                await asyncio.to_thread(
                    lambda: Race.objects.filter(id=race.id).update(
                        status=Race.Status.FINISHED, closed_at=timezone.now()
                    )
                )
                await asyncio.sleep(LOCAL_RUNNING_POLL_S * 2.5)
            finally:
                topic.handler.stop()

    asyncio.run(run())
    return [
        line.removeprefix("event: ")
        for frame in sent
        if isinstance(frame, bytes)
        for line in frame.decode().splitlines()
        if line.startswith("event: ")
    ]


def test_the_embedded_default_hears_a_close_made_elsewhere() -> None:
    assert phases_after_close("") == ["phase", "standings"]  # the final standings follow


def test_with_redis_the_clock_waits_for_the_message_or_the_end() -> None:
    """With Redis the worker's message comes through it: no reading every second (the
    clock sleeps until the race's end)."""
    assert phases_after_close("redis://127.0.0.1:1/0") == []
