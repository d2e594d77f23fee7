"""The hub against a real Redis (no server process).

One subscription under concurrent first use, and the per-user cap on open streams.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings

from games.live.hub import Hub, Stream, TopicHandler, Update, slot_set_key
from games.live.publish import channel_name

pytestmark = pytest.mark.redis


def test_concurrent_first_uses_share_one_subscription(monkeypatch: pytest.MonkeyPatch) -> None:
    """Open-stream slots and a join that connect at the same time end up on one pub/sub
    connection, and the topic's messages reach the stream.

    The fault: each concurrent first caller made its own connection and the last one
    replaced the others; the reader then read a connection that had subscribed to
    nothing, failed at once and ended every stream (benchmarks/race_stream.py: a
    subscriber with no snapshot, another refused with 503, in 3 runs of 4).
    """
    import redis.asyncio as aioredis
    import redis.asyncio.client as aioclient

    url = settings.CELERY_BROKER_URL
    # The interleaving that broke it, made certain: every PING but the first answers
    # 20 ms late (so they all come back together) and SUBSCRIBE takes 50 ms (so the
    # late PINGs land while the join subscribes).
    pings = 0
    ping, subscribe = aioredis.Redis.ping, aioclient.PubSub.subscribe

    async def slow_ping(self: Any, **kwargs: Any) -> Any:
        nonlocal pings
        pings += 1
        if pings > 1:
            await asyncio.sleep(0.02)
        return await ping(self, **kwargs)

    async def slow_subscribe(self: Any, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.05)
        return await subscribe(self, *args, **kwargs)

    monkeypatch.setattr(aioredis.Redis, "ping", slow_ping)
    monkeypatch.setattr(aioclient.PubSub, "subscribe", slow_subscribe)
    prefix = f"test-hub-{uuid.uuid4().hex[:8]}"

    async def go() -> tuple[Any, Any, int]:
        nonlocal pings
        pings = 0
        hub = Hub()
        topic = "race:r1"
        stream = Stream(topic)
        others = [Stream(f"race:other{i}") for i in range(12)]
        slots = [hub.slot_acquire(f"user:{i}", s, 8) for i, s in enumerate(others)]
        got = await asyncio.gather(*slots, hub.join(topic, stream, TopicHandler))
        assert got[:-1] == [True] * len(others)
        publisher = aioredis.Redis.from_url(url)
        try:
            body = json.dumps({"kind": "standings", "n": 1})
            receivers = await publisher.publish(channel_name(topic), f"1 {body}")
            item = await asyncio.wait_for(stream.queue.get(), 10)
        finally:
            await publisher.aclose()
        reader = hub._reader
        alive = reader is not None and not reader.done()
        for s in [stream, *others]:
            await hub.slot_release(f"user:{s.id}", s)
        await hub.leave(stream)
        if reader is not None:
            reader.cancel()
        return item, alive, receivers

    for trial in range(3):
        with override_settings(LIVE_REDIS_URL=url, LIVE_CHANNEL_PREFIX=f"{prefix}-{trial}"):
            item, alive, receivers = asyncio.run(go())
        assert receivers == 1  # one subscription in this process, not one per caller
        assert isinstance(item, Update)
        assert (item.seq, item.message) == (1, {"kind": "standings", "n": 1})
        assert alive


def test_a_heartbeat_does_not_let_a_stream_past_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cap`` slots held, one more is refused, whatever the heartbeats did meanwhile.

    The fault (a whole-suite run, tests/live/test_streams_server.py, 429 expected, 200
    got): the newcomer was added and admitted when its *rank by score* was under the
    cap; a heartbeat that re-scored a held slot with a clock reading later than the
    newcomer's put the newcomer ahead of it.  The clock is injected here so that a
    heartbeat lands after the newcomer's reading, which is what happened.
    """
    import time as real_time
    from types import SimpleNamespace

    import games.live.hub as hub_module

    clock = {"now": 1_000_000.0}
    monkeypatch.setattr(
        hub_module,
        "time",
        SimpleNamespace(time=lambda: clock["now"], monotonic=real_time.monotonic),
    )
    key = f"user:cap-{uuid.uuid4().hex[:8]}"

    async def go() -> tuple[list[bool], bool, bool, bool, int]:
        hub = Hub()
        held = [Stream("game:g") for _ in range(3)]
        got = [await hub.slot_acquire(key, s, 3) for s in held]
        clock["now"] += 5.0  # the first stream's heartbeat reads the clock later ...
        await hub.slot_refresh(key, held[0])
        clock["now"] -= 1.0  # ... than the newcomer, which comes in between
        newcomer = Stream("game:g")
        over = await hub.slot_acquire(key, newcomer, 3)
        # Releasing one frees exactly one place; a released slot's late heartbeat
        # does not bring it back.
        await hub.slot_release(key, held[1])
        await hub.slot_refresh(key, held[1])
        after_release = await hub.slot_acquire(key, newcomer, 3)
        another = await hub.slot_acquire(key, Stream("game:g"), 3)
        count = int(await hub._redis.zcard(slot_set_key(key)))
        for s in [held[0], held[2], newcomer]:
            await hub.slot_release(key, s)
        return got, over, after_release, another, count

    with override_settings(
        LIVE_REDIS_URL=settings.CELERY_BROKER_URL, LIVE_CHANNEL_PREFIX=f"test-cap-{key[-8:]}"
    ):
        got, over, after_release, another, count = asyncio.run(go())
    assert got == [True, True, True]
    assert over is False
    assert after_release is True
    assert another is False
    assert count == 3
