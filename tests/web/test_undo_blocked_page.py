"""The play page's Undo button follows the game view's ``undo_allowed``: enabled on a
blocked game whose last move may be taken back (it was disabled with every other control
once the game was not playing), disabled with nothing to take back or once over for good."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.services.games import game_start, move_play
from tests.games.test_undo_blocked import SEED, TO_BLOCKED
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def _undo_button(html: str) -> str:
    found = re.search(r'<button type="submit" data-action="undo"[^>]*>', html)
    assert found is not None
    return found.group(0)


def _board_tag(html: str) -> str:
    found = re.search(r'<section id="board"[^>]*>', html)
    assert found is not None
    return found.group(0)


def test_undo_is_offered_on_a_blocked_game_and_nowhere_it_would_be_refused(
    pages: PageClient, player: Any
) -> None:
    game = game_start(player=player, seed=SEED)
    first = pages.get(f"/play/{game.id}/").content.decode()
    assert "disabled" in _undo_button(first)  # nothing to take back yet
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    blocked = pages.get(f"/play/{game.id}/").content.decode()
    assert "data-blocked" in blocked
    assert "Undo takes back the move that blocked it; Resign ends the game." in blocked
    assert "disabled" not in _undo_button(blocked)
    assert 'class="controls"' in blocked  # not "controls idle": the buttons show
    board = _board_tag(blocked)
    assert 'data-undo="1"' in board
    assert 'data-move-number="26"' in board
    assert "data-move-url" not in board  # no move but the undo
    # The undo from the page: the game plays on.
    undone = pages.post(f"/play/{game.id}/undo", {"expected_move_number": 26}, follow=True)
    assert "data-move-url" in _board_tag(undone.content.decode())
    # Blocked again and resigned: over for good, no undo offered.
    move_play(game_id=game.id, player=player, move="AD>f")
    pages.post(f"/play/{game.id}/resign", {"confirmed": "1"})
    over = pages.get(f"/play/{game.id}/").content.decode()
    assert "disabled" in _undo_button(over)
    assert "Undo takes back the move" not in over
    assert "data-undo" not in _board_tag(over)
