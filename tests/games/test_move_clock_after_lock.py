# mypy: disable-error-code="no-untyped-call, arg-type"
"""A move, an undo and a resignation read the clock once their game is locked.

An attack sent ten draws of one game at once: each read the clock before waiting for
the game's row lock, so a move stored later could carry an earlier time than the move
before it (by milliseconds, no ranking advantage, but the record said the moves came
in another order).  Read after the lock, the times follow the order of the moves."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from games.services import games as game_services
from games.services.games import game_end, game_start, game_undo, move_play
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the service did, in order: ``"lock"`` when it took the game's lock,
    ``"clock"`` when it read the time."""
    seen: list[str] = []
    locked = game_services._locked_game

    def lock(*args: Any, **kwargs: Any) -> Any:
        seen.append("lock")
        return locked(*args, **kwargs)

    def clock() -> datetime:
        seen.append("clock")
        return timezone.now()

    monkeypatch.setattr(game_services, "_locked_game", lock)
    monkeypatch.setattr(game_services, "timezone", SimpleNamespace(now=clock))
    return seen


@pytest.mark.parametrize(
    "act",
    [
        lambda game, player: move_play(game_id=game.id, player=player, move="draw"),
        lambda game, player: game_undo(game_id=game.id, player=player),
        lambda game, player: game_end(game_id=game.id, player=player),
    ],
    ids=["move", "undo", "resign"],
)
def test_the_clock_is_read_once_the_game_is_locked(
    steps: list[str], act: Callable[[Any, Any], Any]
) -> None:
    player = UserFactory()
    game = game_start(player=player, seed="7")
    move_play(game_id=game.id, player=player, move="draw", now=game.started_at)
    steps.clear()
    act(game, player)
    assert steps[:2] == ["lock", "clock"]
