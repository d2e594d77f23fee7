"""``python -m canfield_bot --base-url URL --race ID --bots N``: run bots in a race."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import importlib
import secrets
import sys
from typing import Any

from canfield_bot.bot import BotResult, Progress, run_bots
from canfield_bot.client import ApiError, CanfieldClient

#: A race's phases (``GET /races/{id}``) in which nobody may join any more.
OVER = ("closing", "finished", "cancelled")


def load_strategy(spec: str) -> Any:
    """``module:name`` -> the function or class it names.

    Raises ``SystemExit`` with a one-line message (no traceback) when ``spec`` is not
    ``module:name``, the module cannot be imported or has no such name.
    """
    module, _, name = spec.partition(":")
    if not module or not name:
        raise SystemExit(f"--strategy must be module:name, not {spec!r}")
    try:
        found = getattr(importlib.import_module(module), name)
    except ImportError as exc:
        raise SystemExit(f"--strategy {spec}: cannot import {module!r} ({exc})") from None
    except AttributeError:
        raise SystemExit(f"--strategy {spec}: {module!r} has no {name!r}") from None
    if not callable(found):
        raise SystemExit(f"--strategy {spec}: {name!r} is not a function or class")
    return found


def _seconds(text: str) -> float:
    """A ``float`` of at least 0 and finite, for argparse (``--retry-seconds``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number of seconds: {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _positive(text: str) -> int:
    """An ``int`` of at least 1, for argparse (``--bots 0`` would run nothing)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def standings_table(rows: list[dict[str, Any]]) -> str:
    """The standings (or results entries) as a plain-text table.  ``time s`` is the
    ranking's time (``elapsed_ms``: when the cards home were reached, or a winner's time;
    RULES.md 6) to the millisecond, so the order of two players equal on cards shows."""
    head = f"{'rank':>4}  {'player':<24} {'cards':>5} {'moves':>5} {'time s':>8}  status"
    lines = [head, "-" * len(head)]
    for row in rows:
        rank = "-" if row.get("rank") is None else str(row["rank"])
        elapsed = row.get("elapsed_ms")
        secs = "-" if elapsed is None else f"{elapsed / 1000:.3f}"
        cards = "-" if row.get("cards_home") is None else str(row["cards_home"])
        moves = "-" if row.get("moves") is None else str(row["moves"])
        lines.append(
            f"{rank:>4}  {row['player']:<24} {cards:>5} {moves:>5} {secs:>8}  {row['status']}"
        )
    return "\n".join(lines)


def progress_printer(race_id: str) -> Progress:
    """An ``on_progress`` that prints one line on stderr per bot when it joins, when its
    game starts and when it ends (status, cards home, moves), and one line for the race
    when the first bot finds it has not started yet (with ``starts_at``); nothing per move.
    stderr, so that stdout keeps only the results."""
    waiting_told = False

    def report(event: str, result: BotResult, info: dict[str, Any]) -> None:
        nonlocal waiting_told
        name = result.username
        if event == "joined":
            line = f"{name}: joined race {race_id}"
        elif event == "waiting":
            if waiting_told:
                return
            waiting_told = True
            starts_at = info.get("starts_at")
            at = f" at {starts_at}" if starts_at else ""
            line = f"race {race_id}: waiting for the start{at}"
        elif event == "started":
            line = f"{name}: game {info.get('id')} started"
        elif event == "ended":
            line = (
                f"{name}: game over: {result.ended or result.status}, "
                f"{result.cards_home} cards home, {result.moves} moves"
            )
        else:
            return
        print(line, file=sys.stderr, flush=True)

    return report


async def _main(args: argparse.Namespace) -> int:
    prefix = args.prefix or f"bot-{secrets.token_hex(3)}-"
    password = args.password or secrets.token_urlsafe(18)
    names = [f"{prefix}{i + 1}" for i in range(args.bots)]
    strategy = load_strategy(args.strategy) if args.strategy else None
    # The race, read once before any bot registers: a wrong id or a race that is over
    # made every bot register an account and then fail to join, each with the same
    # refusal; a server that does not answer (after the client's retries) ended in a
    # traceback.  Any other refusal here is left to the bots, as before.
    race: dict[str, Any] = {}
    async with CanfieldClient(args.base_url, retry_seconds=args.retry_seconds) as client:
        try:
            race = await client.race(args.race)
        except ApiError as exc:
            if exc.status == 0:  # no answer at all, after the client's retries
                print(
                    f"race {args.race}: the server at {args.base_url} did not answer "
                    f"({exc}); is it running, and is --base-url its address?",
                    file=sys.stderr,
                )
                return 1
            if exc.status != 404:
                if args.wait_results:  # no commitment to check the seed against
                    raise
                race = {}
            else:
                print(
                    f"race {args.race}: not found ({exc}); a race id is in its page's "
                    "address, /races/<id>/, or in GET /api/v1/races?phase=open",
                    file=sys.stderr,
                )
                return 1
    if race.get("phase") in OVER:
        print(
            f"race {args.race} is {race['phase']}: there is nothing left to join", file=sys.stderr
        )
        return 1
    # The commitment as published before the race is played, to check the seed against.
    committed = race["commitment"] if args.wait_results else None
    results = await run_bots(
        args.base_url,
        args.race,
        names,
        password,
        strategy=strategy,
        think=args.think,
        on_stuck=args.on_stuck,
        client_options={"retry_seconds": args.retry_seconds},
        on_progress=None if args.quiet else progress_printer(args.race),
    )
    failed = 0
    for name, res in zip(names, results, strict=True):
        if isinstance(res, BotResult):
            print(f"{name}: {res.ended} with {res.cards_home} cards home after {res.moves} moves")
        else:
            failed += 1
            print(f"{name}: FAILED {res!r}", file=sys.stderr)
    if args.wait_results:
        async with CanfieldClient(args.base_url) as client:
            final = await client.wait_results(args.race)
        print(standings_table(final["entries"]))
        verified = commitment_verified(final["seed"], committed)
        print(f"seed {final['seed']}  commitment verified: {verified}")
        if not verified:
            print(
                f"the revealed seed does not match the commitment {committed} published "
                "before the race: sha256(seed) differs",
                file=sys.stderr,
            )
            return 1
    return 1 if failed else 0


def commitment_verified(seed: str, commitment: str | None) -> bool:
    """Whether ``hex(SHA-256(utf8(seed)))`` is ``commitment`` (RULES.md 7), computed here:
    the results' own ``commitment_verified`` is the server's word, and a server that
    swapped the seed would swap the commitment it shows beside it too, so the commitment
    is the one read before the race."""
    return commitment is not None and hashlib.sha256(seed.encode()).hexdigest() == commitment


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the bots."""
    parser = argparse.ArgumentParser(prog="python -m canfield_bot", description=__doc__)
    parser.add_argument(
        "--base-url",
        default="http://127.0.0.1:8000",
        help="address of the race server, without /api/v1 (default: %(default)s)",
    )
    parser.add_argument(
        "--race",
        required=True,
        help="race id, as in the race page's URL /races/<id>/ or GET /api/v1/races?phase=open "
        "(required, no default)",
    )
    parser.add_argument(
        "--bots", type=_positive, default=5, help="how many bots, 1 or more (default: %(default)s)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.2,
        help="seconds each bot waits before each move (default: %(default)s)",
    )
    parser.add_argument(
        "--prefix", help="username prefix; bot i is <prefix><i> (default: bot-<random>-)"
    )
    parser.add_argument("--password", help="password of the bot accounts (default: random)")
    parser.add_argument(
        "--strategy",
        help="module:name of a strategy function or class, the module importable from the "
        "current directory or PYTHONPATH (default: the built-in DefaultStrategy)",
    )
    parser.add_argument(
        "--on-stuck",
        choices=["resign", "stop"],
        default="resign",
        help="when the strategy has no move: resign the game, or stop and leave it as it "
        "is (default: %(default)s)",
    )
    parser.add_argument(
        "--retry-seconds",
        type=_seconds,
        default=60.0,
        help="how long a request that finds the server down (refused, 5xx) is retried, "
        "so that the bots ride out a server restart; 0: five retries, a few seconds "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--wait-results",
        action="store_true",
        help="then wait for the results and print them, checking the revealed seed against "
        "the commitment read before the race (exit status 1 when it does not match) "
        "(default: off)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress lines on stderr (joined, waiting for the start, game started, "
        "game over); only the final lines (default: off)",
    )
    return asyncio.run(_main(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
