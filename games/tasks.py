"""Celery tasks for the game domain.

Tasks stay thin: they call services. They run with ``acks_late`` and may be
delivered twice, so each one must be idempotent.
"""

import logging
import time
from typing import Any, TypedDict

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import OperationalError, connection

from games.engine.solver import DEFAULT_MAX_BYTES

logger = logging.getLogger(__name__)


class PingResult(TypedDict):
    """What :func:`ping` returns."""

    echo: str
    database: str


@shared_task(name="games.ping")
def ping(echo: str) -> PingResult:
    """Echo ``echo`` back after a ``SELECT 1`` on the worker's database connection.

    Proves a round trip: the message crossed the broker, a worker ran it with the
    project's settings and database, and the result came back through the result
    backend. Returns the echo and the database vendor the worker used.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"echo": echo, "database": connection.vendor}


#: Seconds between two records of a race sweep by one worker process (see race_sweep).
SWEEP_RECORD_SECONDS = 10.0
_last_sweep_record = [float("-inf")]  # this process's last record, time.monotonic()


@shared_task(name="games.race_sweep", bind=True)
def race_sweep(self: Any) -> list[str]:
    """Close and score every due race (beat runs this every ``RACE_SWEEP_SECONDS``).

    Idempotent: closing is guarded in :func:`games.services.races.race_close`,
    and a race another worker holds is skipped (``busy``) for the next sweep.
    Returns ``"<race id>:<status>"`` for each race looked at; ``"<race id>:error"`` for
    a race whose close raised (logged with its traceback; the step that raised is rolled
    back: a race already marked ``closing`` by the first step stays so, and the next sweep
    scores it again): the races due after it are still closed, not held behind it on
    every sweep.  The soft time limit still stops the sweep.  Run on a worker (not
    called directly, nor eagerly), it first records its run for ``/api/v1/health``
    (:func:`canfield_site.health.record_sweep`), at most once every
    ``SWEEP_RECORD_SECONDS`` per worker process: one database write per 10 s, not per
    sweep, against a health grace of at least 60 s.
    """
    from canfield_site.health import record_sweep
    from games.services.races import race_close, races_due

    if not (self.request.called_directly or self.request.is_eager):
        moment = time.monotonic()
        if moment - _last_sweep_record[0] >= SWEEP_RECORD_SECONDS:
            record_sweep()
            _last_sweep_record[0] = moment

    out = []
    for race_id in races_due():
        try:
            status = race_close(race_id=race_id)
        except SoftTimeLimitExceeded:
            raise  # the task's time is up: stop here, the next sweep goes on
        except Exception:
            logger.exception("race sweep: closing race %s failed (retried next sweep)", race_id)
            status = "error"
        out.append(f"{race_id}:{status}")
    return out


@shared_task(name="games.solve_batch_deal", bind=True)
def solve_batch_deal(
    self: Any,
    variant: str,
    seed: str,
    options: dict[str, Any],
    budget_seconds: float | None,
    budget_nodes: int | None,
    tidy: bool,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
) -> dict[str, Any]:
    """Solve one deal of a ``manage.py solve --backend celery`` batch (pure engine, no database).

    ``max_bytes``: the solver's memory cap for the deal, in bytes (``None``: none; the
    default is the solver's 1 GiB, for tasks sent without it; upgrade the workers before
    the machine that sends, since an older worker refuses the extra argument).  Returns
    the batch row of :func:`games.engine.solver_batch.solve_seed` (``seed``, ``result``,
    ``moves``, ``nodes``, ``seconds``) plus ``worker``: the host name of the worker that
    ran it.  Deterministic for a node budget, so a redelivery (acks_late) gives the same
    row.
    """
    from games.engine.solver_batch import solve_seed

    row = solve_seed((variant, seed, options, budget_seconds, budget_nodes, tidy, max_bytes))
    row["worker"] = self.request.hostname or "in-process"
    return row


@shared_task(name="games.race_rate", autoretry_for=(OperationalError,), max_retries=3)
def race_rate_task(race_id: str) -> str:
    """Rate one finished race (idempotent; see :mod:`games.services.ratings`); returns the outcome.

    ``rated``, ``not_rated``, ``unchanged``, ``not_finished`` or ``missing``.
    Retried on a database error (a deadlock or a lost connection).
    """
    from games.services.ratings import race_rate

    return race_rate(race_id=race_id)


@shared_task(name="games.ratings_sweep")
def ratings_sweep_task() -> list[str]:
    """Rate finished races no task rated (beat, every minute); ``"<race id>:<outcome>"``."""
    from games.services.ratings import ratings_sweep

    return ratings_sweep()


@shared_task(name="games.rating_pool_recompute")
def rating_pool_recompute_task(pool_id: int) -> int:
    """Recompute a rating pool from all its races (admin action); returns races rated."""
    from games.services.ratings import pool_recompute

    return pool_recompute(pool_id=pool_id)


@shared_task(name="games.solve")
def solve_task(solve_id: str) -> str:
    """Run one solver job (``solver`` queue; idempotent); returns its verdict."""
    from games.services.solver import solve_run

    return solve_run(solve_id=solve_id).result


@shared_task(name="games.solver_sweep")
def solver_sweep() -> int:
    """Send again the solver jobs never finished (beat); returns how many were sent."""
    from games.services.solver import solves_resend

    return solves_resend()


@shared_task(name="games.winnable_pool_fill")
def winnable_pool_fill_task(options: dict[str, object]) -> int:
    """Fill the winnable-deal pool of the rules ``options`` (``solver`` queue); returns
    how many deals were added."""
    from games.services.winnable_pool import winnable_pool_fill

    return winnable_pool_fill(options=dict(options))


@shared_task(name="games.winnable_pool_refill")
def winnable_pool_refill_task() -> dict[str, int]:
    """Ask for a refill of every preset pool whose races' reserve or players' pool is below
    its size (``WINNABLE_RACE_RESERVE``, ``WINNABLE_POOL_SIZE``; beat)."""
    from games.services.winnable_pool import winnable_pool_refill

    return winnable_pool_refill()
