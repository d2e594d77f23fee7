"""Server-Sent Event streams: ``GET /api/v1/races|tournaments|games/{id}/events``.

Served by the ASGI application only (``canfield_site.asgi``); under the WSGI
entry point they answer ``503 live_unavailable`` and clients poll the REST
endpoints instead.  Each stream:

- checks authentication (session cookie or ``Authorization: Token <key>``),
  the query (``last_event_id`` only, once: ``api.query``), the same permissions as
  the REST view, and the per-user cap on open streams (``LIVE_STREAMS_PER_USER``)
  *before* it starts, answering problem+json 400, 401, 404, 409, 429 or 503;
- sends a ``snapshot`` event with the current state first (on every connect
  and reconnect, so nothing is missed whatever was dropped);
- then one event per change, each with an ``id`` (the topic's sequence
  number), and a ``: heartbeat`` comment every ``LIVE_HEARTBEAT_SECONDS``;
- ends with an ``unavailable`` event when Redis goes away (clients poll, and
  reconnect later), or after the last event of a finished race, game or
  tournament;
- ends, with no event, once the token or session it was opened with is
  revoked (logout, logout-all, a password change): checked before every
  event of a game stream and at every heartbeat of any stream, so a
  private event never follows a revocation; the reconnect answers 401;
- (race and tournament streams) ends with a ``gone`` event once its viewer may no
  longer see the race or tournament: a race moved into a draft tournament
  (``race_move``: organisers' streams go on), something deleted, an organiser's
  permission withdrawn.  The topic's handler reads the visibility again with each
  event's payload (:class:`_ScopedHandler`) and every stream at every heartbeat,
  so an event read after the change never reaches a stream that may not see it;
  the reconnect answers 404, as the REST view.

A stream's last event (the race's ``phase`` that ends it and its final ``standings``, the
tournament's ``status`` that ends it and its final ``standings``, the game event that ends
a game, a snapshot of something already over, ``gone``) has an id ending in ``.end``
(``82.end``).
A reconnect (``Last-Event-ID``) that sends such an id answers ``204`` (an ``EventSource``
then stops retrying); any other id, even one as high as the topic's, gets a snapshot: two
events can share a sequence number (a phase the clock saw carries the last message's), so
a number alone cannot tell that the client saw the end.

Payloads come from the selectors only (RULES.md 7): race and tournament
events carry what the public REST views show (counts, never a card or a
running race's seed); the game stream is :func:`games.selectors.games.game_view`
for the game's owner.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from importlib import import_module
from types import SimpleNamespace
from typing import Any
from uuid import UUID

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user, get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.utils.encoders import JSONEncoder

from api.authentication import (
    SessionAuthentication,
    TokenAuthentication,
    unaccepted_scheme_hint,
)
from api.errors import (
    SERVICE_ERROR_STATUS,
    ProblemError,
    ProblemJsonResponse,
    method_not_allowed,
    problem_body,
    service_error_headers,
)
from api.query import check_query
from api.refusals import problem_json
from canfield_site.security import lockout_address
from games.live.hub import (
    FINISHED,
    GONE,
    LAGGING,
    UNAVAILABLE,
    LiveUnavailable,
    Stream,
    Topic,
    TopicHandler,
    Update,
    heartbeat_seconds,
    hub,
)
from games.live.publish import game_topic, race_topic, redis_url, tournament_topic
from games.permissions import may_see_drafts
from games.selectors.games import game_get, game_view
from games.selectors.races import (
    next_game_deadline,
    race_get,
    race_is_window,
    race_public,
    race_standings_view,
    race_visible,
)
from games.selectors.tournaments import (
    race_summary,
    standing_row,
    tournament_get,
    tournament_public,
    tournament_race_summaries,
    tournament_standings,
    tournament_visible,
)
from games.services.errors import NotFound, ServiceError

log = logging.getLogger(__name__)

#: Standings snapshots of one race: at most one per this many seconds (per process).
STANDINGS_INTERVAL_S = 1.0
#: Seconds between ``countdown`` events before a race starts.
COUNTDOWN_EVERY_S = 5.0
#: Seconds between checks of a race that is closing (until it is finished).
CLOSING_POLL_S = 2.0
#: Seconds between checks of a running race on the embedded default: its in-process
#: broker does not carry the worker's messages (the sweeper's early close of a race over
#: for everyone reached a race page only at its 15 s safety poll); with Redis they come.
LOCAL_RUNNING_POLL_S = 1.0
#: Race standings rows sent in an event (``snapshot``, ``standings``): the first ones, as
#: the race page shows; the REST standings (``url``) have every row and the reader's own.
RACE_TOP = 100
#: Tournament standings rows sent in an event (the REST list pages the rest).
TOURNAMENT_TOP = 100
#: Reconnection delay suggested to clients (the SSE ``retry`` field), in ms.
RETRY_MS = 3000
#: Seconds a stream refused for a broker outage (``503 live_unavailable``) is told to
#: wait: its ``Retry-After`` header and ``retry_after`` member.
LIVE_RETRY_AFTER_SECONDS = 5

_OVER_RACE = ("finished", "cancelled")
_OVER_TOURNAMENT = ("finished", "cancelled")


# ------------------------------------------------------------------ wire format
#: Suffix of the id of a stream's last event (module doc).
END_MARK = ".end"


def final_id(seq: int) -> str:
    """The id of a stream's last event: its sequence number and :data:`END_MARK`."""
    return f"{seq}{END_MARK}"


def sse_frame(event: str, event_id: str | int, data: dict[str, Any]) -> bytes:
    """One SSE event: ``id``, ``event`` and one line of JSON ``data``."""
    body = json.dumps(data, cls=JSONEncoder, separators=(",", ":"))
    return f"id: {event_id}\nevent: {event}\ndata: {body}\n\n".encode()


def _server_time() -> str:
    return timezone.now().isoformat().replace("+00:00", "Z")


async def _db(fn: Callable[[], Any]) -> Any:
    """Run a selector in a worker thread (its own DB connection, closed when stale)."""

    def call() -> Any:
        try:
            return fn()
        finally:
            close_old_connections()

    return await sync_to_async(call, thread_sensitive=False)()


def _release_connections() -> None:
    """Give back this thread's database connections (to the pool, or closed).

    Run in the request's own thread just before a stream starts: Django returns that
    thread's connection only when the request ends, which for a stream is when it
    closes, so without this every open stream would hold a connection (a pool of
    ``DATABASE_POOL_MAX_SIZE`` would run dry at that many streams).
    """
    connections.close_all()


# ------------------------------------------------------------------ race topic
def race_phase_payload(race_id: str) -> dict[str, Any]:
    """The ``phase`` event: phase and status by the server clock, times, results URL once over.

    Reads only: an overdue race is ``closing`` until the sweeper closes it.
    """
    race = race_get(race_id=race_id, include_drafts=True)
    phase = race.phase()
    out: dict[str, Any] = {
        "race": str(race.id),
        "phase": phase,
        "status": race.status,
        "server_time": _server_time(),
        "opens_at": race.opens_at,
        "starts_at": race.starts_at,
        "ends_at": race.ends_at,
        "results_url": None,
    }
    if phase == "finished":
        out["results_url"] = f"/api/v1/races/{race.id}/results"
    return out


def race_standings_url(race_id: Any) -> str:
    """The path of a race's standings endpoint, where a stream's reader finds every row
    (and, signed in, its own: ``?limit=0``)."""
    return f"/api/v1/races/{race_id}/standings"


def race_standings_payload(race_id: str) -> dict[str, Any]:
    """The ``standings`` event: the standings endpoint's body for ``?limit=RACE_TOP``,
    read as nobody in particular, plus ``url`` and ``server_time``.

    Shape: ``{"race", "phase", "ranking_rule", "count": int (rows of the whole
    standings), "standings": [StandingRow, ...] (the first :data:`RACE_TOP`), "url": str
    (:func:`race_standings_url`), "server_time": str}``.  One payload for every stream of
    the race (it is read once per event), so it holds no viewer's own row: a 10,000-entrant
    race's whole standings were 1.2 MB per event per subscriber."""
    race = race_get(race_id=race_id, include_drafts=True)
    body = race_standings_view(race=race, limit=RACE_TOP)  # one instant for phase and rows
    return {**body, "url": race_standings_url(race.id), "server_time": _server_time()}


def _to_public(stream: Stream) -> bool:
    """The streams of viewers who may not see drafts (``Stream.sees_drafts`` false)."""
    return not stream.sees_drafts


def _to_organisers(stream: Stream) -> bool:
    """The streams of viewers who may see drafts (organisers)."""
    return stream.sees_drafts


def gone_frame(event_id: str, subject: str) -> bytes:
    """The ``gone`` event that ends a stream whose viewer may no longer see its
    ``subject`` (``race`` or ``tournament``): moved into a draft tournament, or deleted.
    Its id carries :data:`END_MARK`; a reconnect answers 404, as the REST view does."""
    return sse_frame(
        "gone",
        event_id,
        {
            "reason": "not_found",
            "detail": f"no such {subject} (any more): a reconnect answers 404",
            "server_time": _server_time(),
        },
    )


class _ScopedHandler(TopicHandler):
    """A topic whose subject (a race, a tournament) can stop being public while streams
    follow it: a race moved into a draft tournament (``race_move``), a deleted one.

    Each event is read together with :meth:`_public_now`, *after* its payload (so a payload
    read while the subject was public is the only kind a public stream gets).  While the
    subject is not public, events go to the organisers' streams only
    (``Stream.sees_drafts``), and every other stream gets ``gone`` and ends
    (:data:`GONE`).  Subject deleted: every stream gets ``gone``.
    """

    subject = ""

    def _public_now(self) -> bool:
        """Whether anyone may see the subject now (runs in a worker thread)."""
        raise NotImplementedError

    async def _read(self, fn: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bool] | None:
        """``(fn(), public)`` read in a worker thread; ``None`` once the subject is deleted
        (every stream has then been sent ``gone``)."""

        def both() -> tuple[dict[str, Any], bool]:
            payload = fn()
            return payload, self._public_now()

        try:
            got: tuple[dict[str, Any], bool] = await _db(both)
        except NotFound:
            self._gone(self.topic.last_seq)
            return None
        return got

    def _send(self, frame: bytes, *, public: bool, seq: int) -> None:
        """``frame`` to every stream, or (subject not public) to the organisers' only,
        the others getting ``gone``."""
        if public:
            self.topic.broadcast(frame)
            return
        self._gone(seq, to=_to_public)
        self.topic.broadcast(frame, to=_to_organisers)

    def _gone(self, seq: int, to: Callable[[Stream], bool] | None = None) -> None:
        """End the streams ``to`` accepts (default: all) with ``gone`` (id ``<seq>.end``)."""
        self.topic.broadcast(gone_frame(final_id(seq), self.subject), to=to)
        self.topic.broadcast(GONE, to=to)


class RaceHandler(_ScopedHandler):
    """A race topic: phase changes (messages and the clock), coalesced standings, countdown.

    A race moved into a draft tournament (message ``moved``, or noticed with the next
    event) ends every stream but the organisers' with ``gone`` (:class:`_ScopedHandler`).
    """

    subject = "race"

    def __init__(self, topic: Topic) -> None:
        super().__init__(topic)
        self.race_id = topic.name.partition(":")[2]
        self.phase: str | None = None
        self.pending_seq = 0
        self.sent_seq = 0
        self.oldest_ms: int | None = None
        self.latest_ms: int | None = None
        self.last_sent = -STANDINGS_INTERVAL_S
        self._coalescer: asyncio.Task[None] | None = None
        self._clock: asyncio.Task[None] | None = None
        self._phase_lock = asyncio.Lock()
        #: The entrant's deadline the clock sleeps until (:meth:`_deadline_standings`).
        self._deadline_due: datetime | None = None
        #: Whether the race is a window race (read by :meth:`start`).
        self.window = False

    def _public_now(self) -> bool:
        return race_visible(race_id=self.race_id)

    async def start(self) -> None:
        first = await _db(lambda: race_phase_payload(self.race_id))
        self.phase = first["phase"]
        # Only a window race's entrants have deadlines of their own (a race's mode is
        # fixed once it is created): the clock looks for them there alone.
        self.window = await _db(lambda: race_is_window(race_id=self.race_id))
        self._clock = asyncio.get_running_loop().create_task(self._run_clock())

    def stop(self) -> None:
        for task in (self._clock, self._coalescer):
            if task is not None:
                task.cancel()

    async def on_message(self, seq: int, message: dict[str, Any]) -> None:
        """Turn one published race message into SSE events (``games.live.publish``).

        ``seq`` is the topic's sequence number (the events' ``id``); ``message`` is the
        published JSON object ``{"kind": str, "at_ms": int (ms since the epoch, when
        published), ...}``, a notification that carries no card or seed (RULES.md 7).
        By ``kind``:

        - ``standings`` (a race game changed, an entrant joined or started, an entry was
          removed): schedules one
          ``standings`` event (:func:`race_standings_payload` plus ``oldest_change_ms``
          and ``latest_change_ms``, the ``at_ms`` of the changes it covers) at most once
          per :data:`STANDINGS_INTERVAL_S` seconds; none once the race is closing or
          over (the ``phase`` events carry the final standings);
        - ``phase`` (``{"status": "closing" | "finished" | "cancelled"}``): re-reads
          the phase and, if it changed, sends ``phase`` (:func:`race_phase_payload`);
          a phase that ends the race (finished, cancelled) is followed by the final
          ``standings``, both with ids ending in :data:`END_MARK`, and the streams end;
        - ``moved`` (``race_move``, to another tournament): if the race is no longer
          public (moved into a draft), every stream but the organisers' gets ``gone``
          and ends;
        - any other kind is ignored.

        Payloads are read with the race's visibility (:meth:`_ScopedHandler._read`): a
        deleted race sends ``gone`` to every stream.  Raises nothing of its own; a
        database error propagates to the topic's task, which logs it and goes on with
        the next message (``games.live.hub.Topic``).
        """
        kind = message.get("kind")
        if kind == "standings":
            self.pending_seq = seq
            at = int(message.get("at_ms") or 0)
            self.oldest_ms = at if self.oldest_ms is None else self.oldest_ms
            self.latest_ms = at
            if self._coalescer is None or self._coalescer.done():
                self._coalescer = asyncio.get_running_loop().create_task(self._standings())
        elif kind == "phase":
            await self._phase_check(seq)
        elif kind == "moved":  # to another tournament (race_move): a draft's is not public
            if not await _db(self._public_now):
                self._gone(seq, to=_to_public)

    async def _standings(self) -> None:
        """Send standings at most once per :data:`STANDINGS_INTERVAL_S` while changes come."""
        while self.pending_seq > self.sent_seq:
            wait = self.last_sent + STANDINGS_INTERVAL_S - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            seq, oldest, latest = self.pending_seq, self.oldest_ms, self.latest_ms
            self.oldest_ms = None
            got = await self._read(lambda: race_standings_payload(self.race_id))
            if got is None:
                return
            payload, public = got
            if self.phase in ("closing", *_OVER_RACE):
                return  # the phase events carry the final standings
            payload["oldest_change_ms"] = oldest
            payload["latest_change_ms"] = latest
            self._send(sse_frame("standings", seq, payload), public=public, seq=seq)
            self.sent_seq = seq
            self.last_sent = time.monotonic()

    async def _phase_check(self, seq: int) -> tuple[dict[str, Any], bool] | None:
        """Read the phase; on a change send ``phase`` (and the final standings once over).

        Returns ``(payload, public)`` (:meth:`_ScopedHandler._read`), ``None`` once the
        race is deleted."""
        async with self._phase_lock:
            return await self._phase_check_locked(seq)

    async def _phase_check_locked(self, seq: int) -> tuple[dict[str, Any], bool] | None:
        got = await self._read(lambda: race_phase_payload(self.race_id))
        if got is None:
            return None
        payload, public = got
        phase = payload["phase"]
        seq = max(seq, self.topic.last_seq)  # a message that arrived while reading
        if phase != self.phase:
            self.phase = phase
            over = phase in _OVER_RACE
            frame = sse_frame("phase", final_id(seq) if over else seq, payload)
            self._send(frame, public=public, seq=seq)
            if over:
                if self._coalescer is not None:
                    self._coalescer.cancel()
                final = await self._read(lambda: race_standings_payload(self.race_id))
                if final is not None:
                    frame = sse_frame("standings", final_id(seq), final[0])
                    self._send(frame, public=final[1], seq=seq)
                self.topic.broadcast(FINISHED)
        return got

    async def _deadline_standings(self, due: datetime) -> None:
        """Send the standings once an entrant's own deadline ``due`` has passed: the
        ``standings`` event with both change times at ``due`` (ms since the epoch), its id
        the topic's last sequence number (as a countdown's).  Window entrants' lines read
        timed out from their deadline on, and no message says so: the stream's watchers
        saw "playing" until the next move of anyone, or the race's end."""
        got = await self._read(lambda: race_standings_payload(self.race_id))
        if got is None or self.phase != "running":
            return
        payload, public = got
        at_ms = int(due.timestamp() * 1000)
        payload["oldest_change_ms"] = payload["latest_change_ms"] = at_ms
        seq = self.topic.last_seq
        self._send(sse_frame("standings", seq, payload), public=public, seq=seq)

    async def _run_clock(self) -> None:
        """Phase changes that no write causes (open, running, closing by the clock), entrants'
        own deadlines (:meth:`_deadline_standings`), countdown."""
        while self.phase not in _OVER_RACE:
            got = await self._phase_check(self.topic.last_seq)
            if got is None:
                return  # deleted: every stream got ``gone``
            payload, public = got
            phase = payload["phase"]
            now = timezone.now()
            if phase in ("upcoming", "open"):
                until = (payload["starts_at"] - now).total_seconds()
                if phase == "upcoming":
                    until = (payload["opens_at"] - now).total_seconds()
                self._send(
                    sse_frame(
                        "countdown",
                        self.topic.last_seq,
                        {
                            "race": self.race_id,
                            "phase": phase,
                            "server_time": _server_time(),
                            "starts_at": payload["starts_at"],
                            "ms_to_start": max(
                                0, int((payload["starts_at"] - now).total_seconds() * 1000)
                            ),
                        },
                    ),
                    public=public,
                    seq=self.topic.last_seq,
                )
                await asyncio.sleep(max(0.0, min(COUNTDOWN_EVERY_S, until)) + 0.001)
            elif phase == "running":
                until = (payload["ends_at"] - now).total_seconds()
                due = self._deadline_due
                if due is not None and due <= now:
                    # An entrant's own deadline passed (a window race): no write marks
                    # it, so no message came; their line now reads timed out.
                    self._deadline_due = None
                    await self._deadline_standings(due)
                following = (
                    await _db(lambda: next_game_deadline(race_id=self.race_id, now=timezone.now()))
                    if self.window
                    else None  # a scheduled race's games all end at its ends_at
                )
                if following is not None and following < payload["ends_at"]:
                    self._deadline_due = following
                    until = min(until, (following - now).total_seconds())
                if not redis_url():
                    until = min(until, LOCAL_RUNNING_POLL_S)
                await asyncio.sleep(max(0.0, until) + 0.001)
            else:  # closing: the sweeper closes it (a read never does)
                if await self._phase_check(self.topic.last_seq) is None:
                    return
                await asyncio.sleep(CLOSING_POLL_S)


def race_snapshot(race_id: str, viewer: Any) -> dict[str, Any]:
    """The ``snapshot`` event of a race stream: the race as the viewer sees it and the
    standings' first :data:`RACE_TOP` rows (as the ``standings`` event: the same rows for
    every viewer), both read at one instant (a snapshot straddling the start said ``open``
    over rows already ``playing``), with the ranking rule they are ordered by.

    Shape: ``{"race": RaceView, "standings": [StandingRow, ...], "count": int (rows of the
    whole standings), "url": str (:func:`race_standings_url`), "ranking_rule": str,
    "server_time": str}`` (the stream adds ``last_event_id``).
    """
    race = race_get(race_id=race_id, include_drafts=may_see_drafts(viewer))
    now = timezone.now()  # one instant for the race's phase and the rows (as standings)
    table = race_standings_view(race=race, now=now, limit=RACE_TOP)
    return {
        "race": race_public(race, viewer=viewer, now=now),
        "standings": table["standings"],
        "count": table["count"],
        "url": race_standings_url(race.id),
        "ranking_rule": table["ranking_rule"],
        "server_time": _server_time(),
    }


# ------------------------------------------------------------------ tournament topic
def tournament_standings_payload(tournament_id: str) -> dict[str, Any]:
    """The ``standings`` event: the first :data:`TOURNAMENT_TOP` rows and the row count."""
    t = tournament_get(tournament_id=tournament_id, viewer=_Staff)
    qs = tournament_standings(tournament=t)
    return {
        "tournament": str(t.id),
        "scored_at": t.scored_at,
        "count": qs.count(),
        "standings": [standing_row(s) for s in qs[:TOURNAMENT_TOP]],
        "url": f"/api/v1/tournaments/{t.id}/standings",
        "server_time": _server_time(),
    }


class _StaffViewer:
    """The shared handler reads as an organiser: the stream checked the viewer when it opened."""

    is_staff = True
    is_authenticated = True
    is_active = True

    def has_perms(self, perms: Any) -> bool:
        return True


_Staff = _StaffViewer()


def tournament_status_payload(tournament_id: str) -> dict[str, Any]:
    """The ``status`` event: the tournament's status now (``open``, ``finished``,
    ``cancelled``; ``draft`` on an organiser's stream) and ``server_time``."""
    t = tournament_get(tournament_id=tournament_id, viewer=_Staff)
    return {"tournament": str(t.id), "status": t.status, "server_time": _server_time()}


class TournamentHandler(_ScopedHandler):
    """A tournament topic: ``race_added``, ``race_removed`` (moved to another tournament),
    ``race_finished``, ``standings`` (re-scored), ``status`` (published, finished,
    cancelled).

    A ``status`` that ends the tournament (``finished``, ``cancelled``) is followed by the
    final standings, both with the end mark (:data:`END_MARK`), and the stream ends, as a
    race's ending ``phase`` is (:class:`RaceHandler`).  A tournament that is no longer
    public (deleted; a published one never becomes a draft again) ends the streams that
    may not see it with ``gone`` (:class:`_ScopedHandler`).
    """

    subject = "tournament"

    def _public_now(self) -> bool:
        return tournament_visible(tournament_id=self.topic.name.partition(":")[2])

    async def on_message(self, seq: int, message: dict[str, Any]) -> None:
        """Turn one published tournament message into SSE events (``games.live.publish``).

        ``seq`` is the topic's sequence number (the events' ``id``); ``message`` is the
        published JSON object ``{"kind": str, "at_ms": int (ms since the epoch), ...}``,
        ids and statuses only, never a card or a running race's seed (RULES.md 7).
        Every event's data carries ``tournament`` (its id) and ``server_time`` (ISO 8601,
        UTC).  A race summary is :func:`games.selectors.tournaments.race_summary` (its seed
        only once finished or cancelled).  By ``kind``:

        - ``race_added`` (``{"races": [race id, ...]}``): one ``race_added`` event,
          ``{"races": [race summary, ...]}`` by start time, of those races still in this
          tournament (none left: no event);
        - ``race_removed`` (``{"race": race id}``, moved to another tournament): one
          ``race_removed`` event ``{"race": race id}``;
        - ``race_finished`` (``{"race": race id}``): one ``race_finished`` event,
          ``{"race": race summary, "results_url": "/api/v1/races/{id}/results"}``;
        - ``standings`` (re-scored): one ``standings`` event,
          :func:`tournament_standings_payload` (the first :data:`TOURNAMENT_TOP` rows and
          the row count);
        - ``status`` (published, finished, cancelled): one ``status`` event
          (:func:`tournament_status_payload`: ``{"status": ...}``); a status that ends
          the tournament (finished, cancelled) is followed by the final ``standings``,
          both with ids ending in :data:`END_MARK`, and the streams end;
        - any other kind is ignored.

        Payloads are read with the tournament's visibility
        (:meth:`_ScopedHandler._read`): streams that may no longer see it get ``gone``
        (a deleted tournament: every stream).  Raises nothing of its own; a database
        error propagates to the topic's task, which logs it and goes on with the next
        message (``games.live.hub.Topic``).
        """
        tid = self.topic.name.partition(":")[2]
        kind = message.get("kind")
        if kind == "race_added":
            ids = [str(i) for i in message.get("races", [])]

            def added() -> dict[str, Any]:
                return {
                    "tournament": tid,
                    # Still this tournament's (one moved on since is another's, maybe a
                    # draft's).
                    "races": tournament_race_summaries(tournament_id=tid, race_ids=ids),
                    "server_time": _server_time(),
                }

            got = await self._read(added)
            if got is not None and got[0]["races"]:
                self._send(sse_frame("race_added", seq, got[0]), public=got[1], seq=seq)
        elif kind == "race_removed":
            rid = str(message.get("race"))
            got = await self._read(
                lambda: {"tournament": tid, "race": rid, "server_time": _server_time()}
            )
            if got is not None:
                self._send(sse_frame("race_removed", seq, got[0]), public=got[1], seq=seq)
        elif kind == "race_finished":
            rid = str(message.get("race"))

            def finished() -> dict[str, Any]:
                race = race_get(race_id=rid, include_drafts=True)
                return {
                    "tournament": tid,
                    "race": race_summary(race),
                    "results_url": f"/api/v1/races/{race.id}/results",
                    "server_time": _server_time(),
                }

            got = await self._read(finished)
            if got is not None:
                self._send(sse_frame("race_finished", seq, got[0]), public=got[1], seq=seq)
        elif kind == "standings":
            got = await self._read(lambda: tournament_standings_payload(tid))
            if got is not None:
                self._send(sse_frame("standings", seq, got[0]), public=got[1], seq=seq)
        elif kind == "status":
            got = await self._read(lambda: tournament_status_payload(tid))
            if got is None:
                return
            status, public = got
            over = status["status"] in _OVER_TOURNAMENT
            frame = sse_frame("status", final_id(seq) if over else seq, status)
            self._send(frame, public=public, seq=seq)
            if over:
                final = await self._read(lambda: tournament_standings_payload(tid))
                if final is not None:
                    frame = sse_frame("standings", final_id(seq), final[0])
                    self._send(frame, public=final[1], seq=seq)
                self.topic.broadcast(FINISHED)


def tournament_snapshot(tournament_id: str, viewer: Any) -> dict[str, Any]:
    """The ``snapshot`` event of a tournament stream: the tournament with its races, standings."""
    t = tournament_get(tournament_id=tournament_id, viewer=viewer)
    return {
        "tournament": tournament_public(t, viewer=viewer, with_races=True),
        "standings": tournament_standings_payload(str(t.id)),
        "server_time": _server_time(),
    }


# ------------------------------------------------------------------ game topic
def game_payload(game_id: str, viewer: Any) -> dict[str, Any]:
    """The ``game`` event: :func:`game_view` for the owner (the one place deciding what shows)."""
    return game_view(game_get(game_id=game_id, player=viewer))


# ------------------------------------------------------------------ the endpoints
def _authenticate(request: HttpRequest) -> tuple[Any, str]:
    """The user of a token header or a session cookie (DRF's authenticators), or anonymous.

    Returns ``(user, how)``: ``how`` is ``"token"``, ``"session"`` or ``""``
    (anonymous).  Raises DRF's ``AuthenticationFailed`` for a bad token.
    """
    drf = Request(request, authenticators=[TokenAuthentication(), SessionAuthentication()])
    user = drf.user
    used = drf.successful_authenticator
    how = "token" if isinstance(used, TokenAuthentication) else "session" if used else ""
    return user, how


def _still_signed_in(request: HttpRequest, user: Any, how: str) -> bool:
    """Whether the credentials a stream was opened with still give ``user`` (one query).

    A token must still exist and be valid (logout, logout-all and a password
    change delete tokens); a session must still be stored and still match the
    user's password (Django's session hash check, as on the next request).
    Anonymous streams (``how`` ``""``) have nothing to lose.
    """
    if how == "token":
        try:
            again = TokenAuthentication().authenticate(Request(request))
        except exceptions.APIException:
            return False
        return again is not None and again[0].pk == user.pk
    if how == "session":
        key = request.session.session_key
        store = import_module(settings.SESSION_ENGINE).SessionStore(key)
        now_user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
        return bool(now_user.is_authenticated and now_user.pk == user.pk)
    return True


def _still_visible(visible: Callable[[Any], bool], user: Any) -> bool:
    """``visible`` for ``user`` as the database has them now: an account read afresh
    (permissions are cached on the object the stream opened with), anonymous once
    deleted."""
    if user.is_authenticated:
        user = get_user_model().objects.filter(pk=user.pk).first() or AnonymousUser()
    return bool(visible(user))


def slot_key(request: HttpRequest, user: Any) -> str:
    """Whose open-stream slots a request takes (``LIVE_STREAMS_PER_USER``).

    ``"user:<pk>"`` when authenticated, else ``"addr:<client address>"`` as the
    throttles see it (``canfield_site.security.lockout_address``: behind the proxies
    that ``TRUSTED_PROXY_COUNT`` declares, the forwarded address, not the proxy's,
    which every anonymous spectator would otherwise share; an IPv6
    client by its /64).
    """
    if user.is_authenticated:
        return f"user:{user.pk}"
    return f"addr:{lockout_address(request)}"


#: The query parameters of every stream (``api.query``): any other, or this one twice, is
#: ``400 unknown_query_parameter`` / ``repeated_query_parameter``.
STREAM_QUERY_PARAMETERS = ("last_event_id",)


def _last_event_raw(request: HttpRequest) -> str:
    """The client's ``Last-Event-ID`` (or ``?last_event_id=``) as sent, ``""`` without."""
    return str(request.headers.get("Last-Event-ID") or request.GET.get("last_event_id") or "")


def _last_event_id(request: HttpRequest) -> int | None:
    raw = _last_event_raw(request) or None
    if raw is None:
        return None
    try:
        return int(str(raw).split(".")[0])
    except ValueError:
        return None


async def _open(
    request: HttpRequest,
    *,
    topic: str,
    needs_login: bool,
    snapshot: Callable[[Any], dict[str, Any]],
    is_over: Callable[[dict[str, Any]], bool],
    make_handler: Callable[[Topic], TopicHandler],
    render: Callable[[Any, Update], dict[str, Any]] | None = None,
    render_event: str = "",
    recheck: Callable[[Any], dict[str, Any]] | None = None,
    visible: Callable[[Any], bool] | None = None,
    subject: str = "",
) -> Any:
    """Checks, then the stream: the shared body of the three endpoints.

    ``recheck`` (the game stream): read again at every heartbeat; once ``is_over`` says
    so, the stream ends and frees its slot, even when no event told it (a cancelled
    race, a window deadline passing, a close run by another process).

    ``visible`` (the race and tournament streams): whether a viewer (the user read
    afresh, so a lost permission counts) may still see the ``subject``; asked at every
    heartbeat, and once it says no the stream sends ``gone`` (:func:`gone_frame`) and
    ends.  Before each event the topic's handler checks the same for every public stream
    at once (:class:`_ScopedHandler`), so the heartbeat covers a change no message told
    of (a move whose message was lost, a deletion, an organiser's lost permission)."""
    if not isinstance(request, ASGIRequest):
        return problem_json(
            request,
            status=503,
            code="live_unavailable",
            detail="Event streams are served by the ASGI server only; poll the REST endpoints.",
        )
    try:
        user, how = await _db(functools.partial(_authenticate, request))
    except exceptions.APIException as exc:
        return problem_json(
            request, status=401, code="authentication_failed", detail=str(exc.detail)
        )
    if needs_login and not user.is_authenticated:
        return problem_json(
            request,
            status=401,
            code="not_authenticated",
            detail=unaccepted_scheme_hint(request.META.get("HTTP_AUTHORIZATION", ""))
            or "This stream needs a session or a token (Authorization: Token <key>).",
            WWW_Authenticate="Token",
        )
    try:
        check_query(request.GET, STREAM_QUERY_PARAMETERS)
    except ProblemError as exc:
        refusal = problem_body(
            status=400,
            code=exc.problem_code,
            detail=exc.problem_detail,
            instance=request.get_full_path(),
            extra=exc.extra,
        )
        return ProblemJsonResponse(refusal, status=400)
    try:
        first = await _db(lambda: snapshot(user))
    except ServiceError as exc:
        refused = SERVICE_ERROR_STATUS.get(exc.code, 400)
        problem = problem_body(
            status=refused,
            code=exc.code,
            detail=exc.detail,
            instance=request.get_full_path(),
            extra=exc.extra,
        )
        answer = ProblemJsonResponse(problem, status=refused)
        for name, value in service_error_headers(exc).items():
            answer[name] = value
        return answer
    last_id = _last_event_id(request)
    saw_end = _last_event_raw(request).endswith(END_MARK)
    sees_drafts = bool(await _db(lambda: may_see_drafts(user)))
    h = hub()
    stream = Stream(topic, user, sees_drafts=sees_drafts)
    key = slot_key(request, user)
    cap = int(settings.LIVE_STREAMS_PER_USER)
    try:
        if not await h.slot_acquire(key, stream, cap):
            wait = int(heartbeat_seconds())
            return problem_json(
                request,
                status=429,
                code="too_many_streams",
                detail=f"At most {cap} open event streams per user; close one first.",
                extra={"retry_after": wait},
                Retry_After=str(wait),
            )
        try:
            seq = await h.join(topic, stream, make_handler)
        except BaseException:
            await h.slot_release(key, stream)
            raise
    except LiveUnavailable as exc:
        # The cause (the Redis client's error, naming Redis's host and port) is for the
        # log only: the answer goes to any client, anonymous ones too.
        log.warning("live events: stream %s refused: %s", request.path, exc)
        return problem_json(
            request,
            status=503,
            code="live_unavailable",
            detail="Live events are unavailable; poll the REST endpoints and retry later.",
            extra={"retry_after": LIVE_RETRY_AFTER_SECONDS},
            Retry_After=str(LIVE_RETRY_AFTER_SECONDS),
        )
    # The snapshot is read again after joining: every message up to ``seq`` is in it.
    try:
        first = await _db(lambda: snapshot(user))
    except BaseException:
        await h.leave(stream)
        await h.slot_release(key, stream)
        raise
    over = is_over(first)
    if over and saw_end:
        await h.leave(stream)
        await h.slot_release(key, stream)
        done = HttpResponse(status=204)
        del done["Content-Type"]  # no body, so no type (Django's default said text/html)
        return done

    async def signed_in() -> bool:
        # Revoked credentials end the stream (a reconnect then answers 401): checked
        # before every event of a private stream and at every heartbeat of any.
        if not how:
            return True
        return bool(await _db(functools.partial(_still_signed_in, request, user, how)))

    async def body() -> AsyncIterator[bytes]:
        beat = heartbeat_seconds()
        try:
            # The middleware's connections (sessions, lockouts) go back before the wait.
            await sync_to_async(_release_connections, thread_sensitive=True)()
            snap = dict(first, last_event_id=last_id)
            snap_id = final_id(seq) if over else seq
            yield f"retry: {RETRY_MS}\n".encode() + sse_frame("snapshot", snap_id, snap)
            if over:
                return
            while True:
                try:
                    item = await asyncio.wait_for(stream.queue.get(), beat)
                except TimeoutError:
                    if not await signed_in():
                        return
                    if visible is not None and not await _db(
                        functools.partial(_still_visible, visible, user)
                    ):
                        live = h.topics.get(topic)
                        now_seq = max(seq, live.last_seq if live is not None else 0)
                        yield gone_frame(final_id(now_seq), subject)
                        return
                    if recheck is not None:
                        try:
                            now_data = await _db(functools.partial(recheck, user))
                        except ServiceError:
                            return
                        if is_over({render_event: now_data}):
                            return
                    await h.slot_refresh(key, stream)
                    yield b": heartbeat\n\n"
                    continue
                if needs_login and not await signed_in():
                    return
                if isinstance(item, bytes):
                    yield item
                elif isinstance(item, Update) and render is not None:
                    try:
                        data = await _db(functools.partial(render, user, item))
                    except ServiceError:
                        return
                    ended = is_over({render_event: data})
                    yield sse_frame(render_event, final_id(item.seq) if ended else item.seq, data)
                    if ended:
                        return
                elif item in (FINISHED, GONE):
                    return  # GONE: the handler sent the ``gone`` event just before
                elif item in (UNAVAILABLE, LAGGING):
                    detail = (
                        "live events are unavailable; poll the REST endpoints and reconnect later"
                        if item == UNAVAILABLE
                        else "this stream fell behind; reconnect for a fresh snapshot"
                    )
                    yield sse_frame(
                        item, seq, {"reason": item, "detail": detail, "server_time": _server_time()}
                    )
                    return
        finally:
            await h.leave(stream)
            await h.slot_release(key, stream)

    response = StreamingHttpResponse(body(), content_type="text/event-stream; charset=utf-8")
    # One viewer's connection (a game's stream is its player's view): no shared cache
    # keeps it, and it depends on the credentials, as every API answer (api.query.ApiView).
    response["Cache-Control"] = "private, no-cache, no-transform"
    patch_vary_headers(response, ("Authorization",))
    response["X-Accel-Buffering"] = "no"
    return response


def _get_only(view: Callable[..., Any]) -> Callable[..., Any]:
    """Answer every method but ``GET`` with ``405 method_not_allowed`` (problem+json,
    ``Allow: GET``) before anything else, as the REST views do.

    CSRF-exempt so that the 405 comes first: a stream never changes anything,
    and a ``GET`` is never CSRF-checked anyway.
    """

    @functools.wraps(view)
    async def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.method != "GET":
            detail, extra = method_not_allowed(request, "GET")
            return problem_json(
                request,
                status=405,
                code="method_not_allowed",
                detail=f"{detail} An event stream is only read.",
                extra=extra,
                Allow="GET",
            )
        return await view(request, *args, **kwargs)

    return csrf_exempt(wrapper)


@_get_only
async def race_events(request: HttpRequest, race_id: UUID) -> Any:
    """``GET /api/v1/races/{id}/events``: the race's live events (anyone who may see the race)."""
    rid = str(race_id)
    return await _open(
        request,
        topic=race_topic(rid),
        needs_login=False,
        snapshot=lambda user: race_snapshot(rid, user),
        is_over=lambda s: s["race"]["phase"] in _OVER_RACE,
        make_handler=RaceHandler,
        visible=lambda viewer: race_visible(race_id=rid, include_drafts=may_see_drafts(viewer)),
        subject="race",
    )


@_get_only
async def tournament_events(request: HttpRequest, tournament_id: UUID) -> Any:
    """``GET /api/v1/tournaments/{id}/events``: races added and finished, standings re-scored."""
    tid = str(tournament_id)
    return await _open(
        request,
        topic=tournament_topic(tid),
        needs_login=False,
        snapshot=lambda user: tournament_snapshot(tid, user),
        is_over=lambda s: s["tournament"]["status"] in _OVER_TOURNAMENT,
        make_handler=TournamentHandler,
        visible=lambda viewer: tournament_visible(
            tournament_id=tid, include_drafts=may_see_drafts(viewer)
        ),
        subject="tournament",
    )


@_get_only
async def game_events(request: HttpRequest, game_id: UUID) -> Any:
    """``GET /api/v1/games/{id}/events`` (owner only): the game view after each change."""
    gid = str(game_id)
    return await _open(
        request,
        topic=game_topic(gid),
        needs_login=True,
        snapshot=lambda user: {"game": game_payload(gid, user)},
        # A blocked game whose last move may still be taken back goes on (undo_allowed).
        is_over=lambda s: s["game"]["status"] != "playing" and not s["game"]["undo_allowed"],
        make_handler=TopicHandler,
        render=lambda user, update: game_payload(gid, user),
        render_event="game",
        recheck=lambda user: game_payload(gid, user),
    )
