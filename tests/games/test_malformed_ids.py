"""Every service and selector lookup answers :class:`NotFound` for an id that names
nothing, whether it is well formed or not (``games.services.errors.MALFORMED_ID``).

The API's URL converters only let well-formed UUIDs through, but the services are
also called by the admin, the CLI and tasks, and their docstrings promise
``NotFound``: a malformed UUID used to raise Django's ``ValidationError`` instead.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from games.selectors.games import game_get
from games.selectors.races import race_get
from games.selectors.tournaments import tournament_get
from games.services.errors import NotFound
from games.services.games import game_end, game_undo, move_play
from games.services.hints import game_hint
from games.services.race_admin import (
    race_cancel_now,
    race_close_now,
    race_entry_disqualify,
    race_entry_reinstate,
    race_move,
)
from games.services.races import race_cancel, race_join, race_rescore
from games.services.ratings import pool_recompute, race_set_rated
from games.services.standings import tournament_admit, tournament_rescore
from games.services.tournament_admin import tournament_delete, tournament_entrant_remove
from tests.factories import create_user

pytestmark = pytest.mark.django_db

#: Each lookup, called with the id under test (``user`` where a player is needed).
LOOKUPS: dict[str, Callable[[Any, Any], object]] = {
    "game_get": lambda i, u: game_get(game_id=i, player=u),
    "move_play": lambda i, u: move_play(game_id=i, player=u, move="draw"),
    "game_undo": lambda i, u: game_undo(game_id=i, player=u),
    "game_end": lambda i, u: game_end(game_id=i, player=u),
    "game_hint": lambda i, u: game_hint(game_id=i, player=u),
    "race_get": lambda i, u: race_get(race_id=i),
    "race_join": lambda i, u: race_join(race_id=i, player=u),
    "race_cancel": lambda i, u: race_cancel(race_id=i),
    "race_rescore": lambda i, u: race_rescore(race_id=i),
    "race_close_now": lambda i, u: race_close_now(race_id=i),
    "race_cancel_now": lambda i, u: race_cancel_now(race_id=i),
    "race_move": lambda i, u: race_move(race_id=i, tournament_id=None),
    "race_set_rated": lambda i, u: race_set_rated(race_id=i, rated=False),
    "tournament_get": lambda i, u: tournament_get(tournament_id=i),
    "tournament_admit": lambda i, u: tournament_admit(tournament_id=i, player=u),
    "tournament_rescore": lambda i, u: tournament_rescore(tournament_id=i),
    "tournament_delete": lambda i, u: tournament_delete(tournament_id=i),
}
#: Lookups by an integer key (``ValueError`` for a malformed one).
INTEGER_LOOKUPS: dict[str, Callable[[Any, Any], object]] = {
    "race_entry_disqualify": lambda i, u: race_entry_disqualify(entry_id=i, reason="test"),
    "race_entry_reinstate": lambda i, u: race_entry_reinstate(entry_id=i),
    "tournament_entrant_remove": lambda i, u: tournament_entrant_remove(entrant_id=i),
    "pool_recompute": lambda i, u: pool_recompute(pool_id=i),
}


#: (lookup, id): each UUID lookup with two malformed ids and a well-formed missing one,
#: each integer lookup with two malformed ids and a missing number.
CASES = [
    *((name, bad) for name in sorted(LOOKUPS) for bad in ("not-an-id", "", str(uuid.UUID(int=7)))),
    *((name, bad) for name in sorted(INTEGER_LOOKUPS) for bad in ("not-an-id", "", 987654321)),
]


@pytest.mark.parametrize(("name", "bad_id"), CASES)
def test_a_lookup_answers_not_found(name: str, bad_id: Any) -> None:
    lookup = LOOKUPS.get(name) or INTEGER_LOOKUPS[name]
    with pytest.raises(NotFound):
        lookup(bad_id, create_user("ann"))
