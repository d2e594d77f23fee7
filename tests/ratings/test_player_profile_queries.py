"""``GET /api/v1/players/{username}``: the player's place on each pool's leaderboard is read
with the ratings, not one count query per pool the player is rated in."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import PlayerRating, RatingPool
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def _rate(pool: RatingPool, player: Any, rating: int) -> None:
    ordinal = (rating - 1000) / 20
    PlayerRating.objects.create(
        pool=pool, player=player, mu=ordinal + 3, sigma=1.0, ordinal=ordinal, rating=rating
    )


def _pool(key: str) -> RatingPool:
    return RatingPool.objects.create(key=key, variant="classic", options={})


def _profile(client: APIClient) -> tuple[dict[str, int], int]:
    with CaptureQueriesContext(connection) as ctx:
        resp = client.get("/api/v1/players/ada")
    assert resp.status_code == 200, resp.content
    places = {r["pool"]: r["position"] for r in resp.json()["ratings"]}
    return places, len(ctx.captured_queries)


def test_player_profile_places_in_a_fixed_number_of_queries() -> None:
    ada = create_user("ada")
    others = [create_user(f"other{n}") for n in range(3)]
    client = APIClient()
    a = _pool("classic")
    _rate(a, ada, 1100)
    _rate(a, others[0], 1200)  # ahead of ada
    _rate(a, others[1], 1100)  # level: the same place
    b = _pool("draw-one")
    _rate(b, ada, 1300)
    _rate(b, others[0], 1000)
    few_places, few = _profile(client)
    assert few_places == {"classic": 2, "draw-one": 1}
    c = _pool("one-pass")
    _rate(c, ada, 900)
    for n, other in enumerate(others):
        _rate(c, other, 950 + n)  # all three ahead
    d = _pool("rainbow")
    _rate(d, ada, 1000)
    places, many = _profile(client)
    assert many == few
    assert places == {"classic": 2, "draw-one": 1, "one-pass": 4, "rainbow": 1}
