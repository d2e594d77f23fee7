# mypy: disable-error-code="no-untyped-call, assignment, attr-defined"
"""The replay page's work per move of a long game (an attack: a practice game of 20,000
draws, made by a script at the move throttle, cost 2.7 s of a web worker per replay page
and 0.8 s per step fetched by htmx; a race game's replay, public once the race is over,
the same for any anonymous visitor).  The list is joined in the view, not by a template
loop, which alone took 2.3 s of those 2.7 s.

A move's words are worked out once per distinct move (a game of 20,000 moves has a few
hundred distinct ones), and only the page lists every move: the viewer fragment htmx
fetches at each step does not build that list at all.
"""

from __future__ import annotations

from typing import Any

import pytest

import web.views.races as race_views
from games.services.errors import IllegalMove
from games.services.games import game_end, game_start, move_play
from tests.factories import create_user
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

DRAWS = 40


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The notations the replay view asked the words of, in order."""
    asked: list[str] = []
    real = race_views.move_words

    def count(notation: str) -> str:
        asked.append(notation)
        return str(real(notation))

    monkeypatch.setattr(race_views, "move_words", count)
    return asked


def _long_game() -> Any:
    owner = create_user("owner")
    game = game_start(player=owner, seed="replay-work-1")
    played = 0
    while played < DRAWS:
        try:
            move_play(game_id=game.id, player=owner, move="draw")
        except IllegalMove:  # the stock is out: turn the waste over
            move_play(game_id=game.id, player=owner, move="redeal")
        played += 1
    game_end(game_id=game.id, player=owner)
    game.refresh_from_db()
    return owner, game


def test_the_page_words_each_distinct_move_once(counted: list[str]) -> None:
    owner, game = _long_game()
    resp = PageClient(owner).get(f"/replay/{game.id}/?step=3")
    assert resp.status_code == 200
    body = resp.content.decode()
    assert body.count('<li><a href="/replay/') == DRAWS  # every move is still listed
    url = f"/replay/{game.id}/?step=40"
    assert (
        f'<li><a href="{url}" hx-get="{url}" hx-target="#replay" hx-push-url="true">'
        "draw from the stock</a> <code>draw</code></li></ol>"
    ) in body
    # At most two distinct moves (draw, redeal), plus the last move's words.
    assert len(counted) <= 3
    assert set(counted) <= {"draw", "redeal"}


def test_a_step_fetched_by_htmx_words_only_its_last_move(counted: list[str]) -> None:
    owner, game = _long_game()
    resp = PageClient(owner).get(f"/replay/{game.id}/?step=3", HTTP_HX_REQUEST="true")
    assert resp.status_code == 200
    assert b'<li><a href="/replay/' not in resp.content  # the viewer alone
    assert counted == ["draw"]  # move 3's words, for "Move 3 of 40: ..."
