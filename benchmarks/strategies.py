"""Strength of the bot strategies (``canfield_bot.strategy.STRATEGIES``) over many deals.

Usage::

    .venv/bin/python benchmarks/strategies.py [--deals 100] [--first-seed 0] [--variant classic]

Each strategy plays every deal (seeds ``first-seed .. first-seed + deals - 1``) offline,
as the bot tests do: the engine's player view (``games.engine.player_view``, exactly what
``GET /api/v1/games/{id}`` shows, never a hidden card) goes to the strategy and its move
is played on the engine.  A game ends when it is won or blocked, when the strategy gives
up (``None``: the bot resigns) or after ``--max-moves`` moves.  Prints, per strategy,
the wins, the average cards home, the average moves and the seconds per game (the latter
with its ratio to the fastest strategy in the same run).  Deterministic: no strategy
draws random numbers, so the figures repeat exactly on any machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from canfield_bot.strategy import STRATEGIES
from games.engine import new_game, player_view


def play(name: str, seed: str, variant: str, max_moves: int) -> tuple[str, int, int]:
    """One game: (how it ended, cards home, moves played)."""
    state = new_game(variant, seed=seed)
    strategy = STRATEGIES[name]()
    moves = 0
    while state.status() == "playing" and moves < max_moves:
        view = player_view(state)
        move = strategy(view)
        if move is None:
            return "resigned", state.cards_home, moves
        if move not in view["legal_moves"]:
            raise AssertionError(f"{name} chose {move!r}, not legal on seed {seed}")
        state.play(move)
        moves += 1
    status = state.status() if state.status() != "playing" else "move-limit"
    return status, state.cards_home, moves


def main(argv: list[str] | None = None) -> int:
    """Play every strategy on every deal and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--max-moves", type=int, default=3000)
    args = parser.parse_args(argv)
    seeds = [str(n) for n in range(args.first_seed, args.first_seed + args.deals)]
    rows = []
    for name in STRATEGIES:
        t0 = time.perf_counter()
        games = [play(name, seed, args.variant, args.max_moves) for seed in seeds]
        per_game = (time.perf_counter() - t0) / len(seeds)
        rows.append(
            (
                name,
                sum(1 for status, _, _ in games if status == "won"),
                statistics.mean(cards for _, cards, _ in games),
                statistics.mean(moves for _, _, moves in games),
                per_game,
            )
        )
    fastest = min(r[4] for r in rows)
    print(
        f"{args.variant}, {len(seeds)} deals (seeds {seeds[0]}..{seeds[-1]}), "
        f"at most {args.max_moves} moves a game"
    )
    print(f"{'strategy':<12} {'wins':>5} {'avg cards home':>15} {'avg moves':>10} {'s/game':>8}")
    for name, wins, cards, moves, secs in rows:
        print(
            f"{name:<12} {wins:>5} {cards:>15.1f} {moves:>10.1f} {secs:>8.4f}"
            f"  ({secs / fastest:.1f}x the fastest)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
