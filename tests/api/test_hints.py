"""Hints in practice games (issue [solver-plus] item 2, RULES.md 7).

``GET /games/{id}/hint`` never solves in the request: the position goes to the solver
queue (here: recorded, then run by the test as a worker would), 202 until solved, then
200 with the next move of a winning line.  Race games never get a hint.  Seeds with
known verdicts (asserted): classic "0" is won, "2" is lost from the deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from games.engine import new_game
from games.engine.record import GameRecord
from games.models import Game, Solve
from games.services import solver as solver_services
from games.services.solver import solve_run
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db

WON_SEED, LOST_SEED = "0", "2"


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[str]:
    """The solver queue: jobs are recorded when sent; the test runs them as a worker."""
    settings.SOLVER_BUDGET_SECONDS = 120  # never reached by these seeds: no clock in play
    sent: list[str] = []

    def record(task_name: str, *, kwargs: dict[str, Any]) -> bool:
        sent.append(kwargs["solve_id"])
        return True

    monkeypatch.setattr(solver_services, "enqueue_now", record)
    return sent


def _start(client: APIClient, seed: str) -> str:
    resp = client.post("/api/v1/games", {"seed": seed}, format="json")
    assert resp.status_code == 201, resp.content
    return str(resp.json()["id"])


def _ask(
    client: APIClient, game_id: str, queued: list[str], capture: Callable[..., Any]
) -> dict[str, Any]:
    """Ask for a hint; if it is queued, run the job as the worker would and ask again."""
    with capture(execute=True):
        first = client.get(f"/api/v1/games/{game_id}/hint")
    if first.status_code == 202:
        assert first["Retry-After"] == str(settings.SOLVER_RETRY_AFTER_SECONDS)
        assert first.json()["status"] == "pending"
        solve_run(solve_id=queued[-1])
        first = client.get(f"/api/v1/games/{game_id}/hint")
    assert first.status_code == 200, first.content
    return dict(first.json())


def test_hint_is_the_next_move_of_a_winning_line_and_is_recorded(
    player: APIClient,
    queued: list[str],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    game_id = _start(player, WON_SEED)
    hint = _ask(player, game_id, queued, django_capture_on_commit_callbacks)
    assert (hint["status"], hint["result"], hint["move_number"]) == ("done", "won", 0)
    job = Solve.objects.get(moves=[])
    assert hint["move"] == job.solution[0]
    assert (
        GameRecord(
            rules=new_game("classic", seed=WON_SEED).rules,
            deck=tuple(Game.objects.get(id=game_id).deal.deck),
            moves=tuple(job.solution),
        )
        .replay()
        .cards_home
        == 52
    )
    # Asking again for the same position joins the job and records the hint once.
    again = player.get(f"/api/v1/games/{game_id}/hint")
    assert again.json() == hint
    assert len(queued) == 1
    assert Game.objects.get(id=game_id).hints == [{"move_number": 0, "move": hint["move"]}]
    # Play it: the next hint goes on along the same line, with no new solve.
    played = player.post(
        f"/api/v1/games/{game_id}/moves",
        {"move": hint["move"], "expected_move_number": 0},
        format="json",
    )
    assert played.status_code == 201, played.content
    second = _ask(player, game_id, queued, django_capture_on_commit_callbacks)
    assert (second["result"], second["move_number"], second["move"]) == ("won", 1, job.solution[1])
    assert len(queued) == 1
    # The export lists the hints; the engine's record reader ignores them.
    player.post(f"/api/v1/games/{game_id}/resign")
    export = player.get(f"/api/v1/games/{game_id}/export").json()
    assert [h["move_number"] for h in export["hints"]] == [0, 1]
    assert GameRecord.from_dict(json.loads(json.dumps(export))).moves == (hint["move"],)


def test_following_every_hint_wins_along_the_first_line(
    player: APIClient,
    queued: list[str],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """Two solves of neighbouring positions may give lines that undo each other's first
    move; a user who followed every hint was sent 8D>t3, 8D>t4, 8D>t3, ... for 280
    moves.  Hints now go on along the line being followed, so the game is won in the
    first line's length, with one solve."""
    game_id = _start(player, WON_SEED)
    first = _ask(player, game_id, queued, django_capture_on_commit_callbacks)
    line = Solve.objects.get(moves=[]).solution
    played = []
    for number in range(len(line)):
        hint = (
            first
            if number == 0
            else _ask(player, game_id, queued, django_capture_on_commit_callbacks)
        )
        assert (hint["result"], hint["move_number"]) == ("won", number)
        resp = player.post(
            f"/api/v1/games/{game_id}/moves",
            {"move": hint["move"], "expected_move_number": number},
            format="json",
        )
        assert resp.status_code == 201, resp.content
        played.append(resp.json()["move"])
    assert played == line
    game = Game.objects.get(id=game_id)
    assert (game.status, game.cards_home) == ("won", 52)
    assert len(queued) == 1
    assert Solve.objects.count() == 1
    # A move off the line leaves it: a new solve there.
    game_id = _start(player, WON_SEED)
    assert _ask(player, game_id, queued, django_capture_on_commit_callbacks)["move"] == line[0]
    off = next(m for m in new_game("classic", seed=WON_SEED).legal_moves() if m != line[0])
    resp = player.post(
        f"/api/v1/games/{game_id}/moves", {"move": off, "expected_move_number": 0}, format="json"
    )
    assert resp.status_code == 201, resp.content
    _ask(player, game_id, queued, django_capture_on_commit_callbacks)
    assert len(queued) == 3  # the first game's deal, this game's deal, the move off the line
    assert str(Solve.objects.get(moves=[resp.json()["move"]]).id) == queued[-1]


def test_a_lost_position_says_so_and_records_nothing(
    player: APIClient,
    queued: list[str],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    game_id = _start(player, LOST_SEED)
    hint = _ask(player, game_id, queued, django_capture_on_commit_callbacks)
    assert (hint["result"], "move" in hint) == ("lost", False)
    assert Game.objects.get(id=game_id).hints == []


def test_race_games_never_get_a_hint(player: APIClient, queued: list[str]) -> None:
    race = running_race()
    joined = player.post(f"/api/v1/races/{race.id}/join")
    assert joined.status_code in (200, 201), joined.content
    game_id = joined.json()["game_id"]
    resp = player.get(f"/api/v1/games/{game_id}/hint")
    assert resp.status_code == 403
    assert resp["Content-Type"].startswith("application/problem+json")
    assert resp.json()["code"] == "hint_not_allowed"
    assert not Solve.objects.exists()
    assert queued == []


def test_no_hint_for_a_finished_or_someone_elses_game(
    player: APIClient, make_client: Callable[..., APIClient], queued: list[str]
) -> None:
    game_id = _start(player, WON_SEED)
    other = make_client("someone")
    assert other.get(f"/api/v1/games/{game_id}/hint").json()["code"] == "not_found"
    player.post(f"/api/v1/games/{game_id}/resign")
    over = player.get(f"/api/v1/games/{game_id}/hint")
    assert (over.status_code, over.json()["code"]) == (409, "game_over")
    assert not Solve.objects.exists()


def test_prefix_keys_are_the_position_keys_of_every_prefix() -> None:
    from games.services.solver import position_key, prefix_keys

    moves = ["draw", "QH>t2", "5S>f", "redeal", "draw"]
    assert prefix_keys(moves) == [position_key(moves[:i]) for i in range(len(moves) + 1)]
    assert prefix_keys([]) == [position_key([])]
