"""The bot's HTTP client against a scripted fake API: retries, moves, streams, accounts.

No server and no waiting: ``clock`` (tests/bot/conftest.py) records every sleep.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from canfield_bot.client import ApiError, CanfieldClient, LiveEvent, MoveResult
from tests.bot.conftest import FakeClock, approx
from tests.bot.fake_api import BASE, FakeApi, event_stream, ok, problem, refuse, run

TOKEN = "ab" * 32
VIEW: dict[str, Any] = {"id": "g1", "status": "playing", "move_number": 4, "legal_moves": ["draw"]}


def _auth(request: httpx.Request) -> str | None:
    value = request.headers.get("Authorization")
    return None if value is None else str(value)


# ------------------------------------------------------------------ 429: throttled
def test_throttled_requests_wait_retry_after_then_resend(api: FakeApi, clock: FakeClock) -> None:
    api.reply(
        "GET",
        "races/r1",
        problem(429, "throttled", "Request was throttled.", headers={"Retry-After": "3"}),
        problem(429, "throttled", headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}),
        problem(429, "throttled"),  # no Retry-After: one second
        problem(429, "throttled", headers={"Retry-After": "0"}),  # never a busy loop
        ok({"id": "r1", "phase": "open"}),
    )
    seen: list[tuple[str, int, float]] = []

    async def go() -> dict[str, Any]:
        async with api.client(token=TOKEN, on_response=lambda *a: seen.append(a)) as client:
            return await client.race("r1")

    assert run(go()) == {"id": "r1", "phase": "open"}
    assert clock.sleeps == [3.0, 1.0, 1.0, 0.05]
    assert api.calls == [("GET", "races/r1", None)] * 5
    assert {_auth(r) for r in api.requests} == {f"Token {TOKEN}"}
    assert seen == [("races/r1", 429, 0.0)] * 4 + [("races/r1", 200, 0.0)]


def test_throttle_waits_are_bounded(api: FakeApi, clock: FakeClock) -> None:
    api.route("GET", "races/r1", lambda _r: problem(429, "throttled", headers={"Retry-After": "2"}))

    async def go() -> None:
        async with api.client(max_throttle_waits=2) as client:
            await client.race("r1")

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (429, "throttled")
    assert clock.sleeps == [2.0, 2.0]
    assert len(api.requests) == 3


def test_login_locked_out_raises_at_once(api: FakeApi, clock: FakeClock) -> None:
    api.reply("POST", "auth/register", problem(409, "username_taken"))
    api.reply(
        "POST",
        "auth/token",
        problem(
            429,
            "login_locked_out",
            "Too many failed logins; try again later.",
            headers={"Retry-After": "300"},
            retry_after=300,
        ),
    )

    async def go() -> None:
        async with api.client(token=TOKEN) as client:
            try:
                await client.register_or_login("alice", "pw")
            finally:
                assert client.token is None  # the old token is dropped before trying

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (429, "login_locked_out")
    assert caught.value.body["retry_after"] == 300
    assert str(caught.value) == "429 login_locked_out: Too many failed logins; try again later."
    assert clock.sleeps == []  # not waited out: 300 s of lockout is the caller's business
    assert api.paths() == ["POST auth/register", "POST auth/token"]


# ------------------------------------------------------------------ 5xx and transport errors
def test_server_errors_back_off_then_raise(api: FakeApi, clock: FakeClock) -> None:
    api.route("GET", "races/r1", lambda _r: problem(503, "service_unavailable", "db down"))

    async def go() -> None:
        async with api.client(max_retries=3, retry_seconds=0) as client:
            await client.race("r1")

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (503, "service_unavailable")
    assert caught.value.body["detail"] == "db down"
    assert len(api.requests) == 4  # the first try and max_retries more
    assert clock.sleeps == approx([0.15, 0.3, 0.6])  # 0.2 s doubling, times the jitter 0.75


def test_a_server_error_with_retry_after_is_not_retried_sooner(
    api: FakeApi, clock: FakeClock
) -> None:
    api.reply(
        "GET",
        "races/r1",
        problem(503, "maintenance", headers={"Retry-After": "4"}),
        problem(503, "maintenance", headers={"Retry-After": "3600"}),  # capped at 30 s
        problem(503, "maintenance", headers={"Retry-After": "0"}),  # the backoff still holds
        ok({"id": "r1"}),
    )

    async def go() -> dict[str, Any]:
        async with api.client(max_retries=3) as client:
            return await client.race("r1")

    assert run(go()) == {"id": "r1"}
    assert clock.sleeps == approx([4.0, 30.0, 0.6])


def test_the_backoff_doubles_up_to_five_seconds(api: FakeApi, clock: FakeClock) -> None:
    api.route("GET", "races/r1", lambda _r: httpx.Response(502, text="<html>Bad gateway</html>"))

    async def go() -> None:
        async with api.client(max_retries=7, retry_seconds=0) as client:
            await client.race("r1")

    with pytest.raises(ApiError) as caught:
        run(go())
    # A body that is not JSON (a proxy's page) still gives a code.
    assert (caught.value.status, caught.value.code) == (502, "http_502")
    assert caught.value.body == {"code": "http_502", "detail": "<html>Bad gateway</html>"}
    assert len(api.requests) == 8
    assert clock.sleeps == approx([0.15, 0.3, 0.6, 1.2, 2.4, 3.75, 3.75])  # 5 s at most, jittered


def test_transport_errors_back_off_then_raise(api: FakeApi, clock: FakeClock) -> None:
    api.route("POST", "races/r1/join", refuse)
    seen: list[tuple[str, int, float]] = []

    async def go() -> None:
        async with api.client(
            max_retries=2, retry_seconds=0, on_response=lambda *a: seen.append(a)
        ) as client:
            await client.join("r1")

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (0, "transport_error")
    assert "Connection refused" in caught.value.body["detail"]
    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    assert len(api.requests) == 3
    assert clock.sleeps == approx([0.15, 0.3])
    assert seen == [("join", 0, 0.0)] * 3  # status 0: no answer


def test_a_failure_then_success_returns_the_success(api: FakeApi, clock: FakeClock) -> None:
    api.reply("POST", "races/r1/join", refuse, problem(500, "internal_error"), ok({"race": "r1"}))

    async def go() -> dict[str, Any]:
        async with api.client(max_retries=2) as client:
            return await client.join("r1")

    assert run(go()) == {"race": "r1"}
    assert clock.sleeps == approx([0.15, 0.3])  # transport errors and 5xx share one budget
    assert api.paths() == ["POST races/r1/join"] * 3


def test_a_server_restart_of_20_seconds_is_ridden_out_by_default(
    api: FakeApi, clock: FakeClock
) -> None:
    """Connection refused for 20 s (a restart), then the answer: the default client
    (``max_retries=5``, ``retry_seconds=60``) keeps trying past its five retries."""
    started = clock.now

    def restarting(request: httpx.Request) -> httpx.Response:
        if clock.now - started < 20:
            return refuse(request)
        return ok({"race": "r1"})

    api.route("POST", "races/r1/join", restarting)

    async def go() -> dict[str, Any]:
        async with api.client() as client:
            return await client.join("r1")

    assert run(go()) == {"race": "r1"}
    assert clock.sleeps == approx([0.15, 0.3, 0.6, 1.2, 2.4, 3.75, 3.75, 3.75, 3.75, 3.75])
    assert sum(clock.sleeps) >= 20


def test_the_default_client_gives_up_once_60_seconds_of_failures_have_passed(
    api: FakeApi, clock: FakeClock
) -> None:
    api.route("GET", "races/r1", refuse)

    async def go() -> None:
        async with api.client() as client:
            await client.race("r1")

    with pytest.raises(ApiError) as caught:
        run(go())
    assert caught.value.code == "transport_error"
    # 0.15 + 0.3 + 0.6 + 1.2 + 2.4 = 4.65 s, then 3.75 s a retry: 60 s passed after 20 sleeps.
    assert len(clock.sleeps) == 20
    assert sum(clock.sleeps[:-1]) < 60 <= sum(clock.sleeps)
    assert len(api.requests) == 21


def test_more_retries_than_the_window_needs_are_still_made(api: FakeApi, clock: FakeClock) -> None:
    """``max_retries`` is a floor too: 30 retries of a quick failure outlast 60 s."""
    api.route("GET", "races/r1", refuse)

    async def go() -> None:
        async with api.client(max_retries=30) as client:
            await client.race("r1")

    with pytest.raises(ApiError):
        run(go())
    assert len(api.requests) == 31


# ------------------------------------------------------------------ moves
def _move_answer(status: int, *, replayed: bool) -> httpx.Response:
    return ok({"move": "5S>f", "number": 4, "replayed": replayed, "game": VIEW}, status)


def _play(api: FakeApi, move: str = "5s>F", number: int = 3) -> MoveResult:
    async def go() -> MoveResult:
        async with api.client(token=TOKEN) as client:
            return await client.play("g1", move, number)

    return run(go())


def test_play_an_accepted_move(api: FakeApi) -> None:
    api.reply("POST", "games/g1/moves", _move_answer(201, replayed=False))
    assert _play(api) == MoveResult(True, False, None, VIEW, "5S>f")  # the canonical notation
    (request,) = api.requests
    assert api.calls == [("POST", "games/g1/moves", {"move": "5s>F", "expected_move_number": 3})]
    assert request.headers["Authorization"] == f"Token {TOKEN}"
    assert request.headers["Content-Type"] == "application/json"


def test_play_a_replayed_move(api: FakeApi) -> None:
    api.reply("POST", "games/g1/moves", _move_answer(200, replayed=True))
    assert _play(api) == MoveResult(True, True, None, VIEW, "5S>f")
    assert len(api.requests) == 1


def test_a_stale_move_number_rereads_the_game(api: FakeApi) -> None:
    api.reply(
        "POST",
        "games/g1/moves",
        problem(409, "stale_move_number", "expected 3, at 4", current_move_number=4),
    )
    api.reply("GET", "games/g1", ok(VIEW))
    assert _play(api) == MoveResult(False, False, "stale_move_number", VIEW, None)
    assert api.calls == [
        ("POST", "games/g1/moves", {"move": "5s>F", "expected_move_number": 3}),
        ("GET", "games/g1", None),
    ]
    assert _auth(api.requests[1]) == f"Token {TOKEN}"


def test_an_illegal_move_comes_back_with_the_view(api: FakeApi) -> None:
    api.reply("POST", "games/g1/moves", problem(422, "illegal_move", "QH cannot go on t2"))
    api.reply("GET", "games/g1", ok(VIEW))
    assert _play(api, "QH>t2", 4) == MoveResult(False, False, "illegal_move", VIEW, None)
    assert api.paths() == ["POST games/g1/moves", "GET games/g1"]


def test_a_game_that_cannot_be_read_gives_no_view(api: FakeApi) -> None:
    api.reply("POST", "games/g1/moves", problem(409, "game_over", "the game is over (won)"))
    api.reply("GET", "games/g1", problem(404, "not_found"))
    assert _play(api) == MoveResult(False, False, "game_over", None, None)


def test_other_move_errors_raise(api: FakeApi) -> None:
    api.reply("POST", "games/g1/moves", problem(400, "malformed_move", "not a move: 'xx'"))
    with pytest.raises(ApiError) as caught:
        _play(api, "xx", 0)
    assert (caught.value.status, caught.value.code) == (400, "malformed_move")
    assert api.paths() == ["POST games/g1/moves"]  # no re-read


# ------------------------------------------------------------------ event streams
STREAM = (
    b"retry: 3000\n"
    b"id: 7\nevent: snapshot\n"
    b'data: {"race": {"id": "r1", "phase": "open"}, "standings": []}\n\n'
    b": heartbeat\n\n"
    b"id: 8\r\nevent: phase\r\ndata:"
    b'{"phase":"running"}\r\n\r\n'
    b": heartbeat\n\n"
    b'data: {"n": 1}\n\n'
    b'event: lines\ndata: {"a":\ndata: 1}\n\n'
    b"event: no-data\nid: 9\n\n"
    b'id: 10\nevent: standings\ndata: {"standings": [{"player": "a", "rank": 1}]}\n\n'
    b'id: 11\nevent: standings\ndata: {"cut": "off"}\n'  # the connection ends mid-event
)


async def _chunks(body: bytes, size: int) -> AsyncIterator[bytes]:
    for i in range(0, len(body), size):
        yield body[i : i + size]


@pytest.mark.parametrize("chunk", [len(STREAM), 7, 1])
def test_events_parses_a_stream_of_several_events(api: FakeApi, chunk: int) -> None:
    api.reply("GET", "races/r1/events", event_stream(_chunks(STREAM, chunk)))

    async def go() -> list[LiveEvent]:
        async with api.client(token=TOKEN) as client:
            return [ev async for ev in client.events("/races/r1/events", last_event_id="6")]

    assert run(go()) == [
        LiveEvent("snapshot", "7", {"race": {"id": "r1", "phase": "open"}, "standings": []}),
        LiveEvent("phase", "8", {"phase": "running"}),
        # No event name: "message"; no id line: the last id seen stays (the SSE standard).
        LiveEvent("message", "8", {"n": 1}),
        LiveEvent("lines", "8", {"a": 1}),  # data lines join with a newline
        LiveEvent("standings", "10", {"standings": [{"player": "a", "rank": 1}]}),
    ]  # comments (heartbeats) skipped, an event without data and a cut-off one dropped
    (request,) = api.requests
    assert str(request.url) == f"{BASE}/api/v1/races/r1/events"
    assert request.headers["Accept"] == "text/event-stream"
    assert request.headers["Authorization"] == f"Token {TOKEN}"
    assert request.headers["Last-Event-ID"] == "6"


def test_an_anonymous_stream_sends_no_token(api: FakeApi) -> None:
    api.reply("GET", "races/r1/events", event_stream(_chunks(b"", 1)))

    async def go() -> list[LiveEvent]:
        async with api.client() as client:
            return [ev async for ev in client.events("races/r1/events")]

    assert run(go()) == []
    (request,) = api.requests
    assert "Authorization" not in request.headers
    assert "Last-Event-ID" not in request.headers


def test_streams_go_to_events_url_and_the_rest_to_base_url(api: FakeApi) -> None:
    """A split deployment reached without its proxy: REST on one server, streams on another."""
    api.hosts.add("http://live.test:9000")
    api.reply("GET", "races/r1/events", event_stream(_chunks(STREAM, len(STREAM))))
    api.reply("GET", "races/r1", ok({"id": "r1", "phase": "open"}))

    async def go() -> int:
        async with api.client(token=TOKEN, events_url="http://live.test:9000/") as client:
            events = [ev async for ev in client.events("races/r1/events")]
            await client.race("r1")
            return len(events)

    assert run(go()) == 5
    assert [str(r.url) for r in api.requests] == [
        "http://live.test:9000/api/v1/races/r1/events",
        f"{BASE}/api/v1/races/r1",
    ]
    assert {r.headers["Authorization"] for r in api.requests} == {f"Token {TOKEN}"}


@pytest.mark.parametrize(
    ("answer", "status", "code"),
    [
        (problem(503, "live_unavailable", headers={"Retry-After": "5"}), 503, "live_unavailable"),
        (problem(429, "too_many_streams", headers={"Retry-After": "15"}), 429, "too_many_streams"),
        (problem(404, "not_found"), 404, "not_found"),
        (httpx.Response(204), 204, "http_204"),  # a reconnect to a stream that is over
    ],
)
def test_a_refused_stream_raises_with_its_code(
    api: FakeApi, clock: FakeClock, answer: httpx.Response, status: int, code: str
) -> None:
    api.reply("GET", "races/r1/events", answer)

    async def go() -> list[LiveEvent]:
        async with api.client(token=TOKEN) as client:
            return [ev async for ev in client.events("races/r1/events")]

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (status, code)
    assert len(api.requests) == 1  # never retried: the caller polls instead
    assert clock.sleeps == []


# ------------------------------------------------------------------ accounts
def test_register_or_login_registers_a_new_account(api: FakeApi) -> None:
    api.reply("POST", "auth/register", ok({"username": "alice", "token": TOKEN}, 201))
    api.reply("GET", "races/r1", ok({"id": "r1"}))

    async def go() -> tuple[str, CanfieldClient]:
        async with api.client(token="old") as client:
            token = await client.register_or_login("alice", "a long password")
            await client.race("r1")
            return token, client

    token, client = run(go())
    assert (token, client.token, client.username) == (TOKEN, TOKEN, "alice")
    assert api.calls == [
        ("POST", "auth/register", {"username": "alice", "password": "a long password"}),
        ("GET", "races/r1", None),
    ]
    assert [_auth(r) for r in api.requests] == [None, f"Token {TOKEN}"]  # no stale token sent


def test_register_or_login_logs_in_when_the_name_is_taken(api: FakeApi) -> None:
    api.reply("POST", "auth/register", problem(409, "username_taken"))
    api.reply("POST", "auth/token", ok({"username": "alice", "token": TOKEN}))

    async def go() -> str:
        async with api.client() as client:
            return await client.register_or_login("alice", "pw")

    assert run(go()) == TOKEN
    body = {"username": "alice", "password": "pw"}
    assert api.calls == [("POST", "auth/register", body), ("POST", "auth/token", body)]


@pytest.mark.parametrize(
    ("register", "login", "code"),
    [
        (
            problem(400, "validation_error", errors={"password": ["Too short."]}),
            None,
            "validation_error",
        ),
        (
            problem(409, "username_taken"),
            problem(400, "invalid_credentials"),
            "invalid_credentials",
        ),
    ],
)
def test_register_or_login_refused(
    api: FakeApi, register: httpx.Response, login: httpx.Response | None, code: str
) -> None:
    api.reply("POST", "auth/register", register)
    if login is not None:
        api.reply("POST", "auth/token", login)
    client = api.client()

    async def go() -> None:
        async with client:
            await client.register_or_login("alice", "pw")

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (400, code)
    assert (client.token, client.username) == (None, None)


@pytest.mark.parametrize("status", [204, 401])  # 401: the token was already gone
def test_logout_revokes_and_forgets_the_token(api: FakeApi, status: int) -> None:
    api.reply(
        "POST",
        "auth/logout",
        httpx.Response(204) if status == 204 else problem(401, "authentication_failed"),
    )
    client = api.client(token=TOKEN)

    async def go() -> None:
        async with client:
            await client.logout()
            await client.logout()  # nothing left to revoke: no request

    run(go())
    assert client.token is None
    assert api.calls == [("POST", "auth/logout", None)]
    assert _auth(api.requests[0]) == f"Token {TOKEN}"


def test_a_refused_logout_raises(api: FakeApi) -> None:
    api.reply("POST", "auth/logout", problem(403, "permission_denied"))
    client = api.client(token=TOKEN)

    async def go() -> None:
        async with client:
            await client.logout()

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (403, "permission_denied")
    assert client.token == TOKEN


# ------------------------------------------------------------------ races and results
def test_the_race_endpoints(api: FakeApi) -> None:
    api.reply("POST", "races", ok({"id": "r9", "name": "e2e"}, 201))
    api.reply("GET", "races/r9/standings", ok({"race": "r9", "standings": []}))
    api.reply("POST", "games/g1/resign", ok({**VIEW, "status": "resigned"}))
    api.reply("GET", "games/g1", ok(VIEW))

    async def go() -> list[dict[str, Any]]:
        async with api.client(token=TOKEN) as client:
            return [
                await client.create_race(name="e2e", mode="scheduled", time_limit_seconds=40),
                await client.standings("r9"),
                await client.resign("g1"),
                await client.game("g1"),
            ]

    assert run(go()) == [
        {"id": "r9", "name": "e2e"},
        {"race": "r9", "standings": []},
        {**VIEW, "status": "resigned"},
        VIEW,
    ]
    assert api.calls == [
        ("POST", "races", {"name": "e2e", "mode": "scheduled", "time_limit_seconds": 40}),
        ("GET", "races/r9/standings", None),
        ("POST", "games/g1/resign", None),
        ("GET", "games/g1", None),
    ]


def test_the_standings_take_a_limit(api: FakeApi) -> None:
    """``standings(race, limit=N)`` asks the first ``N`` lines and the bot's own."""
    body = {"race": "r9", "count": 3, "standings": [{"player": "bot-1", "rank": 3}]}
    api.reply("GET", "races/r9/standings", ok(body), ok(body))

    async def go() -> list[dict[str, Any]]:
        async with api.client(token=TOKEN) as client:
            return [await client.standings("r9", limit=0), await client.standings("r9")]

    assert run(go()) == [body, body]
    assert [str(r.url.query, "ascii") for r in api.requests] == ["limit=0", ""]


@pytest.mark.parametrize(
    ("call", "path"),
    [("race", "races/r1"), ("join", "races/r1/join"), ("game", "games/r1")],
)
def test_a_refusal_raises_api_error(api: FakeApi, call: str, path: str) -> None:
    async def go() -> None:
        async with api.client(token=TOKEN) as client:
            await getattr(client, call)("r1")

    with pytest.raises(ApiError) as caught:  # nothing scripted: the fake answers 404
        run(go())
    assert (caught.value.status, caught.value.code) == (404, "not_found")
    assert caught.value.body["detail"] == "No such resource."
    assert api.paths() == [f"{'GET' if call != 'join' else 'POST'} {path}"]


def test_start_waits_out_race_not_started(api: FakeApi, clock: FakeClock) -> None:
    api.reply(
        "POST",
        "races/r1/start",
        problem(409, "race_not_started"),
        problem(409, "race_not_started"),
        ok(VIEW),
    )

    async def go() -> dict[str, Any]:
        async with api.client(token=TOKEN) as client:
            return await client.start("r1")

    assert run(go()) == VIEW
    assert clock.sleeps == [0.25, 0.25]
    assert api.paths() == ["POST races/r1/start"] * 3


def test_start_gives_up_after_max_wait(api: FakeApi, clock: FakeClock) -> None:
    api.route("POST", "races/r1/start", lambda _r: problem(409, "race_not_started"))

    async def go() -> None:
        async with api.client(token=TOKEN) as client:
            await client.start("r1", poll=1.0, max_wait=2.5)

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (409, "race_not_started")
    assert clock.sleeps == [1.0, 1.0, 1.0]  # tried at 0, 1, 2 and 3 s; 3 > 2.5
    assert len(api.requests) == 4


def test_start_outside_the_window_raises_at_once(api: FakeApi, clock: FakeClock) -> None:
    api.reply("POST", "races/r1/start", problem(409, "race_not_open"))

    async def go() -> None:
        async with api.client(token=TOKEN) as client:
            await client.start("r1")

    with pytest.raises(ApiError) as caught:
        run(go())
    assert caught.value.code == "race_not_open"
    assert clock.sleeps == []


def test_results_are_none_until_the_race_is_finished(api: FakeApi) -> None:
    api.reply("GET", "races/r1/results", problem(409, "race_not_finished"), ok({"seed": "42"}))

    async def go() -> list[dict[str, Any] | None]:
        async with api.client() as client:
            return [await client.results("r1"), await client.results("r1")]

    assert run(go()) == [None, {"seed": "42"}]
    with pytest.raises(ApiError) as caught:  # a race that does not exist is no "not yet"
        run(go())
    assert (caught.value.status, caught.value.code) == (404, "not_found")


def test_wait_results_stops_at_a_cancelled_race(api: FakeApi, clock: FakeClock) -> None:
    """Every 409 read as "not finished yet": a cancelled race was polled until the
    timeout, although its results never come."""
    api.route("GET", "races/r1/results", lambda _r: problem(409, "race_cancelled"))

    async def go() -> None:
        async with api.client() as client:
            await client.wait_results("r1", poll=1.0, timeout=3)

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (409, "race_cancelled")
    assert clock.sleeps == []


def test_wait_results_polls_until_scored(api: FakeApi, clock: FakeClock) -> None:
    api.reply(
        "GET",
        "races/r1/results",
        problem(409, "race_not_finished"),
        problem(409, "race_not_finished"),
        ok({"seed": "42", "entries": []}),
    )

    async def go() -> dict[str, Any]:
        async with api.client() as client:
            return await client.wait_results("r1", poll=2.0)

    assert run(go()) == {"seed": "42", "entries": []}
    assert clock.sleeps == [2.0, 2.0]
    assert api.paths() == ["GET races/r1/results"] * 3


def test_wait_results_times_out(api: FakeApi, clock: FakeClock) -> None:
    api.route("GET", "races/r1/results", lambda _r: problem(409, "race_not_finished"))

    async def go() -> None:
        async with api.client() as client:
            await client.wait_results("r1", poll=1.0, timeout=3)

    with pytest.raises(TimeoutError, match=r"^race r1 not scored after 3 s$"):
        run(go())
    assert clock.sleeps == [1.0] * 4  # polled at 0, 1, 2, 3 and 4 s; 4 > 3
    assert len(api.requests) == 5


# ------------------------------------------------------------------ the connection pool
def test_the_client_closes_only_a_pool_it_opened(api: FakeApi) -> None:
    shared = httpx.AsyncClient(transport=api.transport)
    own = CanfieldClient(f"{BASE}/", timeout=7.5)
    lent = CanfieldClient(BASE, http=shared)

    async def go() -> None:
        async with own, lent:
            pass

    run(go())
    assert own.base_url == BASE  # the trailing slash is dropped
    assert own.http.timeout == httpx.Timeout(7.5)
    assert own.http.is_closed
    assert lent.http is shared
    assert not shared.is_closed
    run(shared.aclose())
