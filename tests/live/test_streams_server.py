"""Event streams against a real ASGI server process (uvicorn) with a Redis of the test's own.

The module starts a Redis server on a free port (so it can kill and restart
it), a scratch PostgreSQL database and uvicorn serving ``canfield_site.asgi``
on a free port, with Celery eager (the race clock closes due races itself, as
on the embedded default).  Waits are bounded; no assertion depends on the wall
clock beyond them.
"""

from __future__ import annotations

import os
import queue
import re
import secrets
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings

from benchmarks.seeded_race import seeded_race
from canfield_bot.stack import (
    Stack,
    create_staff,
    free_port,
    postgres_drop_db,
    postgres_scratch_db,
)
from canfield_bot.strategy import DefaultStrategy
from games.engine import PRESETS, GameState, deal_deck, layout, make_rules, parse_deck
from games.live.publish import RETRY_AFTER_S
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import log_in
from tests.helpers import race_seed_ok
from tests.live.sse import END, Event, SSEReader

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK]|10)[CDHS](?![A-Za-z0-9])")
CAP = 3
#: The exact-sequence race's seed (tests.helpers.race_seed_ok).
EXACT_SEED = "live-exact"


class OwnRedis:
    """A redis-server of the test's own on a free port (kill and restart it at will)."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is needed for this test"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--logfile", str(self.log)],
            start_new_session=True,
        )  # fmt: skip
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@dataclass
class Live:
    """The running server and helpers to call its API."""

    url: str
    redis: OwnRedis
    staff_token: str
    stack: Stack

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Token {token}"} if token else {}
        return httpx.request(method, f"{self.url}/api/v1/{path}", headers=headers, timeout=20, **kw)

    def user(self, name: str) -> str:
        r = self.call(
            "POST", "auth/register", json={"username": name, "password": secrets.token_urlsafe(12)}
        )
        assert r.status_code == 201, r.text
        return str(r.json()["token"])

    def game(self, token: str, seed: str) -> dict[str, Any]:
        """A classic practice game on ``seed``, which has the property that
        :func:`tests.helpers.race_seed_ok` checks (playing at the deal and after the
        first moves: a random deal is blocked at the deal in about 0.85% of cases)."""
        assert race_seed_ok(seed)
        r = self.call("POST", "games", token, json={"variant": "classic", "seed": seed})
        assert r.status_code == 201, r.text
        game = dict(r.json())
        assert game["status"] == "playing"
        return game

    def race(self, *, starts_in: float, lasts: float) -> dict[str, Any]:
        starts = datetime.now(UTC) + timedelta(seconds=starts_in)
        r = self.call(
            "POST",
            "races",
            self.staff_token,
            json={
                "name": "live",
                "starts_at": starts.isoformat(),
                "ends_at": (starts + timedelta(seconds=lasts)).isoformat(),
            },
        )
        assert r.status_code == 201, r.text
        return dict(r.json())

    def stream(self, path: str, token: str | None = None, **headers: str) -> SSEReader:
        if token:
            headers["Authorization"] = f"Token {token}"
        return SSEReader(f"{self.url}/api/v1/{path}", headers)


def _postgres_url() -> str:
    db = settings.DATABASES["default"]
    auth = db.get("USER") or "postgres"
    if db.get("PASSWORD"):
        auth += f":{db['PASSWORD']}"
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/postgres"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    logs = tmp_path_factory.mktemp("live")
    redis = OwnRedis(logs / "redis.log")
    redis.start()
    db_url = postgres_scratch_db(_postgres_url(), f"canfield_live_{os.getpid()}")
    env = {
        "DATABASE_URL": db_url,
        "REDIS_URL": redis.url,
        "CELERY_BROKER_URL": redis.url,
        "CELERY_RESULT_BACKEND": "cache+memory://",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "CACHE_URL": "",
        "DEBUG": "true",
        "THROTTLE_AUTH": "1000/min",
        "THROTTLE_MOVES": "1000/s",
        "THROTTLE_GAMES": "10000/min",
        "LIVE_STREAMS_PER_USER": str(CAP),
        "LIVE_HEARTBEAT_SECONDS": "1",
        "LIVE_CHANNEL_PREFIX": f"test-{secrets.token_hex(4)}",
        "RACE_SWEEP_SECONDS": "1",
        # As in compose: the ASGI server's connections come from a pool (small here, so
        # streams, requests and the worker's threads really share and wait for it).
        "DATABASE_POOL_MAX_SIZE": "3",
    }
    stack = Stack(env, log_dir=logs)
    try:
        stack.manage("migrate", "--noinput", "-v", "0")
        password = secrets.token_urlsafe(12)
        create_staff(stack, "live-staff", password)
        stack.manage(  # an organiser too (tournaments)
            "shell", "--no-imports", "-c",
            "from django.contrib.auth.models import User; "
            "User.objects.filter(username='live-staff').update(is_superuser=True)",
        )  # fmt: skip
        url = stack.web(free_port(), server="uvicorn", workers=1)
        # As in production, a worker with beat closes and scores due races (reads never do);
        # its events reach the server's streams through this test's Redis.
        stack.worker(beat=True, threads=True)
        token = httpx.post(
            f"{url}/api/v1/auth/token", json={"username": "live-staff", "password": password}
        ).json()["token"]
        yield Live(url, redis, token, stack)
    finally:
        stack.stop()
        redis.kill()
        postgres_drop_db(db_url)


@pytest.fixture(autouse=True)
def redis_back_after_each_test(live: Live) -> Iterator[None]:
    """A test that stops the server's Redis and fails before restarting it does not
    take the tests after it down too (they saw 503 live_unavailable)."""
    yield
    if not live.redis.running():
        live.redis.start()


def _no_secret(event: Event, seed: str | None) -> None:
    """A race event of a running race names no card and not the seed."""
    text = str(event.data)
    assert not CARD.findall(text), event
    if seed:
        assert seed not in text, event


def _summary(event: Event | str) -> tuple[Any, ...]:
    if isinstance(event, str):
        return (event,)
    if event.event == "standings":
        rows = event.data["standings"]
        players = sorted((r["player"], r["moves"]) for r in rows)
        return ("standings", event.data["phase"], tuple(players))
    if event.event == "phase":
        return ("phase", event.data["phase"])
    if event.event == "snapshot":
        return ("snapshot", event.data["race"]["phase"], event.data["race"]["entrants"])
    return (event.event,)


def test_race_stream_exact_sequence(live: Live) -> None:
    """Subscribe, two players join, one plays a move, the race closes: the exact events."""
    anna, bert = live.user("anna"), live.user("bert")
    # Both joins (joining closes at the start) must come first: 10 s leaves room for a
    # loaded machine (a whole-suite run saw 409 on a join with 6 s).
    # On a fixed deal that stays playing after a move (a random one is blocked at the
    # deal or after the first move in about 1% of cases, and the events differ).
    assert race_seed_ok(EXACT_SEED)
    # Anna's start and move must come before the end: 8 s of race.
    rid = seeded_race(live.stack, EXACT_SEED, name="live", starts_in=10, seconds=8)
    reader = live.stream(f"races/{rid}/events")
    try:
        assert reader.status == 200
        assert reader.response_headers["content-type"].startswith("text/event-stream")
        assert reader.response_headers["cache-control"] == "private, no-cache, no-transform"
        assert reader.response_headers["x-accel-buffering"] == "no"
        seen: list[Event | str] = [reader.next()]
        assert live.call("POST", f"races/{rid}/join", anna).status_code == 201
        seen.append(reader.next())
        assert live.call("POST", f"races/{rid}/join", bert).status_code == 201
        seen.append(reader.next())
        seen.append(reader.next())  # running, by the server clock
        game = live.call("POST", f"races/{rid}/start", anna).json()
        move = DefaultStrategy(seed=0)(game)
        assert move is not None
        played = live.call(
            "POST",
            f"games/{game['id']}/moves",
            anna,
            json={"move": move, "expected_move_number": 0},
        )
        assert played.status_code == 201, played.text
        assert played.json()["game"]["status"] == "playing"
        while True:
            event = reader.next()
            seen.append(event)
            if event == END:
                break
    finally:
        reader.close()
    assert [_summary(e) for e in seen] == [
        ("snapshot", "open", 0),
        # Before the start an entrant has no counts (games.selectors.races.race_standings).
        ("standings", "open", (("anna", None),)),
        ("standings", "open", (("anna", None), ("bert", None))),
        ("phase", "running"),
        ("standings", "running", (("anna", 1), ("bert", 0))),
        ("phase", "closing"),
        ("phase", "finished"),
        ("standings", "finished", (("anna", 1), ("bert", 0))),
        (END,),
    ]
    events = [e for e in seen if isinstance(e, Event)]
    # The last two (the phase that ends the race, the final standings) are marked as the
    # stream's end; the others are bare sequence numbers.
    assert [e.id.endswith(".end") for e in events] == [False] * (len(events) - 2) + [True] * 2
    ids = [int(e.id.removesuffix(".end")) for e in events]
    assert ids == sorted(ids)
    assert ids[:3] == [0, 1, 2]  # snapshot, then one sequence number per join
    assert ids[4] == 3  # the move
    for event in events[:-2]:
        _no_secret(event, None)
    # Each standings carries the count of all its lines and where to read them (the first
    # 100 come: games.selectors.races.race_standings_view, api.streams.RACE_TOP).
    carrying = [e for e in events if e.event in ("snapshot", "standings")]
    assert [e.data["count"] for e in carrying] == [0, 1, 2, 2, 2]
    assert [len(e.data["standings"]) for e in carrying] == [0, 1, 2, 2, 2]
    assert {e.data["url"] for e in carrying} == {f"/api/v1/races/{rid}/standings"}
    assert events[-2].data["results_url"] == f"/api/v1/races/{rid}/results"
    results = live.call("GET", f"races/{rid}/results").json()
    assert events[-1].data["standings"][0]["player"] == results["entries"][0]["player"]
    # Reconnecting after the stream's last event: 204, nothing more to say.
    again = live.stream(f"races/{rid}/events", **{"Last-Event-ID": events[-1].id})
    try:
        assert again.status == 204
    finally:
        again.close()
    # A client that saw "closing" but not "finished" sends a number as high as the
    # topic's (the clock's phase events carry the last message's number): it gets a
    # snapshot of the finished race, marked as the end, not a 204 that hid the finish.
    closing = next(e for e in events if e.event == "phase" and e.data["phase"] == "closing")
    missed = live.stream(f"races/{rid}/events", **{"Last-Event-ID": closing.id})
    try:
        snapshot = missed.expect("snapshot")
        assert snapshot.data["race"]["phase"] == "finished"
        assert snapshot.id.endswith(".end")
        assert missed.next() == END
    finally:
        missed.close()
    final = live.stream(f"races/{rid}/events", **{"Last-Event-ID": snapshot.id})
    try:
        assert final.status == 204
    finally:
        final.close()


def test_reconnect_with_last_event_id_gets_a_snapshot_with_what_was_missed(live: Live) -> None:
    race = live.race(starts_in=600, lasts=60)
    rid = race["id"]
    first = live.stream(f"races/{rid}/events")
    snap = first.expect("snapshot")
    first.close()
    assert snap.data["race"]["entrants"] == 0
    assert snap.data["last_event_id"] is None
    # While disconnected, someone joins.
    assert live.call("POST", f"races/{rid}/join", live.user("carl")).status_code == 201
    again = live.stream(f"races/{rid}/events", **{"Last-Event-ID": snap.id})
    try:
        resumed = again.expect("snapshot")
        assert resumed.data["last_event_id"] == int(snap.id)
        assert int(resumed.id) == int(snap.id) + 1
        assert [r["player"] for r in resumed.data["standings"]] == ["carl"]
        # Idle: heartbeat comments (every LIVE_HEARTBEAT_SECONDS = 1 s here) keep it open.
        deadline = time.monotonic() + 10
        while again.comments < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert again.comments >= 1
    finally:
        again.close()


def test_problems_before_the_stream_starts(live: Live) -> None:
    dora, emil = live.user("dora"), live.user("emil")
    # A deal still playing (a stream on an ended game closes after its snapshot and
    # gives its slot back: a random deal blocked at the deal failed the cap check).
    game = live.game(dora, "live-cap")
    cases = [
        (live.stream(f"races/{'0' * 8}-0000-4000-8000-{'0' * 12}/events"), 404, "not_found"),
        (live.stream(f"games/{game['id']}/events"), 401, "not_authenticated"),
        (live.stream(f"games/{game['id']}/events", "bad-token"), 401, "authentication_failed"),
        (live.stream(f"games/{game['id']}/events", emil), 404, "not_found"),
    ]
    # A token sent with another scheme: the 401 names the scheme that works.
    bearer = live.stream(f"games/{game['id']}/events", Authorization=f"Bearer {dora}")
    assert (bearer.status, bearer.problem()["code"]) == (401, "not_authenticated")
    assert "Use 'Authorization: Token <key>'" in bearer.problem()["detail"]
    bearer.close()
    for reader, status, code in cases:
        assert reader.status == status
        assert reader.response_headers["content-type"] == "application/problem+json"
        assert reader.problem()["code"] == code
        reader.close()
    # The per-user cap: CAP streams open, one more is 429 with Retry-After.
    open_ = [live.stream(f"games/{game['id']}/events", dora) for _ in range(CAP)]
    try:
        assert [r.status for r in open_] == [200] * CAP
        extra = live.stream(f"games/{game['id']}/events", dora)
        assert extra.status == 429
        assert extra.problem()["code"] == "too_many_streams"
        assert int(extra.response_headers["retry-after"]) > 0
        extra.close()
    finally:
        for r in open_:
            r.close()
    # Closing one frees its slot (bounded wait: the server notices the disconnect).
    deadline = time.monotonic() + 15
    while True:
        reader = live.stream(f"games/{game['id']}/events", dora)
        status = int(reader.status or 0)
        reader.close()
        if status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert status == 200


def _hidden(state: GameState) -> set[str]:
    d = state.to_dict()
    face_down = [] if d["rules"]["reserve_face_up"] else list(d["reserve"])[:-1]
    return set(face_down) | set(d["stock"])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_game_stream_shows_exactly_the_rest_view_on_every_preset(live: Live, preset: str) -> None:
    """A whole game on each preset: every event is the REST view and names no hidden card."""
    token = live.user(f"hid-{preset}")
    seed = f"live-hidden-{preset}"
    game = live.call("POST", "games", token, json={"variant": preset, "seed": seed}).json()
    state = layout(parse_deck(deal_deck(seed)), make_rules(preset))
    reader = live.stream(f"games/{game['id']}/events", token)
    strategy = DefaultStrategy(seed=1)
    try:
        snap = reader.expect("snapshot")
        assert snap.data["game"] == game
        assert not set(CARD.findall(str(snap.data))) & _hidden(state)
        view = game
        for _ in range(400):
            move = strategy(view)
            if move is None:
                r = live.call("POST", f"games/{game['id']}/resign", token)
                state.end("resigned")
                view = r.json()
            else:
                r = live.call(
                    "POST",
                    f"games/{game['id']}/moves",
                    token,
                    json={"move": move, "expected_move_number": view["move_number"]},
                )
                assert r.status_code == 201, r.text
                state.play(r.json()["move"])
                view = r.json()["game"]
            event = reader.expect("game")
            assert event.data == view
            assert not set(CARD.findall(str(event.data))) & _hidden(state), event.data
            if view["status"] != "playing" and view["undo_allowed"]:
                # Blocked, its last move may still be taken back: the stream goes on
                # until the player ends the game for good.
                assert view["status"] == "blocked"
                with pytest.raises(queue.Empty):  # no end while it can be undone
                    reader.next(timeout=0.5)
                view = live.call("POST", f"games/{game['id']}/resign", token).json()
                state.end("resigned")
                assert reader.expect("game").data == view
            if view["status"] != "playing":
                break
        assert view["status"] != "playing"
        assert reader.next() == END  # the stream ends after a game that is over
    finally:
        reader.close()


def test_redis_outage_ends_streams_moves_still_work_streams_resume(live: Live) -> None:
    token = live.user("fred")
    # A deal on which the bot's first two moves leave the game playing (a random deal
    # blocked at the deal ended the stream before the outage; one blocked after a
    # move left the bot nothing to play).
    game = live.game(token, "live-outage")
    reader = live.stream(f"games/{game['id']}/events", token)
    try:
        assert reader.expect("snapshot").data["game"]["move_number"] == 0
        live.redis.kill()
        gone = reader.expect("unavailable")
        assert gone.data["reason"] == "unavailable"
        assert reader.next() == END
    finally:
        reader.close()
    # The move is accepted during the outage.
    move = DefaultStrategy(seed=0)(game)
    assert move is not None
    r = live.call(
        "POST", f"games/{game['id']}/moves", token, json={"move": move, "expected_move_number": 0}
    )
    assert r.status_code == 201, r.text
    refused = live.stream(f"games/{game['id']}/events", token)
    assert refused.status == 503
    assert refused.problem()["code"] == "live_unavailable"
    refused.close()
    live.redis.start()
    deadline = time.monotonic() + 20
    while True:
        back = live.stream(f"games/{game['id']}/events", token)
        if back.status == 200 or time.monotonic() > deadline:
            break
        back.close()
        time.sleep(0.25)
    try:
        assert back.status == 200
        assert back.expect("snapshot").data["game"]["move_number"] == 1
        view = r.json()["game"]
        assert view["status"] == "playing"
        nxt = DefaultStrategy(seed=0)(view)
        assert nxt is not None
        # Publishing resumes once RETRY_AFTER_S has passed since the failed publish.
        time.sleep(RETRY_AFTER_S + 0.1)
        r2 = live.call(
            "POST",
            f"games/{game['id']}/moves",
            token,
            json={"move": nxt, "expected_move_number": 1},
        )
        assert r2.status_code == 201, r2.text
        assert back.expect("game").data["move_number"] == 2
    finally:
        back.close()


def test_a_revoked_token_ends_its_streams(live: Live) -> None:
    """Logout revokes a token at once: its game stream gets no event after it, and a
    public stream opened with it ends at its next heartbeat (1 s here)."""
    password = secrets.token_urlsafe(12)
    r = live.call("POST", "auth/register", json={"username": "gwen", "password": password})
    assert r.status_code == 201, r.text
    first = str(r.json()["token"])
    second = live.call(
        "POST", "auth/token", json={"username": "gwen", "password": password}
    ).json()["token"]
    game = live.game(first, "live-revoke")
    race = live.race(starts_in=120, lasts=60)
    private = live.stream(f"games/{game['id']}/events", first)
    public = live.stream(f"races/{race['id']}/events", first)
    try:
        assert private.expect("snapshot").data["game"]["move_number"] == 0
        assert public.expect("snapshot").data["race"]["id"] == race["id"]
        assert live.call("POST", "auth/logout", first).status_code == 204
        move = DefaultStrategy(seed=0)(game)
        assert move is not None
        r = live.call(
            "POST",
            f"games/{game['id']}/moves",
            second,
            json={"move": move, "expected_move_number": 0},
        )
        assert r.status_code == 201, r.text
        assert private.next() == END  # no `game` event for the revoked token
        assert public.next() == END
        again = live.stream(f"games/{game['id']}/events", first)
        assert again.status == 401
        assert again.problem()["code"] == "authentication_failed"
        again.close()
        # The other token still streams the same game.
        still = live.stream(f"games/{game['id']}/events", second)
        assert still.expect("snapshot").data["game"]["move_number"] == 1
        still.close()
    finally:
        private.close()
        public.close()


def test_a_game_stream_ends_when_its_deadline_passes_with_no_event(live: Live) -> None:
    """A window race game's deadline passes with no event (nothing is published until the
    race closes): the stream ends at a heartbeat instead of holding its slot, and a play
    page's script (app.js followGame) then stops following it."""
    token = live.user("wendy")
    # A deal playing at the deal (a random one is blocked there in about 1% of cases, and
    # its game is over before the stream opens).
    assert race_seed_ok("live-window")
    rid = seeded_race(
        live.stack, "live-window", name="window", starts_in=1, seconds=120, time_limit_s=5
    )
    deadline = time.monotonic() + 15
    while True:  # the start is a second away: ask until the server's clock passes it
        started = live.call("POST", f"races/{rid}/start", token)
        if started.status_code == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert started.status_code == 200, started.text
    game = started.json()
    stream = live.stream(f"games/{game['id']}/events", token)
    try:
        assert stream.expect("snapshot").data["game"]["status"] == "playing"
        assert stream.next(timeout=20) == END  # five seconds of play, then a heartbeat
    finally:
        stream.close()
    view = live.call("GET", f"games/{game['id']}", token).json()
    assert (view["status"], view["finished_at"] is not None) == ("timed_out", True)


def test_static_files_and_rest_are_served_under_asgi(live: Live) -> None:
    """The ASGI app serves what the WSGI one does (static files through WhiteNoise, REST)."""
    css = httpx.get(f"{live.url}/static/admin/css/base.css", timeout=20)
    assert css.status_code == 200
    assert css.headers["content-type"].startswith("text/css")
    assert live.call("GET", "health").json()["status"] == "ok"


def test_tournament_stream_race_added_finished_and_rescored(live: Live) -> None:
    """A tournament's stream: a race added, the race finished, standings re-scored."""
    draft = live.call(
        "POST", "tournaments", live.staff_token, json={"name": "hidden", "status": "draft"}
    ).json()
    hidden = live.stream(f"tournaments/{draft['id']}/events")
    assert hidden.status == 404  # a draft is the organisers' (as GET /tournaments/{id})
    hidden.close()
    staff_view = live.stream(f"tournaments/{draft['id']}/events", live.staff_token)
    assert staff_view.expect("snapshot").data["tournament"]["status"] == "draft"
    staff_view.close()

    t = live.call("POST", "tournaments", live.staff_token, json={"name": "cup"}).json()
    reader = live.stream(f"tournaments/{t['id']}/events")
    try:
        snap = reader.expect("snapshot")
        assert snap.data["tournament"]["races"] == []
        gina = live.user("gina")
        # Joining stays open to the end (late_join_s = duration_s): the join has 9 s.
        first = datetime.now(UTC) + timedelta(seconds=5)
        added = live.call(
            "POST",
            f"tournaments/{t['id']}/races",
            live.staff_token,
            json={
                "count": 1,
                "first_starts_at": first.isoformat(),
                "duration_s": 4,
                "late_join_s": 4,
            },
        )
        assert added.status_code == 201, added.text
        race_id = added.json()["races"][0]["id"]
        event = reader.expect("race_added")
        assert [r["id"] for r in event.data["races"]] == [race_id]
        assert event.data["races"][0]["seed"] is None
        assert live.call("POST", f"races/{race_id}/join", gina).status_code == 201
        # The sweeper (the worker's beat) closes the race after its end (bounded wait).
        deadline = time.monotonic() + 30
        while live.call("GET", f"races/{race_id}").json()["phase"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.3)
        finished = reader.expect("race_finished")
        assert finished.data["race"]["id"] == race_id
        assert finished.data["results_url"] == f"/api/v1/races/{race_id}/results"
        standings = reader.expect("standings")
        assert [r["player"] for r in standings.data["standings"]] == ["gina"]
        assert live.call("POST", f"tournaments/{t['id']}/rescore", live.staff_token).is_success
        again = reader.expect("standings")
        assert again.data["standings"] == standings.data["standings"]
        assert int(again.id) > int(standings.id) > int(finished.id) > int(event.id)
    finally:
        reader.close()


def _organisers(live: Live, call: str) -> None:
    """Run a tournament service in the server's database, as the admin's actions do."""
    live.stack.manage(
        "shell", "--no-imports", "-c",
        "from games.services.tournaments import tournament_set_status\n" + call,
    )  # fmt: skip


def _until_the_end(reader: Any) -> list[Any]:
    seen: list[Any] = []
    while True:
        event = reader.next()
        seen.append(event)
        if event == END:
            return seen


def test_cancelling_a_tournament_sends_its_status_and_ends_the_stream(live: Live) -> None:
    """Cancelling: the ``status`` event, then the final standings, both the stream's end,
    and the stream closes (it used to get a ``standings`` event and stay open)."""
    t = live.call("POST", "tournaments", live.staff_token, json={"name": "off"}).json()
    first = datetime.now(UTC) + timedelta(hours=1)
    added = live.call(
        "POST",
        f"tournaments/{t['id']}/races",
        live.staff_token,
        json={"count": 1, "first_starts_at": first.isoformat(), "duration_s": 60},
    )
    assert added.status_code == 201, added.text
    reader = live.stream(f"tournaments/{t['id']}/events")
    try:
        snap = reader.expect("snapshot")
        assert snap.data["tournament"]["status"] == "open"
        _organisers(live, f"tournament_set_status(tournament_id={t['id']!r}, status='cancelled')")
        seen = _until_the_end(reader)
    finally:
        reader.close()
    assert [e if e == END else (e.event, e.id.endswith(".end")) for e in seen] == [
        ("status", True),
        ("standings", True),
        END,
    ]
    status, standings = seen[0], seen[1]
    assert (status.data["tournament"], status.data["status"]) == (t["id"], "cancelled")
    assert standings.data["standings"] == []
    assert int(status.id.removesuffix(".end")) > int(snap.id)
    # The end was seen: a reconnect with its id has nothing more to say.
    again = live.stream(f"tournaments/{t['id']}/events", **{"Last-Event-ID": standings.id})
    try:
        assert again.status == 204
    finally:
        again.close()
    race = live.call("GET", f"races/{added.json()['races'][0]['id']}").json()
    assert race["phase"] == "cancelled"


def test_publishing_and_finishing_a_tournament_send_its_status(live: Live) -> None:
    """Publishing a draft sends ``status`` ``open`` and the stream goes on; finishing
    sends ``status`` ``finished`` and the final standings, and the stream ends."""
    draft = live.call(
        "POST", "tournaments", live.staff_token, json={"name": "soon", "status": "draft"}
    ).json()
    reader = live.stream(f"tournaments/{draft['id']}/events", live.staff_token)
    try:
        assert reader.expect("snapshot").data["tournament"]["status"] == "draft"
        _organisers(live, f"tournament_set_status(tournament_id={draft['id']!r}, status='open')")
        opened = reader.expect("status")
        assert (opened.data["status"], opened.id.endswith(".end")) == ("open", False)
        _organisers(
            live, f"tournament_set_status(tournament_id={draft['id']!r}, status='finished')"
        )
        seen = _until_the_end(reader)
    finally:
        reader.close()
    assert [e if e == END else (e.event, e.id.endswith(".end")) for e in seen] == [
        ("status", True),
        ("standings", True),
        END,
    ]
    assert seen[0].data["status"] == "finished"


def _move(live: Live, race_id: str, tournament_id: str) -> None:
    """Move a race into a tournament in the server's database, as the race's change form
    in the admin does (``race_move``; its messages go through this test's Redis)."""
    live.stack.manage(
        "shell", "--no-imports", "-c",
        "from games.services.race_admin import race_move\n"
        f"race_move(race_id={race_id!r}, tournament_id={tournament_id!r})",
    )  # fmt: skip


def test_a_race_moved_into_a_draft_tournament_ends_the_public_streams(live: Live) -> None:
    """An attacker's report: an anonymous stream opened before an organiser moved a public
    race into a draft tournament went on with the countdown, the phases (with
    ``results_url``) and the standings naming the organiser who rehearsed it, while
    ``GET /races/{id}`` answered 404.  Now it gets ``gone`` (the stream's end) and closes;
    the organiser's stream goes on; the public tournament the race left hears
    ``race_removed``."""
    rid = live.race(starts_in=600, lasts=60)["id"]
    cup = live.call("POST", "tournaments", live.staff_token, json={"name": "cup"}).json()
    draft = live.call(
        "POST", "tournaments", live.staff_token, json={"name": "rehearsal", "status": "draft"}
    ).json()
    _move(live, rid, cup["id"])
    anonymous = live.stream(f"races/{rid}/events")
    organiser = live.stream(f"races/{rid}/events", live.staff_token)
    tournament = live.stream(f"tournaments/{cup['id']}/events")
    try:
        anonymous.expect("snapshot")
        organiser.expect("snapshot")
        assert [r["id"] for r in tournament.expect("snapshot").data["tournament"]["races"]] == [rid]
        _move(live, rid, draft["id"])
        # At most a few countdowns (one per 5 s) came before the move: then ``gone``.
        before: list[Any] = []
        while len(before) < 4:
            event = anonymous.next(skip=())
            if not isinstance(event, Event) or event.event != "countdown":
                break
            before.append(event)
        assert len(before) < 4, "the stream went on after the move"
        assert isinstance(event, Event), event
        assert event.event == "gone", event
        gone = event
        assert gone.id.endswith(".end")
        assert gone.data["reason"] == "not_found"
        assert anonymous.next() == END
        removed = tournament.expect("race_removed")
        assert (removed.data["tournament"], removed.data["race"]) == (cup["id"], rid)
        assert live.call("GET", f"races/{rid}").status_code == 404
        again = live.stream(f"races/{rid}/events", **{"Last-Event-ID": gone.id})
        try:
            assert again.status == 404
        finally:
            again.close()
        # The organiser's stream goes on: its next countdown (every 5 s) still comes.
        event = organiser.next(skip=())
        assert isinstance(event, Event), event
        assert event.event == "countdown", event
    finally:
        anonymous.close()
        organiser.close()
        tournament.close()


def test_race_page_follows_the_stream_in_a_browser(live: Live, chromium: Any) -> None:
    """The race page's live part opens the race stream and refreshes on its events.

    Once the stream is open the page polls only every 15 s, so a join shown within 10 s
    came through the stream (the page's first 1-second poll is waited out before it).
    """
    race = live.race(starts_in=600, lasts=60)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(f"{live.url}/races/{race['id']}/")
        page.wait_for_selector('#race-live[data-stream="open"]', timeout=15_000)
        assert "0 entrants" in page.inner_text("#race-live")
        page.wait_for_timeout(1_500)  # past the first poll: from now on only the stream
        assert live.call("POST", f"races/{race['id']}/join", live.user("sam")).status_code == 201
        page.locator("#race-live", has_text="1 entrant").wait_for(timeout=10_000)
        assert page.get_attribute("#race-live", "data-stream") == "open"
    finally:
        context.close()


def test_play_page_redraws_when_the_organisers_disqualify_and_reinstate(
    live: Live, chromium: Any
) -> None:
    """An open play page follows its game's event stream (app.js followGame): when the
    organisers disqualify the player, the board is drawn again as over with their reason,
    and again as playing when they lift it, with no move and no reload.

    The play page has no poll, so a redraw can only come through the stream."""
    password = secrets.token_urlsafe(12)
    r = live.call("POST", "auth/register", json={"username": "pia", "password": password})
    assert r.status_code == 201, r.text
    token = str(r.json()["token"])
    assert race_seed_ok("live-disqualified")  # playing at the deal
    rid = seeded_race(live.stack, "live-disqualified", name="dq", starts_in=1, seconds=300)
    game_id = live.call("POST", f"races/{rid}/join", token).json()["game_id"]
    deadline = time.monotonic() + 20
    while live.call("GET", f"games/{game_id}", token).status_code != 200:  # not started yet
        assert time.monotonic() < deadline, "the race did not start"
        time.sleep(0.3)

    def organisers(call: str) -> None:
        live.stack.manage(
            "shell", "--no-imports", "-c",
            "from games.models import RaceEntry\n"
            "from games.services.race_admin import race_entry_disqualify, race_entry_reinstate\n"
            f"entry = RaceEntry.objects.get(race_id={rid!r}, player__username='pia')\n"
            f"{call}\n",
        )  # fmt: skip

    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    try:
        page = context.new_page()
        log_in(page, live.url, "pia", password)
        page.goto(f"{live.url}/play/{game_id}/")
        board = page.locator("#board")
        board.wait_for()
        assert board.get_attribute("data-game-events") == game_id
        assert board.get_attribute("data-disqualified") is None
        assert board.get_attribute("data-legal")
        organisers("race_entry_disqualify(entry_id=entry.id, reason='Two accounts')")
        page.locator("#board[data-disqualified='1']", has_text="Two accounts").wait_for(
            timeout=15_000
        )
        assert "over" in (board.get_attribute("class") or "").split()
        assert board.get_attribute("data-move-url") is None  # no move can be sent
        assert page.locator("button.danger").is_disabled()  # Resign
        page.locator(".controls").wait_for(state="hidden")  # nothing left to press
        screenshot(page, "live-play-disqualified")
        organisers("race_entry_reinstate(entry_id=entry.id)")
        page.locator("#board[data-move-url]:not([data-disqualified])").wait_for(timeout=15_000)
        assert "Two accounts" not in board.inner_text()
        assert page.locator("button.danger").is_enabled()
        assert page.locator(".controls").is_visible()
        assert page.locator("details.typed").is_visible()
    finally:
        context.close()
