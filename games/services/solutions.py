"""The solver in the product (issue [solver] item 5): proven-winnable deals and solutions.

* :func:`winnable_seed` draws secret seeds until the solver proves one winnable.
* :func:`deal_record_verdict` caches a verdict and one winning line on the
  :class:`~games.models.Deal` (solving itself runs on the solver queue:
  ``games.services.solver``; winnable practice deals come from
  ``games.services.winnable_pool``).

Budgets come from settings: ``WINNABLE_BUDGET_SECONDS`` per seed drawn (at most
``WINNABLE_ATTEMPTS`` seeds).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.engine import new_game, random_seed
from games.engine.solver import SolveResult, solve
from games.engine.tidy import tidy_line
from games.models import Deal
from games.services.errors import NoWinnableDeal


def winnable_seed(
    *,
    variant: str,
    options: dict[str, Any],
    budget_seconds: float | None = None,
    attempts: int | None = None,
) -> tuple[str, SolveResult]:
    """A fresh secret seed whose deal the solver proves winnable, with the proof.

    Each seed gets ``budget_seconds`` (default ``WINNABLE_BUDGET_SECONDS``);
    raises :class:`NoWinnableDeal` after ``attempts`` seeds (default
    ``WINNABLE_ATTEMPTS``).  The proof's moves replay to 52 cards home (the
    solver verifies every win with the engine before returning it).
    """
    budget = settings.WINNABLE_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    tries = settings.WINNABLE_ATTEMPTS if attempts is None else attempts
    for _ in range(tries):
        seed = random_seed()
        result = solve(new_game(variant, seed=seed, **options), max_seconds=budget)
        if result.result == "won":
            return seed, result
    raise NoWinnableDeal(
        f"no deal proven winnable in {tries} attempts of {budget:g} s: try again, or "
        "relax the options"
    )


def deal_record_verdict(*, deal: Deal, result: SolveResult) -> None:
    """Store a solver verdict on ``deal`` (``won`` and ``lost`` are final).

    A winning line is stored shortened (:func:`games.engine.tidy.tidy_line`: no
    round trips, no passes that play nothing; replayed to 52 cards home).
    """
    deal.solver_result = result.result
    won = result.result == "won" and result.moves
    deal.solver_moves = tidy_line(deal.new_state(), result.moves) if won else list(result.moves)
    deal.solver_nodes = result.nodes
    deal.solver_seconds = result.seconds
    deal.save(update_fields=["solver_result", "solver_moves", "solver_nodes", "solver_seconds"])
