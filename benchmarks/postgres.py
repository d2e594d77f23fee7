"""What the in-process PostgreSQL benchmarks share: the ``--database-url`` option, their
database (made when missing) with Django on it, a median timer, and a race of many
entrants written straight to the database."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

#: The benchmarks' database unless ``--database-url`` or ``BENCH_DATABASE_URL`` names one.
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/canfield_bench"


def add_database_url(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` the ``--database-url`` option (default ``BENCH_DATABASE_URL``, else
    :data:`DEFAULT_DATABASE_URL`)."""
    parser.add_argument(
        "--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    )


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``repeat`` calls of ``fn``, in ms."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def ensure_database(url: str) -> None:
    """Create the database of ``url`` (``postgres://user@host:port/name``) when it does
    not exist, through the server's ``postgres`` database."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def django_on(url: str) -> None:
    """Set Django up in this process on the PostgreSQL database ``url`` (created when
    missing, then migrated): ``DEBUG`` on unless set, no Redis (tasks and live events
    stay in the process)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DEBUG", "true")
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
    ensure_database(url)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def race_games(race: Any, users: list[Any], rng: random.Random) -> list[Any]:
    """One race game and entry of ``race`` per user in ``users``, written in bulk with a
    random result each (cards home 1..52, a won game at 52, 0 to 400 moves, a time up to
    120,000 ms), as a game would have left them: the games, in the order of ``users``.
    Django must be set up (:func:`django_on`)."""
    from games.models import Game, RaceEntry

    state = race.deal.new_state().to_dict()
    games = []
    for user in users:
        home = rng.randint(1, 52)
        games.append(
            Game(
                player=user,
                deal=race.deal,
                kind=Game.Kind.RACE,
                state=state,
                move_number=rng.randint(0, 400),
                status="won" if home == 52 else "playing",
                cards_home=home,
                cards_home_ms=rng.randint(0, 120_000),
                undo_allowed=False,
                deadline=race.ends_at,
                started_at=race.starts_at,
            )
        )
    Game.objects.bulk_create(games, batch_size=2000)
    RaceEntry.objects.bulk_create(
        [RaceEntry(race=race, player=g.player, game=g) for g in games], batch_size=2000
    )
    return games
