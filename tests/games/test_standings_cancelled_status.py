# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, union-attr"
"""A game its race's cancellation ended is stored ``timed_out`` but its clock had not run
out: ``games.selectors.races.race_standings`` itself says ``cancelled`` (the pages used to
rewrite it, each on its own, while the API standings, the race stream and the CSV said
``timed_out``).  Every reader of the standings is checked here."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from api.streams import race_standings_payload
from games.models import Game, Race, RaceEntry
from games.selectors.exports import race_standings_csv
from games.selectors.games import game_status_shown
from games.selectors.races import STANDING_STATUSES, race_standings
from games.services.races import race_join, races_cancel
from tests.factories import UserFactory
from tests.games.test_admin_language import get
from tests.tournaments.factories import running_race
from tests.tournaments.test_admin import client_for, organiser
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def _cancelled_race() -> tuple[Race, dict[str, Any]]:
    """A race cancelled while ``ann`` played (ended by it), ``bob`` had run out of time
    before it and ``cy`` had resigned, and ``dee`` was disqualified."""
    race = running_race(name="Called off")
    players = {name: UserFactory(username=name) for name in ("ann", "bob", "cy", "dee")}
    games = {name: race_join(race_id=race.id, player=p).entry.game for name, p in players.items()}
    past = timezone.now() - timedelta(seconds=5)
    Game.objects.filter(id=games["bob"].id).update(
        deadline=past, status=Game.Status.TIMED_OUT, finished_at=past
    )
    Game.objects.filter(id=games["cy"].id).update(
        status=Game.Status.RESIGNED, finished_at=timezone.now()
    )
    RaceEntry.objects.filter(race=race, player=players["dee"]).update(
        disqualified=True, disqualified_reason="test"
    )
    races_cancel(race_ids=[race.id])
    race.refresh_from_db()
    assert race.status == Race.Status.CANCELLED
    return race, players


EXPECTED = {"ann": "cancelled", "bob": "timed_out", "cy": "resigned", "dee": "disqualified"}


def test_the_selector_says_cancelled_for_the_games_it_ended_only() -> None:
    race, players = _cancelled_race()
    rows = {r["player"]: r["status"] for r in race_standings(race=race)}
    assert rows == EXPECTED
    assert set(rows.values()) <= set(STANDING_STATUSES)
    ann = Game.objects.get(player=players["ann"])
    assert ann.status == Game.Status.TIMED_OUT  # stored as the service ends it
    assert game_status_shown(ann) == "cancelled"
    assert game_status_shown(Game.objects.get(player=players["bob"])) == "timed_out"


def test_a_finished_or_running_race_never_says_cancelled() -> None:
    race = running_race(name="On")
    race_join(race_id=race.id, player=UserFactory(username="ann"))
    assert [r["status"] for r in race_standings(race=race)] == ["playing"]


def test_the_api_standings_and_the_race_stream_say_cancelled() -> None:
    race, _players = _cancelled_race()
    body = Client().get(f"/api/v1/races/{race.id}/standings").json()
    assert {r["player"]: r["status"] for r in body["standings"]} == EXPECTED
    stream = race_standings_payload(str(race.id))
    assert {r["player"]: r["status"] for r in stream["standings"]} == EXPECTED


def test_the_openapi_schema_lists_cancelled() -> None:
    schema = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    row = schema["components"]["schemas"]["StandingRow"]["properties"]["status"]
    enum = schema["components"]["schemas"][row["allOf"][0]["$ref"].rsplit("/", 1)[1]]["enum"]
    assert enum == list(STANDING_STATUSES)
    assert "cancelled" in enum


def test_the_csv_says_cancelled() -> None:
    race, _players = _cancelled_race()
    rows = list(csv.DictReader(io.StringIO(race_standings_csv(races=[race]))))
    assert {r["player"]: r["status"] for r in rows} == EXPECTED


def test_the_race_page_says_race_cancelled() -> None:
    race, _players = _cancelled_race()
    html = " ".join(PageClient().get(f"/races/{race.id}/").content.decode().split())
    assert html.count("race cancelled") == 1, html  # ann's line
    assert "timed out" in html  # bob's, out of time before the cancellation
    live = " ".join(PageClient().get(f"/races/{race.id}/live").content.decode().split())
    assert live.count("race cancelled") == 1


def test_the_lobby_says_race_cancelled_for_the_game_it_ended() -> None:
    _race, players = _cancelled_race()
    ann = " ".join(PageClient(players["ann"]).get("/").content.decode().split())
    assert "<small>race cancelled · " in ann
    bob = " ".join(PageClient(players["bob"]).get("/").content.decode().split())
    assert "<small>timed out · " in bob
    assert "race cancelled" not in bob


def test_the_admin_race_page_says_race_cancelled() -> None:
    race, _players = _cancelled_race()
    _page, text = get(
        client_for(organiser()), reverse("admin:games_race_change", args=[race.pk]), "en"
    )
    # ann's line in the standings table and in the entries inline; bob's says timed out.
    assert text.count("Race cancelled") == 2, text
    assert text.count("Timed out") == 2, text
