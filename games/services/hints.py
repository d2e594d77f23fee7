"""Hints in practice games (issue [solver-plus] item 2; RULES.md 7).

A hint is the next move of a winning line from the game's current position, found
by the solver with every card known.  That uses hidden cards, so RULES.md 7 allows
it only outside races: a race game never gets one (:class:`HintNotAllowed`).

The solve runs on the ``solver`` queue, never in the request: :func:`game_hint`
asks :func:`games.services.solver.solve_request` for the position (the deal
followed by the game's live moves; one job per deal and position, shared and
cached), and answers at once with the job's state.  A hint delivered (a ``won``
verdict) is recorded on the game (``Game.hints``) and shown in its export.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from games.models import Game, Move, Solve
from games.services.errors import MALFORMED_ID, GameOver, HintNotAllowed, NotFound
from games.services.solver import solve_request


def _live_moves(game: Game) -> list[str]:
    """The game's moves not taken back, in order (canonical notation)."""
    return list(
        Move.objects.filter(game=game, undone_at__isnull=True)
        .order_by("number")
        .values_list("notation", flat=True)
    )


def game_hint(*, game_id: Any, player: User) -> dict[str, Any]:
    """The next move of a winning line from ``player``'s practice game, or why there is none.

    Returns ``{"status": "pending"|"running"|"done", "move_number": int}`` plus, when
    done, ``"result"``: ``won`` (with ``"move"``, canonical notation, to play at
    ``move_number``), ``lost`` (no win is left from here: the solver searched every
    reachable position) or ``unknown`` (its time budget, ``SOLVER_BUDGET_SECONDS``,
    ran out).  A pending job: ask again (the same position joins the same job).

    Raises :class:`NotFound` (no such game of this player), :class:`HintNotAllowed`
    (a race game), :class:`GameOver`, and :class:`TooManySolves` from the solver
    queue's per-player limit.
    """
    try:
        game = Game.objects.select_related("deal").get(id=game_id, player=player)
    except (Game.DoesNotExist, *MALFORMED_ID):
        raise NotFound("no such game") from None
    if game.kind != Game.Kind.PRACTICE:
        raise HintNotAllowed("a race game never gets a hint (RULES.md 7)")
    if game.status != Game.Status.PLAYING:
        raise GameOver(f"the game is over ({game.status.replace('_', ' ')})")
    number = game.move_number
    job = solve_request(deal=game.deal, moves=_live_moves(game), requested_by=player)
    job.refresh_from_db()  # with in-process tasks the job ran when its request committed
    out: dict[str, Any] = {"status": job.status, "move_number": number}
    if job.status != Solve.Status.DONE:
        return out
    out["result"] = job.result
    if job.result == "won" and job.solution:
        out["move"] = job.solution[0]
        _record(game_id=game.id, move_number=number, move=job.solution[0])
    return out


def _record(*, game_id: Any, move_number: int, move: str) -> None:
    """Append the hint to ``Game.hints`` once per move number (under the game's row lock)."""
    with transaction.atomic():
        game = Game.objects.select_for_update(no_key=True).get(id=game_id)
        hint = {"move_number": move_number, "move": move}
        if hint not in game.hints:
            game.hints = [*game.hints, hint]
            game.save(update_fields=["hints"])
