"""A race on a fixed seed, for benchmarks and tests that run a real server stack.

A race's seed is otherwise always drawn at random, unknown to everyone until the race is
over (RULES.md 7); a fixed deal (and fixed bot strategies) gives every server under
comparison the same load.  This helper creates the race in the server's own environment
(``manage.py shell`` of a :class:`canfield_bot.stack.Stack`, with the server's
``games.services.races.race_create``), so the bot package itself, a client of the public
API only, never reaches into ``games/`` (DESIGN.md).
"""

from __future__ import annotations

from canfield_bot.stack import Stack


def seeded_race(
    stack: Stack,
    seed: str,
    *,
    name: str,
    starts_in: float,
    seconds: int,
    time_limit_s: int | None = None,
) -> str:
    """Announce a race on ``seed`` through ``manage.py shell`` (``race_create``, so the
    commitment matches), starting in ``starts_in`` seconds and lasting ``seconds``,
    joinable until its end; return its id.  Scheduled, or with ``time_limit_s`` a window
    race giving each entrant that many seconds from their own start.

    For benchmarks and tests only: a race's seed is otherwise always drawn at random,
    unknown to everyone until the race is over (RULES.md 7).  A fixed deal (and fixed
    bot strategies) gives every server under comparison the same load.
    """
    mode = "window" if time_limit_s else "scheduled"
    code = f"""
from datetime import timedelta
from unittest import mock
from django.utils import timezone
from games.services.races import race_create
now = timezone.now()
starts = now + timedelta(seconds={starts_in!r})
with mock.patch("games.services.races.random_seed", lambda: {seed!r}):
    race = race_create(
        name={name!r}, opens_at=now, starts_at=starts,
        ends_at=starts + timedelta(seconds={seconds!r}), late_join_s=None,
        mode={mode!r}, time_limit_s={time_limit_s!r},
    )
print(race.id)
"""
    return stack.manage("shell", "--no-imports", "-c", code, capture=True).split()[-1]
