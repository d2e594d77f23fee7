# mypy: disable-error-code="no-untyped-call, misc, type-arg, attr-defined, assignment"
"""Factories and helpers for tournament tests: tournaments, and races played to a result."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import factory
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Game, Race, RaceEntry, Tournament
from games.services.race_admin import race_close_now
from games.services.races import race_create, race_join
from tests.factories import UserFactory


class TournamentFactory(factory.django.DjangoModelFactory):
    """An open tournament scored by points by place (10, 8, 6, 5, 4, 3, 2, 1)."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Cup {n}")
    description = "A test tournament"
    status = Tournament.Status.OPEN
    scoring = Tournament.Scoring.PLACE_POINTS
    points_table = factory.LazyFunction(lambda: [10, 8, 6, 5, 4, 3, 2, 1])
    entry = Tournament.Entry.OPEN


def running_race(tournament: Tournament | None = None, **kw: Any) -> Race:
    """A scheduled race that started a minute ago and ends in five, with a fresh seed."""
    now = timezone.now()
    race = race_create(
        name=kw.pop("name", "race"),
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=5),
        # running already: joining open until the end; announced when joining opened (a
        # race announced after joining closed is refused: nobody could join it)
        **{"late_join_s": None, "now": now - timedelta(minutes=2), **kw},
    )
    if tournament is not None:
        race.tournament = tournament
        race.save(update_fields=["tournament"])
    return race


def window_race(now: Any = None, *, ends_in: timedelta = timedelta(minutes=10), **kw: Any) -> Race:
    """A window race (each entrant's own ``time_limit_s``, 60 s unless given) whose window
    opened two minutes before ``now`` (default: the clock), started a minute before it and
    ends ``ends_in`` after it; entrants join and start until its end."""
    now = timezone.now() if now is None else now
    return race_create(
        name=kw.pop("name", "Window race"),
        mode=Race.Mode.WINDOW,
        time_limit_s=kw.pop("time_limit_s", 60),
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + ends_in,
        **kw,
    )


@dataclass(frozen=True)
class Result:
    """What a player's game shows at the end: cards home, time to reach them, moves, won."""

    player: User | str
    home: int
    ms: int
    moves: int = 100
    won: bool = False


def play(race: Race, result: Result) -> RaceEntry:
    """Join the race and leave the game as play would have (the facts the ranking reads)."""
    player: User = (
        UserFactory(username=result.player) if isinstance(result.player, str) else result.player
    )
    entry = race_join(race_id=race.id, player=player).entry
    Game.objects.filter(id=entry.game_id).update(
        cards_home=52 if result.won else result.home,
        cards_home_ms=result.ms,
        move_number=result.moves,
        status=Game.Status.WON if result.won else Game.Status.PLAYING,
    )
    return entry


def finished_race(tournament: Tournament | None, *results: Result, **kw: Any) -> Race:
    """A race of the tournament, played with ``results``, then closed and scored."""
    race = running_race(tournament, **kw)
    for r in results:
        play(race, r)
    race_close_now(race_id=race.id)
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED
    return race
