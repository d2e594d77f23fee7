"""``GET /api/v1/tournaments``: a fixed number of queries whatever the number listed.

Each tournament shows its entrant count and whether the viewer is admitted; both are
read for the whole page at once, not two queries per tournament.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Tournament
from games.services.standings import tournament_admit
from games.services.tournaments import tournament_create
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def _list(client: APIClient) -> tuple[dict[str, dict[str, Any]], int]:
    with CaptureQueriesContext(connection) as ctx:
        resp = client.get("/api/v1/tournaments")
    assert resp.status_code == 200, resp.content
    return {row["name"]: row for row in resp.json()["results"]}, len(ctx.captured_queries)


def _tournament(name: str, entrants: int, *, viewer: Any = None) -> Tournament:
    t = tournament_create(name=name)
    for n in range(entrants):
        tournament_admit(tournament_id=t.id, player=create_user(f"{name}-{n}"))
    if viewer is not None:
        tournament_admit(tournament_id=t.id, player=viewer)
    return t


@pytest.mark.parametrize("signed_in", [True, False])
def test_tournament_list_queries_do_not_grow_with_the_tournaments(
    make_client: Callable[..., APIClient], anon: APIClient, signed_in: bool
) -> None:
    client = make_client("lister") if signed_in else anon
    viewer = client.user if signed_in else None  # type: ignore[attr-defined]
    _tournament("a", 2, viewer=viewer)
    _tournament("b", 0)
    _, few = _list(client)
    _tournament("c", 3, viewer=viewer)
    _tournament("d", 1)
    _tournament("e", 0, viewer=viewer)
    rows, many = _list(client)
    assert many == few
    # Counted per tournament, the viewer among them when admitted.
    mine = 1 if signed_in else 0
    assert {name: row["entrants"] for name, row in rows.items()} == {
        "a": 2 + mine,
        "b": 0,
        "c": 3 + mine,
        "d": 1,
        "e": mine,
    }
    assert {name: row["admitted"] for name, row in rows.items()} == {
        "a": signed_in,
        "b": False,
        "c": signed_in,
        "d": False,
        "e": signed_in,
    }
