"""The solver's verdicts on deals (issue [solver] item 5).

:func:`deal_record_verdict` caches a verdict and one winning line on the
:class:`~games.models.Deal`.  Solving itself never runs in a web request: solutions
and hints run on the solver queue (``games.services.solver``), and proven-winnable
deals, for practice games and for races with ``require_winnable``, come from the pool
that queue fills ahead of time (``games.services.winnable_pool``).
"""

from __future__ import annotations

from games.engine.solver import SolveResult
from games.models import Deal


def deal_record_verdict(*, deal: Deal, result: SolveResult) -> None:
    """Store a solver verdict on ``deal`` (``won`` and ``lost`` are final), its winning
    line as given.

    Every winning line arrives shortened (:func:`games.engine.tidy.tidy_line`: no round
    trips, no passes that play nothing; replayed to 52 cards home), which costs up to
    ``DEFAULT_MAX_PLAYS`` engine moves (seconds of CPU) and so is done on the solver
    queue, before this is called: by the solve job (:func:`games.services.solver.solve_run`)
    or when the pool of proven-winnable deals was filled
    (:func:`games.services.winnable_pool.winnable_pool_fill`), so that a web request
    drawing from it never does that work.
    """
    deal.solver_result = result.result
    deal.solver_moves = list(result.moves)
    deal.solver_nodes = result.nodes
    deal.solver_seconds = result.seconds
    deal.save(update_fields=["solver_result", "solver_moves", "solver_nodes", "solver_seconds"])
