"""Player ratings from race results (issue 16): OpenSkill Plackett-Luce, per pool.

Pools
-----
Every one of the nine rule options (RULES.md 4) changes which moves are legal,
so each changes how hard the game is; a pool is therefore one exact set of
options.  Its key is the preset's name when the options are exactly a preset's
(``classic``, ``draw-one``, ``superior``, ``rainbow``, ``storehouse``,
``one-pass``); otherwise the nearest preset (fewest differing options, the
first in RULES.md order on a tie) followed by each differing option in RULES.md
order, ``.<option>-<value>``: ``classic.redeals-2``,
``one-pass.draw-1.build-any-suit``.  Values: ``unlimited`` for unlimited
redeals, ``yes``/``no`` for switches.  A race's ``allow_undo`` and
``require_winnable`` do not split pools (they are race settings, the same for
every entrant).

What is rated
-------------
A race is rated when it is ``finished``, ``rated`` (organisers may mark it
unrated), not a race of a draft tournament (one organisers rehearse before they
publish it: hidden from everyone else, so it must not move the public ratings;
``games.selectors.races.of_draft_tournament``) and has at least two *ranked*
entries.  A ranked entry is one with the
race rank scoring stored (RULES.md 6; ``RaceEntry.rank``): disqualified entries
and entrants who never started have no rank and are left out.  Entries tied in
the race share their rank and are a draw for the model.  Practice games belong
to no race and are never rated.  Each rated race is one Plackett-Luce match of
one-player teams (``games.rating_model.rate_race``).

Order, idempotency and re-rating
--------------------------------
The ratings of a pool are, by definition, the fold of its rated races in race
order: by ``ends_at``, then race id.  :func:`race_rate` (the Celery task
``games.race_rate``) brings a pool up to date with one race, in one
transaction, under the pool's row lock (``SELECT ... FOR UPDATE``), so two
tasks of one pool run one after the other:

* If the race's stored ``fingerprint`` (its rated flag and each ranked
  entry's player and rank) matches, nothing changes (a second run, a
  redelivered task, a concurrent duplicate).
* Otherwise the pool is *recomputed from that race onward*: every history row
  of the pool from that race on is removed, each player concerned is put back
  to their rating before their first removed row, and the races from that race
  on are rated again in race order from the stored results.  A first rating of
  the newest race is the cheap case of this (nothing to remove); a race
  re-scored or disqualification-changed, marked unrated or rated again, or
  finished after a later race was rated, costs a replay of every later race.

A crash rolls the transaction back; the next run starts from the same rows.

Stale races and the sweep
-------------------------
The task queued after a change is ``robust`` (a broker that is down does not
fail the change), so it can be lost.  Every change to what a finished race's
rating reads (a disqualification or its lifting, a re-score: the race's ranks;
an organiser's ``rated`` switch; publishing a draft tournament, whose finished races
then count: :func:`tournament_races_mark_stale`) therefore also sets ``Race.rating_stale`` in
the change's own transaction, under the race's row lock
(:func:`race_rating_mark_stale`); deleting an account, whose race entries go with
it, marks every finished rated race it ran in (:func:`player_races_mark_stale`, in
the deletion's transaction).  :func:`race_rate` clears the mark under the
same lock (taken after the pool's) before it reads the results, so a change
that commits later marks the race again and is never lost; :func:`pool_recompute`
does the same for every race of its pool.  The beat task
:func:`ratings_sweep` takes the races never processed and the stale ones
together, oldest first in race order.  Re-rating the earliest changed race
replays every later race of the pool from its stored results (the ratings are
a fold in race order: any later race of a player concerned starts from a
different rating), so a later stale race is then found with an unchanged
fingerprint and costs only clearing its mark.

Cost of a re-rate: proportional to the entries of the pool's races from the
changed race on (one model update per race plus one history row per entry),
for n entries per race O(n^2) up to 1,000 entries (the library) and
O(n log n) above.  ``benchmarks/ratings.py`` measures it: a whole pool of
1,000 races x 50 entries is the worst case (the first race changed).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from games.engine import PRESETS, Rules, RulesError, make_rules
from games.engine.rules import OPTION_NAMES, option_word
from games.models import PlayerRating, Race, RaceEntry, RaceRating, RatingChange, RatingPool
from games.rating_model import INITIAL, PROVISIONAL_RACES, Skill, display_rating, rate_race
from games.selectors.races import of_draft_tournament
from games.services.enqueue import enqueue_now
from games.services.errors import MALFORMED_ID, InvalidRace, NotFound

log = logging.getLogger(__name__)

#: Why a processed race did not count (``RaceRating.reason``).
REASON_UNRATED = "unrated"
REASON_TOO_FEW = "too_few_entries"
REASON_DRAFT = "draft_tournament"

#: Rows per INSERT when writing history.
_BATCH = 2000


# ------------------------------------------------------------------ pools


def _slug(value: Any) -> str:
    return option_word(value).lower()


def pool_key(rules: Rules) -> tuple[str, str]:
    """``(key, preset)`` of the pool of ``rules`` (see the module documentation).

    ``classic`` for the classic options; ``classic.redeals-2`` for classic with
    two redeals.
    """
    options = rules.to_dict()
    best_name, best_diff = "", [*OPTION_NAMES, "-"]
    for name, preset in PRESETS.items():
        theirs = preset.to_dict()
        diff = [o for o in OPTION_NAMES if options[o] != theirs[o]]
        if len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    key = ".".join([best_name, *(f"{o}-{_slug(options[o])}" for o in best_diff)])
    return key, best_name


def pool_for_options(options: dict[str, Any]) -> RatingPool:
    """The pool of a deal's options, created on first use (safe under concurrency).

    Raises :class:`InvalidRace` for options the engine does not accept.
    """
    try:
        rules = make_rules("classic", **options)
    except RulesError as exc:
        raise InvalidRace(f"the race's options are not valid: {exc}") from None
    key, preset = pool_key(rules)
    pool, _ = RatingPool.objects.get_or_create(
        key=key, defaults={"variant": preset, "options": rules.to_dict()}
    )
    return pool


# ------------------------------------------------------------------ enqueueing


def race_rating_enqueue(*, race_id: Any) -> None:
    """Rate the race after the current transaction commits (task ``games.race_rate``).

    Called by the race services when a race finishes or is re-scored, and here
    when an organiser changes ``rated``.  Sent by
    :func:`games.services.enqueue.enqueue_now` (at once or not at all, logged): a
    broker that cannot take the task does not fail the committed write (the beat task
    ``games.ratings_sweep`` rates finished races it finds never rated).
    """
    race_key = str(race_id)
    transaction.on_commit(
        lambda: enqueue_now("games.race_rate", kwargs={"race_id": race_key}), robust=True
    )


def pool_recompute_enqueue(*, pool_id: Any) -> None:
    """Recompute the rating pool ``pool_id`` (all its finished races, in race order) after
    the current transaction commits (task ``games.rating_pool_recompute``, which calls
    :func:`pool_recompute`): the admin's *Recompute pool*.  ``robust``, as
    :func:`race_rating_enqueue`: a broker that cannot take the task does not fail the
    caller (the admin asks again).  Outside a transaction it is sent at once.
    """
    pool_key = int(pool_id)
    transaction.on_commit(
        lambda: enqueue_now("games.rating_pool_recompute", kwargs={"pool_id": pool_key}),
        robust=True,
    )


def race_rating_mark_stale(*, race: Race) -> None:
    """Record that a finished race's rating no longer matches its results or ``rated`` flag.

    ``race``: the race, its row locked by the caller's transaction (the change and
    the mark commit together).  Sets ``Race.rating_stale``; :func:`ratings_sweep`
    re-rates the race even if the task the caller queues (:func:`race_rating_enqueue`)
    is lost.  A race not finished is left alone (it is rated when it finishes).
    Raises nothing.
    """
    if race.status != Race.Status.FINISHED:
        return
    if not race.rating_stale:
        race.rating_stale = True
        race.save(update_fields=["rating_stale"])


def tournament_races_mark_stale(*, tournament_id: Any) -> list[Any]:
    """Lock and mark stale every finished race of a draft tournament being published.

    For :func:`games.services.tournaments.tournament_set_status`, in the publishing
    transaction and before it locks the tournament (the project's order: race, then
    tournament), the races in id order.  A race of a draft tournament is processed as
    ``not_rated`` (reason ``draft_tournament``); once published it counts, so each is
    marked (``Race.rating_stale``) and queued after the commit: :func:`ratings_sweep`
    takes them oldest first in race order, and rating the earliest replays its pool
    from there (the ratings are a fold in race order).  ``race_rate`` locks the race's
    row before it reads whether its tournament is a draft, so it reads either the draft
    (and the mark follows) or the published tournament.  Returns the ids locked (the
    caller checks them again under the tournament's lock).  Raises nothing of its own.
    """
    ids = list(
        Race.objects.select_for_update(no_key=True)
        .filter(tournament_id=tournament_id, status=Race.Status.FINISHED)
        .order_by("id")
        .values_list("id", flat=True)
    )
    Race.objects.filter(id__in=ids, rating_stale=False).update(rating_stale=True)
    for race_id in ids:
        race_rating_enqueue(race_id=race_id)
    return ids


def player_pools_lock(*, player_ids: Iterable[Any], using: str | None = None) -> list[Any]:
    """Lock the row of every pool the players ``player_ids`` have a rating or history row in.

    For the deletion of accounts (:func:`games.services.race_admin.players_lock`, from a
    ``pre_delete`` receiver), first of all its locks: the deletion removes the players'
    rating rows, then their history rows, while :func:`race_rate` and
    :func:`pool_recompute`, under the pool's lock, remove history rows, then write
    ratings back, the other order; a task replaying the pool through a deleted player's
    races deadlocked with the deletion.  Under the pools' locks (id order, waiting for
    each, before any race: the ratings' order, pool then race) a task runs wholly before
    or after the deletion.  ``using``: the database alias.  Returns the pool ids.
    """
    ids = list(player_ids)
    ratings = PlayerRating.objects.db_manager(using).filter(player_id__in=ids)
    changes = RatingChange.objects.db_manager(using).filter(player_id__in=ids)
    return list(
        RatingPool.objects.db_manager(using)
        .select_for_update(no_key=True)
        .filter(Q(id__in=ratings.values("pool_id")) | Q(id__in=changes.values("pool_id")))
        .order_by("id")
        .values_list("id", flat=True)
    )


def player_races_mark_stale(*, player_id: Any, using: str | None = None) -> int:
    """Mark stale every finished, rated race with an entry of player ``player_id``.

    For the deletion of an account (:func:`games.services.race_admin.player_results_lock`,
    from a ``pre_delete`` receiver): the deletion cascades to the player's race entries and
    rating history, which changes those races' results without a word to the ratings,
    so :func:`ratings_sweep` re-rates them (oldest first: the pool is replayed from the
    player's first race, as if they had never raced); the deletion then re-scores those
    races, which queues their tasks too.  Runs in the caller's
    transaction, the deletion's own, and locks the races' rows (in id order), so a
    :func:`race_rate` running at the same time either finishes first (and the mark
    stays for the sweep) or waits and reads the results without the player.
    ``using``: the database alias (default: the router's choice).  Returns the races
    marked.  Raises nothing of its own (a database error propagates).
    """
    races = Race.objects.db_manager(using)
    entered = RaceEntry.objects.db_manager(using).filter(player_id=player_id).values("race_id")
    ids = list(
        races.select_for_update(no_key=True)
        .filter(status=Race.Status.FINISHED, rated=True, id__in=entered)
        .order_by("id")
        .values_list("id", flat=True)
    )
    return int(races.filter(id__in=ids).update(rating_stale=True))


# ------------------------------------------------------------------ rating


def _fingerprint(race: Race, ranked: list[tuple[int, int, int]], draft: bool) -> str:
    """Digest of what rating the race reads: the rated flag, each (player, rank), and
    whether its tournament is a draft (only when it is: the digest of every other race
    is the one stored before drafts were left out)."""
    data: dict[str, Any] = {
        "rated": race.rated,
        "status": race.status,
        "entries": sorted((player, rank) for _entry, player, rank in ranked),
    }
    if draft:
        data["draft"] = True
    return hashlib.sha256(json.dumps(data, separators=(",", ":")).encode()).hexdigest()


def _ranked_entries(race_ids: Iterable[Any]) -> dict[Any, list[tuple[int, int, int]]]:
    """``race id -> [(entry id, player id, rank)]`` of the ranked, not disqualified entries."""
    out: dict[Any, list[tuple[int, int, int]]] = defaultdict(list)
    rows = (
        RaceEntry.objects.filter(race_id__in=list(race_ids), rank__isnull=False, disqualified=False)
        .order_by("race_id", "rank", "id")
        .values_list("race_id", "id", "player_id", "rank")
    )
    for race_id, entry_id, player_id, rank in rows.iterator(chunk_size=5000):
        out[race_id].append((entry_id, player_id, int(rank or 0)))
    return out


def _drafts(race_ids: Iterable[Any]) -> set[Any]:
    """The ids among ``race_ids`` of races of a draft tournament (not rated)."""
    return set(
        Race.objects.filter(of_draft_tournament(), id__in=list(race_ids)).values_list(
            "id", flat=True
        )
    )


def _after(ends_at: datetime, race_id: Any) -> Q:
    """Rows of races at or after ``(ends_at, race_id)`` in race order."""
    return Q(race_ends_at__gt=ends_at) | Q(race_ends_at=ends_at, race_id__gte=race_id)


@dataclass
class _State:
    mu: float
    sigma: float
    games: int


def _replay(
    *, pool: RatingPool, since: tuple[datetime, Any] | None, extra: list[Race], now: datetime
) -> int:
    """Recompute ``pool`` from race ``since`` on (``None``: from the start); returns races rated.

    Runs inside the caller's transaction, which holds the pool's row lock.
    ``extra`` are races of the pool not yet in its race list (a first rating).
    """
    changes = RatingChange.objects.filter(pool=pool)
    races_q = RaceRating.objects.filter(pool=pool)
    if since is not None:
        changes = changes.filter(_after(*since))
        races_q = races_q.filter(_after(*since))
    # Each player concerned goes back to their rating before their first removed row.
    state: dict[int, _State] = {}
    firsts = (
        changes.annotate(
            n=Window(
                RowNumber(), partition_by=[F("player_id")], order_by=["race_ends_at", "race_id"]
            )
        )
        .filter(n=1)
        .values_list("player_id", "mu_before", "sigma_before", "games_rated")
    )
    for player_id, mu, sigma, games in firsts.iterator(chunk_size=5000):
        state[player_id] = _State(mu, sigma, games - 1)
    race_ids = set(races_q.values_list("race_id", flat=True)) | {r.id for r in extra}
    changes.delete()
    races_q.delete()
    races = list(
        Race.objects.filter(id__in=race_ids, status=Race.Status.FINISHED).order_by("ends_at", "id")
    )
    ranked = _ranked_entries(r.id for r in races)
    drafts = _drafts(r.id for r in races)
    # Players of the replayed races with no removed row keep their stored rating.
    missing = {p for rows in ranked.values() for _e, p, _r in rows} - state.keys()
    if missing:
        for player_id, mu, sigma, games in (
            PlayerRating.objects.filter(pool=pool, player_id__in=missing)
            .values_list("player_id", "mu", "sigma", "games_rated")
            .iterator(chunk_size=5000)
        ):
            state[player_id] = _State(mu, sigma, games)

    race_rows: list[RaceRating] = []
    change_rows: list[RatingChange] = []
    rated = 0
    for race in races:
        rows = ranked.get(race.id, [])
        fingerprint = _fingerprint(race, rows, race.id in drafts)
        record = RaceRating(
            race=race,
            pool=pool,
            race_ends_at=race.ends_at,
            fingerprint=fingerprint,
            rated_at=now,
            status=RaceRating.Status.NOT_RATED,
        )
        race_rows.append(record)
        if race.id in drafts:
            record.reason = REASON_DRAFT
            continue
        if not race.rated:
            record.reason = REASON_UNRATED
            continue
        if len(rows) < 2:
            record.reason = REASON_TOO_FEW
            continue
        before = [state.get(p) or _State(INITIAL.mu, INITIAL.sigma, 0) for _e, p, _r in rows]
        after = rate_race([Skill(s.mu, s.sigma) for s in before], [r for _e, _p, r in rows])
        for (_entry, player_id, rank), old, new in zip(rows, before, after, strict=True):
            games = old.games + 1
            change_rows.append(
                RatingChange(
                    pool=pool,
                    race=race,
                    race_ends_at=race.ends_at,
                    player_id=player_id,
                    rank=rank,
                    entrants_rated=len(rows),
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    rating_before=display_rating(old.mu, old.sigma),
                    rating_after=display_rating(new.mu, new.sigma),
                    games_rated=games,
                )
            )
            state[player_id] = _State(new.mu, new.sigma, games)
        record.status = RaceRating.Status.RATED
        record.entries_rated = len(rows)
        rated += 1
    RaceRating.objects.bulk_create(race_rows, batch_size=_BATCH)
    RatingChange.objects.bulk_create(change_rows, batch_size=_BATCH)
    _store_ratings(pool=pool, state=state, now=now)
    pool.races_rated = RaceRating.objects.filter(pool=pool, status=RaceRating.Status.RATED).count()
    pool.save(update_fields=["races_rated"])
    return rated


def _store_ratings(*, pool: RatingPool, state: dict[int, _State], now: datetime) -> None:
    """Write each player's rating in one upsert; players left with no rated race lose theirs."""
    keep = {p: s for p, s in state.items() if s.games > 0}
    gone = [p for p, s in state.items() if s.games == 0]
    if gone:
        PlayerRating.objects.filter(pool=pool, player_id__in=gone).delete()
    rows = [
        PlayerRating(
            pool=pool,
            player_id=player_id,
            mu=s.mu,
            sigma=s.sigma,
            ordinal=s.mu - 3.0 * s.sigma,
            rating=display_rating(s.mu, s.sigma),
            games_rated=s.games,
            provisional=s.games < PROVISIONAL_RACES,
            updated_at=now,
        )
        for player_id, s in keep.items()
    ]
    PlayerRating.objects.bulk_create(
        rows,
        batch_size=_BATCH,
        update_conflicts=True,
        unique_fields=["pool", "player"],
        update_fields=[
            "mu",
            "sigma",
            "ordinal",
            "rating",
            "games_rated",
            "provisional",
            "updated_at",
        ],
    )


def race_rate(*, race_id: Any, now: datetime | None = None) -> str:
    """Bring the race's pool up to date with the race; idempotent, one transaction.

    Returns ``rated``, ``not_rated`` (processed, does not count: see
    ``RaceRating.reason``), ``unchanged`` (already done with the same results),
    ``not_finished`` (nothing to rate yet) or ``missing`` (no such race).
    Locks the pool's row, then the race's (clearing ``Race.rating_stale`` before
    reading its results and whether its tournament is a draft, reason
    ``draft_tournament``: a change committed after that marks it stale again).
    ``now``: stored as ``RaceRating.rated_at`` (default: the current time).
    """
    now = now or timezone.now()
    race = Race.objects.select_related("deal").filter(id=race_id).first()
    if race is None:
        return "missing"
    if race.status != Race.Status.FINISHED:
        return "not_finished"
    pool = pool_for_options(race.deal.options)
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update(no_key=True).get(pk=pool.pk)
        race = Race.objects.select_for_update(no_key=True).get(id=race.id)
        if race.rating_stale:
            race.rating_stale = False
            race.save(update_fields=["rating_stale"])
        ranked = _ranked_entries([race.id]).get(race.id, [])
        done = RaceRating.objects.filter(race=race).first()
        draft = bool(_drafts([race.id]))
        if done is not None and done.fingerprint == _fingerprint(race, ranked, draft):
            return "unchanged"
        _replay(pool=pool, since=(race.ends_at, race.id), extra=[race], now=now)
        status = RaceRating.objects.get(race=race).status
    log.info("race %s rated in pool %s: %s", race.id, pool.key, status)
    return str(status)


def pool_recompute(*, pool_id: Any, now: datetime | None = None) -> int:
    """Recompute a whole pool from its finished races, in race order; returns races rated.

    Also takes in finished races of the pool never processed (a lost task), and
    clears the stale mark (``Race.rating_stale``) of every race it re-rates, as
    :func:`race_rate` does: under the pool's row lock, then the races' (the stale ones
    and those never processed, in id order), before it reads their results, so a change
    that commits later marks its race again, and the deletion of an account with an
    entry in a race never processed waits for the replay.  One transaction.  ``now``:
    stored as ``RaceRating.rated_at`` and ``RatingPool.recomputed_at`` (default: the
    current time).  Raises :class:`NotFound`.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            pool = RatingPool.objects.select_for_update(no_key=True).get(pk=pool_id)
        except (RatingPool.DoesNotExist, *MALFORMED_ID):
            raise NotFound("no such rating pool") from None
        extra = [r for r in _unprocessed_races() if _pool_key_of(r) == pool.key]
        pool_races = RaceRating.objects.filter(pool=pool).values("race_id")
        # The races never processed are locked too, stale or not: their players may have
        # no row in the pool yet, so the deletion of one's account, which locks the pools
        # its player has rows in and then the races of its entries, waits for them here.
        # Unlocked, it deleted the player while this replay rated them: an
        # IntegrityError at this commit.
        locked = list(
            Race.objects.select_for_update(no_key=True)
            .filter(Q(id__in=pool_races, rating_stale=True) | Q(id__in=[r.id for r in extra]))
            .order_by("id")
            .values_list("id", "rating_stale")
        )
        stale = [race_id for race_id, is_stale in locked if is_stale]
        Race.objects.filter(id__in=stale).update(rating_stale=False)
        rated = _replay(pool=pool, since=None, extra=extra, now=now)
        pool.recomputed_at = now
        pool.save(update_fields=["recomputed_at"])
    log.info("rating pool %s recomputed: %d races rated", pool.key, rated)
    return rated


def _pool_key_of(race: Race) -> str | None:
    try:
        return pool_key(make_rules("classic", **race.deal.options))[0]
    except RulesError:
        return None


def _unprocessed_races(limit: int | None = None) -> list[Race]:
    qs = (
        Race.objects.filter(status=Race.Status.FINISHED, rating__isnull=True)
        .select_related("deal")
        .order_by("ends_at", "id")
    )
    return list(qs[:limit] if limit else qs)


def _races_to_rate(limit: int) -> list[Any]:
    """Ids of finished races never processed or marked stale, in race order, at most ``limit``."""
    finished = Race.objects.filter(status=Race.Status.FINISHED)
    never = finished.filter(rating__isnull=True).order_by("ends_at", "id")[:limit]
    stale = finished.filter(rating_stale=True).order_by("ends_at", "id")[:limit]
    rows = sorted({*never.values_list("ends_at", "id"), *stale.values_list("ends_at", "id")})
    return [race_id for _ends_at, race_id in rows[:limit]]


def ratings_sweep(*, limit: int = 20) -> list[str]:
    """Rate the finished races a lost task left behind; for beat (``games.ratings_sweep``).

    Takes at most ``limit`` races, oldest first in race order (``ends_at``, then
    id): those never processed and those marked stale (``Race.rating_stale``: a
    disqualification or its lifting, a re-score or a change of ``rated`` since they
    were rated), each through :func:`race_rate`.  Race order matters: re-rating a
    race replays every later race of its pool (a player's rating in a later race
    depends on every earlier one), so a later stale race of the same pool is then
    ``unchanged`` and only loses its mark.  Returns ``"<race id>:<outcome>"`` per
    race.  Raises nothing of its own (a database error propagates).
    """
    return [f"{race_id}:{race_rate(race_id=race_id)}" for race_id in _races_to_rate(limit)]


def race_set_rated(*, race_id: Any, rated: bool, by: User | None = None) -> Race:
    """Organisers: count the race for ratings or not; a finished race is re-rated.

    A finished race is marked stale (:func:`race_rating_mark_stale`, so the sweep
    re-rates it if the queued task is lost) and its task queued after the commit.
    Idempotent.  Returns the race.  Raises :class:`NotFound`.
    """
    with transaction.atomic():
        try:
            race = Race.objects.select_for_update(no_key=True).get(id=race_id)
        except (Race.DoesNotExist, *MALFORMED_ID):
            raise NotFound("no such race") from None
        if race.rated != rated:
            race.rated = rated
            race.save(update_fields=["rated"])
            log.info("race %s marked %s by %s", race.id, "rated" if rated else "unrated", by)
            if race.status == Race.Status.FINISHED:
                race_rating_mark_stale(race=race)
                race_rating_enqueue(race_id=race.id)
    return race
