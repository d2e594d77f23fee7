# mypy: disable-error-code="no-untyped-call, assignment"
"""A race's standings at any size: ``GET /races/{id}/standings?limit=N`` answers the first
``N`` lines and the caller's own (with its rank among everyone), and ``count`` says how
many lines the whole standings has; the race stream's ``snapshot`` and ``standings``
events carry the first ``RACE_TOP`` lines, ``count`` and the endpoint's ``url``.

The endpoint answered every entrant, and every stream event carried every entrant, to
every subscriber: 1.2 MB a response, and up to once a second per subscriber, in a
10,000-entrant race (benchmarks/public_reads.py).  Without ``limit`` the endpoint still
answers every line (existing clients)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

import api.streams as streams
from games.models import Game, Race, RaceEntry
from games.services.race_admin import race_close_now, race_entry_disqualify
from games.services.races import race_create, race_join, race_start
from tests.api.conftest import client_for
from tests.factories import create_user
from tests.tournaments.factories import Result, play, running_race

pytestmark = pytest.mark.django_db

#: ann 1st, bob 2nd, cyd and dan tied 3rd (same cards, same time), eve 5th; fay is
#: disqualified (no rank, listed last).
RESULTS = [
    Result("ann", 9, 1000),
    Result("bob", 7, 1000),
    Result("cyd", 5, 2000),
    Result("dan", 5, 2000),
    Result("eve", 3, 1000),
    Result("fay", 11, 500),
]
#: The whole standings of :func:`_race`: (rank, player, status).
WHOLE = [
    (1, "ann", "playing"),
    (2, "bob", "playing"),
    (3, "cyd", "playing"),
    (3, "dan", "playing"),
    (5, "eve", "playing"),
    (None, "fay", "disqualified"),
]
ROW_FIELDS = ["cards_home", "elapsed_ms", "finished", "moves", "player", "rank", "status"]
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK]|10)[CDHS](?![A-Za-z0-9])")


def _race(*, finished: bool = False) -> Race:
    race = running_race(None, name="Limits")
    for r in RESULTS:
        play(race, r)
    fay = RaceEntry.objects.get(race=race, player__username="fay")
    race_entry_disqualify(entry_id=fay.id, reason="test")
    if finished:
        race_close_now(race_id=race.id)
        race.refresh_from_db()
        assert race.status == Race.Status.FINISHED
    return race


def _as(username: str | None, *, token: bool = False) -> APIClient:
    if username is None:
        return APIClient()
    user = User.objects.get(username=username)
    if token:
        return client_for(user)
    client = APIClient()
    client.force_login(user)
    return client


def _lines(body: dict[str, Any]) -> list[tuple[Any, str, str]]:
    return [(r["rank"], r["player"], r["status"]) for r in body["standings"]]


def _get(client: APIClient, race: Race, query: str = "") -> dict[str, Any]:
    answer = client.get(f"/api/v1/races/{race.id}/standings{query}")
    assert answer.status_code == 200, answer.content
    body: dict[str, Any] = answer.json()
    return body


@pytest.mark.parametrize("finished", [False, True])
def test_without_limit_every_line_and_the_count(finished: bool) -> None:
    race = _race(finished=finished)
    body = _get(_as("eve"), race)
    assert sorted(body) == ["count", "phase", "race", "ranking_rule", "standings"]
    expected = WHOLE if not finished else [(k, p, "timed_out" if k else s) for k, p, s in WHOLE]
    assert _lines(body) == expected
    assert body["count"] == 6
    assert body["phase"] == ("finished" if finished else "running")


@pytest.mark.parametrize("finished", [False, True])
def test_limit_gives_the_first_lines_then_the_callers_own_with_its_true_rank(
    finished: bool,
) -> None:
    race = _race(finished=finished)
    whole = {r["player"]: r for r in _get(APIClient(), race)["standings"]}
    anonymous = _get(APIClient(), race, "?limit=2")
    assert [r["player"] for r in anonymous["standings"]] == ["ann", "bob"]
    assert anonymous["count"] == 6
    # dan is tied 3rd with cyd: his own line keeps the shared rank among everyone.
    for token in (False, True):
        dan = _get(_as("dan", token=token), race, "?limit=2")
        assert [r["player"] for r in dan["standings"]] == ["ann", "bob", "dan"]
        assert dan["standings"][-1] == whole["dan"]
        assert dan["standings"][-1]["rank"] == 3
        assert dan["count"] == 6
    # A disqualified caller's own line: no rank, listed after the first lines.
    fay = _get(_as("fay"), race, "?limit=2")
    assert [(r["player"], r["rank"], r["status"]) for r in fay["standings"]] == [
        ("ann", 1, whole["ann"]["status"]),
        ("bob", 2, whole["bob"]["status"]),
        ("fay", None, "disqualified"),
    ]
    # Among the first lines: not twice.  Not an entrant: the first lines only.
    assert [r["player"] for r in _get(_as("cyd"), race, "?limit=3")["standings"]] == [
        "ann",
        "bob",
        "cyd",
    ]
    create_user("stranger")
    stranger = _get(_as("stranger"), race, "?limit=2")
    assert [r["player"] for r in stranger["standings"]] == ["ann", "bob"]


def test_limit_zero_gives_the_count_and_the_callers_own_line_only() -> None:
    race = _race()
    eve = _get(_as("eve"), race, "?limit=0")
    assert _lines(eve) == [(5, "eve", "playing")]
    assert eve["count"] == 6
    nobody = _get(APIClient(), race, "?limit=0")
    assert (nobody["standings"], nobody["count"]) == ([], 6)


@pytest.mark.parametrize("limit", ["6", "7", "100", "0100", "99999999999999999999999"])
def test_a_limit_past_the_standings_gives_every_line(limit: str) -> None:
    race = _race()
    body = _get(_as("eve"), race, f"?limit={limit}")
    assert _lines(body) == WHOLE
    assert body["count"] == 6


def test_the_count_is_the_whole_standings_with_a_limit_short_of_it() -> None:
    race = _race()
    for limit, shown in ((1, ["ann"]), (5, ["ann", "bob", "cyd", "dan", "eve"])):
        body = _get(APIClient(), race, f"?limit={limit}")
        assert [r["player"] for r in body["standings"]] == shown
        assert body["count"] == 6


def test_a_window_entrant_not_started_gets_their_own_line() -> None:
    now = timezone.now()
    race = race_create(
        name="Window",
        mode=Race.Mode.WINDOW,
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=30),
        time_limit_s=600,
        late_join_s=None,
    )
    for name, home in (("ann", 9), ("bob", 7), ("cyd", 5)):
        game = race_start(race_id=race.id, player=create_user(name))
        Game.objects.filter(id=game.id).update(cards_home=home, cards_home_ms=1000)
    race_join(race_id=race.id, player=create_user("gil"))
    gil = _get(_as("gil"), race, "?limit=1")
    assert gil["count"] == 4
    assert [(r["rank"], r["player"], r["status"], r["cards_home"]) for r in gil["standings"]] == [
        (1, "ann", "playing", 9),
        (None, "gil", "not_started", None),
    ]


@pytest.mark.parametrize("limit", ["", "-1", "+1", "1.5", "x", " 1", "1 ", "\uff11", "0x10"])
def test_a_limit_that_is_not_a_non_negative_integer_is_refused(limit: str) -> None:
    race = _race()
    answer = APIClient().get(f"/api/v1/races/{race.id}/standings", {"limit": limit})
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    problem = answer.json()
    assert problem["code"] == "validation_error"
    assert problem["errors"] == {"limit": ["A non-negative integer is required."]}


def test_a_repeated_limit_and_paging_are_refused() -> None:
    race = _race()
    url = f"/api/v1/races/{race.id}/standings"
    repeated = APIClient().get(f"{url}?limit=1&limit=2").json()
    assert repeated["code"] == "repeated_query_parameter"
    assert repeated["accepted"] == ["limit"]
    paging = APIClient().get(f"{url}?limit=1&page_size=1").json()
    assert paging["code"] == "not_paginated"


def test_limited_standings_show_counts_only() -> None:
    race = _race()
    answer = _as("dan").get(f"/api/v1/races/{race.id}/standings?limit=1")
    text = answer.content.decode()
    assert race.deal.seed not in text
    assert not CARD.search(text)
    for row in answer.json()["standings"]:
        assert sorted(row) == ROW_FIELDS


def _queries(client: APIClient, race: Race, query: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        _get(client, race, query)
    return len(ctx.captured_queries)


def test_limited_standings_cost_the_same_queries_at_any_size() -> None:
    small = _race()
    large = running_race(None, name="Large")
    for i in range(12):
        play(large, Result(f"p{i}", 20 - i, 1000))
    play(large, Result(User.objects.get(username="eve"), 1, 1000))
    for query in ("?limit=2", "?limit=0"):
        assert _queries(_as("eve"), small, query) == _queries(_as("eve"), large, query)
    assert _get(_as("eve"), large, "?limit=2")["count"] == 13


# ------------------------------------------------------------------ the race stream
@pytest.fixture
def top_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streams, "RACE_TOP", 2)


@pytest.mark.usefixtures("top_two")
@pytest.mark.parametrize("finished", [False, True])
def test_the_stream_standings_event_carries_the_first_lines_the_count_and_the_url(
    finished: bool,
) -> None:
    race = _race(finished=finished)
    payload = streams.race_standings_payload(str(race.id))
    assert [r["player"] for r in payload["standings"]] == ["ann", "bob"]
    assert payload["count"] == 6
    assert payload["url"] == f"/api/v1/races/{race.id}/standings"
    assert sorted(payload) == [
        "count",
        "phase",
        "race",
        "ranking_rule",
        "server_time",
        "standings",
        "url",
    ]
    # The endpoint's body for ?limit=RACE_TOP, read anonymously.
    rest = _get(APIClient(), race, "?limit=2")
    assert {k: v for k, v in payload.items() if k not in ("url", "server_time")} == rest


@pytest.mark.usefixtures("top_two")
def test_the_stream_snapshot_carries_the_same_first_lines_for_every_viewer() -> None:
    race = _race()
    rest = _get(APIClient(), race, "?limit=2")
    for viewer in (AnonymousUser(), User.objects.get(username="eve")):
        snap = streams.race_snapshot(str(race.id), viewer)
        assert snap["standings"] == rest["standings"]
        assert [r["player"] for r in snap["standings"]] == ["ann", "bob"]
        assert (snap["count"], snap["url"]) == (6, f"/api/v1/races/{race.id}/standings")
        assert snap["race"]["entrants"] == 6


def test_a_race_within_the_streams_lines_is_sent_whole() -> None:
    race = _race()
    payload = streams.race_standings_payload(str(race.id))
    assert streams.RACE_TOP == 100
    assert [(r["rank"], r["player"], r["status"]) for r in payload["standings"]] == WHOLE
    assert payload["count"] == 6
    snap = streams.race_snapshot(str(race.id), AnonymousUser())
    assert snap["standings"] == payload["standings"]
