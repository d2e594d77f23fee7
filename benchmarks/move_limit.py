"""Benchmark: what a game at ``GAME_MOVE_LIMIT`` costs, on PostgreSQL.

Usage (PostgreSQL must answer; the database is created if needed)::

    .venv/bin/python benchmarks/move_limit.py [--moves 9990] \
        --database-url postgres://postgres@127.0.0.1:5432/canfield_bench

A practice game is given ``--moves`` live moves (draws and redeals of classic seed 7,
legal in turn, written straight to the database), just short of the default limit of
10,000 (each undo and move timed adds a row).  Timed in process (the median of
``--repeat`` calls): an undo (it replays every live move from the deal,
games/services/games.py ``game_undo_outcome``), the move after it,
``GET /api/v1/games/{id}/moves`` (one page) and the replay page (``/replay/{id}/``,
every move listed, once the game is resigned).  The baseline, measured in the same run,
is the engine alone replaying the same moves from the deal: the ratios say what the
database and the page add.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.postgres import (  # noqa: E402 - after the path
    add_database_url,
    django_on,
    median_ms,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=9990)
    parser.add_argument("--repeat", type=int, default=5)
    add_database_url(parser)
    args = parser.parse_args()
    os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    django_on(args.database_url)
    from django.contrib.auth.models import User
    from django.test import Client
    from django.utils import timezone
    from rest_framework.throttling import ScopedRateThrottle

    from games.engine import new_game
    from games.models import Game, Move
    from games.services.games import game_end, game_start, game_undo, move_play

    ScopedRateThrottle.THROTTLE_RATES = {"moves": "1000000/s", "games": "1000000/s"}
    player = User.objects.create_user(f"bench-limit-{int(time.time())}", password="x")  # noqa: S106
    game = game_start(player=player, seed="7")
    state = new_game("classic", seed="7")
    moves = []
    for _ in range(args.moves):
        move = "draw" if "draw" in state.legal_moves() else "redeal"
        state.play(move)
        moves.append(move)
    now = timezone.now()
    Move.objects.bulk_create(
        [
            Move(game=game, number=n + 1, notation=m, played_at=now, cards_home=state.cards_home)
            for n, m in enumerate(moves)
        ],
        batch_size=10_000,
    )
    Game.objects.filter(id=game.id).update(
        state=state.to_dict(), move_number=args.moves, moves_accepted=args.moves
    )

    def baseline() -> None:
        replay = new_game("classic", seed="7")
        for m in moves:
            replay.play(m)

    def undo_and_move() -> None:
        game_undo(game_id=game.id, player=player)
        move_play(game_id=game.id, player=player, move=moves[-1])

    client = Client()
    client.force_login(player)
    base = median_ms(baseline, args.repeat)
    undo = median_ms(lambda: game_undo(game_id=game.id, player=player), 1)
    move_play(game_id=game.id, player=player, move=moves[-1])
    pair = median_ms(undo_and_move, args.repeat)
    page = median_ms(lambda: client.get(f"/api/v1/games/{game.id}/moves"), args.repeat)
    game_end(game_id=game.id, player=player)  # a game's replay is shown once it is over
    replay = client.get(f"/replay/{game.id}/")
    assert replay.status_code == 200, replay.status_code
    replay_ms = median_ms(lambda: client.get(f"/replay/{game.id}/"), args.repeat)
    print(f"live moves                      {args.moves}")
    print(f"baseline: engine replays them   {base:8.1f} ms")
    print(f"undo (first)                    {undo:8.1f} ms   ({undo / base:5.2f} x baseline)")
    print(f"undo then the move again        {pair:8.1f} ms   ({pair / base:5.2f} x baseline)")
    print(f"GET /games/{{id}}/moves (a page)  {page:8.1f} ms   ({page / base:5.2f} x baseline)")
    print(
        f"replay page                     {replay_ms:8.1f} ms   ({replay_ms / base:5.2f} x "
        f"baseline; {len(replay.content):,} bytes)"
    )


if __name__ == "__main__":
    main()
