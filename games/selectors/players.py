"""Read selectors for a player's page: their race entries (RULES.md 6, 7).

Nothing here returns a card or a running race's seed; results of a race
(rank, cards home) appear once it is finished, and a cancelled race's count once it
is cancelled (as its race page shows it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games.models import Race, RaceEntry
from games.selectors.games import ended_by_cancellation, game_started, game_status_seen
from games.selectors.races import of_draft_tournament


def player_race_entries(*, player: Any, limit: int = 50) -> QuerySet[RaceEntry]:
    """The player's race entries, newest race first, with race (and deal) and game loaded.

    Races of draft tournaments are left out (they are the organisers' until published);
    cancelled races are listed (their pages say they were cancelled).
    """
    return (
        RaceEntry.objects.filter(player=player)
        .exclude(of_draft_tournament("race__"))
        .select_related("race", "race__deal", "game")
        .order_by("-race__starts_at")[:limit]
    )


def entry_cards_home(entry: RaceEntry, *, now: datetime | None = None) -> int | None:
    """The cards home an entry's row shows, as its race page does
    (:func:`games.selectors.races.race_standings`): a finished race's stored result
    (``None`` when it has none); in a cancelled race the count its game reached before
    the cancellation (``None`` for a disqualified entry, no game, or a game whose race
    never started for it); ``None`` while the race is not over (no result yet).  No
    query when ``entry`` has its race and game loaded (:func:`player_race_entries`)."""
    race = entry.race
    if race.status == Race.Status.FINISHED:
        return entry.cards_home
    if race.status != Race.Status.CANCELLED or entry.disqualified or entry.game is None:
        return None
    if not game_started(entry.game, now=now or timezone.now()):
        return None
    return int(entry.game.cards_home)


def entry_cancelled_status(entry: RaceEntry, *, now: datetime | None = None) -> str:
    """The status an entry's row shows when its race is ``cancelled`` (RULES.md 7):
    the game's own ending (``won``, ``resigned``, ``blocked``, ``timed_out``) when it
    ended before the cancellation, as the lobby says it; ``cancelled`` for a game the
    cancellation ended (:func:`games.selectors.games.ended_by_cancellation`), a game
    still playing or not started, no game, or a disqualified entry.  No query when
    ``entry`` has its race and game loaded (:func:`player_race_entries`)."""
    game = entry.game
    if entry.disqualified or game is None:
        return "cancelled"
    if ended_by_cancellation(game, race_status=entry.race.status):
        return "cancelled"
    now = now or timezone.now()
    if not game_started(game, now=now):
        return "cancelled"  # cancelled before its start: a deal dead from the start
    status = game_status_seen(game, now=now)
    if status in ("won", "resigned", "blocked", "timed_out"):
        return str(status)
    return "cancelled"
