"""The bot against a fake race API: the stream or polling for the start, then the game.

No server and no waiting: ``clock`` (tests/bot/conftest.py) records every sleep.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from canfield_bot.bot import Bot, BotResult, run_bots
from canfield_bot.client import ApiError, CanfieldClient
from canfield_bot.strategy import DefaultStrategy, first_legal
from tests.bot.conftest import FakeClock, approx
from tests.bot.fake_api import (
    BASE,
    FakeApi,
    FakeRace,
    event_stream,
    frame,
    problem,
    refuse,
    run,
    token_of,
)

#: The game every fake player gets: the only card move legal at each step.
PLAN = ["5S>f", "QH>t2", "JC>t2", "6S>f"]
ROWS_BEFORE = [{"rank": None, "player": "alice", "cards_home": None, "moves": None}]
ROWS_DURING = [{"rank": 1, "player": "alice", "cards_home": 2, "moves": 1}]


def _moves(game_id: str, moves: list[str], first: int = 0) -> list[tuple[str, str, Any]]:
    return [
        ("POST", f"games/{game_id}/moves", {"move": m, "expected_move_number": first + i})
        for i, m in enumerate(moves)
    ]


class Progress:
    """An ``on_progress`` recorder: ``(event, info)`` in order, and the result's fields
    (ended, cards home, moves) when each event came."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any], tuple[str, int, int]]] = []

    def __call__(self, event: str, result: BotResult, info: dict[str, Any]) -> None:
        self.events.append((event, info, (result.ended, result.cards_home, result.moves)))

    def names(self) -> list[str]:
        return [e[0] for e in self.events]


START_VIEW = {
    "id": "g-alice",
    "kind": "race",
    "status": "playing",
    "move_number": 0,
    "cards_home": 1,
    "legal_moves": [PLAN[0]],
    "undo_allowed": False,
}
JOINED = {"race": "r1", "player": "alice", "game_id": None, "starts_at": "2026-12-05T07:00:00Z"}


def _play(api: FakeApi, username: str = "alice", **bot_options: Any) -> BotResult:
    """Log ``username`` in, run one bot in race ``r1``, return its result."""

    async def go() -> BotResult:
        async with api.client() as client:
            await client.register_or_login(username, "a long password")
            return await Bot(client, "r1", **bot_options).run()

    return run(go())


# ------------------------------------------------------------------ the start
def test_the_bot_starts_when_the_stream_says_the_race_runs(api: FakeApi, clock: FakeClock) -> None:
    marks: dict[str, int] = {}

    async def chunks() -> AsyncIterator[bytes]:
        snapshot = {"race": {"id": "r1", "phase": "open"}, "standings": ROWS_BEFORE}
        yield b"retry: 3000\n" + frame("snapshot", 1, snapshot)
        yield frame("countdown", 1, {"race": "r1", "phase": "open", "ms_to_start": 5000})
        for _ in range(20):  # time for the bot to (wrongly) start before the race runs
            await asyncio.sleep(0)
        marks["running"] = len(api.requests)
        race.phase = "running"
        yield frame("phase", 2, {"race": "r1", "phase": "running", "status": "scheduled"})
        yield b": heartbeat\n\n"
        yield frame("standings", 3, {"race": "r1", "phase": "running", "standings": ROWS_DURING})
        await asyncio.Event().wait()  # the stream stays open until the bot hangs up

    race = FakeRace(api, PLAN, stream=lambda _r: event_stream(chunks()))
    seen: list[list[dict[str, Any]]] = []
    progress = Progress()
    result = _play(api, strategy=first_legal, on_standings=seen.append, on_progress=progress)

    assert result == BotResult(
        username="alice",
        game_id="g-alice",
        moves=4,
        history=PLAN,
        ended="won",
        cards_home=3,
        status="won",
        standings=ROWS_DURING,
        live_events=2,
    )
    assert seen == [ROWS_BEFORE, ROWS_DURING]
    # Each once, none per move; "waiting" from the stream's "open" (no start polling).
    assert progress.events == [
        ("joined", JOINED, ("", 0, 0)),
        ("waiting", {"starts_at": "2026-12-05T07:00:00Z"}, ("", 0, 0)),
        ("started", START_VIEW, ("", 0, 0)),
        ("ended", {}, ("won", 3, 4)),
    ]
    assert api.paths()[:4] == [
        "POST auth/register",
        "POST races/r1/join",
        "GET races/r1/events",
        "POST races/r1/start",
    ]
    assert marks["running"] == 3  # start came after the stream said "running" ...
    assert clock.sleeps == []  # ... at the first try: no start polling
    assert api.calls[4:] == _moves("g-alice", PLAN)
    stream = api.requests[2]
    assert stream.headers["Accept"] == "text/event-stream"
    assert stream.headers["Authorization"] == f"Token {token_of('alice')}"
    assert race.games["g-alice"].played == PLAN


async def _closed_stream() -> AsyncIterator[bytes]:
    snapshot = {"race": {"id": "r1", "phase": "open"}, "standings": ROWS_BEFORE}
    yield b"retry: 3000\n" + frame("snapshot", 4, snapshot)
    yield frame("unavailable", 4, {"reason": "unavailable", "detail": "poll the REST endpoints"})


@pytest.mark.parametrize(
    ("stream", "live_events"),
    [
        pytest.param(None, 0, id="503 live_unavailable"),
        pytest.param(
            lambda _r: problem(429, "too_many_streams", headers={"Retry-After": "15"}),
            0,
            id="429 too_many_streams",
        ),
        pytest.param(refuse, 0, id="connection refused"),
        pytest.param(lambda _r: event_stream(_closed_stream()), 1, id="unavailable event"),
    ],
)
def test_without_a_stream_the_bot_polls_the_start(
    api: FakeApi, clock: FakeClock, stream: Any, live_events: int
) -> None:
    race = FakeRace(api, PLAN, stream=stream)
    not_yet = problem(409, "race_not_started", "the race starts at 12:00:05")
    api.reply("POST", "races/r1/start", not_yet, not_yet)  # then the handler: running
    race.phase = "running"
    progress = Progress()

    result = _play(api, strategy=first_legal, on_progress=progress)

    assert (result.ended, result.history, result.live_events) == ("won", PLAN, live_events)
    # One "waiting" for two race_not_started answers.
    assert progress.names() == ["joined", "waiting", "started", "ended"]
    assert progress.events[1][1] == {"starts_at": "2026-12-05T07:00:00Z"}
    assert result.standings == (ROWS_BEFORE if live_events else [])
    assert api.paths()[:6] == [
        "POST auth/register",
        "POST races/r1/join",
        "GET races/r1/events",  # once: a refused stream is not retried
        "POST races/r1/start",
        "POST races/r1/start",
        "POST races/r1/start",
    ]
    assert api.calls[6:] == _moves("g-alice", PLAN)
    assert clock.sleeps == [0.25, 0.25]


def test_a_bot_that_does_not_follow_opens_no_stream(api: FakeApi, clock: FakeClock) -> None:
    FakeRace(api, PLAN, phase="running")
    result = _play(api, strategy=first_legal, follow=False)
    assert result.ended == "won"
    assert api.paths()[:3] == ["POST auth/register", "POST races/r1/join", "POST races/r1/start"]
    assert "GET races/r1/events" not in api.paths()


# ------------------------------------------------------------------ the game
class Scripted:
    """``first_legal``, except the moves given by move number (each played once)."""

    def __init__(self, moves: dict[int, str | None]) -> None:
        self.moves = dict(moves)

    def __call__(self, view: dict[str, Any]) -> str | None:
        n = view["move_number"]
        return self.moves.pop(n) if n in self.moves else first_legal(view)


def test_stale_and_illegal_moves_are_counted_and_play_goes_on(api: FakeApi) -> None:
    # Before move 2 another tab of the same player draws: the bot's move 2 is stale.
    race = FakeRace(api, PLAN, phase="running", interfere={1})
    result = _play(api, strategy=Scripted({2: "KH>t9"}), follow=False)

    assert result == BotResult(
        username="alice",
        game_id="g-alice",
        moves=4,
        refused={"stale_move_number": 1, "illegal_move": 1},
        history=PLAN,
        ended="won",
        cards_home=3,
        status="won",
    )
    assert race.games["g-alice"].played == ["5S>f", "draw", "QH>t2", "JC>t2", "6S>f"]
    assert api.calls[3:] == [
        *_moves("g-alice", ["5S>f", "QH>t2"]),
        ("GET", "games/g-alice", None),  # the fresh view after the stale move
        *_moves("g-alice", ["KH>t9"], 2),
        ("GET", "games/g-alice", None),
        *_moves("g-alice", ["QH>t2", "JC>t2", "6S>f"], 2),
    ]


@pytest.mark.parametrize("lost", ["502", "drop"])
def test_a_move_whose_answer_was_lost_counts_once(
    api: FakeApi, clock: FakeClock, lost: str
) -> None:
    """The server stored move 2 but its answer was lost (a 502 from a proxy, a dropped
    connection): the client sends it again and gets ``200 replayed``.  The move is the
    bot's, on the server once: it is in the history once (what the e2e test checks
    against the published move list)."""
    race = FakeRace(api, PLAN, phase="running", lose_answer={1: lost})
    result = _play(api, strategy=first_legal, follow=False)

    assert race.games["g-alice"].played == PLAN
    assert (result.history, result.moves, result.refused) == (PLAN, 4, {})
    assert api.calls[3:] == _moves("g-alice", PLAN[:2]) + _moves("g-alice", PLAN[1:], 1)
    assert clock.sleeps == approx([0.15])  # one backoff before the retry


def test_the_race_closing_ends_the_bot(api: FakeApi) -> None:
    FakeRace(api, PLAN, phase="running", closes_at=2)
    result = _play(api, strategy=first_legal, follow=False)
    assert result == BotResult(
        username="alice",
        game_id="g-alice",
        moves=2,
        refused={"race_closed": 1},
        history=PLAN[:2],
        ended="race_closed",
        cards_home=2,
        status="timed_out",
    )
    assert api.paths()[-2:] == ["POST games/g-alice/moves", "GET games/g-alice"]


def test_a_disqualification_ends_the_bot(api: FakeApi) -> None:
    # The organisers disqualify the entry mid-race: the server refuses the next move
    # with 403 disqualified, and the bot stops as it does when the race closes.
    FakeRace(api, PLAN, phase="running")
    api.reply(
        "POST",
        "games/g-alice/moves",
        problem(403, "disqualified", "you are disqualified from this race: two accounts"),
    )
    result = _play(api, strategy=first_legal, follow=False)
    assert (result.ended, result.history, result.refused, result.status) == (
        "disqualified",
        [],
        {"disqualified": 1},
        "playing",
    )
    assert api.paths()[-2:] == ["POST games/g-alice/moves", "GET games/g-alice"]


def test_the_move_limit_ends_the_bot_after_one_refusal(api: FakeApi) -> None:
    """At the server's ``GAME_MOVE_LIMIT`` no move is taken again: the bot stops at the
    first ``409 move_limit_reached`` rather than sending 50 more and raising, and
    resigns the game (``on_stuck="resign"``, the default), as it does a stuck game: left
    playing, the game kept its race from closing early until the bot's deadline."""
    race = FakeRace(api, PLAN, phase="running")
    api.reply(
        "POST",
        "games/g-alice/moves",
        problem(409, "move_limit_reached", "this game has reached the move limit of 2"),
    )
    result = _play(api, strategy=first_legal, follow=False)
    assert (result.ended, result.status, result.history, result.refused) == (
        "resigned",
        "resigned",
        [],
        {"move_limit_reached": 1},
    )
    assert api.paths().count("POST games/g-alice/moves") == 1
    assert api.calls[-1] == ("POST", "games/g-alice/resign", None)
    assert race.games["g-alice"].status == "resigned"


def test_a_bot_that_stops_when_stuck_leaves_a_game_at_the_move_limit(api: FakeApi) -> None:
    race = FakeRace(api, PLAN, phase="running")
    api.reply(
        "POST",
        "games/g-alice/moves",
        problem(409, "move_limit_reached", "this game has reached the move limit of 2"),
    )
    result = _play(api, strategy=first_legal, follow=False, on_stuck="stop")
    assert (result.ended, result.refused) == ("move_limit_reached", {"move_limit_reached": 1})
    assert "POST games/g-alice/resign" not in api.paths()
    assert race.games["g-alice"].status == "playing"


def test_a_race_closed_on_an_unreadable_game_keeps_the_last_view(api: FakeApi) -> None:
    FakeRace(api, PLAN, phase="running", closes_at=1)
    api.reply("GET", "games/g-alice", problem(404, "not_found"))  # the re-read fails
    result = _play(api, strategy=first_legal, follow=False)
    assert (
        (result.ended, result.status, result.cards_home, result.history)
        == (
            "race_closed",
            "playing",  # the last view the bot saw
            2,
            PLAN[:1],
        )
    )


def test_after_a_refusal_without_a_view_the_bot_reads_the_game(api: FakeApi) -> None:
    FakeRace(api, PLAN, phase="running")
    api.reply("GET", "games/g-alice", problem(404, "not_found"))  # once: the next read works
    result = _play(api, strategy=Scripted({1: "KH>t9"}), follow=False)
    assert (result.ended, result.history, result.refused) == ("won", PLAN, {"illegal_move": 1})
    assert api.calls[4:7] == [
        *_moves("g-alice", ["KH>t9"], 1),
        ("GET", "games/g-alice", None),  # in play(): 404, no view
        ("GET", "games/g-alice", None),  # the bot's own read
    ]


def test_a_stuck_bot_resigns(api: FakeApi) -> None:
    race = FakeRace(api, PLAN, phase="running")
    result = _play(api, strategy=Scripted({2: None}), follow=False)
    assert (result.ended, result.status, result.history, result.cards_home) == (
        "resigned",
        "resigned",
        PLAN[:2],
        2,
    )
    assert api.calls[-1] == ("POST", "games/g-alice/resign", None)
    assert race.games["g-alice"].status == "resigned"


def test_a_stuck_bot_whose_race_closed_before_it_resigned_ends_with_the_race(
    api: FakeApi,
) -> None:
    # The deadline can pass between the bot's last move and its resignation: the
    # server answers 409 race_closed, and the bot ends as it does when a move gets
    # that answer, instead of failing.
    race = FakeRace(api, PLAN, phase="running")
    api.reply(
        "POST",
        "games/g-alice/resign",
        problem(409, "race_closed", "the race is closed for you: your deadline has passed"),
    )
    result = _play(api, strategy=Scripted({2: None}), follow=False)
    assert (result.ended, result.history, result.refused) == (
        "race_closed",
        PLAN[:2],
        {"race_closed": 1},
    )
    assert api.calls[-1] == ("POST", "games/g-alice/resign", None)
    assert race.games["g-alice"].status == "playing"


def test_a_bot_resigns_a_blocked_game_that_could_be_undone(api: FakeApi) -> None:
    """A blocked game whose last move may be taken back (a race with undo) keeps its race
    from closing early until the bot's deadline; the bot never undoes, so it resigns it
    as a stuck game (it stopped at "blocked", leaving the race open)."""
    race = FakeRace(api, PLAN, phase="running", ends="blocked", undoable=True)
    result = _play(api, strategy=first_legal, follow=False)
    assert (result.ended, result.status, result.history) == ("resigned", "resigned", PLAN)
    assert api.calls[-1] == ("POST", "games/g-alice/resign", None)
    assert race.games["g-alice"].status == "resigned"


@pytest.mark.parametrize(
    ("undoable", "on_stuck"), [(False, "resign"), (True, "stop"), (True, "cycle")]
)
def test_a_blocked_game_is_left_as_it_is_otherwise(
    api: FakeApi, undoable: bool, on_stuck: str
) -> None:
    """Over for good without undo; ``stop`` and ``cycle`` never resign."""
    race = FakeRace(api, PLAN, phase="running", ends="blocked", undoable=undoable)
    result = _play(api, strategy=first_legal, follow=False, on_stuck=on_stuck)
    assert (result.ended, result.status, result.history) == ("blocked", "blocked", PLAN)
    assert api.paths()[-1] == "POST games/g-alice/moves"
    assert race.games["g-alice"].status == "blocked"


def test_a_stuck_bot_may_stop_without_resigning(api: FakeApi) -> None:
    race = FakeRace(api, PLAN, phase="running")
    result = _play(api, strategy=Scripted({1: None}), on_stuck="stop", follow=False)
    assert (result.ended, result.status, result.history) == ("stuck", "playing", PLAN[:1])
    assert api.paths()[-1] == "POST games/g-alice/moves"
    assert race.games["g-alice"].status == "playing"


def test_a_cycling_bot_turns_the_stock_when_stuck(api: FakeApi) -> None:
    race = FakeRace(api, PLAN, phase="running", also=("draw",))
    result = _play(api, strategy=Scripted({1: None}), on_stuck="cycle", follow=False)
    assert result.history == ["5S>f", "draw", "QH>t2", "JC>t2", "6S>f"]
    assert (result.ended, result.moves) == ("won", 5)
    assert race.games["g-alice"].played == result.history


def test_a_cycling_bot_without_a_stock_move_stops(api: FakeApi) -> None:
    FakeRace(api, PLAN, phase="running")  # no draw: nothing to cycle
    result = _play(api, strategy=Scripted({0: None}), on_stuck="cycle", follow=False)
    assert (result.ended, result.moves, result.game_id) == ("stuck", 0, "g-alice")


def test_too_many_refused_moves_raise(api: FakeApi) -> None:
    FakeRace(api, PLAN, phase="running")

    with pytest.raises(ApiError) as caught:
        _play(api, strategy=lambda _view: "KH>t9", follow=False)
    assert (caught.value.status, caught.value.code) == (409, "illegal_move")
    assert caught.value.body == {"detail": "too many refused moves"}
    assert api.paths().count("POST games/g-alice/moves") == 51


def test_the_bot_thinks_before_each_move(api: FakeApi, clock: FakeClock) -> None:
    FakeRace(api, PLAN, phase="running")
    _play(api, strategy=first_legal, think=0.5, jitter=0.2, seed=7, follow=False)
    rng = random.Random(7)  # noqa: S311 - the bot's own pacing generator, same seed
    assert clock.sleeps == [0.5 + rng.uniform(-0.1, 0.1) for _ in PLAN]
    assert all(0.4 <= s <= 0.6 for s in clock.sleeps)


def test_bot_options_are_checked() -> None:
    client = CanfieldClient(BASE, transport=httpx.MockTransport(lambda r: httpx.Response(500)))
    with pytest.raises(ValueError, match="on_stuck is resign, stop or cycle, not 'wait'"):
        Bot(client, "r1", on_stuck="wait")
    with pytest.raises(ValueError, match="jitter is a fraction from 0 to 1"):
        Bot(client, "r1", jitter=1.5)
    assert isinstance(Bot(client, "r1").strategy, DefaultStrategy)
    assert isinstance(Bot(client, "r1", strategy=DefaultStrategy).strategy, DefaultStrategy)
    assert Bot(client, "r1", strategy=first_legal).strategy is first_legal
    assert Bot(client, "r1").result == BotResult(username="?")  # not logged in yet
    run(client.aclose())


# ------------------------------------------------------------------ several bots
def test_run_bots_plays_one_game_per_account(api: FakeApi) -> None:
    race = FakeRace(api, PLAN, phase="running")
    results = run(
        run_bots(
            BASE,
            "r1",
            ["alice", "bob"],
            "a long password",
            strategies=[first_legal, Scripted({3: None})],
            client_options={"transport": api.transport},
        )
    )
    assert results == [
        BotResult("alice", "g-alice", 4, history=PLAN, ended="won", cards_home=3, status="won"),
        BotResult(
            "bob",
            "g-bob",
            3,
            history=PLAN[:3],
            ended="resigned",
            cards_home=2,
            status="resigned",
        ),
    ]
    assert race.entrants == ["alice", "bob"] or race.entrants == ["bob", "alice"]
    assert race.passwords == {"alice": "a long password", "bob": "a long password"}


def test_run_bots_returns_errors_instead_of_raising(
    api: FakeApi, caplog: pytest.LogCaptureFixture
) -> None:
    race = FakeRace(api, PLAN, phase="running")
    race.passwords["bob"] = "another password"  # bob exists: the login fails
    with caplog.at_level(logging.ERROR, logger="canfield_bot"):
        results = run(
            run_bots(
                BASE,
                "r2",  # not a race of the fake: joining it fails
                ["carol", "bob"],
                "a long password",
                client_options={"transport": api.transport},
            )
        )
    carol, bob = results
    assert isinstance(carol, ApiError)
    assert (carol.status, carol.code) == (404, "not_found")
    assert isinstance(bob, ApiError)
    assert (bob.status, bob.code) == (400, "invalid_credentials")
    # bob never ran.  carol's refusal is the server's answer: one line, no traceback.
    assert [r.getMessage() for r in caplog.records] == [
        "bot carol failed: 404 not_found: No such resource."
    ]
    assert caplog.records[0].exc_info is None


def test_a_bot_that_breaks_is_logged_with_its_traceback(
    api: FakeApi, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an answered refusal (ApiError) is logged in one line: anything else that goes
    wrong in a bot (a bug, a strategy raising) keeps its traceback."""
    FakeRace(api, PLAN, phase="running")

    async def broken(self: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Bot, "run", broken)
    with caplog.at_level(logging.ERROR, logger="canfield_bot"):
        (res,) = run(
            run_bots(
                BASE, "r1", ["dora"], "a long password", client_options={"transport": api.transport}
            )
        )
    assert isinstance(res, RuntimeError)
    assert [r.getMessage() for r in caplog.records] == ["bot dora failed"]
    assert caplog.records[0].exc_info is not None


def test_run_bots_wants_one_strategy_per_username() -> None:
    with pytest.raises(ValueError, match="give one strategy per username"):
        run(run_bots(BASE, "r1", ["alice", "bob"], "pw", strategies=[first_legal]))
