"""Benchmark: the public (or cheap-to-call) reads whose cost grows with data, on PostgreSQL.

Usage (PostgreSQL must answer; the database is created if needed)::

    .venv/bin/python benchmarks/public_reads.py --entries 10000 --moves 10000 \
        --database-url postgres://postgres@127.0.0.1:5432/canfield_bench

It migrates the benchmark database and makes, directly with ``bulk_create``:

- a running race and a finished race of ``--entries`` entrants each;
- a tournament of ``--races`` finished races of ``--race-entries`` entrants, with
  ``--entries`` standings rows;
- a rating pool of ``--entries`` players, one of whom has ``--races`` rated races;
- a finished race game of ``--moves`` live moves (a real line of draws and redeals).

Then it times each read, in process (Django's test client, no server; the median of
``--repeat`` calls), and counts its queries.  The race stream's payloads (its
``snapshot`` and ``standings`` events, ``api.streams``) are timed the same way, as the
stream's handler reads them (the selectors, then one SSE frame); their bytes are the
frame's, which the stream sends to every subscriber.  The baseline, measured in the same run, is
one plain ``SELECT`` of the running race's entry rows through a cursor: the ratios say
how many such reads each answer costs.  Labels ending in ``304`` revalidate with the
answer's ``ETag`` (a poll of an unchanged page).  ``--only`` names the labels to time.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.postgres import (  # noqa: E402 - after the path
    add_database_url,
    django_on,
    median_ms,
    race_games,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--race-entries", type=int, default=100)
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated labels to time")
    add_database_url(parser)
    args = parser.parse_args()
    os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    django_on(args.database_url)
    from django.contrib.auth.models import User
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from rest_framework.throttling import SimpleRateThrottle

    from games.engine import legal_moves
    from games.models import (
        Game,
        Move,
        PlayerRating,
        Race,
        RaceEntry,
        RatingChange,
        Tournament,
        TournamentStanding,
    )
    from games.services.races import race_close, race_create
    from games.services.ratings import pool_for_options

    SimpleRateThrottle.allow_request = lambda self, request, view: True  # type: ignore[method-assign]
    rng = random.Random(7)  # noqa: S311 - reproducible fake results, not secrets
    n = args.entries
    stamp = int(time.time())
    users = User.objects.bulk_create(
        [User(username=f"pr{stamp}-{i}", password="!") for i in range(n)],  # noqa: S106
        batch_size=2000,
    )
    now = timezone.now()

    def big_race(name: str) -> Race:
        race = race_create(
            name=name,
            opens_at=now - timedelta(minutes=3),
            starts_at=now - timedelta(minutes=2),
            ends_at=now + timedelta(hours=1),
            late_join_s=None,
        )
        race_games(race, users, rng)
        return race

    running = big_race("bench running")
    finished = big_race("bench finished")
    past = timezone.now() - timedelta(seconds=1)
    Race.objects.filter(id=finished.id).update(ends_at=past)
    Game.objects.filter(race_entry__race=finished).update(deadline=past)
    assert race_close(race_id=finished.id) == "finished"

    # A long game: the first entrant's game of the finished race, --moves real moves.
    long_game = Game.objects.get(race_entry__race=finished, player=users[0])
    state = finished.deal.new_state()
    line = []
    for _ in range(args.moves):
        move = "draw" if "draw" in legal_moves(state) else "redeal"
        state.play(move)
        line.append(move)
    Move.objects.bulk_create(
        [
            Move(game=long_game, number=k + 1, notation=m, played_at=now, cards_home=1)
            for k, m in enumerate(line)
        ],
        batch_size=10_000,
    )
    Game.objects.filter(id=long_game.id).update(
        move_number=args.moves, moves_accepted=args.moves, state=state.to_dict()
    )

    # A tournament of many finished races, with standings rows for every player.
    tournament = Tournament.objects.create(name="bench tournament")
    deal = finished.deal
    t_races = Race.objects.bulk_create(
        [
            Race(
                name=f"bench t{i}",
                deal=deal,
                time_limit_s=600,
                opens_at=now - timedelta(days=2, minutes=i),
                starts_at=now - timedelta(days=2, minutes=i),
                ends_at=now - timedelta(days=1, minutes=i),
                commitment=finished.commitment,
                status=Race.Status.FINISHED,
                tournament=tournament,
            )
            for i in range(args.races)
        ]
    )
    RaceEntry.objects.bulk_create(
        [
            RaceEntry(race=r, player=users[j], rank=j + 1, cards_home=52 - j % 52, status="won")
            for r in t_races
            for j in range(args.race_entries)
        ],
        batch_size=5000,
    )
    TournamentStanding.objects.bulk_create(
        [
            TournamentStanding(tournament=tournament, player=u, rank=i + 1)
            for i, u in enumerate(users)
        ],
        batch_size=5000,
    )

    # Ratings: every player rated in one pool; users[0] with a rated change per race.
    pool = pool_for_options(deal.options)
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                pool=pool,
                player=u,
                mu=25 + rng.random(),
                sigma=8,
                ordinal=rng.random(),
                rating=1000,
            )
            for u in users
        ],
        batch_size=5000,
    )
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                pool=pool,
                race=r,
                race_ends_at=r.ends_at,
                player=users[0],
                rank=1,
                entrants_rated=args.race_entries,
                mu_before=25,
                sigma_before=8,
                mu_after=26,
                sigma_after=7.5,
                rating_before=1000,
                rating_after=1010,
                games_rated=i + 1,
            )
            for i, r in enumerate(t_races)
        ]
    )
    with connection.cursor() as cur:
        cur.execute("ANALYZE")

    def baseline() -> None:
        with connection.cursor() as cur:
            cur.execute(
                f"SELECT * FROM {RaceEntry._meta.db_table} WHERE race_id = %s",  # noqa: S608
                [running.id],
            )
            assert len(cur.fetchall()) == n

    anon = Client()
    owner = Client()
    owner.force_login(users[0])
    # An entrant low in the running race's standings: their own row follows the first.
    low = Client()
    low.force_login(
        RaceEntry.objects.filter(race=running).order_by("game__cards_home", "-joined_at")[0].player
    )
    p0 = users[0].username
    running_standings = f"/api/v1/races/{running.id}/standings"
    finished_standings = f"/api/v1/races/{finished.id}/standings"

    def stream_read(event: str, race: Race) -> Callable[[], tuple[int, bytes, str]]:
        """One event of the race's stream as its handler reads it (``api.streams``):
        ``(200, the SSE frame, "")``; the ``snapshot`` is an anonymous viewer's."""
        from django.contrib.auth.models import AnonymousUser

        from api.streams import race_snapshot, race_standings_payload, sse_frame

        def read() -> tuple[int, bytes, str]:
            if event == "snapshot":
                data = race_snapshot(str(race.id), AnonymousUser())
            else:
                data = race_standings_payload(str(race.id))
            return 200, sse_frame(event, 1, data), ""

        return read

    reads: list[tuple[str, Client, str | Callable[[], tuple[int, bytes, str]], str]] = [
        ("race standings API (running)", anon, f"/api/v1/races/{running.id}/standings", "N"),
        ("race standings API (finished)", anon, f"/api/v1/races/{finished.id}/standings", "N"),
        ("race standings API ?limit=100 (running)", anon, f"{running_standings}?limit=100", "N"),
        ("race standings API ?limit=100 (entrant)", low, f"{running_standings}?limit=100", "N"),
        ("race standings API ?limit=0 (entrant)", low, f"{running_standings}?limit=0", "N"),
        ("race standings API ?limit=100 (finished)", anon, f"{finished_standings}?limit=100", "N"),
        ("race stream snapshot (running)", anon, stream_read("snapshot", running), "N"),
        ("race stream standings (running)", anon, stream_read("standings", running), "N"),
        ("race stream standings (finished)", anon, stream_read("standings", finished), "N"),
        ("race API detail (running)", anon, f"/api/v1/races/{running.id}", "N"),
        ("race standings.csv (running)", anon, f"/api/v1/races/{running.id}/standings.csv", "N"),
        ("race page (running)", anon, f"/races/{running.id}/", "N"),
        ("race live fragment (running)", anon, f"/races/{running.id}/live", "N"),
        ("race live fragment, 304", anon, f"/races/{running.id}/live", "N"),
        ("race page (finished)", anon, f"/races/{finished.id}/", "N"),
        ("results page (finished)", anon, f"/races/{finished.id}/results", "N"),
        ("results API (finished)", anon, f"/api/v1/races/{finished.id}/results", "N"),
        ("race rating API", anon, f"/api/v1/races/{finished.id}/rating", "N"),
        ("lobby page", anon, "/", "-"),
        ("lobby page (entrant)", owner, "/", "-"),
        ("lobby fragment", anon, "/lobby/races", "-"),
        ("lobby fragment, 304", anon, "/lobby/races", "-"),
        ("tournament API", anon, f"/api/v1/tournaments/{tournament.id}", "R"),
        ("tournament standings API", anon, f"/api/v1/tournaments/{tournament.id}/standings", "N"),
        (
            "tournament standings.csv",
            anon,
            f"/api/v1/tournaments/{tournament.id}/standings.csv",
            "N",
        ),
        ("tournament races.csv", anon, f"/api/v1/tournaments/{tournament.id}/races.csv", "R"),
        ("tournament page", anon, f"/tournaments/{tournament.id}/", "N"),
        ("tournament me API", owner, f"/api/v1/tournaments/{tournament.id}/me", "R"),
        ("tournaments page", anon, "/tournaments/", "-"),
        ("leaderboards API", anon, "/api/v1/leaderboards", "N"),
        ("leaderboard API", anon, f"/api/v1/leaderboards/{pool.key}", "N"),
        ("leaderboard page", anon, f"/leaderboards/{pool.key}/", "N"),
        ("leaderboards page", anon, "/leaderboards/", "N"),
        ("player API", anon, f"/api/v1/players/{p0}", "R"),
        ("player history API", anon, f"/api/v1/players/{p0}/history", "R"),
        ("player page", anon, f"/players/{p0}/", "R"),
        ("game moves API (owner)", owner, f"/api/v1/games/{long_game.id}/moves", "M"),
        ("game API (owner)", owner, f"/api/v1/games/{long_game.id}", "M"),
        ("game export API (owner)", owner, f"/api/v1/games/{long_game.id}/export", "M"),
        ("replay page step 0", anon, f"/replay/{long_game.id}/", "M"),
        ("replay page last step", anon, f"/replay/{long_game.id}/?step={args.moves}", "M"),
        ("replay page step, htmx", anon, f"/replay/{long_game.id}/?step=5000", "M"),
    ]
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    base = median_ms(baseline, args.repeat)
    sizes = {"N": f"{n} entrants", "R": f"{args.races} races", "M": f"{args.moves} moves", "-": ""}
    print(f"baseline: SELECT {n} entry rows  {base:8.1f} ms")
    print(f"{'read':42} {'size':16} {'ms':>9} {'x base':>7} {'queries':>7} {'bytes':>10}  etag")
    for label, client, url, size in reads:
        if only and label not in only:
            continue
        headers: dict[str, str] = {"HX-Request": "true"} if "htmx" in label else {}

        def call(
            c: Client = client,
            u: str | Callable[[], tuple[int, bytes, str]] = url,
            h: dict[str, str] = headers,
        ) -> tuple[int, bytes, str]:
            if callable(u):
                return u()
            answer = c.get(u, headers=h)
            return answer.status_code, answer.content, answer.get("ETag", "")

        code, content, etag = call()
        if "304" in label:  # a poll revalidating what it has: only the ETag is computed
            headers["If-None-Match"] = etag
            code, content, etag = call()
            assert code == 304, label
        reset_queries()  # a request resets the log: the count starts from an empty one
        with CaptureQueriesContext(connection) as ctx:
            call()
        ms = median_ms(call, args.repeat)
        print(
            f"{label:42} {sizes[size]:16} {ms:9.1f} {ms / base:7.1f} "
            f"{len(ctx.captured_queries):7d} "
            f"{len(content):10,}  {'yes' if etag else 'no'} {code}"
        )


if __name__ == "__main__":
    main()
