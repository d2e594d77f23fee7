# mypy: disable-error-code="no-untyped-call, misc, arg-type"
"""A disqualified entry's game is frozen: moves, undo and resignation are refused with
403 ``disqualified`` and the organisers' reason, and nothing changes; lifting the
disqualification lets the player go on (RULES.md 6: disqualified entries get no rank)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from games.models import Game, Move, RaceEntry
from games.services.race_admin import race_entry_disqualify, race_entry_reinstate
from games.services.races import race_join
from tests.api.conftest import client_for
from tests.factories import StaffFactory, UserFactory
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db


def _disqualified_entry(reason: str = "two accounts", **race: object) -> RaceEntry:
    """A running race's entry with one move played (``draw``), then disqualified."""
    player = UserFactory(username="dq")
    entry = race_join(race_id=running_race(**race).id, player=player).entry
    played = client_for(player).post(
        f"/api/v1/games/{entry.game_id}/moves",
        {"move": "draw", "expected_move_number": 0},
        format="json",
    )
    assert played.status_code == 201, played.json()
    return race_entry_disqualify(entry_id=entry.id, reason=reason, by=StaffFactory())


def test_a_disqualified_player_cannot_move_undo_or_resign() -> None:
    entry = _disqualified_entry(allow_undo=True)
    before = Game.objects.values("move_number", "status", "state", "cards_home").get(
        id=entry.game_id
    )
    c = client_for(entry.player)
    game = f"/api/v1/games/{entry.game_id}"
    answers = [
        c.post(f"{game}/moves", {"move": "draw", "expected_move_number": 1}, format="json"),
        c.post(f"{game}/undo", {"expected_move_number": 1}, format="json"),
        c.post(f"{game}/resign"),
    ]
    for resp in answers:
        assert resp.status_code == 403
        assert resp["Content-Type"] == "application/problem+json"
        body = resp.json()
        assert (body["code"], body["reason"]) == ("disqualified", "two accounts")
        assert body["detail"] == "You are disqualified from this race: two accounts."
    after = Game.objects.values("move_number", "status", "state", "cards_home").get(
        id=entry.game_id
    )
    assert after == before
    assert list(
        Move.objects.filter(game_id=entry.game_id).values_list("notation", "undone_at")
    ) == [("draw", None)]


def test_a_retry_of_a_move_accepted_before_the_disqualification_still_answers_replayed() -> None:
    # Nothing accepted is ever lost: a client that lost the answer to its last move
    # before the organisers acted gets that move back, not a refusal.
    entry = _disqualified_entry()
    resp = client_for(entry.player).post(
        f"/api/v1/games/{entry.game_id}/moves",
        {"move": "draw", "expected_move_number": 0},
        format="json",
    )
    assert resp.status_code == 200
    assert (resp.json()["replayed"], resp.json()["move"], resp.json()["number"]) == (
        True,
        "draw",
        1,
    )


def test_lifting_the_disqualification_lets_the_player_go_on() -> None:
    entry = _disqualified_entry()
    race_entry_reinstate(entry_id=entry.id, by=StaffFactory())
    resp = client_for(entry.player).post(
        f"/api/v1/games/{entry.game_id}/moves",
        {"move": "draw", "expected_move_number": 1},
        format="json",
    )
    assert resp.status_code == 201
    assert Game.objects.get(id=entry.game_id).move_number == 2


def test_other_entrants_play_on() -> None:
    entry = _disqualified_entry()
    other = UserFactory(username="other")
    mine = race_join(race_id=entry.race_id, player=other).entry
    resp = client_for(other).post(
        f"/api/v1/games/{mine.game_id}/moves",
        {"move": "draw", "expected_move_number": 0},
        format="json",
    )
    assert resp.status_code == 201
    assert (resp.json()["move"], resp.json()["number"]) == ("draw", 1)
    assert Game.objects.get(id=mine.game_id).move_number == 1
    # The disqualified entrant's game stays where it was: its one draw, nothing more.
    assert Game.objects.get(id=entry.game_id).move_number == 1


def test_the_game_view_says_so_and_lists_no_move() -> None:
    entry = _disqualified_entry(reason="shared the deal")
    view = client_for(entry.player).get(f"/api/v1/games/{entry.game_id}").json()
    assert (view["status"], view["legal_moves"], view["disqualified_reason"]) == (
        "playing",
        [],
        "shared the deal",
    )
    race = client_for(entry.player).get(f"/api/v1/races/{entry.race_id}").json()
    assert race["disqualified_reason"] == "shared the deal"
    race_entry_reinstate(entry_id=entry.id, by=StaffFactory())
    again = client_for(entry.player).get(f"/api/v1/games/{entry.game_id}").json()
    assert again["disqualified_reason"] is None
    assert "draw" in again["legal_moves"]


def test_the_game_stream_is_told_of_a_disqualification_and_its_lifting(
    django_capture_on_commit_callbacks: Any,
) -> None:
    entry = _disqualified_entry()
    with (
        mock.patch("games.live.publish.publish_now") as sent,
        django_capture_on_commit_callbacks(execute=True),
    ):
        race_entry_reinstate(entry_id=entry.id, by=StaffFactory())
        race_entry_disqualify(entry_id=entry.id, reason="again", by=StaffFactory())
    game_events = [
        data
        for batch in sent.call_args_list
        for (topic, kind, data) in batch.args[0]
        if topic == f"game:{entry.game_id}"
    ]
    assert game_events == [
        {"change": "reinstated", "move_number": 1},
        {"change": "disqualified", "move_number": 1},
    ]


def test_a_disqualified_entrant_cannot_start_a_window_clock() -> None:
    """Lifting the disqualification later leaves them their whole time."""
    race = running_race(mode="window", time_limit_s=300)
    player = UserFactory(username="late")
    entry = race_join(race_id=race.id, player=player).entry
    race_entry_disqualify(entry_id=entry.id, reason="two accounts", by=StaffFactory())
    resp = client_for(player).post(f"/api/v1/races/{race.id}/start")
    assert resp.status_code == 403
    assert (resp.json()["code"], resp.json()["reason"]) == ("disqualified", "two accounts")
    entry.refresh_from_db()
    assert entry.game_id is None
    race_entry_reinstate(entry_id=entry.id, by=StaffFactory())
    started = client_for(player).post(f"/api/v1/races/{race.id}/start")
    assert started.status_code == 200
