# mypy: disable-error-code="no-untyped-call, attr-defined"
"""Every query parameter of the API's lists, sent empty (``?start=``, ``?cursor=``, ...),
is a 400 problem with the code the same parameter gets for any other wrong value; never
a 500, and never the parameter silently taken as absent.

Three were taken as absent: ``?start=`` on a game's solution (DRF reads an empty form
value as a missing one: the solution from the deal), and ``?cursor=`` on the two
keyset lists (the leaderboard and a player's history: their first page, where every
other list answers ``invalid_cursor``); ``?pool=`` on a player's history was a 404
for a pool named "".
"""

from __future__ import annotations

import pytest

from games.services.games import game_start
from games.services.ratings import race_rate
from tests.api.conftest import client_for
from tests.factories import create_user
from tests.ratings.helpers import Result, race_of
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db

#: (path, parameter, the code of its 400); ``{tournament}`` and ``{game}`` are
#: filled in with a tournament and a game of the caller's.
CASES = [
    ("/api/v1/races", "phase", "invalid_filter"),
    ("/api/v1/races", "mode", "invalid_filter"),
    ("/api/v1/races", "cursor", "invalid_cursor"),
    ("/api/v1/races", "page_size", "validation_error"),
    ("/api/v1/tournaments", "status", "invalid_filter"),
    ("/api/v1/tournaments", "cursor", "invalid_cursor"),
    ("/api/v1/tournaments", "page_size", "validation_error"),
    ("/api/v1/tournaments/{tournament}/standings", "cursor", "invalid_cursor"),
    ("/api/v1/tournaments/{tournament}/standings", "page_size", "validation_error"),
    ("/api/v1/games", "cursor", "invalid_cursor"),
    ("/api/v1/games", "page_size", "validation_error"),
    ("/api/v1/games/{game}/solution", "start", "validation_error"),
    ("/api/v1/leaderboards/classic", "provisional", "invalid_filter"),
    ("/api/v1/leaderboards/classic", "cursor", "invalid_cursor"),
    ("/api/v1/leaderboards/classic", "page_size", "validation_error"),
    ("/api/v1/players/ann/history", "pool", "invalid_filter"),
    ("/api/v1/players/ann/history", "cursor", "invalid_cursor"),
    ("/api/v1/players/ann/history", "page_size", "validation_error"),
]


@pytest.mark.parametrize(("path", "param", "code"), CASES, ids=[f"{p}?{q}=" for p, q, _ in CASES])
def test_an_empty_query_parameter_is_a_400_problem(path: str, param: str, code: str) -> None:
    race = race_of(Result("ann", 20, 1000), Result("bob", 10, 1000))
    race_rate(race_id=race.id)
    ann = race.entries.get(player__username="ann").player
    game = game_start(player=ann, variant="classic", seed="empty-filters")
    url = path.format(tournament=TournamentFactory().id, game=game.id)
    client = client_for(ann)
    assert client.get(url).status_code in (200, 202, 409)  # the list itself answers
    answer = client.get(f"{url}?{param}=")
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["code"] == code


def test_an_empty_start_is_no_longer_the_solution_from_the_deal() -> None:
    ann = create_user("ann")
    game = game_start(player=ann, variant="classic", seed="empty-start")
    answer = client_for(ann).get(f"/api/v1/games/{game.id}/solution?start=")
    assert answer.status_code == 400
    assert answer.json()["errors"]["start"]
