# mypy: disable-error-code="no-untyped-call, misc, arg-type"
"""What a disqualified entrant sees: the reason, a board that takes nothing more, and
a refusal in words if an old page still sends a move (games.services.games)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Game
from games.services.race_admin import (
    race_close_now,
    race_entry_disqualify,
    race_entry_reinstate,
)
from games.services.races import race_join
from tests.factories import StaffFactory
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient
from tests.web.test_pages import message_of

pytestmark = pytest.mark.django_db


def test_the_play_page_shows_the_reason_and_takes_no_move(pages: PageClient, player: Any) -> None:
    race = running_race(name="Night race")
    entry = race_join(race_id=race.id, player=player).entry
    before = pages.get(f"/play/{entry.game_id}/").content.decode()
    assert "data-move-url" in before  # playable until the organisers act
    # The page follows its game's event stream, to redraw when the organisers act.
    assert f'data-game-events="{entry.game_id}"' in before
    assert "data-disqualified" not in before

    race_entry_disqualify(entry_id=entry.id, reason="two accounts", by=StaffFactory())
    page = pages.get(f"/play/{entry.game_id}/").content.decode()
    assert "data-move-url" not in page
    assert 'data-disqualified="1"' in page
    assert f'data-game-events="{entry.game_id}"' in page  # to redraw when it is lifted
    assert "data-countdown" not in page
    assert re.search(r'data-stat="status">\s*disqualified', page)
    assert (
        "The organisers have disqualified you from this race (two accounts): your game takes "
        "no more moves." in page
    )
    assert 'class="danger" disabled' in page  # the resign button

    # A page loaded before the disqualification still sends its move: refused in words.
    refused = pages.post(
        f"/play/{entry.game_id}/move", {"move": "draw", "expected_move_number": 0}, htmx=True
    )
    assert message_of(refused.content.decode()) == (
        "Refused: The organisers have disqualified you from this race."
    )
    assert Game.objects.get(id=entry.game_id).move_number == 0

    race_page = pages.get(f"/races/{race.id}/").content.decode()
    assert 'data-my-game="disqualified"' in race_page
    assert "The organisers have disqualified you from this race (two accounts)." in race_page
    assert ">Play<" not in race_page

    race_entry_reinstate(entry_id=entry.id, by=StaffFactory())
    again = pages.get(f"/play/{entry.game_id}/").content.decode()
    assert "data-move-url" in again
    assert "disqualified you" not in again

    # After the race too, the race page keeps saying why (a walkthrough saw only a bare
    # "disqualified" in the standings once the race had ended).
    race_entry_disqualify(entry_id=entry.id, reason="two accounts", by=StaffFactory())
    race_close_now(race_id=race.id)
    finished = pages.get(f"/races/{race.id}/").content.decode()
    assert "Finished." in finished
    assert "The organisers have disqualified you from this race (two accounts)." in finished


def test_the_reason_is_shown_in_the_page_language(pages: PageClient, player: Any) -> None:
    race = running_race(name="Carrera")
    entry = race_join(race_id=race.id, player=player).entry
    race_entry_disqualify(entry_id=entry.id, reason="dos cuentas", by=StaffFactory())
    page = pages.get(f"/play/{entry.game_id}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "dos cuentas" in page
    assert "The organisers have disqualified you" not in page
