"""Solver work as queued jobs (issue 12 item 4): request a solve, run it on a worker.

Solving never runs inside a web request.  A caller asks for the verdict on a
position of a deal with :func:`solve_request`, which records a pending
:class:`~games.models.Solve` (one per deal and position, shared by every asker)
and sends the ``games.solve`` task to the dedicated ``solver`` queue after
commit.  A worker of that queue runs :func:`solve_run`; readers poll the job
with :mod:`games.selectors.solver`.  The position is the dealt position
followed by ``moves``, so the same two functions serve a finished game's
solution (no moves) and, later, hints (the game's live moves).

* Per-player limit: at most ``SOLVER_MAX_PENDING_PER_USER`` jobs a player asked
  for may wait or run at once (:class:`TooManySolves`, retry after
  ``SOLVER_RETRY_AFTER_SECONDS``).  Joining a job that already exists is free.
* Budget: ``SOLVER_BUDGET_SECONDS`` of solver time per job (an ``unknown``
  verdict is final for that budget; a larger budget asks again).
* Nothing is lost: if the broker is down when the job is sent, the job stays
  ``pending`` and :func:`solves_resend` (beat, ``games.solver_sweep``) sends it
  again; a job whose worker died while ``running`` is sent again too.
* Embedded default: the task runs in-process when the request's transaction
  commits (eager), so the same API answers with the finished job at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine.solver import SolveResult, solve
from games.engine.tidy import tidy_line
from games.models import Deal, Solve
from games.services.accounts import player_lock
from games.services.enqueue import enqueue_now
from games.services.errors import IllegalMove, TooManySolves
from games.services.solutions import deal_record_verdict

logger = logging.getLogger(__name__)

SOLVE_TASK = "games.solve"


def position_key(moves: Sequence[str]) -> str:
    """``hex(SHA-256(" ".join(moves)))``: the key of the position ``moves`` lead to."""
    return hashlib.sha256(" ".join(moves).encode()).hexdigest()


def prefix_keys(moves: Sequence[str]) -> list[str]:
    """``[position_key(moves[:i]) for i in range(len(moves) + 1)]`` in one pass (hashes
    updated move by move, so a long game costs linear time, not quadratic)."""
    h = hashlib.sha256()
    keys = [h.hexdigest()]
    for i, move in enumerate(moves):
        h.update(((" " if i else "") + move).encode())
        keys.append(h.hexdigest())
    return keys


def solve_request(
    *,
    deal: Deal,
    moves: Sequence[str] = (),
    requested_by: Any = None,
    budget_seconds: float | None = None,
    now: datetime | None = None,
) -> Solve:
    """The job solving ``deal`` after ``moves``; created and queued when there is none.

    Returns the existing job when one exists (pending, running, or done with a
    final verdict or a budget at least ``budget_seconds``).  A new job counts
    against ``requested_by``'s limit.  ``moves`` are canonical notation and
    must be legal from the dealt position (:class:`IllegalMove` otherwise).
    Raises :class:`TooManySolves` (``retry_after`` seconds), :class:`AccountDeleted`
    (``requested_by``'s account, locked first as the deletion of an account does,
    :func:`games.services.accounts.player_lock`, was deleted meanwhile).  One transaction;
    the task is sent after commit (:mod:`games.services.enqueue`).
    """
    now = now or timezone.now()
    budget = settings.SOLVER_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    moves = list(moves)
    key = position_key(moves)
    if getattr(requested_by, "pk", None) is None:
        requested_by = None
    with transaction.atomic():
        if requested_by is not None:
            # The job may point at the account (requested_by): committed while its
            # deletion ran, or after it, it failed with an IntegrityError.
            player_lock(player=requested_by)
        job = Solve.objects.select_for_update(no_key=True).filter(deal=deal, position_key=key)
        existing = job.first()
        if existing is not None:
            final = existing.result in ("won", "lost")
            if existing.status != Solve.Status.DONE or final or existing.budget_seconds >= budget:
                return existing
        if requested_by is not None:
            waiting = Solve.objects.filter(
                requested_by=requested_by,
                status__in=[Solve.Status.PENDING, Solve.Status.RUNNING],
            ).count()
            if waiting >= settings.SOLVER_MAX_PENDING_PER_USER:
                raise TooManySolves(
                    f"you already have {waiting} solves waiting: retry when one is done",
                    retry_after=settings.SOLVER_RETRY_AFTER_SECONDS,
                )
        if existing is not None:  # an unknown verdict, asked again with a larger budget
            existing.status = Solve.Status.PENDING
            existing.budget_seconds = budget
            existing.requested_by = requested_by
            existing.enqueued_at = now
            existing.save(update_fields=["status", "budget_seconds", "requested_by", "enqueued_at"])
            job_row = existing
        else:
            if moves:
                state = deal.new_state()
                for move in moves:
                    try:
                        state.play(move)
                    except Exception as exc:
                        raise IllegalMove(f"the moves do not replay: {exc}") from None
            try:
                with transaction.atomic():
                    job_row = Solve.objects.create(
                        deal=deal,
                        position_key=key,
                        moves=moves,
                        budget_seconds=budget,
                        requested_by=requested_by,
                        created_at=now,
                        enqueued_at=now,
                    )
            except IntegrityError:  # another request created it first: join it
                return Solve.objects.get(deal=deal, position_key=key)
        job_id = str(job_row.id)
        transaction.on_commit(lambda: enqueue_now(SOLVE_TASK, kwargs={"solve_id": job_id}))
    return job_row


def game_solution_request(
    *, game: Any, start: str = "deal", requested_by: Any = None
) -> dict[str, Any]:
    """A finished game's solution from ``start`` (``"deal"`` or ``"end"``), asked for when
    nobody has yet: :func:`games.selectors.games.game_solution`'s answer, never ``None``.

    Never solves here: a missing job is requested (:func:`solve_request`, the solver
    queue; on the embedded default it runs when this transaction commits, so the
    answer is read again).  Raises :class:`DealSecret` while the deal is hidden and
    :class:`TooManySolves` (``requested_by``'s limit).
    """
    from games.selectors.games import game_live_moves, game_solution

    moves = game_live_moves(game) if start == "end" else []  # read once for both reads
    answer = game_solution(game, start=start, moves=moves)
    if answer is None:
        solve_request(deal=game.deal, moves=moves, requested_by=requested_by)
        answer = game_solution(game, start=start, moves=moves)
        assert answer is not None  # the job exists now
    return answer


def solve_run(*, solve_id: Any, now: datetime | None = None) -> Solve:
    """Run the job ``solve_id`` (the ``games.solve`` task; idempotent).

    A job already done is returned unchanged.  The job is marked ``running``
    in one short transaction, solved and its winning line shortened with no lock held
    (within its ``budget_seconds``; the shortening after it), and the verdict stored in
    another; a verdict on the
    dealt position is also cached on the deal.  A solver that raises leaves the
    job done with the verdict ``unknown`` (logged, not cached on the deal), so
    a job is never stuck ``running`` nor sent again for ever.
    """
    with transaction.atomic():
        job = Solve.objects.select_for_update(no_key=True).select_related("deal").get(id=solve_id)
        if job.status == Solve.Status.DONE:
            return job
        job.status = Solve.Status.RUNNING
        job.started_at = now or timezone.now()
        job.save(update_fields=["status", "started_at"])
    state = job.deal.new_state()
    for move in job.moves:
        state.play(move)
    try:
        result = solve(state, max_seconds=job.budget_seconds)
        failed = False
    except Exception:
        # Sent again, it would fail again: the sweeper would resend it for ever and
        # its asker's quota would stay taken.  Done, ``unknown``, and logged.
        logger.exception("solver job %s failed; recorded as unknown", job.id)
        result, failed = SolveResult("unknown"), True
    # A winning line is shown to people: shortened first (games.engine.tidy), once, and
    # before the transaction: it takes seconds, and on SQLite (the embedded default) a
    # write transaction holds the whole database, so every move waited for it (the deal's
    # copy was shortened a second time there, after the job's row was written).
    won = result.result == "won" and result.moves
    line = tidy_line(state, result.moves) if won else list(result.moves)
    with transaction.atomic():
        job.status = Solve.Status.DONE
        job.result = result.result
        job.solution = line
        job.nodes = result.nodes
        job.seconds = result.seconds
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "result", "solution", "nodes", "seconds", "finished_at"])
        if not job.moves and not failed:
            shortened = dataclasses.replace(result, moves=line)
            deal_record_verdict(deal=job.deal, result=shortened)
    return job


def solves_resend(*, now: datetime | None = None, stale_seconds: float | None = None) -> int:
    """Send again the jobs a worker never finished (the ``games.solver_sweep`` task).

    A job is sent again when it is ``pending`` and was last sent more than
    ``stale_seconds`` ago (default ``SOLVER_RESEND_SECONDS``: the broker was
    down, or the message was lost), or ``running`` for longer than the task
    time limit (its worker died).  Returns how many were sent.
    """
    now = now or timezone.now()
    stale = settings.SOLVER_RESEND_SECONDS if stale_seconds is None else stale_seconds
    pending_before = now - timedelta(seconds=stale)
    running_before = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    sent = 0
    ids = list(
        Solve.objects.filter(
            status=Solve.Status.PENDING, enqueued_at__lte=pending_before
        ).values_list("id", flat=True)[:100]
    ) + list(
        Solve.objects.filter(
            status=Solve.Status.RUNNING, started_at__lte=running_before
        ).values_list("id", flat=True)[:100]
    )
    for solve_id in ids:
        Solve.objects.filter(id=solve_id).exclude(status=Solve.Status.DONE).update(
            status=Solve.Status.PENDING, enqueued_at=now
        )
        if enqueue_now(SOLVE_TASK, kwargs={"solve_id": str(solve_id)}):
            sent += 1
    if ids:
        logger.info("solver sweep: %d of %d unfinished solves sent again", sent, len(ids))
    return sent
