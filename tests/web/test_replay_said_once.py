"""The replay page says each step once: through ``#replay-announcer``, its one live
region, which stays on the page.  The step's line in the swapped content was a
``role="status"`` region too (added with each step; a screen reader that reads newly
inserted live regions said the step twice), as the board's message was before the play
page kept ``#announcer`` as its one live region."""

from __future__ import annotations

import re

import pytest

from games.services.games import game_end, game_start, move_play
from tests.factories import create_user
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

LIVE = re.compile(r'<[^>]+(?:aria-live="(?:polite|assertive)"|role="(?:status|alert|log)")[^>]*>')


def test_the_replay_has_one_live_region_and_its_steps_add_none() -> None:
    player = create_user("remi")
    game = game_start(player=player, seed="7")
    move_play(game_id=game.id, player=player, move="draw")
    game_end(game_id=game.id, player=player)
    pages = PageClient(player)
    page = pages.get(f"/replay/{game.id}/?step=1").content.decode()
    step = pages.client.get(f"/replay/{game.id}/?step=1", HTTP_HX_REQUEST="true")
    assert step.status_code == 200
    assert [
        m.group(0) for m in LIVE.finditer(page) if 'id="replay-announcer"' not in m.group(0)
    ] == []
    assert 'id="replay-announcer"' in page
    assert "Move 1 of 1" in step.content.decode()
    assert LIVE.findall(step.content.decode()) == []
