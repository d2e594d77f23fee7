# mypy: disable-error-code="no-untyped-call, arg-type"
"""After an undo, the time at which a game reached its count of cards home (the race's
tie-break, RULES.md 6) is when that count was first reached by the live moves.

Two attacks found it set to the game's start whenever no live move before the undone
one had another count: a count reached by the game's first move (the deal's count is
no move row) then read as reached "at the deal", and a player who undid ranked ahead
of a faster one.  Time is injected: every move and undo is given its ``now``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.engine import new_game
from games.models import Game
from games.services.games import game_start, game_undo, move_play
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def seed_playing(
    pattern: list[str], prefix: str = "undo-time", tries: int = 2000
) -> tuple[str, list[str]]:
    """The first classic seed ``{prefix}-N`` on which ``pattern`` can be played, each
    ``"home"`` a foundation move (the first listed), each ``"draw"`` a draw:
    ``(seed, the moves)``."""
    for n in range(tries):
        seed, state, moves = f"{prefix}-{n}", new_game("classic", seed=f"{prefix}-{n}"), []
        for step in pattern:
            legal = state.legal_moves()
            choice = (
                next((m for m in legal if m.endswith(">f")), None)
                if step == "home"
                else ("draw" if "draw" in legal else None)
            )
            if choice is None:
                break
            state.play(choice)
            moves.append(choice)
        else:
            return seed, moves
    raise AssertionError(f"no seed among {prefix}-0..{tries - 1} plays {pattern}")


def play(game: Game, player: Any, moves: list[str], seconds: list[int]) -> None:
    for move, s in zip(moves, seconds, strict=True):
        move_play(
            game_id=game.id, player=player, move=move, now=game.started_at + timedelta(seconds=s)
        )


def test_undo_keeps_the_time_the_first_move_reached_the_count() -> None:
    seed, moves = seed_playing(["home", "draw", "home"])
    player = UserFactory(username="bob")
    game = game_start(player=player, seed=seed)
    t0, dealt = game.started_at, game.cards_home
    play(game, player, moves, [3, 5, 6])
    assert Game.objects.get(id=game.id).cards_home == dealt + 2
    undone = game_undo(game_id=game.id, player=player, now=t0 + timedelta(seconds=7))
    assert (undone.cards_home, undone.cards_home_at, undone.cards_home_ms) == (
        dealt + 1,
        t0 + timedelta(seconds=3),
        3000,
    )
    # Undoing the draw changes no count; undoing the first move goes back to the deal.
    game_undo(game_id=game.id, player=player, now=t0 + timedelta(seconds=8))
    back = game_undo(game_id=game.id, player=player, now=t0 + timedelta(seconds=9))
    assert (back.cards_home, back.cards_home_at, back.cards_home_ms) == (dealt, t0, 0)


def test_undo_keeps_the_time_of_a_count_reached_after_other_moves() -> None:
    """A count reached by a later move (after a move with the deal's count) keeps that
    move's time."""
    seed, moves = seed_playing(["draw", "home", "draw", "home"])
    player = UserFactory(username="eve")
    game = game_start(player=player, seed=seed)
    play(game, player, moves, [1, 4, 5, 6])
    undone = game_undo(game_id=game.id, player=player, now=game.started_at + timedelta(seconds=7))
    assert (undone.cards_home, undone.cards_home_ms) == (game.cards_home + 1, 4000)
