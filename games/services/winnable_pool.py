"""The pool of proven-winnable deals (issue 18 item 6): filled ahead of time, drawn at once.

Neither ``POST /games {"winnable": true}`` nor a race with ``require_winnable``
(``games.services.races.race_create``) runs the solver: :func:`winnable_draw`
takes the oldest proven seed for the game's rules from the pool (one row of
:class:`~games.models.WinnableDeal`, deleted as it is taken, in the caller's
transaction).  When the pool of those rules is empty it raises
:class:`NoWinnableDeal` (``503 no_winnable_deal`` with ``Retry-After``) and the
caller asks for a refill (:func:`winnable_pool_request`).

Filling runs on the ``solver`` queue (task ``games.winnable_pool_fill``):
:func:`winnable_pool_fill` draws fresh secret seeds, gives each
``WINNABLE_BUDGET_SECONDS`` of solver time, and keeps the ones proven won until
the pool holds ``WINNABLE_POOL_SIZE`` deals (at most ``WINNABLE_ATTEMPTS`` seeds
a run).  Beat refills the pools of the presets in ``WINNABLE_POOL_PRESETS`` every
``WINNABLE_POOL_REFILL_SECONDS`` (``games.winnable_pool_refill``); any other rules
are filled on demand, when a draw finds their pool empty or below half full.
On the embedded default (no worker) the refill runs in a background thread of
the web process when it is asked for: the request still answers at once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from games.engine import Rules, make_rules, new_game, random_seed, variant_name
from games.engine.solver import SolveResult, solve
from games.models import WinnableDeal, WinnableStreak
from games.services.enqueue import enqueue_now
from games.services.errors import NoWinnableDeal, WinnableNotFound

logger = logging.getLogger(__name__)

FILL_TASK = "games.winnable_pool_fill"
#: Seconds after the last fill that a streak of ``WINNABLE_GIVE_UP_AFTER`` deals proved
#: lost keeps draws answering ``no_winnable_deal_found`` with no refill; then a draw asks
#: for a refill again (which adds to the streak, or ends it with a win).
NONE_FOUND_SECONDS = 6 * 3600


def _asked_key(key: str) -> str:
    return f"winnable-pool:asked:{key}"


def rules_key(rules: Rules) -> str:
    """``hex(SHA-256)`` of the rules' canonical JSON: one pool per distinct rule set."""
    return hashlib.sha256(
        json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def winnable_pool_count(*, rules: Rules) -> int:
    """How many proven-winnable deals wait in the pool of ``rules``."""
    return WinnableDeal.objects.filter(rules_key=rules_key(rules)).count()


def winnable_draw(*, rules: Rules) -> tuple[str, SolveResult]:
    """Take the oldest proven-winnable seed for ``rules`` from the pool, with its proof.

    Runs in the caller's transaction (the row comes back if it rolls back);
    concurrent draws never take the same row (``skip_locked``).  Asks for a
    refill after commit when the pool falls below half of ``WINNABLE_POOL_SIZE``.
    Raises :class:`NoWinnableDeal` (``retry_after`` seconds) when it is empty:
    the caller then asks for a refill with :func:`winnable_pool_request`; or
    :class:`WinnableNotFound` when the rules' :class:`~games.models.WinnableStreak` has
    reached ``WINNABLE_GIVE_UP_AFTER`` deals proved lost in a row (within
    :data:`NONE_FOUND_SECONDS` of the last fill): no refill is worth asking for.
    """
    key = rules_key(rules)
    row = (
        WinnableDeal.objects.select_for_update(skip_locked=True)
        .filter(rules_key=key)
        .order_by("created_at", "id")
        .first()
    )
    if row is None:
        streak = WinnableStreak.objects.filter(
            rules_key=key,
            lost_in_a_row__gte=settings.WINNABLE_GIVE_UP_AFTER,
            updated_at__gt=timezone.now() - timedelta(seconds=NONE_FOUND_SECONDS),
        ).first()
        if streak is not None:
            raise WinnableNotFound(
                f"the solver proved the last {streak.lost_in_a_row} fresh deals of these "
                "rules it drew lost, in a row: a winnable deal of these rules is not to be "
                "expected; start a game without winnable",
                tried=streak.lost_in_a_row,
            )
        raise NoWinnableDeal(
            "no proven-winnable deal is ready for these rules yet: one is being prepared, "
            "retry shortly",
            retry_after=settings.WINNABLE_RETRY_AFTER_SECONDS,
        )
    row.delete()
    if WinnableDeal.objects.filter(rules_key=key).count() < settings.WINNABLE_POOL_SIZE / 2:
        transaction.on_commit(lambda: winnable_pool_request(rules=rules))
    proof = SolveResult(result="won", moves=list(row.moves), nodes=row.nodes, seconds=row.seconds)
    return row.seed, proof


_filling: set[str] = set()
_filling_lock = threading.Lock()

#: Name of the embedded default's refill thread (one per rule set at a time).
FILL_THREAD = "winnable-pool-fill"


def winnable_pool_request(*, rules: Rules) -> bool:
    """Send a refill of the pool of ``rules`` to the ``solver`` queue now (``False``: not sent,
    logged; beat or the next draw asks again).

    On the embedded default (tasks run in-process, no worker) the refill runs in
    a background thread of this process instead, one per rule set at a time, so
    the request that asked still answers at once.
    """
    from canfield_site.celery import app

    options = rules.to_dict()
    if not app.conf.task_always_eager:
        # One fill per rule set per Retry-After: each empty draw asked for another, and
        # they waited in the queue side by side.
        if not cache.add(_asked_key(rules_key(rules)), 1, settings.WINNABLE_RETRY_AFTER_SECONDS):
            return True
        return enqueue_now(FILL_TASK, kwargs={"options": options})
    key = rules_key(rules)
    with _filling_lock:
        if key in _filling:
            return True
        _filling.add(key)
    threading.Thread(
        target=_fill_in_background, args=(key, options), name=FILL_THREAD, daemon=True
    ).start()
    return True


def _fill_in_background(key: str, options: dict[str, Any]) -> None:
    try:
        winnable_pool_fill(options=options)
    except Exception:
        logger.exception("winnable pool: in-process refill failed")
    finally:
        connection.close()
        with _filling_lock:
            _filling.discard(key)


def winnable_pool_fill(
    *,
    options: dict[str, Any],
    size: int | None = None,
    attempts: int | None = None,
    budget_seconds: float | None = None,
) -> int:
    """Fill the pool of the rules ``options`` up to ``size`` deals; returns how many were added.

    Draws ``attempts`` fresh seeds (default ``WINNABLE_ATTEMPTS``), each solved within
    ``budget_seconds`` (default ``WINNABLE_BUDGET_SECONDS``); only seeds proven
    ``won`` enter the pool.  No lock is held while solving.  Each seed proved lost
    adds one to the rules' :class:`~games.models.WinnableStreak`, and a seed won or
    undecided sets it to 0; while every seed drawn is proved lost, the fill goes on
    past ``attempts`` until the streak reaches ``WINNABLE_GIVE_UP_AFTER`` or it has
    solved for ``WINNABLE_GIVE_UP_SECONDS`` (one-pass deals are proved lost in about
    a millisecond each; rules that do have wins end the streak long before).
    """
    rules = make_rules("classic", **options)
    key = rules_key(rules)
    target = settings.WINNABLE_POOL_SIZE if size is None else size
    tries = settings.WINNABLE_ATTEMPTS if attempts is None else attempts
    budget = settings.WINNABLE_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    give_up = settings.WINNABLE_GIVE_UP_AFTER
    row = WinnableStreak.objects.filter(rules_key=key).first()
    streak = row.lost_in_a_row if row is not None else 0
    started = time.monotonic()
    added = tried = 0
    while True:
        if WinnableDeal.objects.filter(rules_key=key).count() >= target:
            break
        # streak >= tried: every seed of this fill so far was proved lost.
        if tried >= tries and not (
            streak >= tried
            and streak < give_up
            and time.monotonic() - started < settings.WINNABLE_GIVE_UP_SECONDS
        ):
            break
        seed = random_seed()
        result = solve(new_game("classic", seed=seed, **rules.to_dict()), max_seconds=budget)
        tried += 1
        if result.result == "lost":
            streak += 1
            continue
        streak = 0
        if result.result != "won":
            continue
        WinnableDeal.objects.create(
            rules_key=key,
            variant=variant_name(rules) or "custom",
            options=rules.to_dict(),
            seed=seed,
            moves=list(result.moves),
            nodes=result.nodes,
            seconds=result.seconds,
        )
        added += 1
    if tried:
        WinnableStreak.objects.update_or_create(
            rules_key=key, defaults={"lost_in_a_row": streak, "updated_at": timezone.now()}
        )
    logger.info(
        "winnable pool %s: %d added of %d tried", variant_name(rules) or key[:12], added, tried
    )
    return added


def winnable_pool_refill() -> dict[str, int]:
    """Ask for a refill of every preset pool in ``WINNABLE_POOL_PRESETS`` below its size
    (beat, ``games.winnable_pool_refill``); returns the presets asked and their counts."""
    asked: dict[str, int] = {}
    for preset in settings.WINNABLE_POOL_PRESETS:
        rules = make_rules(preset)
        count = winnable_pool_count(rules=rules)
        if count < settings.WINNABLE_POOL_SIZE:
            winnable_pool_request(rules=rules)
            asked[preset] = count
    return asked
