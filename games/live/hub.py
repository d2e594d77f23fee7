"""The receiving side of live events: one hub per ASGI web process.

The hub holds **one subscription per topic per process** (Redis pub/sub through
redis-py's asyncio client, or the in-process broker of the embedded default)
and fans each message out in memory to the open streams of that topic.  What a
message becomes on the wire is decided by the topic's :class:`TopicHandler`
(the stream endpoints in :mod:`api.streams` supply them; they read through
the selectors).

Redis outage: the reader notices the broken connection, every open stream gets
:data:`UNAVAILABLE` and ends, and until Redis answers again :meth:`Hub.join`
raises :class:`LiveUnavailable` (the endpoints answer 503, clients poll).  The
next stream request after Redis returns subscribes afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from games.live.publish import channel_name, channel_prefix, local_broker, redis_url, seq_key

log = logging.getLogger(__name__)

#: Queue item: the stream must end because live events are unavailable (Redis outage).
UNAVAILABLE = "unavailable"
#: Queue item: the stream must end because its client reads too slowly.
LAGGING = "lagging"
#: Queue item: the topic has nothing more to say (a finished race).
FINISHED = "finished"
#: Queue item: the stream's viewer may no longer see the topic (a race moved into a draft
#: tournament, something deleted); the handler sends the ``gone`` event just before it.
GONE = "gone"
#: Redis connections per hub (one is the pub/sub reader's) and seconds a caller waits
#: for a free one before the stream is refused (503 live_unavailable).
REDIS_POOL_SIZE = 16
REDIS_POOL_WAIT_S = 10.0
#: Events a stream may have waiting before it is ended as lagging.
QUEUE_SIZE = 256
#: Seconds after which a stream slot not refreshed by a heartbeat is forgotten (Redis).
SLOT_TTL_S = 60
#: Take a slot: KEYS[1] the user's sorted set; ARGV member, now (s), ttl (s), cap.
#: Returns 1 (taken) or 0 (``cap`` live slots are held).  It counts the live slots;
#: it used to add first and compare the new member's *rank by score* with ``cap``,
#: and a heartbeat that re-scored a held slot later than the newcomer's clock put
#: the newcomer ahead of it: one stream over the cap was let in
#: (tests/live/test_hub.py::test_a_heartbeat_does_not_let_a_stream_past_the_cap).
_SLOT_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, tonumber(ARGV[2]) - tonumber(ARGV[3]))
if not redis.call('ZSCORE', KEYS[1], ARGV[1])
   and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


def slot_set_key(key: str) -> str:
    """The Redis sorted set of ``key``'s open-stream slots (``key``: ``user:<pk>`` or
    ``addr:<address>``, see ``api.streams.slot_key``)."""
    return f"{channel_prefix()}:slots:{key}"


class LiveUnavailable(Exception):
    """Live events cannot be served now (Redis unreachable); clients should poll."""


class Update:
    """A message for streams that render it per viewer (the game stream)."""

    __slots__ = ("message", "seq")

    def __init__(self, seq: int, message: dict[str, Any]) -> None:
        self.seq = seq
        self.message = message


class Stream:
    """One open event stream: a bounded queue of frames (bytes), :class:`Update` s or an end.

    ``sees_drafts``: whether the viewer could see draft tournaments and their races when
    the stream opened (``games.permissions.may_see_drafts``); a handler sends what only
    organisers may see to such streams alone (:meth:`Topic.broadcast` ``to``).
    """

    _ids = itertools.count(1)

    def __init__(self, topic: str, viewer: Any = None, *, sees_drafts: bool = False) -> None:
        self.id = next(self._ids)
        self.topic = topic
        self.viewer = viewer
        self.sees_drafts = sees_drafts
        self.queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=QUEUE_SIZE)
        self.ended = False

    def send(self, item: Any) -> None:
        """Queue ``item``; a full queue ends the stream as :data:`LAGGING`."""
        if self.ended:
            return
        if isinstance(item, str):  # an end marker
            self.ended = True
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self.ended = True
            # Make room for the end marker: the client reconnects and gets a snapshot.
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(LAGGING)


class TopicHandler:
    """What a topic's messages become.  Subclasses override :meth:`on_message`."""

    def __init__(self, topic: Topic) -> None:
        self.topic = topic

    async def start(self) -> None:
        """Called once when the process subscribes to the topic (start timers here)."""

    async def on_message(self, seq: int, message: dict[str, Any]) -> None:
        """Called for each published message, in order; default: pass it to every stream."""
        self.topic.broadcast(Update(seq, message))

    def stop(self) -> None:
        """Called when the last stream of the topic leaves (cancel timers here)."""


class Topic:
    """The streams of one topic in this process and its handler."""

    def __init__(self, name: str, make_handler: Callable[[Topic], TopicHandler]) -> None:
        self.name = name
        self.streams: set[Stream] = set()
        self.last_seq = 0
        self.handler = make_handler(self)
        self._queue: asyncio.Queue[tuple[int, dict[str, Any]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def broadcast(self, item: Any, *, to: Callable[[Stream], bool] | None = None) -> None:
        """Send ``item`` to every stream of the topic (with ``to``: those it accepts)."""
        for stream in list(self.streams):
            if to is None or to(stream):
                stream.send(item)

    def deliver(self, seq: int, message: dict[str, Any]) -> None:
        """Hand a published message to the handler (in order, one at a time)."""
        if seq <= self.last_seq and seq > 0:
            return  # already reflected in the snapshot streams got on joining
        self.last_seq = seq
        self._queue.put_nowait((seq, message))
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            seq, message = await self._queue.get()
            try:
                await self.handler.on_message(seq, message)
            except Exception:
                log.exception("live events: handler of %s failed", self.name)

    def close(self) -> None:
        """Stop the handler and the delivery task."""
        self.handler.stop()
        if self._task is not None:
            self._task.cancel()
            self._task = None


class Hub:
    """The process's subscriptions and open streams (one per event loop)."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.topics: dict[str, Topic] = {}
        self.url = redis_url()
        self._redis: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._connect_lock = asyncio.Lock()
        self._local_slots: dict[str, set[int]] = {}
        if not self.url:
            local_broker.listen(self._from_thread)

    # ------------------------------------------------------------------ broker side
    def _from_thread(self, topic: str, seq: int, body: str) -> None:
        """In-process broker callback (any thread): move onto the hub's loop."""
        if self.loop.is_closed():
            local_broker.unlisten(self._from_thread)
            return
        self.loop.call_soon_threadsafe(self._dispatch, topic, seq, body)

    def _dispatch(self, topic: str, seq: int, body: str) -> None:
        t = self.topics.get(topic)
        if t is not None:
            t.deliver(seq, json.loads(body))

    async def _ensure_redis(self) -> None:
        """Connect to Redis once: one client and one pub/sub connection per hub.

        Joins (under ``_lock``) and open-stream slots (not under it) both get here; the
        connect lock makes the first caller connect and the others wait for it.  Without
        it two concurrent callers each made a pub/sub connection, the second replaced
        the first, and the reader was left on a connection that had subscribed to
        nothing: it failed at once and ended every stream (seen in
        ``benchmarks/race_stream.py``: some subscribers got no snapshot, some a 503).
        """
        if self._pubsub is not None:
            return
        async with self._connect_lock:
            if self._pubsub is not None:
                return
            import redis.asyncio as aioredis

            # A bounded pool that callers wait on: a burst of new streams (everyone
            # opening the race page at its start) opened one connection each, and on a
            # busy machine some of those connects timed out (29 of 1,000 subscribers
            # refused with 503 in benchmarks/race_stream.py).
            pool = aioredis.BlockingConnectionPool.from_url(
                self.url,
                max_connections=REDIS_POOL_SIZE,
                timeout=REDIS_POOL_WAIT_S,
                # A Redis that is up but busy may take a while to accept on a loaded
                # machine; an outage is caught by the PING below (5 s) all the same.
                socket_connect_timeout=5,
                socket_timeout=None,
            )
            client = aioredis.Redis.from_pool(pool)  # closing the client closes the pool
            try:
                await asyncio.wait_for(client.ping(), 5)
            except Exception as exc:
                await client.aclose()
                raise LiveUnavailable(f"Redis unavailable: {exc}") from None
            self._redis = client
            self._pubsub = client.pubsub(ignore_subscribe_messages=True)
            log.info("live events: connected to Redis")

    async def _read(self, pubsub: Any) -> None:
        """Read ``pubsub`` (the hub's connection when the task was made) until it breaks;
        then end every stream, unless an outage already replaced that connection."""
        prefix = f"{channel_prefix()}:ch:"
        try:
            while True:
                msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
                if msg is None:
                    if not pubsub.subscribed:
                        await asyncio.sleep(0.05)
                    continue
                channel = msg["channel"].decode()
                seq_s, _, body = msg["data"].decode().partition(" ")
                self._dispatch(channel.removeprefix(prefix), int(seq_s), body)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if pubsub is not self._pubsub:
                return  # an outage closed this connection already; a newer one serves
            log.warning("live events: Redis connection lost (%s); ending streams", exc)
            await self._outage()

    async def _outage(self) -> None:
        """End every stream (``unavailable``) and drop the connections; the next join
        connects again."""
        reader, self._reader = self._reader, None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
        topics, self.topics = self.topics, {}
        for topic in topics.values():
            topic.broadcast(UNAVAILABLE)
            topic.close()
        pubsub, client = self._pubsub, self._redis
        self._pubsub = self._redis = None
        for closer in (getattr(pubsub, "aclose", None), getattr(client, "aclose", None)):
            if closer is not None:
                with contextlib.suppress(Exception):
                    await closer()

    # ------------------------------------------------------------------ streams
    async def join(
        self, topic_name: str, stream: Stream, make_handler: Callable[[Topic], TopicHandler]
    ) -> int:
        """Add ``stream`` to ``topic_name`` (subscribing the process if it is the first).

        Returns the topic's last sequence number: every message up to it is
        reflected in a snapshot read after this call.  Raises :class:`LiveUnavailable`.
        """
        async with self._lock:
            topic = self.topics.get(topic_name)
            if topic is None:
                topic = Topic(topic_name, make_handler)
                if self.url:
                    try:
                        await self._ensure_redis()
                        await self._pubsub.subscribe(channel_name(topic_name))
                        raw = await self._redis.get(seq_key(topic_name))
                    except LiveUnavailable:
                        raise
                    except Exception as exc:
                        log.warning("live events: subscribing to %s failed (%r)", topic_name, exc)
                        await self._outage()
                        raise LiveUnavailable(f"Redis unavailable: {exc}") from None
                    topic.last_seq = int(raw or 0)
                    if self._reader is None:
                        self._reader = self.loop.create_task(self._read(self._pubsub))
                else:
                    topic.last_seq = local_broker.last_seq(topic_name)
                self.topics[topic_name] = topic
                await topic.handler.start()
            topic.streams.add(stream)
            return topic.last_seq

    async def leave(self, stream: Stream) -> None:
        """Remove ``stream``; the last one out unsubscribes the process from the topic."""
        async with self._lock:
            topic = self.topics.get(stream.topic)
            if topic is None:
                return
            topic.streams.discard(stream)
            if topic.streams:
                return
            del self.topics[stream.topic]
            topic.close()
            if self._pubsub is not None:
                with contextlib.suppress(Exception):
                    await self._pubsub.unsubscribe(channel_name(stream.topic))

    # ------------------------------------------------------------------ per-user cap
    async def slot_acquire(self, key: str, stream: Stream, cap: int) -> bool:
        """Take one of ``cap`` open-stream slots of ``key`` (a user or an address).

        With Redis the count is shared by every web process (a sorted set of
        stream ids scored by their last heartbeat; slots older than
        :data:`SLOT_TTL_S` are dropped); otherwise it is this process's.  The
        check and the add are one Lua script (:data:`_SLOT_ACQUIRE`), so they are
        atomic across processes.  Raises :class:`LiveUnavailable` when Redis fails.
        """
        if not self.url:
            slots = self._local_slots.setdefault(key, set())
            if len(slots) >= cap:
                return False
            slots.add(stream.id)
            return True
        await self._ensure_redis()
        try:
            taken = await self._redis.eval(
                _SLOT_ACQUIRE,
                1,
                slot_set_key(key),
                self._slot_member(stream),
                repr(time.time()),
                SLOT_TTL_S,
                cap,
            )
        except Exception as exc:
            log.warning("live events: open-stream slot not taken (%r)", exc)
            raise LiveUnavailable(f"Redis unavailable: {exc}") from None
        return bool(int(taken))

    def _slot_member(self, stream: Stream) -> str:
        """A stream's member in the slot set: unique across the hubs sharing Redis."""
        return f"{id(self)}:{stream.id}"

    async def slot_refresh(self, key: str, stream: Stream) -> None:
        """Keep the slot alive (called with each heartbeat)."""
        if self.url and self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.zadd(
                    slot_set_key(key),
                    {self._slot_member(stream): time.time()},
                    xx=True,  # only a slot still held: never bring a released one back
                )

    async def slot_release(self, key: str, stream: Stream) -> None:
        """Give the slot back (the stream ended)."""
        if not self.url:
            self._local_slots.get(key, set()).discard(stream.id)
            return
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.zrem(slot_set_key(key), self._slot_member(stream))

    def open_streams(self) -> int:
        """How many streams this process serves now."""
        return sum(len(t.streams) for t in self.topics.values())


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    """The hub of the running event loop (created on first use)."""
    loop = asyncio.get_running_loop()
    h = _hubs.get(loop)
    if h is None:
        for old in [lp for lp in _hubs if lp.is_closed()]:
            del _hubs[old]
        h = _hubs[loop] = Hub()
    return h


def heartbeat_seconds() -> float:
    """Seconds between heartbeat comments (``LIVE_HEARTBEAT_SECONDS``)."""
    return float(settings.LIVE_HEARTBEAT_SECONDS)
