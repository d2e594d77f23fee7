"""Hints in practice games (issue [solver-plus] item 2; RULES.md 7).

A hint is the next move of a winning line from the game's current position, found
by the solver with every card known.  That uses hidden cards, so RULES.md 7 allows
it only outside races: a race game never gets one (:class:`HintNotAllowed`).

The solve runs on the ``solver`` queue, never in the request: :func:`game_hint`
asks :func:`games.services.solver.solve_request` for the position (the deal
followed by the game's live moves; one job per deal and position, shared and
cached), and answers at once with the job's state.  A hint delivered (a ``won``
verdict) is recorded on the game (``Game.hints``) and shown in its export.

Hints follow one line.  Two solves of neighbouring positions may find different
winning lines, so asking the solver afresh after each move can send a card back
and forth for ever (``8D>t3``, then ``8D>t4``, then ``8D>t3``: seen by a user who
followed every hint).  So before a new solve, :func:`_continuation` looks for a
winning line found from an earlier position of the game whose first moves are
exactly the moves played since: the rest of that line is still a win from here
(it was replayed by the engine to 52 cards home from that position), and its next
move is the hint.  A player who follows the hints therefore wins in as many moves
as the first line has, with one solve.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from games.models import Game, Solve
from games.selectors.games import game_live_moves
from games.services.errors import MALFORMED_ID, HintNotAllowed, NotFound
from games.services.games import game_over_error
from games.services.solver import prefix_keys, solve_request


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
        raise game_over_error(game)
    number = game.move_number
    moves = game_live_moves(game)
    follow = _continuation(deal_id=game.deal_id, moves=moves)
    if follow is not None:
        _record(game_id=game.id, move_number=number, move=follow)
        return {"status": Solve.Status.DONE, "move_number": number, "result": "won", "move": follow}
    job = solve_request(deal=game.deal, moves=moves, requested_by=player)
    job.refresh_from_db()  # with in-process tasks the job ran when its request committed
    out: dict[str, Any] = {"status": job.status, "move_number": number}
    if job.status != Solve.Status.DONE:
        return out
    out["result"] = job.result
    if job.result == "won" and job.solution:
        out["move"] = job.solution[0]
        _record(game_id=game.id, move_number=number, move=job.solution[0])
    return out


#: How many moves back :func:`_continuation` looks for a line being followed.
HINT_LOOKBACK = 1000


def _continuation(*, deal_id: Any, moves: list[str]) -> str | None:
    """The next move of a winning line being followed, or ``None`` (module doc).

    ``moves``: the game's live moves.  Looks at the done, won solves of the
    positions ``moves[:n - k]`` (``k`` = 1 .. ``HINT_LOOKBACK``; one query) and
    takes the nearest whose line starts with ``moves[n - k:]`` and goes on.
    """
    n = len(moves)
    keys = prefix_keys(moves)
    back = {keys[n - k]: k for k in range(1, min(n, HINT_LOOKBACK) + 1)}
    if not back:
        return None
    best: tuple[int, str] | None = None
    for key, line in Solve.objects.filter(
        deal_id=deal_id, position_key__in=back, status=Solve.Status.DONE, result="won"
    ).values_list("position_key", "solution"):
        k = back[key]
        if len(line) > k and line[:k] == moves[n - k :] and (best is None or k < best[0]):
            best = (k, line[k])
    return None if best is None else best[1]


def _record(*, game_id: Any, move_number: int, move: str) -> None:
    """Append the hint to ``Game.hints`` once per move number (under the game's row lock)."""
    with transaction.atomic():
        game = Game.objects.select_for_update(no_key=True).get(id=game_id)
        hint = {"move_number": move_number, "move": move}
        if hint not in game.hints:
            game.hints = [*game.hints, hint]
            game.save(update_fields=["hints"])
