# mypy: disable-error-code="misc"
"""A race cancelled before its start left its games "not started" for ever: the game
view answered 409 ``race_not_started`` ("the race starts at ..."), the game list said
``not_started``, the export 409, and the play page sent the player back with "The race
has not started yet.".  Such a game reads as ended by the cancellation everywhere: status
``timed_out``, its deal public (a cancelled race's seed is, RULES.md 7), and the play page
says the organisers cancelled the race before it started (every language)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game, Race
from games.selectors.races import race_standings
from games.services.race_admin import race_open_now
from games.services.races import race_cancel, race_join
from tests.tournaments.test_admin_services import later_race

pytestmark = pytest.mark.django_db


def _cancelled_before_start(player: Any) -> tuple[Race, Game]:
    race = later_race(name="Never run")
    race_open_now(race_id=race.id)
    entry = race_join(race_id=race.id, player=player).entry
    race_cancel(race_id=race.id, now=race.starts_at - timedelta(minutes=5))
    race.refresh_from_db()
    assert race.status == "cancelled"
    return race, Game.objects.get(id=entry.game_id)


def test_the_api_shows_the_game_as_ended_by_the_cancellation(
    make_client: Callable[..., APIClient],
) -> None:
    ann = make_client("ann")
    race, game = _cancelled_before_start(ann.user)  # type: ignore[attr-defined]
    view = ann.get(f"/api/v1/games/{game.id}")
    assert view.status_code == 200, view.json()
    body = view.json()
    assert body["status"] == "timed_out"
    assert body["legal_moves"] == []
    assert body["deal"]["revealed"] is True
    assert body["deal"]["seed"] == race.deal.seed
    listed = {g["id"]: g for g in ann.get("/api/v1/games").json()["results"]}
    assert listed[str(game.id)]["status"] == "timed_out"
    export = ann.get(f"/api/v1/games/{game.id}/export")
    assert export.status_code == 200
    assert (export.json()["seed"], export.json()["moves"]) == (race.deal.seed, [])
    move = ann.post(
        f"/api/v1/games/{game.id}/moves", {"move": "draw", "expected_move_number": 0}, format="json"
    )
    assert (move.status_code, move.json()["code"]) == (409, "game_over")
    # The race's standings still show no counts for an entrant who never played.
    assert [(r["status"], r["cards_home"]) for r in race_standings(race=race)] == [
        ("did_not_start", None)
    ]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "The organisers cancelled this race before it started."),
        ("fr", "Les organisateurs ont annulé cette course avant son départ."),
        ("es", "Los organizadores cancelaron esta carrera antes de que empezara."),
        ("de", "Die Veranstalter haben dieses Rennen vor seinem Start abgesagt."),
    ],
)
def test_the_play_page_says_the_race_was_cancelled_before_it_started(
    make_client: Callable[..., APIClient], language: str, words: str
) -> None:
    ann = make_client("ann")
    _race, game = _cancelled_before_start(ann.user)  # type: ignore[attr-defined]
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(ann.user)  # type: ignore[attr-defined]
    page = client.get(f"/play/{game.id}/")
    assert page.status_code == 200
    assert words in page.content.decode()


def test_start_answers_the_cancellation_not_a_start_that_will_never_come(
    make_client: Callable[..., APIClient],
) -> None:
    """``POST /races/{id}/start`` by an entrant of a race cancelled before its start
    answered 409 ``race_not_started`` ("The race starts at ...", ``Retry-After`` until a
    start that never comes): a client told to wait until then.  It answers as the game
    does: 200 with the game, ended by the cancellation (``timed_out``, deal public); in
    window mode, where no game was dealt yet, 409 ``race_not_open`` (the race is
    cancelled), with no ``Retry-After``."""
    ann = make_client("ann")
    race, game = _cancelled_before_start(ann.user)  # type: ignore[attr-defined]
    resp = ann.post(f"/api/v1/races/{race.id}/start", {}, format="json")
    assert resp.status_code == 200, resp.json()
    assert (resp.json()["id"], resp.json()["status"]) == (str(game.id), "timed_out")
    assert resp.json()["deal"]["seed"] == race.deal.seed

    bob = make_client("bob")
    window = later_race(name="Never run either")
    Race.objects.filter(id=window.id).update(mode="window", time_limit_s=300)
    race_open_now(race_id=window.id)
    race_join(race_id=window.id, player=bob.user)  # type: ignore[attr-defined]
    race_cancel(race_id=window.id, now=window.starts_at - timedelta(minutes=5))
    resp = bob.post(f"/api/v1/races/{window.id}/start", {}, format="json")
    assert (resp.status_code, resp.json()["code"]) == (409, "race_not_open"), resp.json()
    assert "cancelled" in resp.json()["detail"]
    assert "Retry-After" not in resp
    assert not Game.objects.filter(race_entry__race=window).exists()
