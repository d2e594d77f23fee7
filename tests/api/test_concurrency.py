"""Concurrent submissions for one game on PostgreSQL (DESIGN.md "Persistence"):
exactly one move is accepted per move number, never a lost or doubled move."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from games.models import Game, Move
from games.services.errors import ServiceError
from games.services.games import game_start, move_play
from tests.api.conftest import client_for
from tests.factories import make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def race(workers: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``workers`` threads released together by a barrier."""
    barrier = threading.Barrier(workers)
    results: list[Any] = [None] * workers

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = work(i)
        except BaseException as exc:  # reported by the assertions below
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    return results


def moves_for(game: Game, workers: int) -> list[str]:
    """One legal move per worker: distinct moves first, then repeats of ``draw``."""
    legal = Game.objects.get(id=game.id).engine_state().legal_moves()
    return [legal[i] if i < len(legal) else "draw" for i in range(workers)]


def check_game(game: Game, accepted: list[str]) -> None:
    game.refresh_from_db()
    rows = list(Move.objects.filter(game=game).order_by("number"))
    assert [(m.number, m.notation, m.undone_at) for m in rows] == [
        (n, move, None) for n, move in enumerate(accepted, start=1)
    ]
    assert game.move_number == len(accepted)
    call_command("audit_games")  # raises CommandError if a snapshot differs from its replay


def outcome_of_service(result: Any) -> str:
    if isinstance(result, ServiceError):
        return result.code
    assert not isinstance(result, BaseException), repr(result)
    return "replayed" if result.replayed else "accepted"


@pytest.mark.parametrize("workers", [2, 8])
def test_concurrent_service_calls_accept_exactly_one(workers: int) -> None:
    player = make_user()
    game = game_start(player=player, seed="0")
    accepted: list[str] = []
    for number in range(6):
        moves = moves_for(game, workers)

        def submit(i: int, moves: list[str] = moves, number: int = number) -> Any:
            return move_play(
                game_id=game.id, player=player, move=moves[i], expected_move_number=number
            )

        results = race(workers, submit)
        outcomes = [outcome_of_service(r) for r in results]
        assert outcomes.count("accepted") == 1, outcomes
        winner = moves[outcomes.index("accepted")]
        accepted.append(winner)
        for move, outcome in zip(moves, outcomes, strict=True):
            if outcome != "accepted":
                assert outcome == ("replayed" if move == winner else "stale_move_number")
        check_game(game, accepted)


@pytest.mark.parametrize("workers", [2, 8])
def test_concurrent_http_requests_accept_exactly_one(workers: int) -> None:
    player = make_user()
    game = game_start(player=player, seed="0")
    clients = [client_for(player) for _ in range(workers)]
    accepted: list[str] = []
    for number in range(6):
        moves = moves_for(game, workers)

        def send(i: int, moves: list[str] = moves, number: int = number) -> Any:
            return clients[i].post(
                f"/api/v1/games/{game.id}/moves",
                {"move": moves[i], "expected_move_number": number},
                format="json",
            )

        results = race(workers, send)
        assert not [r for r in results if isinstance(r, BaseException)], results
        statuses = Counter(r.status_code for r in results)
        assert statuses[201] == 1, statuses
        winner = next(m for m, r in zip(moves, results, strict=True) if r.status_code == 201)
        accepted.append(winner)
        for move, resp in zip(moves, results, strict=True):
            body = resp.json()
            if resp.status_code == 201:
                assert body["number"] == number + 1
                assert body["game"]["move_number"] == number + 1
            elif move == winner:
                assert resp.status_code == 200
                assert body["replayed"] is True
                assert body["number"] == number + 1
            else:
                assert resp.status_code == 409
                assert body["code"] == "stale_move_number"
                assert body["current_move_number"] == number + 1
        check_game(game, accepted)


def test_concurrent_undo_and_move_keep_the_game_consistent() -> None:
    player = make_user()
    game = game_start(player=player, seed="0")
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=0)
    clients = [client_for(player) for _ in range(2)]
    results = race(
        2,
        lambda i: clients[i].post(
            f"/api/v1/games/{game.id}/{'undo' if i else 'moves'}",
            {"expected_move_number": 1} if i else {"move": "draw", "expected_move_number": 1},
            format="json",
        ),
    )
    codes = sorted(r.status_code for r in results)
    assert codes in ([200, 409], [201, 409]), [r.json() for r in results]
    game.refresh_from_db()
    live = Move.objects.filter(game=game, undone_at__isnull=True).count()
    assert game.move_number == live == (0 if codes == [200, 409] else 2)
    call_command("audit_games")
