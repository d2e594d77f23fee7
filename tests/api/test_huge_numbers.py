# mypy: disable-error-code="no-untyped-call, arg-type, misc"
"""Numbers past what a column or ``int()`` takes, found by an attack: each was a 500.

A ``page_size`` of 5,000 digits (``int()`` refuses more than 4,300), a forged cursor
holding ``1e400`` (JSON's infinity, which an integer field refuses with
``OverflowError``) or an id past 64 bits (SQLite's driver overflows), a hint ``poll`` of
5,000 digits, a ``Content-Length`` of 5,000 digits.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import make_rules
from games.services.games import game_start
from games.services.ratings import pool_for_options
from games.services.tournaments import tournament_create
from tests.factories import UserFactory
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def classic_pool() -> None:
    """The classic rating pool (made by the first rated race otherwise)."""
    assert pool_for_options(make_rules("classic").to_dict()).key == "classic"


HUGE = "9" * 5000


def cursor(value: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def game_of(client: APIClient) -> str:
    resp = client.post("/api/v1/games", {"seed": "7"}, format="json")
    assert resp.status_code == 201, resp.content
    return str(resp.json()["id"])


@pytest.mark.parametrize(
    ("path", "cap"),
    [
        ("/api/v1/races", 200),
        ("/api/v1/tournaments", None),
        ("/api/v1/leaderboards/classic", None),
        ("/api/v1/players/ann/history", None),
        ("/api/v1/games", 200),
    ],
)
def test_a_page_size_of_any_length_is_capped_and_zero_is_refused(
    make_client: Any, path: str, cap: int | None
) -> None:
    ann = make_client("ann")
    game_of(ann)
    resp = ann.get(f"{path}?page_size={HUGE}")
    assert resp.status_code == 200, resp.content
    assert len(resp.json()["results"]) <= (cap or 200)
    for bad in ("0" * 5000, "-1", "1e3"):
        refused = ann.get(f"{path}?page_size={bad}")
        assert (refused.status_code, refused.json()["code"]) == (400, "validation_error"), bad


def test_a_moves_page_size_past_the_cap_gives_the_cap(player: APIClient) -> None:
    gid = game_of(player)
    for _ in range(3):
        player.post(f"/api/v1/games/{gid}/moves", {"move": "draw"}, format="json")
    page = player.get(f"/api/v1/games/{gid}/moves?page_size=0002").json()
    assert [m["number"] for m in page["results"]] == [1, 2]  # leading zeros are a number
    assert len(player.get(f"/api/v1/games/{gid}/moves?page_size={HUGE}").json()["results"]) == 3


def test_forged_cursors_with_numbers_out_of_range_are_400(
    player: APIClient, anon: APIClient
) -> None:
    gid = game_of(player)
    tournament = tournament_create(name="Cup")
    UserFactory(username="ann")
    for client, path, value in (
        (player, f"/api/v1/games/{gid}/moves", {"v": [1e400, 1], "r": False}),
        (anon, f"/api/v1/tournaments/{tournament.id}/standings", {"v": [1e400, 1, 1], "r": False}),
        (anon, "/api/v1/leaderboards/classic", [1.0, 10**23, "n"]),
        (anon, "/api/v1/players/ann/history", ["2026-01-01T00:00:00+00:00", -(2**64), "p"]),
        # A time whose UTC is past the calendar overflowed in the query (SQLite); a time
        # without a zone is not one a cursor gives out.
        (anon, "/api/v1/players/ann/history", ["9999-12-31T23:00:00-05:00", 1, "n"]),
        (anon, "/api/v1/players/ann/history", ["0001-01-01T00:00:00+05:00", 1, "n"]),
        (anon, "/api/v1/players/ann/history", ["2026-01-01T00:00:00", 1, "n"]),
    ):
        resp = client.get(f"{path}?cursor={cursor(value)}")
        assert (resp.status_code, resp.json()["code"]) == (400, "invalid_cursor"), path


def test_cursors_nested_past_the_parsers_depth_are_400(player: APIClient, anon: APIClient) -> None:
    """An attack's cursor of 1,000 "[" (the JSON parser's ``RecursionError``) was a 500 on
    every cursor list and on the leaderboard page."""
    gid = game_of(player)
    UserFactory(username="ann")
    deep = base64.urlsafe_b64encode(b"[" * 1000).decode().rstrip("=")
    for client, path in (
        (anon, "/api/v1/races"),
        (anon, "/api/v1/tournaments"),
        (player, "/api/v1/games"),
        (player, f"/api/v1/games/{gid}/moves"),
        (anon, "/api/v1/leaderboards/classic"),
        (anon, "/api/v1/players/ann/history"),
    ):
        resp = client.get(f"{path}?cursor={deep}")
        assert (resp.status_code, resp.json()["code"]) == (400, "invalid_cursor"), path
    assert PageClient().get(f"/leaderboards/classic/?cursor={deep}").status_code == 400


def test_cursors_with_nan_or_infinity_are_400(player: APIClient, anon: APIClient) -> None:
    """Python's JSON parser takes ``NaN`` and ``Infinity``; no cursor is made of them. A
    ``NaN`` leaderboard key compared with nothing, so it answered an empty page (200)."""
    gid = game_of(player)

    def raw(text: str) -> str:
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    for client, path, text in (
        (anon, "/api/v1/leaderboards/classic", '[NaN, 1, "n"]'),
        (anon, "/api/v1/leaderboards/classic", '[-Infinity, 1, "p"]'),
        (player, f"/api/v1/games/{gid}/moves", '{"v": [NaN, 1], "r": false}'),
        (anon, "/api/v1/races", '{"v": [Infinity, 1, 1], "r": false}'),
    ):
        resp = client.get(f"{path}?cursor={raw(text)}")
        assert (resp.status_code, resp.json()["code"]) == (400, "invalid_cursor"), (path, text)
    page_cursor = raw('[NaN, 1, "n"]')
    assert PageClient().get(f"/leaderboards/classic/?cursor={page_cursor}").status_code == 400


def test_the_leaderboard_page_refuses_such_a_cursor_without_a_500() -> None:
    page = PageClient().get(f"/leaderboards/classic/?cursor={cursor([1.0, 10**23, 'n'])}")
    assert page.status_code == 400


def test_a_hint_poll_of_any_length_counts_as_the_last() -> None:
    player = UserFactory(username="ada")
    pages = PageClient(player)
    game = game_start(player=player, seed="7")
    pages.get("/")
    resp = pages.post(f"/play/{game.id}/hint", {"poll": HUGE}, htmx=True)
    assert resp.status_code == 200
    assert "data-hint-poll" not in resp.content.decode()  # no more asking again


def test_a_content_length_of_5000_digits_is_413(player: APIClient) -> None:
    gid = game_of(player)
    resp = player.post(
        f"/api/v1/games/{gid}/moves",
        '{"move": "draw"}',
        content_type="application/json",
        CONTENT_LENGTH=HUGE,
    )
    assert resp.status_code in (400, 413)
    assert resp["Content-Type"] == "application/problem+json"
