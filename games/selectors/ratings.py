"""Read selectors for ratings: pools, leaderboards, player profiles, a race's rating.

Ratings carry no card and no seed: they are read off finished races only
(``games.services.ratings``), so nothing here can tell anything about a running
race's deal (RULES.md 7).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from games.models import PlayerRating, Race, RaceRating, RatingChange, RatingPool
from games.rating_model import DISPLAY_OFFSET, DISPLAY_SCALE, PROVISIONAL_RACES
from games.selectors.keyset import Keyset
from games.selectors.races import of_draft_tournament
from games.services.errors import NotFound

#: How the display rating is made, served by the API so clients can show it.
RATING_RULE = (
    "OpenSkill Plackett-Luce ratings, one pool per set of rule options. Each finished, rated "
    "race with at least two ranked entries is one match: entries are ordered by their race "
    "rank, ties are draws, disqualified entries are left out, and so are entrants of a window "
    "race who never started (in a scheduled race everyone's game starts with the race). "
    f"rating = round({DISPLAY_OFFSET:g} + {DISPLAY_SCALE:g} * (mu - 3 * sigma)); a newcomer "
    f"shows {DISPLAY_OFFSET:g}. Provisional until {PROVISIONAL_RACES} rated races in the pool."
)

#: History rows on a player's profile (the rest: the paginated history).
RECENT_RACES = 20


def pool_get(*, key: str) -> RatingPool:
    """The pool named ``key``; raises :class:`NotFound`."""
    pool = RatingPool.objects.filter(key=key).first()
    if pool is None:
        raise NotFound(f"no rating pool {key!r}")
    return pool


def pools_list(*, keys: Iterable[str] | None = None) -> QuerySet[RatingPool]:
    """Every pool by key (only those of ``keys`` when given), annotated with ``players``
    (players rated in it)."""
    qs = RatingPool.objects.annotate(players=Count("ratings")).order_by("key")
    return qs if keys is None else qs.filter(key__in=list(keys))


def pool_public(pool: RatingPool, players: int | None = None) -> dict[str, Any]:
    """A pool as the API shows it."""
    return {
        "key": pool.key,
        "variant": pool.variant,
        "options": pool.options,
        "races_rated": pool.races_rated,
        "players": players if players is not None else pool.ratings.count(),
    }


def leaderboard(*, pool: RatingPool, provisional: bool | None = None) -> QuerySet[PlayerRating]:
    """The pool's ratings best first: ``ordinal`` (mu - 3 sigma) descending, then player id.

    The player id makes the order total, so a cursor on ``(ordinal, player id)``
    never skips or repeats a row.  ``provisional`` filters (``None``: everyone).
    """
    qs = PlayerRating.objects.filter(pool=pool).select_related("player")
    if provisional is not None:
        qs = qs.filter(provisional=provisional)
    return qs.order_by("-ordinal", "player_id")


def leaderboard_position(*, board: QuerySet[PlayerRating], row: PlayerRating) -> int:
    """1-based place of ``row`` in ``board``: the rows with a higher display rating, plus
    one.  Equal display ratings share a place (standard competition ranking, 1, 1, 3):
    the board reads as its ratings do (two players both shown 1069 were placed 1 and 2 by
    ``ordinal`` digits nobody sees).  ``rating`` is ``round(1000 + 20 * ordinal)``, so
    the board's order by ``ordinal`` is also by display rating."""
    return int(board.filter(rating__gt=row.rating).count()) + 1


def leaderboard_places(*, board: QuerySet[PlayerRating], rows: list[PlayerRating]) -> list[int]:
    """The places (:func:`leaderboard_position`) of ``rows``, a page of ``board`` in its
    order: two queries whatever the page size."""
    if not rows:
        return []
    first = rows[0]
    # Rows strictly ahead of the page in the board's total order (ordinal, player id).
    index = 1 + int(
        board.filter(
            Q(ordinal__gt=first.ordinal) | Q(ordinal=first.ordinal, player_id__lt=first.player_id)
        ).count()
    )
    places = [leaderboard_position(board=board, row=first)]
    for i in range(1, len(rows)):
        places.append(places[-1] if rows[i].rating == rows[i - 1].rating else index + i)
    return places


def rating_public(r: PlayerRating, position: int) -> dict[str, Any]:
    """One leaderboard line (``position``: 1-based place on the pool's whole leaderboard)."""
    return {
        "position": position,
        "player": r.player.get_username(),
        "rating": r.rating,
        "mu": r.mu,
        "sigma": r.sigma,
        "games_rated": r.games_rated,
        "provisional": r.provisional,
        "updated_at": r.updated_at,
    }


def player_get(*, username: str) -> User:
    """The active player ``username`` (exact, then case-insensitive); raises :class:`NotFound`."""
    users = get_user_model().objects.filter(is_active=True)
    user = (
        users.filter(username=username).first() or users.filter(username__iexact=username).first()
    )
    if user is None:
        raise NotFound("no such player")
    return user


def change_public(c: RatingChange) -> dict[str, Any]:
    """One rating history row (``race`` must be selected with it)."""
    return {
        "race": str(c.race_id),
        "race_name": c.race.name,
        "ends_at": c.race_ends_at,
        "closed_at": c.race.closed_at,
        "pool": c.pool.key,
        "rank": c.rank,
        "entrants_rated": c.entrants_rated,
        "rating_before": c.rating_before,
        "rating_after": c.rating_after,
        "change": c.change,
        "mu_after": c.mu_after,
        "sigma_after": c.sigma_after,
        "games_rated": c.games_rated,
    }


def player_history(*, player: User, pool: RatingPool | None = None) -> QuerySet[RatingChange]:
    """The player's rating history, newest race first (``race_ends_at``, then row id).

    Races of a draft tournament are left out (they are the organisers' until it is
    published, as on the player's list of races: ``games.selectors.players``); their
    rating changes still count in the pool."""
    qs = (
        RatingChange.objects.filter(player=player)
        .exclude(of_draft_tournament("race__"))
        .select_related("race", "pool")
    )
    if pool is not None:
        qs = qs.filter(pool=pool)
    return qs.order_by("-race_ends_at", "-id")


def player_profile(*, player: User) -> dict[str, Any]:
    """Ratings per pool (best first, with leaderboard position) and the recent rated races."""
    # Each place (leaderboard_position: the pool's ratings shown higher, plus one) is
    # counted in the same query, not one count per pool.
    ahead = (
        PlayerRating.objects.filter(pool=OuterRef("pool"), rating__gt=OuterRef("rating"))
        .order_by()
        .values("pool")
        .annotate(n=Count("id"))
        .values("n")
    )
    ratings = []
    for r in (
        PlayerRating.objects.filter(player=player)
        .select_related("pool", "player")
        .annotate(ahead=Coalesce(Subquery(ahead), Value(0)))
        .order_by("-ordinal", "pool__key")
    ):
        ratings.append({"pool": r.pool.key, **rating_public(r, int(r.ahead) + 1)})
    recent = [change_public(c) for c in player_history(player=player)[:RECENT_RACES]]
    return {
        "username": player.get_username(),
        "date_joined": player.date_joined,
        "ratings": ratings,
        "recent_races": recent,
        "rating_rule": RATING_RULE,
    }


def race_rating(*, race: Race) -> dict[str, Any]:
    """How the race counts for ratings.

    ``status``: ``not_finished`` (not over yet: ask again later), ``pending`` (finished,
    not processed yet, or changed since it was: a disqualification, a reinstatement, its
    rated flag; ``Race.rating_stale``, until the ratings sweep re-rates it), ``rated`` or
    ``not_rated`` (``reason``: ``unrated`` by an organiser, ``too_few_entries``: fewer
    than two ranked entries, ``cancelled``: the race was cancelled and will never be
    rated, or ``draft_tournament``: a race of a tournament not published yet, which
    only organisers see; it is rated once the tournament is published).
    """
    record = RaceRating.objects.filter(race=race).select_related("pool").first()
    if race.status == Race.Status.CANCELLED:
        status, reason = "not_rated", "cancelled"
    elif race.status != Race.Status.FINISHED:
        status, reason = "not_finished", None
    elif Race.objects.filter(of_draft_tournament(), id=race.id).exists():
        status, reason = "not_rated", "draft_tournament"
    elif record is None or race.rating_stale:
        status, reason = "pending", None
    else:
        status, reason = record.status, record.reason or None
    return {
        "race": str(race.id),
        "rated": race.rated,
        "status": status,
        "reason": reason,
        "pool": record.pool.key if record is not None else None,
        "entries_rated": record.entries_rated if record is not None else 0,
    }


def race_rating_changes(
    *, race: Race, player_ids: Iterable[Any] | None = None
) -> dict[int, dict[str, Any]]:
    """``player id -> {pool, rating_before, rating_after, change}`` for the race's rated
    entries (only those of ``player_ids`` when given).  One query."""
    changes = RatingChange.objects.filter(race=race).select_related("pool")
    if player_ids is not None:
        changes = changes.filter(player_id__in=list(player_ids))
    return {
        c.player_id: {
            "pool": c.pool.key,
            "rating_before": c.rating_before,
            "rating_after": c.rating_after,
            "change": c.change,
        }
        for c in changes
    }


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(value)
    return float(value)


def _aware(value: datetime) -> datetime:
    """A cursor's time in UTC; ``ValueError`` without a time zone, ``OverflowError`` when
    UTC is past the calendar (a forged "9999-12-31T23:00:00-05:00" overflowed later, in
    the query, as a 500)."""
    if value.tzinfo is None:
        raise ValueError("a cursor time has a time zone")
    return value.astimezone(UTC)


#: The :func:`leaderboard` order for keyset pages: ``ordinal`` descending, then player id.
BOARD_ORDER = Keyset(
    key="ordinal", key_desc=True, tie="player_id", tie_desc=False, parse=_float, dump=float
)
#: The :func:`player_history` order for keyset pages: race end descending, then row id.
HISTORY_ORDER = Keyset(
    key="race_ends_at",
    key_desc=True,
    tie="id",
    tie_desc=True,
    parse=lambda v: _aware(datetime.fromisoformat(str(v))),
    dump=lambda v: v.isoformat(),
)
