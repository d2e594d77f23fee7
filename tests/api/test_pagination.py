"""Every cursor-paginated list walks past 1,000 rows of equal sort keys (issue 12 item 8).

Each list is filled with 1,150 rows that tie on the list's sort key (same start
time, same creation time, same rank); following ``next`` with ``page_size=100``
must return every row exactly once and end with ``next: null``, and following
``previous`` back from the last page must return the same rows again.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Deal, Game, Move, Race, Tournament, TournamentStanding
from games.services.games import deal_create, rules_build

ROWS = 1_150
PAGE = 100

pytestmark = pytest.mark.django_db


def _key(row: dict[str, Any]) -> str:
    return str(row.get("id") or row.get("number") or row["player"])


def _walk(client: APIClient, url: str) -> tuple[list[str], list[dict[str, Any]]]:
    """Follow ``next`` from ``url``; returns the ids in order and every page's body."""
    ids: list[str] = []
    pages: list[dict[str, Any]] = []
    link: str | None = f"{url}?page_size={PAGE}"
    while link is not None:
        assert len(pages) <= ROWS // PAGE + 2, "the list never ends"
        response = client.get(link)
        assert response.status_code == 200, response.content
        body = response.json()
        pages.append(body)
        ids.extend(_key(row) for row in body["results"])
        link = body["next"]
    return ids, pages


def _walk_back(client: APIClient, last_page: dict[str, Any]) -> list[str]:
    ids = [_key(row) for row in last_page["results"]]
    link = last_page["previous"]
    steps = 0
    while link is not None:
        steps += 1
        assert steps <= ROWS // PAGE + 2, "the list never starts"
        body = client.get(link).json()
        ids = [_key(row) for row in body["results"]] + ids
        link = body["previous"]
    return ids


def _check(client: APIClient, url: str, expected: set[str]) -> None:
    ids, pages = _walk(client, url)
    assert len(ids) == len(expected) == ROWS
    assert len(set(ids)) == ROWS, "a row came twice"
    assert set(ids) == expected, "a row never came"
    assert pages[-1]["next"] is None
    assert pages[0]["previous"] is None
    assert _walk_back(client, pages[-1]) == ids


def _deal() -> Deal:
    return deal_create(rules=rules_build(variant="classic"), seed="1")


def test_games_list_with_equal_start_times(player: APIClient) -> None:
    user: User = player.user  # type: ignore[attr-defined]
    deal = _deal()
    state = deal.new_state().to_dict()
    at = timezone.now()
    games = Game.objects.bulk_create(
        Game(player=user, deal=deal, state=state, started_at=at, cards_home_at=at)
        for _ in range(ROWS)
    )
    _check(player, "/api/v1/games", {str(g.id) for g in games})


def test_move_history_past_a_thousand_moves(player: APIClient) -> None:
    user: User = player.user  # type: ignore[attr-defined]
    deal = _deal()
    game = Game.objects.create(player=user, deal=deal, state=deal.new_state().to_dict())
    at = timezone.now()
    Move.objects.bulk_create(
        Move(game=game, number=n, notation="draw", played_at=at, cards_home=1)
        for n in range(1, ROWS + 1)
    )
    _check(player, f"/api/v1/games/{game.id}/moves", {str(n) for n in range(1, ROWS + 1)})


def test_races_list_with_equal_start_times(anon: APIClient) -> None:
    deal = _deal()
    # Far in the future: nothing is due, so nothing closes while the list is read.
    starts = timezone.now() + timedelta(days=30)
    races = Race.objects.bulk_create(
        Race(
            name=f"race {i}",
            deal=deal,
            opens_at=starts - timedelta(hours=1),
            starts_at=starts,
            ends_at=starts + timedelta(minutes=5),
            commitment=deal.commitment,
            time_limit_s=300,
        )
        for i in range(ROWS)
    )
    _check(anon, "/api/v1/races", {str(r.id) for r in races})


def test_tournaments_list_with_equal_creation_times(anon: APIClient) -> None:
    at = timezone.now()
    tournaments = Tournament.objects.bulk_create(
        Tournament(name=f"cup {i}", status=Tournament.Status.OPEN, created_at=at)
        for i in range(ROWS)
    )
    _check(anon, "/api/v1/tournaments", {str(t.id) for t in tournaments})


def test_tournament_standings_with_everyone_tied(anon: APIClient) -> None:
    tournament = Tournament.objects.create(name="tied cup", status=Tournament.Status.OPEN)
    users = User.objects.bulk_create(User(username=f"tied{i}") for i in range(ROWS))
    TournamentStanding.objects.bulk_create(
        TournamentStanding(tournament=tournament, player=u, rank=1) for u in users
    )
    _check(anon, f"/api/v1/tournaments/{tournament.id}/standings", {u.username for u in users})


def test_tampered_cursor_is_invalid_cursor(anon: APIClient) -> None:
    for cursor in ["garbage", "eyJ2IjpbXSwiciI6ZmFsc2V9", "eyJ2IjpbIngiLCJ5Il0sInIiOjB9"]:
        response = anon.get(f"/api/v1/tournaments?cursor={cursor}")
        assert response.status_code == 400
        assert response.json()["code"] == "invalid_cursor"
        assert response["Content-Type"] == "application/problem+json"


def test_a_database_error_without_a_cursor_is_not_called_a_bad_cursor(
    anon: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list asked for without ``?cursor=`` answered a database failure with ``400
    invalid_cursor`` ("start again without it"): the client is told nothing it sent was
    wrong now, the server's error is its own (``503 database_unavailable``, with
    ``Retry-After``: the database could not be reached)."""
    from django.db import OperationalError

    from api.pagination import SafeCursorPagination

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("the database went away")

    monkeypatch.setattr(SafeCursorPagination, "_page", broken)
    anon.raise_request_exception = False
    resp = anon.get("/api/v1/races")
    assert resp.status_code == 503
    assert resp.json()["code"] == "database_unavailable"
    forged = anon.get("/api/v1/races?cursor=eyJ2IjpbXSwiciI6ZmFsc2V9")
    assert forged.json()["code"] == "invalid_cursor"
