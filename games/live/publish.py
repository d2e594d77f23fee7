"""The publishing side of live events: one message per topic, after the transaction commits.

A message is a notification of what changed (``kind`` plus ids and counts),
never a card or a seed: the stream endpoints read the current state through
the selectors for each viewer.  Each topic has a sequence number (Redis
``INCR`` on ``<prefix>:seq:<topic>``, or a counter in the process on the
embedded default); it becomes the SSE event id.

A Redis outage never fails the caller: the publish is dropped with a warning
(streams end and say so; clients poll), and after a failure publishing is
skipped for :data:`RETRY_AFTER_S` seconds so moves do not wait on a dead
server.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

#: Seconds to skip publishing after Redis failed (moves never wait on a dead server).
RETRY_AFTER_S = 1.0

#: One notification: (topic, kind, data).
Notification = tuple[str, str, dict[str, Any]]

# Publishes every notification of a batch under its topic's next sequence number.
# KEYS: the sequence keys; ARGV: the channel names then the JSON bodies (as many).
_LUA_PUBLISH = """
local n = #KEYS
for i = 1, n do
  local seq = redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], 86400)
  redis.call('PUBLISH', ARGV[i], seq .. ' ' .. ARGV[n + i])
end
return n
"""


def channel_prefix() -> str:
    """The prefix of every channel and key (``LIVE_CHANNEL_PREFIX``)."""
    return str(settings.LIVE_CHANNEL_PREFIX)


def channel_name(topic: str) -> str:
    """The Redis pub/sub channel of ``topic``."""
    return f"{channel_prefix()}:ch:{topic}"


def seq_key(topic: str) -> str:
    """The Redis key holding the last sequence number of ``topic``."""
    return f"{channel_prefix()}:seq:{topic}"


def redis_url() -> str:
    """The Redis of live events (``REDIS_URL``); empty on the embedded default."""
    return str(getattr(settings, "LIVE_REDIS_URL", "") or "")


class _LocalBroker:
    """The in-process broker of the embedded default: counters and subscribers in memory.

    Subscribers are callables ``(topic, seq, body)``; the hub registers one and
    moves each call onto its event loop (publishers run in worker threads).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seq: dict[str, int] = {}
        self._listeners: list[Callable[[str, int, str], None]] = []

    def publish(self, batch: Iterable[Notification]) -> None:
        for topic, kind, data in batch:
            body = json.dumps({"kind": kind, "at_ms": int(time.time() * 1000), **data})
            with self._lock:
                seq = self._seq[topic] = self._seq.get(topic, 0) + 1
                listeners = list(self._listeners)
            for listener in listeners:
                listener(topic, seq, body)

    def last_seq(self, topic: str) -> int:
        with self._lock:
            return self._seq.get(topic, 0)

    def listen(self, listener: Callable[[str, int, str], None]) -> None:
        with self._lock:
            self._listeners.append(listener)

    def unlisten(self, listener: Callable[[str, int, str], None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)


local_broker = _LocalBroker()


class _RedisPublisher:
    """Publishes batches with one script call; remembers a failure for a second."""

    def __init__(self) -> None:
        self._down_until = 0.0
        self._client: Any = None
        self._script: Any = None
        self._url = ""

    def _connect(self, url: str) -> Any:
        if self._client is None or self._url != url:
            import redis

            self._client = redis.Redis.from_url(
                url, socket_connect_timeout=0.5, socket_timeout=0.5, health_check_interval=0
            )
            self._script = self._client.register_script(_LUA_PUBLISH)
            self._url = url
        return self._script

    def publish(self, url: str, batch: list[Notification]) -> bool:
        if time.monotonic() < self._down_until:
            return False
        at_ms = int(time.time() * 1000)
        keys = [seq_key(t) for t, _, _ in batch]
        args = [channel_name(t) for t, _, _ in batch] + [
            json.dumps({"kind": k, "at_ms": at_ms, **d}) for _, k, d in batch
        ]
        try:
            self._connect(url)(keys=keys, args=args)
        except Exception as exc:
            self._down_until = time.monotonic() + RETRY_AFTER_S
            log.warning("live events not published (Redis unavailable): %s", exc)
            return False
        return True


_redis_publisher = _RedisPublisher()


def publish_now(batch: list[Notification]) -> None:
    """Publish ``batch`` at once (use :func:`publish_on_commit` from services); never raises."""
    if not batch:
        return
    url = redis_url()
    try:
        if url:
            _redis_publisher.publish(url, batch)
        else:
            local_broker.publish(batch)
    except Exception:  # a live event is a hint: never fail the caller
        log.exception("live events not published")


def publish_on_commit(*notifications: Notification) -> None:
    """Publish ``notifications`` once the current transaction commits (at once outside one).

    Each is ``(topic, kind, data)``; ``data`` holds ids and counts only (RULES.md 7).
    A rolled-back transaction publishes nothing.
    """
    batch = list(notifications)
    transaction.on_commit(lambda: publish_now(batch))


def game_topic(game_id: Any) -> str:
    """The topic of one game (its owner's stream)."""
    return f"game:{game_id}"


def race_topic(race_id: Any) -> str:
    """The topic of one race."""
    return f"race:{race_id}"


def tournament_topic(tournament_id: Any) -> str:
    """The topic of one tournament."""
    return f"tournament:{tournament_id}"


_RACE_OF_GAME: dict[str, str] = {}
_RACE_OF_GAME_MAX = 65536


def _race_of_game(game_id: Any) -> str | None:
    """The race of a race game (cached once known: the link never changes)."""
    key = str(game_id)
    hit = _RACE_OF_GAME.get(key)
    if hit is not None:
        return hit
    from games.models import RaceEntry

    race_id = RaceEntry.objects.filter(game_id=game_id).values_list("race_id", flat=True).first()
    if race_id is None:
        return None
    if len(_RACE_OF_GAME) >= _RACE_OF_GAME_MAX:
        _RACE_OF_GAME.clear()
    _RACE_OF_GAME[key] = str(race_id)
    return str(race_id)


def game_changed_on_commit(*, game_id: Any, kind: str, move_number: int, race_game: bool) -> None:
    """After commit: ``game`` on the game's topic and, for a race game, ``standings`` on the race's.

    The game-to-race link never changes once made, so it is cached per process
    (no query on the move path after a game's first move).
    """

    def send() -> None:
        batch: list[Notification] = [
            (game_topic(game_id), "game", {"change": kind, "move_number": move_number})
        ]
        if race_game:
            try:
                race_id = _race_of_game(game_id)
            except Exception:
                log.exception("live events: race of game %s not found", game_id)
                race_id = None
            if race_id is not None:
                batch.append((race_topic(race_id), "standings", {}))
        publish_now(batch)

    transaction.on_commit(send)
