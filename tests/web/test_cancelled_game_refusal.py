"""A move sent to a game its race's cancellation ended was refused with "the game is
over" (the page: "Refused: The game is over."), as for any ended game: it now says the
organisers cancelled the race, in the API's detail and on the page (en, fr, es, de); and
cancelling tells each game it ended on its event stream (an open play page draws the
cancellation's last word at once: tests/browser/test_web_cancelled_live.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from games.live.publish import game_topic, local_broker, race_topic
from games.services.races import race_cancel, race_join
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient
from tests.web.test_pages import message_of

pytestmark = pytest.mark.django_db


def _cancelled_game(player: Any) -> Any:
    race = running_race(name="Called off")
    entry = race_join(race_id=race.id, player=player).entry
    race_cancel(race_id=race.id, now=race.starts_at + timedelta(seconds=30))
    return entry.game_id


def test_the_api_says_the_organisers_cancelled_the_race(player: Any) -> None:
    game_id = _cancelled_game(player)
    client = APIClient()
    client.force_authenticate(player)
    refused = client.post(
        f"/api/v1/games/{game_id}/moves", {"move": "draw", "expected_move_number": 0}, format="json"
    )
    assert refused.status_code == 409
    body = refused.json()
    assert (body["code"], body["detail"]) == (
        "game_over",
        "The organisers cancelled this race: the game is over.",
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Refused: The organisers cancelled this race: the game is over."),
        (
            "fr",
            "Refusé\u202f: les organisateurs ont annulé cette course\u202f: la partie est "
            "terminée.",
        ),
        ("es", "Rechazado: los organizadores cancelaron esta carrera: la partida ha terminado."),
        ("de", "Abgelehnt: Die Veranstalter haben dieses Rennen abgesagt: Das Spiel ist vorbei."),
    ],
)
def test_the_page_says_the_organisers_cancelled_the_race(
    player: Any, language: str, words: str
) -> None:
    game_id = _cancelled_game(player)
    pages = PageClient(player)
    refused = pages.post(
        f"/play/{game_id}/move",
        {"move": "draw", "expected_move_number": 0},
        htmx=True,
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert message_of(refused.content.decode()) == words


@override_settings(LIVE_REDIS_URL="")
def test_cancelling_tells_each_game_it_ended(
    player: Any, django_capture_on_commit_callbacks: Any
) -> None:
    race = running_race(name="Called off")
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    heard: list[tuple[str, str]] = []

    def listener(topic: str, seq: int, body: str) -> None:
        heard.append((topic, body))

    local_broker.listen(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            race_cancel(race_id=race.id, now=race.starts_at + timedelta(seconds=30))
    finally:
        local_broker.unlisten(listener)
    topics = [t for t, _ in heard]
    assert race_topic(race.id) in topics
    assert game_topic(game_id) in topics
