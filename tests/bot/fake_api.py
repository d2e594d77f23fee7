"""A scripted stand-in for the race API, for the bot client's unit tests (no server).

:class:`FakeApi` is the handler of an ``httpx.MockTransport``: it records every
request and answers from a script (canned responses per route, used in order),
then from route handlers, else ``404 not_found``.  Errors are problem+json bodies
with a ``code``, as the real API sends them (``api/errors.py``).
:class:`FakeRace` installs handlers that play one race the way the server does:
accounts and tokens, join, the race's event stream, start, and one small scripted
game per player (``legal_moves``, ``expected_move_number``, ``replayed``, stale and
illegal moves, the race closing).
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, TypeVar

import httpx

from canfield_bot.client import CanfieldClient

BASE = "http://race.test"
PREFIX = "/api/v1/"

T = TypeVar("T")
Handler = Callable[[httpx.Request], httpx.Response | Awaitable[httpx.Response]]
Reply = httpx.Response | Handler


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine on a fresh event loop (the tests use no async plugin)."""
    return asyncio.run(coro)


def problem(
    status: int, code: str, detail: str = "", *, headers: dict[str, str] | None = None, **extra: Any
) -> httpx.Response:
    """An RFC 9457 problem response with the API's stable ``code``."""
    body = {
        "type": f"{BASE}/problems/{code}",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail or code.replace("_", " "),
        "code": code,
        **extra,
    }
    return httpx.Response(
        status,
        content=json.dumps(body).encode(),
        headers={"Content-Type": "application/problem+json", **(headers or {})},
    )


def ok(body: Any, status: int = 200) -> httpx.Response:
    """A JSON success response."""
    return httpx.Response(status, json=body)


def frame(event: str, event_id: int, data: dict[str, Any]) -> bytes:
    """One SSE event as the server writes it (``api.streams.sse_frame``)."""
    return f"id: {event_id}\nevent: {event}\ndata: {json.dumps(data)}\n\n".encode()


def event_stream(chunks: AsyncIterator[bytes]) -> httpx.Response:
    """A ``200 text/event-stream`` response whose body is read lazily from ``chunks``."""
    return httpx.Response(
        200, headers={"Content-Type": "text/event-stream; charset=utf-8"}, content=chunks
    )


def token_of(username: str) -> str:
    """The fake's API token of ``username``: 64 hex characters, like the server's."""
    return hashlib.sha256(username.encode()).hexdigest()


class FakeApi:
    """Records requests; answers from the script, then the handlers, else 404.

    ``hosts``: the origins it answers for (``BASE``; a test of a split deployment adds
    its stream server's); a request anywhere else fails the test.
    """

    def __init__(self) -> None:
        self.hosts = {BASE}
        self.requests: list[httpx.Request] = []
        self.script: dict[tuple[str, str], list[Reply]] = defaultdict(list)
        self.handlers: dict[tuple[str, str], Handler] = {}

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def client(self, **options: Any) -> CanfieldClient:
        """A client of this fake (it owns its connection pool, on the mock transport)."""
        return CanfieldClient(BASE, transport=self.transport, **options)

    def reply(self, method: str, path: str, *replies: Reply) -> None:
        """Answer the next requests to ``method path`` with ``replies``, in order."""
        self.script[(method, path)].extend(replies)

    def route(self, method: str, path: str, handler: Handler) -> None:
        """Answer every (unscripted) request to ``method path`` with ``handler``."""
        self.handlers[(method, path)] = handler

    @property
    def calls(self) -> list[tuple[str, str, Any]]:
        """``(method, path below /api/v1/, JSON body or None)`` of every request, in order."""
        return [(r.method, _path(r), _body(r)) for r in self.requests]

    def paths(self) -> list[str]:
        """``"METHOD path"`` of every request, in order."""
        return [f"{r.method} {_path(r)}" for r in self.requests]

    async def handle(self, request: httpx.Request) -> httpx.Response:
        origin = f"{request.url.scheme}://{request.url.netloc.decode()}"
        assert origin in self.hosts, request.url
        assert request.url.path.startswith(PREFIX), request.url
        self.requests.append(request)
        key = (request.method, _path(request))
        queue = self.script.get(key)
        reply: Reply
        if queue:
            reply = queue.pop(0)
        elif key in self.handlers:
            reply = self.handlers[key]
        else:
            reply = problem(404, "not_found", "No such resource.")
        if isinstance(reply, httpx.Response):
            return reply
        answer = reply(request)
        return await answer if inspect.isawaitable(answer) else answer


def _path(request: httpx.Request) -> str:
    return request.url.path.removeprefix(PREFIX)


def _body(request: httpx.Request) -> Any:
    return json.loads(request.content) if request.content else None


def refuse(request: httpx.Request) -> httpx.Response:
    """A handler for a server that cannot be reached."""
    raise httpx.ConnectError("[Errno 111] Connection refused", request=request)


@dataclass
class FakeGame:
    """One player's game: ``plan[i]`` is the only legal card move at step ``i`` (plus
    ``also``, e.g. ``draw``, which changes nothing); the game ends as ``ends`` when the
    plan is played.  ``move_number`` counts every move played, as on the server."""

    id: str
    plan: list[str]
    ends: str = "won"
    also: tuple[str, ...] = ()
    played: list[str] = field(default_factory=list)
    step: int = 0
    status: str = "playing"
    #: Move numbers at which another tab of the same player plays ``draw`` first.
    interfere: set[int] = field(default_factory=set)
    #: Move numbers whose first answer is lost after the move is stored (502 or a
    #: dropped connection): the client's retry then gets ``200 replayed``.
    lose_answer: dict[int, str] = field(default_factory=dict)
    #: From this move number on the race is closed for the player.
    closes_at: int | None = None
    #: The race allows undo: a game ``blocked`` at the end of its plan says
    #: ``undo_allowed`` and resigning ends it (RULES.md 3.9).
    undoable: bool = False

    def view(self) -> dict[str, Any]:
        playing = self.status == "playing"
        legal = [self.plan[self.step], *self.also] if playing else []
        return {
            "id": self.id,
            "kind": "race",
            "status": self.status,
            "move_number": len(self.played),
            "cards_home": 1 + sum(m.endswith(">f") for m in self.played),
            "legal_moves": legal,
            "undo_allowed": self.undoable
            and bool(self.played)
            and self.status in ("playing", "blocked"),
        }

    def _apply(self, move: str) -> None:
        self.played.append(move)
        if move == self.plan[self.step]:
            self.step += 1
        if self.step == len(self.plan):
            self.status = self.ends

    def move(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        move, expected = body["move"], body["expected_move_number"]
        if len(self.played) in self.interfere and self.status == "playing":
            self.interfere.discard(len(self.played))
            self._apply("draw")
        n = len(self.played)
        if expected != n:
            if expected < n and self.played[expected] == move:
                return ok(
                    {"move": move, "number": expected + 1, "replayed": True, "game": self.view()}
                )
            return problem(
                409,
                "stale_move_number",
                f"expected move number {expected}, but the game is at {n}",
                current_move_number=n,
            )
        if self.closes_at is not None and n >= self.closes_at:
            self.status = "timed_out"
            return problem(
                409, "race_closed", "the race is closed for you: your deadline has passed"
            )
        if self.status != "playing":
            return problem(409, "game_over", f"the game is over ({self.status})")
        if move not in self.view()["legal_moves"]:
            return problem(422, "illegal_move", f"{move} is not allowed here")
        self._apply(move)
        lost = self.lose_answer.pop(n, None)
        if lost == "502":
            return problem(502, "bad_gateway", "upstream went away")
        if lost == "drop":
            raise httpx.ReadError("connection reset by peer", request=request)
        return ok({"move": move, "number": n + 1, "replayed": False, "game": self.view()}, 201)

    def resign(self, request: httpx.Request) -> httpx.Response:
        if self.status == "playing" or (self.status == "blocked" and self.undoable):
            self.status = "resigned"
        return ok(self.view())


class FakeRace:
    """One race on a :class:`FakeApi`: accounts, join, events, start and the games.

    ``phase``: the race's phase (``open`` until a test or the stream says
    ``running``); ``start`` answers ``409 race_not_started`` before that.  ``stream``:
    how ``GET races/{id}/events`` answers (a handler; default ``503 live_unavailable``,
    as under WSGI).  Every player gets a :class:`FakeGame` of the same ``plan``
    (``game_options`` go to it).  ``starts_at``: what ``join`` answers (ISO 8601).
    """

    def __init__(
        self,
        api: FakeApi,
        plan: Iterable[str],
        *,
        race_id: str = "r1",
        phase: str = "open",
        stream: Handler | None = None,
        starts_at: str = "2026-12-05T07:00:00Z",
        **game_options: Any,
    ) -> None:
        self.api = api
        self.starts_at = starts_at
        self.plan = list(plan)
        self.id = race_id
        self.phase = phase
        self.game_options = game_options
        self.passwords: dict[str, str] = {}
        self.entrants: list[str] = []
        self.games: dict[str, FakeGame] = {}
        self.results: dict[str, Any] | None = None
        api.route("POST", "auth/register", self._register)
        api.route("POST", "auth/token", self._login)
        api.route("GET", f"races/{race_id}", lambda _r: ok({"id": race_id, "phase": self.phase}))
        api.route("POST", f"races/{race_id}/join", self._join)
        api.route("GET", f"races/{race_id}/events", stream or self._no_stream)
        api.route("POST", f"races/{race_id}/start", self._start)
        api.route("GET", f"races/{race_id}/results", self._results)

    def player(self, request: httpx.Request) -> str | None:
        auth = request.headers.get("Authorization", "")
        return next((u for u in self.passwords if auth == f"Token {token_of(u)}"), None)

    def _register(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body["username"] in self.passwords:
            return problem(409, "username_taken", "A user with that username already exists.")
        self.passwords[body["username"]] = body["password"]
        return ok({"username": body["username"], "token": token_of(body["username"])}, 201)

    def _login(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if self.passwords.get(body["username"]) != body["password"]:
            return problem(400, "invalid_credentials", "Unknown username or wrong password.")
        return ok({"username": body["username"], "token": token_of(body["username"])})

    def _join(self, request: httpx.Request) -> httpx.Response:
        who = self.player(request)
        if who is None:
            return problem(401, "not_authenticated", headers={"WWW-Authenticate": "Token"})
        if who not in self.entrants:
            self.entrants.append(who)
        return ok(
            {"race": self.id, "player": who, "game_id": None, "starts_at": self.starts_at}, 201
        )

    def _no_stream(self, request: httpx.Request) -> httpx.Response:
        return problem(
            503,
            "live_unavailable",
            "Event streams are served by the ASGI server only; poll the REST endpoints.",
        )

    def _start(self, request: httpx.Request) -> httpx.Response:
        who = self.player(request)
        if who is None or who not in self.entrants:
            return problem(404, "not_found", "No such resource.")
        if self.phase != "running":
            return problem(409, "race_not_started", "the race has not started yet")
        gid = f"g-{who}"
        if gid not in self.games:
            game = self.games[gid] = FakeGame(gid, list(self.plan), **self.game_options)
            self.api.route("GET", f"games/{gid}", lambda _r: ok(game.view()))
            self.api.route("POST", f"games/{gid}/moves", game.move)
            self.api.route("POST", f"games/{gid}/resign", game.resign)
        return ok(self.games[gid].view())

    def _results(self, request: httpx.Request) -> httpx.Response:
        if self.results is None:
            return problem(409, "race_not_finished", "results are published once it is over")
        return ok(self.results)
