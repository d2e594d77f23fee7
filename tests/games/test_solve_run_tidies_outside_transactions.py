# mypy: disable-error-code="no-untyped-call, assignment, attr-defined"
"""A solve job's winning line is shortened once, outside any transaction of the job.

It was shortened twice, the second time (the deal's copy) inside the transaction that had
written the job's row: seconds of CPU with a write transaction open, which on SQLite (the
embedded default of ``dev.py serve``) holds the whole database, so every move and every
other solve request waited (hint and solution requests timed out after 10 s under a fuzzer).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

import games.services.solver as solver_services
from games.models import Solve
from games.services.games import game_start
from games.services.solver import solve_request, solve_run
from tests.conftest import _winnable_seeds
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def test_the_line_is_shortened_once_with_no_transaction_of_the_job_open(
    monkeypatch: pytest.MonkeyPatch, queued: list[tuple[str, dict[str, Any]]]
) -> None:
    seed = _winnable_seeds()[0]
    game = game_start(player=create_user("p"), seed=seed)
    job = solve_request(deal=game.deal, budget_seconds=5.0)
    depths: list[int] = []
    real = solver_services.tidy_line

    def watched(*args: Any, **kwargs: Any) -> list[str]:
        depths.append(len(connection.atomic_blocks))
        return real(*args, **kwargs)

    monkeypatch.setattr(solver_services, "tidy_line", watched)
    outside = len(connection.atomic_blocks)  # the test's own transaction
    done = solve_run(solve_id=job.id)
    assert done.status == Solve.Status.DONE
    assert done.result == "won"
    assert depths == [outside]  # once, and inside no transaction of solve_run
    game.deal.refresh_from_db()
    assert game.deal.solver_result == "won"
    assert game.deal.solver_moves == done.solution  # the deal keeps the same short line
    state = game.deal.new_state()
    for move in done.solution:
        state.play(move)
    assert state.cards_home == 52
