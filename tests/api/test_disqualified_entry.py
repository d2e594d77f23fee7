# mypy: disable-error-code="no-untyped-call, misc, arg-type"
"""A disqualified entry's game is frozen: moves, undo and resignation are refused with
403 ``disqualified`` and the organisers' reason, and nothing changes; lifting the
disqualification lets the player go on (RULES.md 6: disqualified entries get no rank)."""

from __future__ import annotations

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
        assert body["detail"] == "you are disqualified from this race: two accounts"
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
