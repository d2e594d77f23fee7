"""An async HTTP client for the Canfield race API (httpx), with the retry rules a bot needs.

* ``429`` (throttled): sleep ``Retry-After`` seconds and send the same request again;
  ``429 login_locked_out`` (too many failed logins) raises :class:`ApiError` at once.
* ``5xx`` and transport errors: bounded exponential backoff for at least ``max_retries``
  retries and ``retry_seconds`` (60 s: a server restart), then :class:`ApiError`.
* ``409 stale_move_number`` on a move: :meth:`CanfieldClient.play` re-reads the game
  and hands the fresh view back (``accepted=False``) so the caller decides again.
  Re-sending a move with the *same* ``expected_move_number`` is always safe: the
  server answers ``200 replayed`` instead of playing it twice.

Authentication is ``Authorization: Token <token>``.  Each login (``auth/token``) issues
a new token (64 hex characters) that works until :meth:`CanfieldClient.logout`, a
password change, the account's deactivation or the server's ``AUTH_TOKEN_TTL_SECONDS``;
a ``401 authentication_failed`` means: log in again.

Every response can be reported to an ``on_response(route, status, seconds)`` hook
(the load benchmark uses it for latency percentiles and error counts).
"""

from __future__ import annotations

import asyncio
import contextlib
import json as _json
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import httpx

#: ``on_response(route, status, seconds)``; ``status`` 0 means a transport error.
ResponseHook = Callable[[str, int, float], None]


class ApiError(Exception):
    """A response the client does not handle itself: ``status``, problem ``code``, ``body``."""

    def __init__(self, status: int, code: str, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {code}: {body.get('detail', '')}")
        self.status = status
        self.code = code
        self.body = body


@dataclass(frozen=True)
class MoveResult:
    """The outcome of :meth:`CanfieldClient.play`.

    ``accepted``: the move is on the server (``replayed`` when it already was);
    ``code``: the problem code when it is not (``stale_move_number``,
    ``illegal_move``, ``race_closed``, ``game_over``); ``view``: the game as it
    now stands (``None`` only when the game can no longer be read); ``move``: the
    canonical notation the server recorded (accepted moves only).
    """

    accepted: bool
    replayed: bool
    code: str | None
    view: dict[str, Any] | None
    move: str | None = None


def _problem(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {"code": f"http_{response.status_code}", "detail": response.text[:200]}
    return body if isinstance(body, dict) else {"code": f"http_{response.status_code}"}


@dataclass
class LiveEvent:
    """One Server-Sent Event of a stream: its name, id and JSON data."""

    event: str
    id: str
    data: dict[str, Any]


#: The longest a ``Retry-After`` of a 5xx answer is waited out (seconds) before a retry.
MAX_RETRY_AFTER_S = 30.0


class CanfieldClient:
    """One player's connection to the API: ``async with CanfieldClient(url) as c: ...``.

    5xx answers and transport errors are retried (backoff 0.2 s doubling, at most 5 s, or
    a 5xx's ``Retry-After`` when longer, up to 30 s) until *both* ``max_retries`` retries
    are spent *and* ``retry_seconds`` seconds have passed since the request's first
    failure: the count alone (about 3 to 6 s of backoff) gave up while a server restarted
    (a deployment, ``dev.py serve`` started again: 20 s or more), and every bot of a race
    failed; ``retry_seconds=0`` restores the count alone;
    ``max_throttle_waits`` bounds how many ``429`` answers are waited out.
    ``http``: an ``httpx.AsyncClient`` to share (this client never closes it);
    otherwise the client opens its own, on ``transport`` when given (e.g. an
    ``httpx.MockTransport`` in tests; ``None``: the network), and closes it in
    :meth:`aclose`.
    ``events_url``: where the event streams are served when that is not ``base_url``
    (a deployment whose REST API runs on a WSGI server and whose streams run on an
    ASGI server, reached without the proxy that routes between them; default
    ``base_url``).
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        timeout: float = 15.0,
        max_retries: int = 5,
        retry_seconds: float = 60.0,
        max_throttle_waits: int = 50,
        on_response: ResponseHook | None = None,
        http: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        events_url: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.events_url = (events_url or base_url).rstrip("/")
        self.token = token
        self.username: str | None = None
        self.max_retries = max_retries
        self.retry_seconds = retry_seconds
        self.max_throttle_waits = max_throttle_waits
        self.on_response = on_response
        self._own_http = http is None
        self.http = http or httpx.AsyncClient(timeout=timeout, transport=transport)

    async def __aenter__(self) -> CanfieldClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP connection pool if this client opened it."""
        if self._own_http:
            await self.http.aclose()

    # ------------------------------------------------------------------ transport
    async def request(
        self, method: str, path: str, *, json: Any = None, route: str | None = None
    ) -> httpx.Response:
        """Send one request with the retry rules above; return the final response.

        Returns 2xx and 4xx responses other than 429 to the caller; raises
        :class:`ApiError` when 5xx/transport retries or 429 waits run out.
        """
        url = f"{self.base_url}/api/v1/{path.lstrip('/')}"
        headers = {"Authorization": f"Token {self.token}"} if self.token else {}
        route = route or path
        failures = throttled = 0
        first_failure: float | None = None
        while True:
            started = time.perf_counter()
            try:
                response = await self.http.request(method, url, json=json, headers=headers)
            except httpx.TransportError as exc:
                self._report(route, 0, time.perf_counter() - started)
                failures += 1
                first_failure = started if first_failure is None else first_failure
                if self._give_up(failures, first_failure):
                    raise ApiError(0, "transport_error", {"detail": repr(exc)}) from exc
                await asyncio.sleep(self._backoff(failures))
                continue
            self._report(route, response.status_code, time.perf_counter() - started)
            if response.status_code == 429:
                if _problem(response).get("code") == "login_locked_out":
                    raise ApiError(429, "login_locked_out", _problem(response))
                throttled += 1
                if throttled > self.max_throttle_waits:
                    raise ApiError(429, "throttled", _problem(response))
                await asyncio.sleep(self._retry_after(response))
                continue
            if response.status_code >= 500:
                failures += 1
                first_failure = started if first_failure is None else first_failure
                if self._give_up(failures, first_failure):
                    body = _problem(response)
                    raise ApiError(response.status_code, str(body.get("code")), body)
                wait = self._backoff(failures)
                if "Retry-After" in response.headers:  # a 503 that says when: not sooner
                    wait = max(wait, min(MAX_RETRY_AFTER_S, self._retry_after(response)))
                await asyncio.sleep(wait)
                continue
            return response

    def _give_up(self, failures: int, first_failure: float) -> bool:
        """Whether a request that failed ``failures`` times, first at ``first_failure``
        (``time.perf_counter()`` seconds), is past both retry bounds."""
        return (
            failures > self.max_retries
            and time.perf_counter() - first_failure >= self.retry_seconds
        )

    def _report(self, route: str, status: int, seconds: float) -> None:
        if self.on_response is not None:
            self.on_response(route, status, seconds)

    @staticmethod
    def _backoff(failures: int) -> float:
        return float(min(5.0, 0.2 * 2 ** (failures - 1)) * (0.5 + random.random() / 2))  # noqa: S311

    @staticmethod
    def _retry_after(response: httpx.Response) -> float:
        try:
            return max(0.05, float(response.headers.get("Retry-After", "1")))
        except ValueError:
            return 1.0

    async def _json(
        self, method: str, path: str, *, json: Any = None, ok: tuple[int, ...] = (200, 201)
    ) -> Any:
        response = await self.request(method, path, json=json)
        if response.status_code not in ok:
            body = _problem(response)
            raise ApiError(response.status_code, str(body.get("code")), body)
        return response.json()

    # ------------------------------------------------------------------ accounts
    async def register_or_login(self, username: str, password: str) -> str:
        """Register ``username`` (or log in if it exists); keep and return the API token."""
        self.token = None
        response = await self.request(
            "POST", "auth/register", json={"username": username, "password": password}
        )
        if response.status_code == 409:
            response = await self.request(
                "POST", "auth/token", json={"username": username, "password": password}
            )
        if response.status_code not in (200, 201):
            body = _problem(response)
            raise ApiError(response.status_code, str(body.get("code")), body)
        self.token = str(response.json()["token"])
        self.username = username
        return self.token

    async def logout(self) -> None:
        """Revoke this client's token (``POST /auth/logout``) and forget it."""
        if self.token is not None:
            response = await self.request("POST", "auth/logout")
            if response.status_code not in (204, 401):
                body = _problem(response)
                raise ApiError(response.status_code, str(body.get("code")), body)
        self.token = None

    # ------------------------------------------------------------------ races
    async def race(self, race_id: str) -> dict[str, Any]:
        """``GET /races/{id}``."""
        return dict(await self._json("GET", f"races/{race_id}"))

    async def create_race(self, **fields: Any) -> dict[str, Any]:
        """``POST /races`` (an organiser's token needed: ``games.add_race``)."""
        return dict(await self._json("POST", "races", json=fields))

    async def join(self, race_id: str) -> dict[str, Any]:
        """``POST /races/{id}/join`` (idempotent)."""
        response = await self.request("POST", f"races/{race_id}/join", route="join")
        if response.status_code not in (200, 201):
            body = _problem(response)
            raise ApiError(response.status_code, str(body.get("code")), body)
        return dict(response.json())

    async def start(
        self,
        race_id: str,
        *,
        poll: float = 0.25,
        max_wait: float = 3600,
        on_not_started: Callable[[], None] | None = None,
    ) -> dict[str, Any]:
        """``POST /races/{id}/start``; waits out ``race_not_started``; returns the game view.

        ``on_not_started()`` is called at each ``race_not_started`` answer, before the wait.
        """
        deadline = time.monotonic() + max_wait
        while True:
            response = await self.request("POST", f"races/{race_id}/start", route="start")
            if response.status_code == 200:
                return dict(response.json())
            body = _problem(response)
            if body.get("code") != "race_not_started" or time.monotonic() > deadline:
                raise ApiError(response.status_code, str(body.get("code")), body)
            if on_not_started is not None:
                on_not_started()
            await asyncio.sleep(poll)

    async def events(
        self, path: str, *, last_event_id: str | None = None, idle_timeout: float = 60.0
    ) -> AsyncIterator[LiveEvent]:
        """Follow the event stream at ``path`` (``races/{id}/events``, ...) until it ends.

        Raises :class:`ApiError` when the server refuses the stream before it starts
        (``503 live_unavailable``: Redis down or a WSGI server, so poll instead;
        ``429 too_many_streams``; ``404``); ends after an ``unavailable`` or
        ``lagging`` event (yielded first) or when the server closes the stream.
        ``idle_timeout``: seconds without a byte (heartbeats come every 15 s).
        """
        url = f"{self.events_url}/api/v1/{path.lstrip('/')}"
        headers = {"Accept": "text/event-stream"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        timeout = httpx.Timeout(15.0, read=idle_timeout)
        async with self.http.stream("GET", url, headers=headers, timeout=timeout) as response:
            if response.status_code != 200:
                await response.aread()
                body = _problem(response)
                raise ApiError(response.status_code, str(body.get("code")), body)
            # The WHATWG event-stream rules: data lines join with "\n"; the last id seen
            # stays the event id until another comes; comments (":") are skipped.
            event, data, event_id = "", list[str](), last_event_id or ""
            async for line in response.aiter_lines():
                if line == "":
                    if data:
                        yield LiveEvent(event or "message", event_id, _json.loads("\n".join(data)))
                    event, data = "", []
                elif not line.startswith(":"):
                    name, _, value = line.partition(":")
                    value = value.removeprefix(" ")
                    if name == "data":
                        data.append(value)
                    elif name == "event":
                        event = value
                    elif name == "id" and "\0" not in value:
                        event_id = value

    async def standings(self, race_id: str, *, limit: int | None = None) -> dict[str, Any]:
        """``GET /races/{id}/standings``: ``{"race", "phase", "ranking_rule", "count",
        "standings"}``, every line; with ``limit`` (0 or more), the first ``limit`` lines,
        then this client's own (its rank among everyone) when it entered and is not among
        them.  ``count``: the lines of the whole standings."""
        query = "" if limit is None else f"?limit={int(limit)}"
        return dict(await self._json("GET", f"races/{race_id}/standings{query}"))

    async def results(self, race_id: str) -> dict[str, Any] | None:
        """``GET /races/{id}/results``, or ``None`` while the race is not finished
        (``409 race_not_finished``); a cancelled race, which never has results
        (``409 race_cancelled``), raises :class:`ApiError` as any other refusal."""
        response = await self.request("GET", f"races/{race_id}/results", route="results")
        if response.status_code != 200:
            body = _problem(response)
            if response.status_code == 409 and body.get("code") == "race_not_finished":
                return None
            raise ApiError(response.status_code, str(body.get("code")), body)
        return dict(response.json())

    async def wait_results(
        self, race_id: str, *, poll: float = 1.0, timeout: float = 300
    ) -> dict[str, Any]:
        """Poll the results until the race is closed and scored."""
        deadline = time.monotonic() + timeout
        while True:
            results = await self.results(race_id)
            if results is not None:
                return results
            if time.monotonic() > deadline:
                raise TimeoutError(f"race {race_id} not scored after {timeout} s")
            await asyncio.sleep(poll)

    # ------------------------------------------------------------------ games
    async def game(self, game_id: str) -> dict[str, Any]:
        """``GET /games/{id}``: the player's view (``legal_moves``, ``move_number``, ...)."""
        response = await self.request("GET", f"games/{game_id}", route="game")
        if response.status_code != 200:
            body = _problem(response)
            raise ApiError(response.status_code, str(body.get("code")), body)
        return dict(response.json())

    async def resign(self, game_id: str) -> dict[str, Any]:
        """``POST /games/{id}/resign``."""
        return dict(await self._json("POST", f"games/{game_id}/resign"))

    async def undo(self, game_id: str, expected_move_number: int | None = None) -> dict[str, Any]:
        """``POST /games/{id}/undo``: take back the last move; returns the game view after it.

        ``expected_move_number``: the moves played before this undo (the view's
        ``move_number``).  Send it: the server then undoes nothing unless the game
        still stands at that number, so this client's own resend after a ``5xx`` or a
        transport error (the retry rules above) never takes back two moves; such a
        resend of an undo the server had already done comes back as ``409
        stale_move_number`` with ``current_move_number`` one less.  ``None``: the last
        move is undone whatever the number.  Allowed in practice games and in race
        games whose race was created with ``allow_undo``.

        The view is the dict of ``GET /games/{id}`` (``move_number``, ``legal_moves``,
        ``status``, ...).  Raises :class:`ApiError` with the problem ``code`` (and the
        whole problem in ``body``): ``403 undo_not_allowed``, ``403 disqualified``
        (``body["reason"]``), ``409 stale_move_number`` (``body["current_move_number"]``;
        nothing was undone: re-read the game), ``409 nothing_to_undo``, ``409 game_over``,
        ``409 race_closed``, ``409 race_not_started``, ``404 not_found`` (not your game),
        ``401``; and as every request, when ``429`` waits or ``5xx`` retries run out.
        """
        body = (
            {} if expected_move_number is None else {"expected_move_number": expected_move_number}
        )
        response = await self.request("POST", f"games/{game_id}/undo", json=body, route="undo")
        if response.status_code != 200:
            problem = _problem(response)
            raise ApiError(response.status_code, str(problem.get("code")), problem)
        return dict(response.json())

    async def play(self, game_id: str, move: str, expected_move_number: int) -> MoveResult:
        """``POST /games/{id}/moves`` with ``expected_move_number``.

        ``201``/``200 replayed`` give the new view. ``409 stale_move_number``
        re-reads the game and returns its view with ``accepted=False`` so the
        caller decides again from what is really on the table. ``422
        illegal_move``, ``409 race_closed``/``game_over`` and ``403 disqualified``
        come back as ``code``.
        """
        response = await self.request(
            "POST",
            f"games/{game_id}/moves",
            json={"move": move, "expected_move_number": expected_move_number},
            route="move",
        )
        if response.status_code in (200, 201):
            body = response.json()
            return MoveResult(True, bool(body.get("replayed")), None, body["game"], body["move"])
        problem = _problem(response)
        code = str(problem.get("code"))
        if response.status_code in (409, 422) or code == "disqualified":
            view = None
            with contextlib.suppress(ApiError):
                view = await self.game(game_id)
            return MoveResult(False, False, code, view)
        raise ApiError(response.status_code, code, problem)
