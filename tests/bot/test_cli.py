"""``python -m canfield_bot``: arguments, output and exit status, against a fake race API."""

from __future__ import annotations

import functools
import hashlib
import types
from typing import Any

import pytest

import canfield_bot.__main__ as cli
import canfield_bot.bot as bot_module
from canfield_bot.__main__ import load_strategy, main, standings_table
from canfield_bot.client import CanfieldClient
from canfield_bot.strategy import DefaultStrategy, first_legal
from tests.bot.fake_api import BASE, FakeApi, FakeRace, ok, problem


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


PLAN = ["5S>f", "QH>t2", "JC>t2", "6S>f"]
ENTRIES: list[dict[str, Any]] = [
    {"rank": 1, "player": "t-1", "cards_home": 3, "moves": 4, "elapsed_ms": 1234, "status": "won"},
    {"rank": 1, "player": "t-2", "cards_home": 3, "moves": 4, "elapsed_ms": 1234, "status": "won"},
    {
        "rank": None,
        "player": "a-rather-long-player-name",
        "cards_home": None,
        "moves": None,
        "elapsed_ms": None,
        "status": "did_not_start",
    },
]
TABLE = (
    "rank  player                   cards moves   time s  status\n"
    "-----------------------------------------------------------\n"
    "   1  t-1                          3     4    1.234  won\n"
    "   1  t-2                          3     4    1.234  won\n"
    "   -  a-rather-long-player-name     -     -        -  did_not_start"
)


def by_bot(err: str) -> dict[str, list[str]]:
    """The progress lines ``name: text`` on stderr, as each name's texts in order (the
    bots run concurrently: how their lines interleave is not fixed)."""
    lines: dict[str, list[str]] = {}
    for line in err.splitlines():
        name, _, text = line.partition(": ")
        lines.setdefault(name, []).append(text)
    return lines


@pytest.fixture
def race(api: FakeApi, monkeypatch: pytest.MonkeyPatch) -> FakeRace:
    """A running race on the fake API; every client the command opens talks to it."""
    connect = functools.partial(CanfieldClient, transport=api.transport)
    monkeypatch.setattr(cli, "CanfieldClient", connect)
    monkeypatch.setattr(bot_module, "CanfieldClient", connect)
    monkeypatch.setattr(
        cli,
        "secrets",
        types.SimpleNamespace(token_hex=lambda n: "c0ffee", token_urlsafe=lambda n: "s3cret"),
    )
    return FakeRace(api, PLAN, phase="running")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "error: the following arguments are required: --race"),
        (["--race", "r1", "--bots", "many"], "error: argument --bots: invalid int value: 'many'"),
        (["--race", "r1", "--bots", "0"], "error: argument --bots: must be 1 or more, not 0"),
        (
            ["--race", "r1", "--think", "soon"],
            "error: argument --think: invalid float value: 'soon'",
        ),
        (
            ["--race", "r1", "--on-stuck", "cycle"],
            "error: argument --on-stuck: invalid choice: 'cycle'",
        ),
        (["--race", "r1", "--colour"], "error: unrecognized arguments: --colour"),
        (
            ["--race", "r1", "--retry-seconds", "-1"],
            "error: argument --retry-seconds: must be 0 or more, not -1",
        ),
        (
            ["--race", "r1", "--retry-seconds", "inf"],
            "error: argument --retry-seconds: must be 0 or more, not inf",
        ),
        (
            ["--race", "r1", "--retry-seconds", "soon"],
            "error: argument --retry-seconds: invalid number of seconds: 'soon'",
        ),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    api: FakeApi, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m canfield_bot [-h] [--base-url BASE_URL] --race RACE")
    assert message in err
    assert api.requests == []


def test_help(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "2000")  # one line per option
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "python -m canfield_bot --base-url URL --race ID --bots N" in out
    options: dict[str, str] = {}  # option -> its help, on one line
    for line in out.split("options:")[1].splitlines():
        if line.startswith("  -"):
            option = line.split()[0].rstrip(",")
            options[option] = line
        elif line.strip():
            options[option] += " " + line.strip()
    defaults = {
        "-h": None,
        "--base-url": "(default: http://127.0.0.1:8000)",
        "--race": "/races/<id>/ or GET /api/v1/races?phase=open (required, no default)",
        "--bots": "(default: 5)",
        "--think": "(default: 0.2)",
        "--prefix": "(default: bot-<random>-)",
        "--password": "(default: random)",
        "--strategy": "PYTHONPATH (default: the built-in DefaultStrategy)",
        "--on-stuck": "(default: resign)",
        "--retry-seconds": "(default: 60.0)",
        "--wait-results": "(default: off)",
        "--quiet": "(default: off)",
    }
    assert list(options) == list(defaults)
    for option, default in defaults.items():
        if default is not None:
            assert options[option].endswith(default), options[option]


def test_a_strategy_is_module_colon_name(race: FakeRace, api: FakeApi) -> None:
    assert load_strategy("canfield_bot.strategy:first_legal") is first_legal
    assert load_strategy("canfield_bot.strategy:DefaultStrategy") is DefaultStrategy
    with pytest.raises(SystemExit, match=r"^--strategy must be module:name, not 'first_legal'$"):
        main(["--race", "r1", "--strategy", "first_legal"])
    assert api.requests == []  # refused before any bot starts
    # A module or a name that is not there: one line, no traceback.
    with pytest.raises(SystemExit, match=r"^--strategy nosuchmod:x: cannot import 'nosuchmod'"):
        main(["--race", "r1", "--strategy", "nosuchmod:x"])
    with pytest.raises(
        SystemExit, match=r"^--strategy canfield_bot.strategy:nope: 'canfield_bot.strategy' has"
    ):
        main(["--race", "r1", "--strategy", "canfield_bot.strategy:nope"])
    with pytest.raises(SystemExit, match=r"^--strategy must be module:name, not ':first_legal'$"):
        load_strategy(":first_legal")
    with pytest.raises(SystemExit, match=r"'__doc__' is not a function or class$"):
        load_strategy("canfield_bot.strategy:__doc__")
    assert api.requests == []


def test_the_bots_play_and_the_results_are_printed(
    race: FakeRace, api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    race.results = {"seed": "42", "commitment_verified": True, "entries": ENTRIES}
    api.route("GET", "races/r1", lambda _r: ok({"id": "r1", "commitment": sha256_hex("42")}))
    argv = ["--base-url", BASE, "--race", "r1", "--bots", "2", "--prefix", "t-"]
    argv += ["--password", "pw", "--think", "0", "--wait-results"]
    argv += ["--strategy", "canfield_bot.strategy:first_legal"]

    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "t-1: won with 3 cards home after 4 moves",
        "t-2: won with 3 cards home after 4 moves",
        *TABLE.splitlines(),
        "seed 42  commitment verified: True",
    ]
    # Progress on stderr, so stdout keeps only the results: no line per move.
    assert by_bot(err) == {
        "t-1": ["joined race r1", "game g-t-1 started", "game over: won, 3 cards home, 4 moves"],
        "t-2": ["joined race r1", "game g-t-2 started", "game over: won, 3 cards home, 4 moves"],
    }
    assert race.passwords == {"t-1": "pw", "t-2": "pw"}
    assert [g.played for g in race.games.values()] == [PLAN, PLAN]
    assert api.paths()[-1] == "GET races/r1/results"
    assert "Authorization" not in api.requests[-1].headers  # results are public


def test_the_seed_is_checked_against_the_commitment_read_before_the_race(
    race: FakeRace, api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    """The results' own commitment_verified is the server's word: it said true beside a
    seed whose SHA-256 is not the commitment published before the race, and the command
    printed "commitment verified: True"."""
    published = sha256_hex("the seed committed to")
    api.route("GET", "races/r1", lambda _r: ok({"id": "r1", "commitment": published}))
    race.results = {
        "seed": "42",
        "commitment": sha256_hex("42"),  # swapped with the seed
        "commitment_verified": True,
        "entries": ENTRIES,
    }
    argv = ["--base-url", BASE, "--race", "r1", "--bots", "1", "--prefix", "t-"]
    argv += ["--password", "pw", "--think", "0", "--wait-results"]
    argv += ["--strategy", "canfield_bot.strategy:first_legal"]

    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == "seed 42  commitment verified: False"
    assert f"does not match the commitment {published}" in err
    assert api.paths()[0] == "GET races/r1"  # read before any bot joined


def test_a_failed_bot_makes_the_exit_status_1(
    race: FakeRace, api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    race.passwords["bot-c0ffee-2"] = "somebody else's"  # the name is taken
    argv = ["--base-url", BASE, "--race", "r1", "--bots", "2", "--think", "0"]
    argv += ["--on-stuck", "stop", "--strategy", "canfield_bot.strategy:first_legal"]
    argv += ["--quiet"]  # no progress lines: stderr has the failure only

    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "bot-c0ffee-1: won with 3 cards home after 4 moves\n"
    assert err == (
        "bot-c0ffee-2: FAILED ApiError('400 invalid_credentials: "
        "Unknown username or wrong password.')\n"
    )
    # Default names and password come from `secrets` (patched here).
    assert race.passwords["bot-c0ffee-1"] == "s3cret"
    assert "GET races/r1/results" not in api.paths()  # not asked for


def test_a_race_that_is_not_there_creates_no_bot_account(
    race: FakeRace, api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new bot author gave a wrong race id: every bot registered an account, then failed
    to join with "404 not_found: No API resource at this address." (and a traceback).  The
    command now reads the race first and says, once, where a race id is found."""
    argv = ["--base-url", BASE, "--race", "r9", "--bots", "3", "--think", "0", "--quiet"]

    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "race r9: not found (404 not_found: No such resource.); a race id is in its page's "
        "address, /races/<id>/, or in GET /api/v1/races?phase=open\n"
    )
    assert api.paths() == ["GET races/r9"]
    assert race.passwords == {}


@pytest.mark.parametrize("phase", ["closing", "finished", "cancelled"])
def test_a_race_that_is_over_creates_no_bot_account(
    race: FakeRace, api: FakeApi, capsys: pytest.CaptureFixture[str], phase: str
) -> None:
    race.phase = phase
    argv = ["--base-url", BASE, "--race", "r1", "--bots", "2", "--think", "0"]

    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"race r1 is {phase}: there is nothing left to join\n"
    assert api.paths() == ["GET races/r1"]
    assert race.passwords == {}


def test_another_refusal_of_the_first_read_is_left_to_the_bots(
    race: FakeRace, api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only "not found" and a race that is over stop the command before the bots: any other
    answer to the first read (here a 403) is left to them, as before that read."""
    race.phase = "running"
    api.reply("GET", "races/r1", problem(403, "permission_denied", "Not yours."))
    argv = ["--base-url", BASE, "--race", "r1", "--bots", "1", "--think", "0", "--quiet"]
    argv += ["--retry-seconds", "0", "--strategy", "canfield_bot.strategy:first_legal"]

    assert main(argv) == 0
    out, _err = capsys.readouterr()
    assert out == "bot-c0ffee-1: won with 3 cards home after 4 moves\n"


@pytest.mark.parametrize(("argv", "seconds"), [([], 60.0), (["--retry-seconds", "5.5"], 5.5)])
def test_each_bots_client_retries_for_the_retry_seconds(
    race: FakeRace, monkeypatch: pytest.MonkeyPatch, argv: list[str], seconds: float
) -> None:
    made: list[CanfieldClient] = []

    def connect(*args: Any, **options: Any) -> CanfieldClient:
        made.append(CanfieldClient(*args, transport=race.api.transport, **options))
        return made[-1]

    monkeypatch.setattr(bot_module, "CanfieldClient", connect)
    argv = ["--base-url", BASE, "--race", "r1", "--bots", "2", "--think", "0", "--quiet", *argv]
    argv += ["--on-stuck", "stop", "--strategy", "canfield_bot.strategy:first_legal"]
    assert main(argv) == 0
    assert [c.retry_seconds for c in made] == [seconds, seconds]


def test_the_bots_say_when_they_join_wait_start_and_end(
    race: FakeRace, api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    """A race not started yet: one line for the race while the bots wait (its start
    time), one per bot when it joins, when its game starts and when it ends."""
    race.phase = "open"

    def not_yet(_request: object) -> Any:
        race.phase = "running"  # the next call finds it running
        return problem(409, "race_not_started", "the race has not started yet")

    api.reply("POST", "races/r1/start", not_yet)
    race.game_options = {"ends": "blocked"}
    argv = ["--base-url", BASE, "--race", "r1", "--bots", "2", "--prefix", "t-"]
    argv += ["--password", "pw", "--think", "0", "--on-stuck", "stop"]
    argv += ["--strategy", "canfield_bot.strategy:first_legal"]

    assert main(argv) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    waiting = "race r1: waiting for the start at 2026-12-05T07:00:00Z"
    assert lines.count(waiting) == 1  # once for the race, not per bot
    assert lines.index(waiting) < min(i for i, x in enumerate(lines) if "started" in x)
    assert by_bot(err) == {
        "race r1": ["waiting for the start at 2026-12-05T07:00:00Z"],
        "t-1": [
            "joined race r1",
            "game g-t-1 started",
            "game over: blocked, 3 cards home, 4 moves",
        ],
        "t-2": [
            "joined race r1",
            "game g-t-2 started",
            "game over: blocked, 3 cards home, 4 moves",
        ],
    }
    assert out.splitlines() == [
        "t-1: blocked with 3 cards home after 4 moves",
        "t-2: blocked with 3 cards home after 4 moves",
    ]


def test_standings_table() -> None:
    assert standings_table(ENTRIES) == TABLE
    assert standings_table([]) == "\n".join(TABLE.splitlines()[:2])


def test_a_server_that_does_not_answer_is_said_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No server at --base-url: the first read of the race gave up after the client's
    retries and, with --wait-results, ended in a traceback (without it every bot then
    retried the same for a minute).  One line now says what to check; no bot starts."""
    import asyncio

    import httpx

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("Connection refused", request=request)

    async def no_wait(seconds: float) -> None:
        return None

    connect = functools.partial(CanfieldClient, transport=httpx.MockTransport(refuse))
    monkeypatch.setattr(cli, "CanfieldClient", connect)
    monkeypatch.setattr(bot_module, "CanfieldClient", connect)
    monkeypatch.setattr(asyncio, "sleep", no_wait)
    argv = ["--base-url", BASE, "--race", "r1", "--bots", "2", "--retry-seconds", "0"]

    assert main([*argv, "--wait-results"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"race r1: the server at {BASE} did not answer (0 transport_error: "
        "ConnectError('Connection refused')); is it running, and is --base-url its address?\n"
    )
