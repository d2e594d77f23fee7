"""Read the solver's jobs (issue 12 item 4): a solve's status and, when done, its verdict.

Reads only: nothing here solves or writes (``games.services.solver`` does).
Callers decide first whether the viewer may see the answer (a solution names
every card: :func:`games.selectors.games.deal_revealed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.models import Deal, Solve


def solve_public(job: Solve) -> dict[str, Any]:
    """A job as a client sees it.

    Shape: ``{"status": "pending"|"running"|"done", "result": "won"|"lost"|
    "unknown"|None, "moves": [...], "nodes": int, "seconds": float,
    "requested_at": datetime}``; ``moves`` (a winning line from the position,
    canonical notation) is empty unless won; ``seconds`` is solver time.
    """
    done = job.status == Solve.Status.DONE
    return {
        "status": job.status,
        "result": job.result if done else None,
        "moves": job.solution if done and job.result == "won" else [],
        "nodes": job.nodes,
        "seconds": round(job.seconds, 3),
        "requested_at": job.created_at,
    }


def solve_status(*, deal: Deal, moves: Sequence[str] = ()) -> dict[str, Any] | None:
    """The job on ``deal`` after ``moves`` (:func:`solve_public`), or ``None`` if never asked.

    For the dealt position a final verdict cached on the deal (won or lost,
    e.g. the proof of a winnable deal) counts as a finished job.
    """
    from games.services.solver import position_key

    job = Solve.objects.filter(deal=deal, position_key=position_key(moves)).first()
    if job is not None:
        return solve_public(job)
    if not moves and deal.solver_result in ("won", "lost"):
        return {
            "status": Solve.Status.DONE,
            "result": deal.solver_result,
            "moves": deal.solver_moves if deal.solver_result == "won" else [],
            "nodes": deal.solver_nodes,
            "seconds": round(deal.solver_seconds, 3),
            "requested_at": deal.created_at,
        }
    return None
