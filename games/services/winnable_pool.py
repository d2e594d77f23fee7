"""The pool of proven-winnable deals (issue 18 item 6): filled ahead of time, drawn at once.

Neither ``POST /games {"winnable": true}`` nor a race with ``require_winnable``
(``games.services.races.race_create``) runs the solver: :func:`winnable_draw`
takes the oldest proven seed for the game's rules (one row of
:class:`~games.models.WinnableDeal`, deleted as it is taken, in the caller's
transaction, so each row is dealt once: to one practice game or one race).

Each rule set's deals come in two shares (``WinnableDeal.purpose``), so that players
never starve organisers (an attack: 30 practice draws in a row emptied the one shared
pool, and a script at the games throttle kept it empty, so every ``require_winnable``
race answered ``503 no_winnable_deal``):

- the races' reserve (``race``, ``WINNABLE_RACE_RESERVE`` deals): drawn by races only;
- the players' pool (``practice``, ``WINNABLE_POOL_SIZE`` deals): drawn by practice
  games, and by a race when the reserve is empty.

When the share a draw may take from is empty it raises :class:`NoWinnableDeal`
(``503 no_winnable_deal`` with ``Retry-After``) and the caller asks for a refill
(:func:`winnable_pool_request`).

Filling runs on the ``solver`` queue (task ``games.winnable_pool_fill``):
:func:`winnable_pool_fill` draws fresh secret seeds, gives each
``WINNABLE_BUDGET_SECONDS`` of solver time, and keeps the ones proven won until
both shares are full (at most ``WINNABLE_ATTEMPTS`` seeds a run), each new deal going
to the emptier share for its size (the reserve on a tie).  A seed
already pooled or dealt is never pooled again.  Beat refills the pools of the presets in
``WINNABLE_POOL_PRESETS`` every ``WINNABLE_POOL_REFILL_SECONDS``
(``games.winnable_pool_refill``); any other rules are filled on demand, when a draw
finds its share empty or below half full.  On the embedded default (no worker) the
refill runs in a background thread of the web process when it is asked for: the
request still answers at once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, models, transaction
from django.utils import timezone

from games.engine import (
    Rules,
    commitment,
    make_rules,
    new_game,
    random_seed,
    replay,
    variant_name,
)
from games.engine.solver import SolveResult, solve
from games.engine.tidy import DEFAULT_MAX_PLAYS, tidy_line
from games.models import Deal, WinnableDeal, WinnableStreak
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


#: A draw's purpose (``WinnableDeal.Purpose``): a practice game or a race.
PRACTICE = WinnableDeal.Purpose.PRACTICE
RACE = WinnableDeal.Purpose.RACE


def share_sizes() -> dict[str, int]:
    """How many deals each share of a rule set's pool is kept at: ``{"race":
    WINNABLE_RACE_RESERVE, "practice": WINNABLE_POOL_SIZE}``."""
    return {RACE: int(settings.WINNABLE_RACE_RESERVE), PRACTICE: int(settings.WINNABLE_POOL_SIZE)}


def winnable_pool_count(*, rules: Rules, purpose: str | None = None) -> int:
    """How many proven-winnable deals of ``rules`` wait in the share ``purpose``
    (``race`` or ``practice``; ``None``: both)."""
    qs = WinnableDeal.objects.filter(rules_key=rules_key(rules))
    if purpose is not None:
        qs = qs.filter(purpose=purpose)
    return qs.count()


def _take(key: str, purpose: str) -> WinnableDeal | None:
    """Lock the oldest row of the share (rows other draws hold are skipped), or ``None``."""
    return (
        WinnableDeal.objects.select_for_update(skip_locked=True, no_key=False)
        .filter(rules_key=key, purpose=purpose)
        .order_by("created_at", "id")
        .first()
    )


def winnable_draw(*, rules: Rules, purpose: str) -> tuple[str, SolveResult]:
    """Take the oldest proven-winnable seed for ``rules`` from the share ``purpose`` may
    draw, with its proof.

    ``purpose``: ``practice`` (a practice game: the players' pool only, never the races'
    reserve) or ``race`` (a race with ``require_winnable``: the races' reserve, then the
    players' pool once the reserve is empty).  Runs in the caller's transaction (the row
    comes back if it rolls back); concurrent draws never take the same row
    (``skip_locked``), and a taken row is deleted, so no deal goes to two games or races.
    Asks for a refill after commit when the share drawn from falls below half its size,
    or when a race found the reserve empty.
    Raises :class:`NoWinnableDeal` (``retry_after`` seconds) when nothing is there to
    take: the caller then asks for a refill with :func:`winnable_pool_request`; or
    :class:`WinnableNotFound` when the rules' :class:`~games.models.WinnableStreak` has
    reached ``WINNABLE_GIVE_UP_AFTER`` deals proved lost in a row (within
    :data:`NONE_FOUND_SECONDS` of the last fill): no refill is worth asking for.
    """
    if purpose not in (RACE, PRACTICE):
        raise ValueError(f"unknown purpose {purpose!r}: race or practice")
    key = rules_key(rules)
    shares = [RACE, PRACTICE] if purpose == RACE else [PRACTICE]
    row = None
    for share in shares:
        row = _take(key, share)
        if row is not None:
            break
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
    left = WinnableDeal.objects.filter(rules_key=key, purpose=row.purpose).count()
    if row.purpose != purpose or left < share_sizes()[row.purpose] / 2:
        # Below half, or a race found its reserve empty: refill (both shares).
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


def _short_share(key: str, sizes: dict[str, int]) -> str | None:
    """The share a new deal goes to: the one whose count is the smaller fraction of its
    size (the races' reserve on a tie); ``None`` when both are full."""
    counts = dict(
        WinnableDeal.objects.filter(rules_key=key)
        .order_by()
        .values_list("purpose")
        .annotate(n=models.Count("id"))
        .values_list("purpose", "n")
    )
    short = [
        (counts.get(p, 0) / sizes[p], n, p)
        for n, p in enumerate((RACE, PRACTICE))
        if counts.get(p, 0) < sizes[p]
    ]
    return min(short)[2] if short else None


def _seen_before(seed: str) -> bool:
    """Whether ``seed`` is pooled already or was ever dealt (a practice game, a race): such
    a seed is not pooled again, so that no deal reaches two games or races.  Fresh seeds
    are 128 random bits (``random_seed``): this only guards against the impossible."""
    return (
        WinnableDeal.objects.filter(seed=seed).exists()
        or Deal.objects.filter(commitment=commitment(seed)).exists()
    )


def winnable_pool_fill(
    *,
    options: dict[str, Any],
    size: int | None = None,
    reserve: int | None = None,
    attempts: int | None = None,
    budget_seconds: float | None = None,
) -> int:
    """Fill both shares of the pool of the rules ``options``: the races' reserve up to
    ``reserve`` deals (default ``WINNABLE_RACE_RESERVE``) and the players' pool up to
    ``size`` (default ``WINNABLE_POOL_SIZE``); returns how many deals were added.

    Each deal proven won goes to the share that is the smaller fraction of its size (the
    reserve on a tie), so a fill after an empty start serves both at once.  Draws
    ``attempts`` fresh seeds (default ``WINNABLE_ATTEMPTS``), each solved within
    ``budget_seconds`` (default ``WINNABLE_BUDGET_SECONDS``); only seeds proven ``won``
    and never pooled or dealt before enter the pool, each with its winning line
    shortened here (:func:`games.engine.tidy.tidy_line`), so that a draw stores it as it
    is.  No lock is held while solving or shortening.
    Each seed proved lost adds one to the rules' :class:`~games.models.WinnableStreak`,
    and a seed won or undecided sets it to 0; while every seed drawn is proved lost, the
    fill goes on past ``attempts`` until the streak reaches ``WINNABLE_GIVE_UP_AFTER`` or
    it has solved for ``WINNABLE_GIVE_UP_SECONDS`` (one-pass deals are proved lost in
    about a millisecond each; rules that do have wins end the streak long before).
    """
    rules = make_rules("classic", **options)
    key = rules_key(rules)
    sizes = share_sizes()
    if size is not None:
        sizes[PRACTICE] = size
    if reserve is not None:
        sizes[RACE] = reserve
    tries = settings.WINNABLE_ATTEMPTS if attempts is None else attempts
    budget = settings.WINNABLE_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    give_up = settings.WINNABLE_GIVE_UP_AFTER
    row = WinnableStreak.objects.filter(rules_key=key).first()
    streak = row.lost_in_a_row if row is not None else 0
    started = time.monotonic()
    added = tried = 0
    while True:
        if _short_share(key, sizes) is None:
            break
        # streak >= tried: every seed of this fill so far was proved lost.
        if tried >= tries and not (
            streak >= tried
            and streak < give_up
            and time.monotonic() - started < settings.WINNABLE_GIVE_UP_SECONDS
        ):
            break
        seed = random_seed()
        tried += 1
        if _seen_before(seed):
            continue
        result = solve(new_game("classic", seed=seed, **rules.to_dict()), max_seconds=budget)
        if result.result == "lost":
            streak += 1
            continue
        streak = 0
        if result.result != "won":
            continue
        # Shortened here, on the solver queue, as the deal's line is stored: a draw takes
        # it as it is (games.services.solutions.deal_record_verdict), so no
        # web request spends the seconds this can take.
        line = tidy_line(new_game("classic", seed=seed, **rules.to_dict()), list(result.moves))
        share = _short_share(key, sizes)  # a draw may have taken one while solving
        if share is None:
            break
        WinnableDeal.objects.create(
            rules_key=key,
            purpose=share,
            variant=variant_name(rules) or "custom",
            options=rules.to_dict(),
            seed=seed,
            moves=line,
            nodes=result.nodes,
            seconds=result.seconds,
            tidied_at=timezone.now(),
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
    """Ask for a refill of every preset pool in ``WINNABLE_POOL_PRESETS`` whose races'
    reserve or players' pool is below its size (beat, ``games.winnable_pool_refill``);
    returns the presets asked and their deal counts (both shares)."""
    asked: dict[str, int] = {}
    sizes = share_sizes()
    for preset in settings.WINNABLE_POOL_PRESETS:
        rules = make_rules(preset)
        counts = {p: winnable_pool_count(rules=rules, purpose=p) for p in sizes}
        if any(counts[p] < sizes[p] for p in sizes):
            winnable_pool_request(rules=rules)
            asked[preset] = sum(counts.values())
    return asked


# ------------------------------------------------------------------ old lines


def winnable_untidied_ids() -> list[int]:
    """Ids of the pooled deals whose winning line was never shortened
    (``WinnableDeal.tidied_at`` empty: pooled before :func:`winnable_pool_fill` shortened
    each line), oldest first (the order draws take them).  One query."""
    return list(
        WinnableDeal.objects.filter(tidied_at__isnull=True)
        .order_by("created_at", "id")
        .values_list("id", flat=True)
    )


@dataclass(frozen=True)
class LineTidied:
    """What :func:`winnable_line_tidy` did to one pooled deal's line.

    ``result``: ``shortened`` (stored shorter), ``kept`` (no shorter line found: marked
    shortened, line unchanged), ``dry_run`` (shortened and checked, nothing stored),
    ``taken`` (drawn or shortened by someone else meanwhile: nothing stored), ``gone``
    (no such row, or shortened already), ``broken`` (the stored line does not win:
    left alone, ``detail`` says why).  ``before``/``after``: line lengths in moves
    (draws and redeals counted); ``seconds``: the shortening and its replay, wall clock."""

    deal_id: int
    result: str
    before: int = 0
    after: int = 0
    seconds: float = 0.0
    detail: str = ""


def _replay_wins(options: dict[str, Any], seed: str, line: list[str]) -> bool:
    """Whether ``line`` replayed by the engine from the deal ``seed`` of the rules
    ``options`` is legal move after move and ends with 52 cards home (RULES.md 3)."""
    try:
        return replay(line, seed=seed, **options).cards_home == 52
    except ValueError:  # MoveError, or a line the engine cannot read
        return False


def winnable_line_tidy(
    *,
    deal_id: int,
    dry_run: bool = False,
    max_plays: int | None = DEFAULT_MAX_PLAYS,
    now: Any = None,
) -> LineTidied:
    """Shorten the winning line of the pooled deal ``deal_id`` if it never was
    (``tidied_at`` empty), as :func:`winnable_pool_fill` does for the deals it pools:
    :func:`games.engine.tidy.tidy_line` with ``max_plays`` engine moves at most, then
    the new line replayed by the engine to 52 cards home before it is stored (with
    ``tidied_at = now``, default the current time).  Idempotent: a row shortened
    already is ``gone`` and left alone.  No lock is held while shortening (seconds of
    CPU); the store is one ``UPDATE`` of a row still unshortened, so a draw that took
    the row meanwhile (it deals the line it read) wins and the result is ``taken``.
    ``dry_run``: shorten and check, store nothing.  Outside requests only (the
    management command ``winnable_tidy``).  Raises nothing: a line that does not win
    is ``broken``."""
    row = (
        WinnableDeal.objects.filter(id=deal_id, tidied_at__isnull=True)
        .values("seed", "options", "moves")
        .first()
    )
    if row is None:
        return LineTidied(deal_id, "gone")
    seed, options, moves = row["seed"], row["options"], list(row["moves"])
    started = time.perf_counter()
    try:
        line = tidy_line(new_game("classic", seed=seed, **options), moves, max_plays=max_plays)
    except AssertionError as exc:  # the stored line does not win: not ours to guess
        return LineTidied(deal_id, "broken", len(moves), detail=str(exc))
    if not _replay_wins(options, seed, line):  # tidy_line checks too: a second, own replay
        return LineTidied(deal_id, "broken", len(moves), detail="shortened line does not win")
    seconds = time.perf_counter() - started
    result = "shortened" if len(line) < len(moves) else "kept"
    if dry_run:
        return LineTidied(deal_id, "dry_run", len(moves), len(line), seconds)
    stored = WinnableDeal.objects.filter(id=deal_id, tidied_at__isnull=True).update(
        moves=line, tidied_at=now or timezone.now()
    )
    if not stored:
        return LineTidied(deal_id, "taken", len(moves), len(line), seconds)
    return LineTidied(deal_id, result, len(moves), len(line), seconds)
