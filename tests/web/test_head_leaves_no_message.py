"""``HEAD`` changes nothing (RFC 9110 9.3.2: ``GET``'s headers, no body).

A race game before its start: ``GET /play/<id>/`` (and its solution page) sends the
player to the race page with the message "The race has not started yet.", which that
page then shows.  ``HEAD`` answered the same redirect but also stored the message, and
nothing followed it: the player's next page (here the lobby) said "The race has not
started yet." out of nowhere.  ``HEAD`` now answers the same ``302`` with no message kept.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.services.races import race_create, race_join
from tests.factories import make_user

pytestmark = pytest.mark.django_db

NOT_STARTED = "The race has not started yet."


def _entered() -> tuple[Client, Any, Any]:
    """A player entered in a scheduled race starting in five minutes: (client, race, game id)."""
    now = timezone.now()
    race = race_create(
        name="Later",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=15),
    )
    player = make_user(username="zoe")
    entry = race_join(race_id=race.id, player=player).entry
    client = Client()
    client.force_login(player)
    return client, race, entry.game_id


@pytest.mark.parametrize("page", ["", "solution"])
def test_head_before_the_start_redirects_and_leaves_no_message(page: str) -> None:
    client, race, game_id = _entered()
    url = f"/play/{game_id}/{page}"

    head = client.head(url)

    assert (head.status_code, head["Location"]) == (302, f"/races/{race.id}/")
    assert NOT_STARTED not in client.get("/").content.decode()


@pytest.mark.parametrize("page", ["", "solution"])
def test_get_before_the_start_still_says_why_on_the_race_page(page: str) -> None:
    client, race, game_id = _entered()

    resp = client.get(f"/play/{game_id}/{page}", follow=True)

    assert resp.redirect_chain == [(f"/races/{race.id}/", 302)]
    assert NOT_STARTED in resp.content.decode()
