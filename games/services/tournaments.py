"""Tournament services: create, admit players, add races, score (issue 5).

Scoring schemes (per tournament, :class:`~games.models.Tournament.Scoring`)
------------------------------------------------------------------------------

Each *counted* entry earns points from its race result.  An entry counts when
its race is ``finished``, it has a race rank (the player started) and it is not
disqualified; a disqualified entry earns nothing and is only counted in
``disqualifications``.

``place_points`` (points by place)
    ``points_table[rank - 1]`` points; ranks past the table earn 0.  Players
    tied in a race share the rank, so they all earn that rank's points (two
    players tied first with the table 10, 8, 6 earn 10 each, the next earns 6).
    Default table: 10, 8, 6, 5, 4, 3, 2, 1.

``cards_home`` (cards home plus win bonus)
    ``points_per_card * cards_home`` (the dealt base card counts, RULES.md 6),
    plus ``win_bonus`` when the game was won.  Defaults: 1 per card, 20 for a win.

Standings and tie-breaks
------------------------

One row per player with an entry in a finished race of the tournament:
``points`` (sum), ``wins``, ``races_played`` (counted entries),
``cards_home_total`` and ``time_ms_total`` (sum of the race ranking times:
the win time, or the time at which the player reached their final count).
Players are ordered by, in turn:

1. more points,
2. more wins,
3. more total cards home,
4. less total time.

Players equal on all four share a rank (SQL ``RANK()``: 1, 2, 2, 4).

The standings are a recomputation from the race results
(:func:`tournament_rescore`): running it again gives the same rows, so
re-scoring any race re-scores the tournament identically.  It runs when a
tournament race finishes (:func:`games.services.races.race_close`), after a
disqualification, and on demand (admin, API).

Finished and cancelled tournaments
----------------------------------

Neither keeps a race that could still finish: finishing is refused while a race is
``scheduled`` or ``closing``, and cancelling cancels those races
(:func:`tournament_set_status`).  Their standings are therefore those of the races
finished by then, and change only through a change to one of those races' results
(a disqualification or its lifting, a re-score, a deleted account).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from games.live.publish import publish_on_commit, tournament_topic
from games.models import Race, Tournament
from games.services.accounts import player_lock
from games.services.errors import (
    MALFORMED_ID,
    InvalidTournament,
    NotFound,
    NoWinnableDeal,
    TournamentNotOpen,
)
from games.services.races import LATE_JOIN_DEFAULT, race_create, races_cancel
from games.services.ratings import tournament_races_mark_stale
from games.services.standings import COUNTED as COUNTED
from games.services.standings import DEFAULT_POINTS_TABLE as DEFAULT_POINTS_TABLE
from games.services.standings import _tournament_locked
from games.services.standings import entry_points as entry_points
from games.services.standings import standings_query as standings_query
from games.services.standings import tournament_admit as tournament_admit
from games.services.standings import tournament_rescore as tournament_rescore

#: Most races added in one call.
MAX_RACES_PER_BATCH = 100

#: The standings rule, served by the API so clients can show it.
STANDINGS_RULE = (
    "Players are ordered by points (more first), then wins (more first), then total cards "
    "home (more first), then total time in ms (less first); players equal on all four share "
    "a rank. Only finished races count; a disqualified entry earns nothing."
)

SCHEME_RULES = {
    Tournament.Scoring.PLACE_POINTS: (
        "Points by place: the race rank r earns points_table[r-1] points, ranks past the table "
        "earn 0; players tied in a race share the rank and each earn its points."
    ),
    Tournament.Scoring.CARDS_HOME: (
        "Cards home plus win bonus: points_per_card points per card on the foundations, plus "
        "win_bonus points for a won game."
    ),
}


def scoring_rule(tournament: Tournament) -> str:
    """The tournament's scheme in words, with its parameters."""
    text = SCHEME_RULES[Tournament.Scoring(tournament.scoring)]
    if tournament.scoring == Tournament.Scoring.PLACE_POINTS:
        return f"{text} points_table = {tournament.points_table}."
    return (
        f"{text} points_per_card = {tournament.points_per_card}, "
        f"win_bonus = {tournament.win_bonus}."
    )


# ------------------------------------------------------------------ validation


def scoring_validate(
    *, scoring: str, points_table: Any, points_per_card: Any, win_bonus: Any
) -> list[int]:
    """Check a scheme and its parameters; return the points table to store.

    ``place_points`` needs a table of 1 to 100 non-negative integers that never
    increases (a better place never earns less); empty means the default.
    Raises :class:`InvalidTournament`.
    """
    if scoring not in Tournament.Scoring.values:
        raise InvalidTournament(
            f"unknown scoring {scoring!r}: use one of {', '.join(Tournament.Scoring.values)}"
        )
    for name, value in (("points_per_card", points_per_card), ("win_bonus", win_bonus)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100_000:
            raise InvalidTournament(f"{name} must be an integer from 0 to 100000").because(
                "points_out_of_range", {"field": name}
            )
    if scoring != Tournament.Scoring.PLACE_POINTS:
        return list(points_table or [])
    table = list(points_table or DEFAULT_POINTS_TABLE)
    if not 1 <= len(table) <= 100:
        raise InvalidTournament("points_table needs 1 to 100 entries").because(
            "points_table_length", {}
        )
    for p in table:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 100_000:
            raise InvalidTournament(
                "points_table entries must be integers from 0 to 100000"
            ).because("points_table_entry", {})
    if any(a < b for a, b in pairwise(table)):
        raise InvalidTournament(
            "points_table must not increase: a better place never earns less"
        ).because("points_table_increases", {})
    return table


def _entry_validate(*, entry: str, max_entrants: int | None) -> None:
    if entry not in Tournament.Entry.values:
        raise InvalidTournament(f"unknown entry rule {entry!r}: use open or invite")
    if max_entrants is not None and max_entrants < 1:
        raise InvalidTournament("max_entrants must be at least 1 (or empty for no limit)").because(
            "max_entrants_too_low", {}
        )


def tournament_validate(
    *,
    name: str,
    status: str | None,
    scoring: str,
    points_table: Any,
    points_per_card: Any,
    win_bonus: Any,
    entry: str,
    max_entrants: int | None,
) -> list[int]:
    """Check a new tournament's fields (the rules of :func:`tournament_create`).

    A new tournament has a name, is ``draft`` or ``open``, has a valid scheme
    (:func:`scoring_validate`), a known entry rule and ``max_entrants`` empty or
    at least 1.  ``status`` ``None`` skips the status check (an existing
    tournament's fields).  Returns the points table to store; raises
    :class:`InvalidTournament`.
    """
    if not name.strip():
        raise InvalidTournament("a tournament needs a name").because("name_missing", {})
    if status is not None and status not in (Tournament.Status.DRAFT, Tournament.Status.OPEN):
        raise InvalidTournament("a new tournament is draft or open").because("new_status", {})
    table = scoring_validate(
        scoring=scoring,
        points_table=points_table,
        points_per_card=points_per_card,
        win_bonus=win_bonus,
    )
    _entry_validate(entry=entry, max_entrants=max_entrants)
    return table


# ------------------------------------------------------------------ writes


@transaction.atomic
def tournament_create(
    *,
    name: str,
    description: str = "",
    status: str = Tournament.Status.OPEN,
    scoring: str = Tournament.Scoring.PLACE_POINTS,
    points_table: list[int] | None = None,
    points_per_card: int = 1,
    win_bonus: int = 20,
    entry: str = Tournament.Entry.OPEN,
    max_entrants: int | None = None,
    created_by: User | None = None,
) -> Tournament:
    """Create a tournament (``draft`` or ``open``); raises :class:`InvalidTournament`
    (the checks of :func:`tournament_validate`), :class:`AccountDeleted` (``created_by``'s
    account, locked first, :func:`games.services.accounts.player_lock`, was deleted
    meanwhile)."""
    if created_by is not None:
        player_lock(player=created_by)  # the deletion's first lock: no IntegrityError
    table = tournament_validate(
        name=name,
        status=status,
        scoring=scoring,
        points_table=points_table,
        points_per_card=points_per_card,
        win_bonus=win_bonus,
        entry=entry,
        max_entrants=max_entrants,
    )
    return Tournament.objects.create(
        name=name.strip(),
        description=description,
        status=status,
        scoring=scoring,
        points_table=table,
        points_per_card=points_per_card,
        win_bonus=win_bonus,
        entry=entry,
        max_entrants=max_entrants,
        created_by=created_by,
    )


@dataclass(frozen=True)
class RaceSchedule:
    """``count`` races: the first starts at ``first_starts_at``; each lasts ``duration``;
    the next starts ``gap`` after the previous one ends; joining opens ``opens_before``
    the start."""

    count: int
    first_starts_at: datetime
    duration: timedelta
    gap: timedelta = timedelta(0)
    opens_before: timedelta = timedelta(minutes=10)

    def slots(self) -> list[tuple[datetime, datetime, datetime]]:
        """``(opens_at, starts_at, ends_at)`` of each race."""
        out = []
        for i in range(self.count):
            starts = self.first_starts_at + i * (self.duration + self.gap)
            out.append((starts - self.opens_before, starts, starts + self.duration))
        return out


def tournament_races_add(
    *,
    tournament_id: Any,
    schedule: RaceSchedule,
    variant: str = "classic",
    options: dict[str, Any] | None = None,
    mode: str = Race.Mode.SCHEDULED,
    time_limit_s: int | None = None,
    allow_undo: bool = False,
    require_winnable: bool = False,
    late_join_s: int | None | object = LATE_JOIN_DEFAULT,
    name_prefix: str = "",
    created_by: User | None = None,
) -> list[Race]:
    """Add ``schedule.count`` races to the tournament in one transaction.

    Each race is made by :func:`race_create`: its own fresh secret seed and its
    commitment.  Names are ``"<prefix> race <n>"`` numbered after the races the
    tournament already has.  With ``require_winnable`` each race takes one deal from
    the races' reserve of proven-winnable deals of the rules (then from the players'
    pool once the reserve is empty; no solving here), so a batch adds at most
    ``WINNABLE_RACE_RESERVE`` races, what a full reserve holds (more:
    :class:`InvalidTournament`, ``why`` ``winnable_batch_too_large``, ``facts``
    ``{"most": n}``), and a pool holding fewer deals than the batch needs adds none:
    :class:`NoWinnableDeal` (``retry_after``
    seconds; a refill has been asked of the solver queue).  Raises
    :class:`InvalidTournament`, :class:`TournamentNotOpen`, :class:`NotFound` and
    whatever :func:`race_create` raises (:class:`InvalidRace`, :class:`InvalidOptions`,
    :class:`NoWinnableDeal`, :class:`WinnableNotFound`).
    """
    if not 1 <= schedule.count <= MAX_RACES_PER_BATCH:
        raise InvalidTournament(f"add 1 to {MAX_RACES_PER_BATCH} races at a time").because(
            "batch_size", {"most": MAX_RACES_PER_BATCH}
        )
    most = settings.WINNABLE_RACE_RESERVE
    if require_winnable and schedule.count > most:
        raise InvalidTournament(
            f"races that require a winnable deal are added at most {most} at a time "
            "(WINNABLE_RACE_RESERVE: each takes a deal from the reserve of proven-winnable "
            "deals kept ready for races of its rules)"
        ).because("winnable_batch_too_large", {"most": most})
    if schedule.duration <= timedelta(0):
        raise InvalidTournament("the race duration must be positive").because(
            "duration_not_positive", {}
        )
    if schedule.gap < timedelta(0) or schedule.opens_before < timedelta(0):
        raise InvalidTournament("the gap and the joining lead time cannot be negative").because(
            "negative_gap", {}
        )
    try:
        return _races_add(
            tournament_id=tournament_id,
            schedule=schedule,
            variant=variant,
            options=options,
            mode=mode,
            time_limit_s=time_limit_s,
            allow_undo=allow_undo,
            require_winnable=require_winnable,
            late_join_s=late_join_s,
            name_prefix=name_prefix,
            created_by=created_by,
        )
    except NoWinnableDeal as exc:  # race_create asked for the refill
        retry_after = exc.extra.get("retry_after", settings.WINNABLE_RETRY_AFTER_SECONDS)
        raise NoWinnableDeal(
            f"the pool of proven-winnable deals of these rules holds fewer than the "
            f"{schedule.count} races need (one each): no race was added, and a refill has "
            f"been asked of the solver queue; retry in {retry_after} s, add fewer races, or "
            "add them without require_winnable",
            retry_after=retry_after,
        ) from None


def _races_add(
    *,
    tournament_id: Any,
    schedule: RaceSchedule,
    variant: str,
    options: dict[str, Any] | None,
    mode: str,
    time_limit_s: int | None,
    allow_undo: bool,
    require_winnable: bool,
    late_join_s: int | None | object,
    name_prefix: str,
    created_by: User | None,
) -> list[Race]:
    """:func:`tournament_races_add` once its arguments are checked: one transaction."""
    with transaction.atomic():
        if created_by is not None:
            # The creator's account before the tournament (the deletion's order), which
            # race_create would lock after it.
            player_lock(player=created_by)
        t = _tournament_locked(tournament_id)
        if t.status not in (Tournament.Status.DRAFT, Tournament.Status.OPEN):
            raise TournamentNotOpen(f"the tournament is {t.status}: no races can be added").because(
                "no_races_added", {"status": t.status}
            )
        prefix = (name_prefix or t.name).strip()[:100]
        first_number = t.races.count() + 1
        races = []
        for i, (opens_at, starts_at, ends_at) in enumerate(schedule.slots()):
            race = race_create(
                name=f"{prefix} #{first_number + i}",  # no English word: names are shown as given
                opens_at=opens_at,
                starts_at=starts_at,
                ends_at=ends_at,
                mode=mode,
                variant=variant,
                options=options,
                time_limit_s=time_limit_s,
                allow_undo=allow_undo,
                require_winnable=require_winnable,
                late_join_s=late_join_s,
                created_by=created_by,
            )
            race.tournament = t
            race.save(update_fields=["tournament"])
            races.append(race)
        publish_on_commit(
            (tournament_topic(t.id), "race_added", {"races": [str(r.id) for r in races]})
        )
        return races


#: Races still to be played or scored (``scheduled``: upcoming or running; ``closing``).
_UNFINISHED = (Race.Status.SCHEDULED, Race.Status.CLOSING)

#: Tries of a cancellation whose tournament gained a race between the locks.
_CANCEL_TRIES = 5


class _RacesChanged(Exception):
    """A race was added to or moved into the tournament between locking its races and
    locking it: the cancellation's transaction is rolled back and tried again."""


def tournament_set_status(
    *, tournament_id: Any, status: str, now: datetime | None = None
) -> Tournament:
    """Publish (``open``), finish or cancel a tournament; finishing re-scores it first.

    ``status``: ``open``, ``finished`` or ``cancelled``.  Allowed: draft -> open,
    draft/open -> finished, open -> cancelled, and the same status again (idempotent).
    A draft is not cancelled (that would publish it and its races' seeds) but deleted
    (:func:`games.services.tournament_admin.tournament_delete`).
    Finishing is refused while any race of the tournament is still ``scheduled``
    (to be played, or running) or ``closing`` (being scored): its result would change
    the final standings afterwards; close or cancel it first.  Checked under the
    tournament's row lock, which adding or moving a race in also takes.

    Cancelling cancels every race of the tournament not finished yet, in the same
    transaction (:func:`games.services.races.races_cancel`, all together, as
    :func:`games.services.races.race_cancel` does one: running games end as timed
    out, the seed is revealed, nothing is ranked or rated), and re-scores the standings
    from the finished races: a cancelled tournament, like a finished one, has no race
    left whose result could change its standings afterwards (a race still running used
    to close later and re-score the cancelled tournament).  Locks in the project's order:
    those races (id order), then the tournament; a race added or moved in between the
    two is seen under the tournament's lock and the whole is tried again.  ``now``: the
    cancelled games' end (default: the current time).

    Publishing a draft (to ``open``, or straight to ``finished``) marks its finished
    races stale for the ratings in the same transaction
    (:func:`games.services.ratings.tournament_races_mark_stale`, races first): a race of
    a draft tournament is not rated (RULES.md 7: it is the organisers' until published),
    so once published the ratings sweep rates them in race order.

    Every change of status is sent to the tournament's event stream after the commit (a
    ``status`` message): the stream's ``status`` event, then, for ``finished`` and
    ``cancelled``, the final standings, both marked as the stream's end; the stream then
    closes (``api.streams.TournamentHandler``).

    Returns the tournament.  Raises :class:`InvalidTournament` (a transition not allowed,
    races not finished, or races still being added after several tries) and
    :class:`NotFound`.
    """
    for _try in range(_CANCEL_TRIES):
        try:
            return _set_status(tournament_id=tournament_id, status=status, now=now)
        except _RacesChanged:
            continue
    raise InvalidTournament("races are being added to the tournament: try again")


def _set_status(*, tournament_id: Any, status: str, now: datetime | None) -> Tournament:
    allowed = {
        Tournament.Status.OPEN: {Tournament.Status.DRAFT, Tournament.Status.OPEN},
        Tournament.Status.FINISHED: {
            Tournament.Status.DRAFT,
            Tournament.Status.OPEN,
            Tournament.Status.FINISHED,
        },
        Tournament.Status.CANCELLED: {
            Tournament.Status.OPEN,
            Tournament.Status.CANCELLED,
        },
    }
    with transaction.atomic():
        locked: list[Any] = []
        if status == Tournament.Status.CANCELLED:
            # The races first (the project's order: race, then tournament).
            try:
                locked = list(
                    Race.objects.select_for_update(no_key=True)
                    .filter(tournament_id=tournament_id, status__in=_UNFINISHED)
                    .order_by("id")
                    .values_list("id", flat=True)
                )
            except MALFORMED_ID:
                raise NotFound("no such tournament") from None
        published: list[Any] | None = None
        if status in (Tournament.Status.OPEN, Tournament.Status.FINISHED):
            try:
                was = Tournament.objects.filter(id=tournament_id).values_list("status", flat=True)
                if list(was) == [Tournament.Status.DRAFT]:
                    # Its finished races count for ratings once it is published: marked
                    # stale, the races first (the project's order: race, then tournament).
                    published = tournament_races_mark_stale(tournament_id=tournament_id)
            except MALFORMED_ID:
                raise NotFound("no such tournament") from None
        t = _tournament_locked(tournament_id)
        if t.status == Tournament.Status.DRAFT and status in (
            Tournament.Status.OPEN,
            Tournament.Status.FINISHED,
        ):
            finished = t.races.filter(status=Race.Status.FINISHED).values_list("id", flat=True)
            if published is None or set(finished) != set(published):
                raise _RacesChanged  # a race finished or moved in meanwhile: try again
        if status == Tournament.Status.CANCELLED and t.status == Tournament.Status.DRAFT:
            # Cancelled, it would be public with its races' seeds; a draft was never shown.
            raise InvalidTournament(
                "a draft tournament was never published: delete it (its races go with it) "
                "rather than cancel it, which would make it and its races' seeds public"
            ).because("draft_not_cancelled", {})
        if status not in allowed or t.status not in allowed[Tournament.Status(status)]:
            raise InvalidTournament(f"a {t.status} tournament cannot become {status}").because(
                "status_change", {"was": t.status, "to": status}
            )
        if status == Tournament.Status.FINISHED:
            pending = t.races.filter(status__in=_UNFINISHED).count()
            if pending:
                raise InvalidTournament(
                    f"{pending} race(s) of the tournament are not finished (scheduled or "
                    "closing): close or cancel them before finishing it"
                ).because("races_unfinished", {"count": pending})
            tournament_rescore(tournament_id=t.id, announce=False)
        if status == Tournament.Status.CANCELLED and t.status != Tournament.Status.CANCELLED:
            unfinished = set(t.races.filter(status__in=_UNFINISHED).values_list("id", flat=True))
            if unfinished - set(locked):
                raise _RacesChanged  # rolls this transaction back
            races_cancel(race_ids=unfinished, now=now)
            tournament_rescore(tournament_id=t.id, now=now, announce=False)
        if t.status != status:
            # The stream's ``status`` event; once finished or cancelled, the final standings
            # follow it and the stream ends (api.streams.TournamentHandler), after commit.
            publish_on_commit((tournament_topic(t.id), "status", {"status": status}))
        elif status == Tournament.Status.FINISHED:
            # Finishing again re-scored: the standings may have changed, the status has not.
            publish_on_commit((tournament_topic(t.id), "standings", {}))
        t.status = status
        t.save(update_fields=["status"])
        return t
