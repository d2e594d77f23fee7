"""The lobby's "my games" lines: whether each race game's deal is revealed (its replay
link) is read from the race loaded with the game, not one query per race game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Race
from games.services.races import race_close, race_create, race_join
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def _finished_race_game(player: Any, n: int) -> Race:
    now = timezone.now()
    race = race_create(
        name=f"done {n}",
        opens_at=now - timedelta(minutes=1),
        starts_at=now - timedelta(seconds=5),
        ends_at=now + timedelta(minutes=10),
        late_join_s=None,
    )
    race_join(race_id=race.id, player=player)
    assert race_close(race_id=race.id, now=race.ends_at) == Race.Status.FINISHED
    return race


def _lobby(pages: PageClient) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as ctx:
        resp = pages.get("/")
    assert resp.status_code == 200
    return resp.content.decode(), len(ctx.captured_queries)


def test_lobby_queries_do_not_grow_with_the_race_games_listed(
    pages: PageClient, player: Any
) -> None:
    for n in range(2):
        _finished_race_game(player, n)
    _, few = _lobby(pages)
    later = [_finished_race_game(player, n) for n in range(2, 6)]
    html, many = _lobby(pages)
    assert many == few
    # Each finished race's game still links to its replay (its deal is revealed).
    for race in later:
        game_id = race.entries.get(player=player).game_id
        assert f"/replay/{game_id}/" in html
