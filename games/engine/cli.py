"""Terminal tool: ``python -m games.engine show|replay|moves``.

* ``show --seed 12345 --variant classic [--reveal]`` prints a deal.
* ``replay --seed S [--variant V] moves.txt`` (moves separated by spaces or
  new lines, ``#`` starts a comment) or ``replay record.json`` (the API's
  export) replays a game and prints every move and the final position.
* ``moves --seed S`` lists the legal moves of the dealt position.

Suits print as Unicode symbols; red cards and headings are coloured when
standard output is a terminal and ``NO_COLOR`` is not set.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from . import MoveError, RulesError, new_game
from .cards import IS_RED, SUITS, parse_card, pretty
from .deal import DeckError
from .record import GameRecord, RecordError
from .rules import make_rules
from .state import GameState, player_view


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def card(self, name: str) -> str:
        c = parse_card(name)
        text = pretty(c)
        if self.enabled and IS_RED[c]:
            return f"\033[31m{text}\033[0m"
        return text

    def bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.enabled else text

    def dim(self, text: str) -> str:
        return f"\033[2m{text}\033[0m" if self.enabled else text


def render(state: GameState, *, reveal: bool = False, colour: bool = False) -> str:
    """A readable multi-line picture of ``state``.

    Without ``reveal`` it shows what a player sees (hidden cards as counts);
    with it, the face-down reserve and the stock in draw order too.
    """
    p = _Painter(colour)
    view = player_view(state)
    full = state.to_dict()

    def cards(names: Sequence[str]) -> str:
        return " ".join(p.card(n) for n in names) if names else p.dim("(empty)")

    lines = [
        p.bold("Foundations")
        + f" (base rank {view['base_rank']}): "
        + "   ".join(
            f"{s}: {p.card(view['foundations'][s][-1]) if view['foundations'][s] else '--'}"
            f" ({len(view['foundations'][s])})"
            for s in SUITS
        )
    ]
    res = view["reserve"]
    if reveal:
        lines.append(
            p.bold("Reserve") + f" ({res['count']}, bottom to top): " + cards(full["reserve"])
        )
    else:
        hidden = f", {res['face_down']} face down" if res["face_down"] else ""
        lines.append(p.bold("Reserve") + f" ({res['count']}{hidden}): " + cards(res["cards"]))
    lines.append(p.bold("Tableau") + " (bottom to top):")
    for i, pile in enumerate(view["tableau"], 1):
        lines.append(f"  t{i}: {cards(pile)}")
    stock = f"{view['stock']['count']} cards"
    if reveal and full["stock"]:
        stock += " (draw order): " + cards(full["stock"])
    lines.append(p.bold("Stock") + f": {stock}")
    lines.append(p.bold("Waste") + f" ({view['waste']['count']}): " + cards(view["waste"]["cards"]))
    left = "unlimited" if view["redeals_left"] is None else str(view["redeals_left"])
    lines.append(
        f"Status: {view['status']} | cards home {view['cards_home']} | "
        f"casino score {view['casino_score']:+d} | redeals used {view['redeals_used']}, left {left}"
    )
    if view["status"] in ("playing", "blocked"):
        note = " (blocked: no move but draw or redeal exists, now or later)"
        suffix = note if view["status"] == "blocked" else ""
        lines.append("Legal moves: " + (" ".join(view["legal_moves"]) or "(none)") + suffix)
    return "\n".join(lines)


def _read_moves(text: str) -> list[str]:
    moves: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        moves.extend(line.replace(",", " ").split())
    return moves


def _options(args: argparse.Namespace) -> dict[str, object]:
    opts: dict[str, object] = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"write options as name=value, not {item!r}")
        opts[key.strip()] = _option_value(value.strip())
    return opts


def _option_value(text: str) -> object:
    """``3 -> 3``, ``true -> True``, ``null -> None``, anything else stays a string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _deal(args: argparse.Namespace) -> GameState:
    if args.seed is None and args.deck is None:
        raise DeckError("give --seed or --deck")
    return new_game(args.variant, seed=args.seed, deck=args.deck, **_options(args))


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 bad move, 2 bad input)."""
    out = out or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--seed", help="deal seed (game number), e.g. 12345")
        sp.add_argument("--deck", help="explicit deck: 52 card names in deal order")
        sp.add_argument("--variant", default="classic", help="preset (default classic)")
        sp.add_argument(
            "-o",
            "--option",
            action="append",
            metavar="NAME=VALUE",
            help="override an option, e.g. -o draw=1",
        )
        sp.add_argument("--colour", "--color", choices=["auto", "always", "never"], default="auto")

    show = sub.add_parser("show", help="print a deal")
    common(show)
    show.add_argument("--reveal", action="store_true", help="also print the hidden cards")
    rep = sub.add_parser("replay", help="replay a move list or an exported record")
    common(rep)
    rep.add_argument("file", help="moves file (or '-' for stdin) or a canfield-record JSON file")
    rep.add_argument("--reveal", action="store_true", help="also print the hidden cards")
    rep.add_argument("--each", action="store_true", help="print the position after every move")
    mv = sub.add_parser("moves", help="list the legal moves of the dealt position")
    common(mv)

    args = parser.parse_args(argv)
    colour = args.colour == "always" or (
        args.colour == "auto" and out.isatty() and "NO_COLOR" not in os.environ
    )
    try:
        if args.command == "show":
            state = _deal(args)
            title = f"Canfield, {args.variant}, " + (
                f"seed {args.seed}" if args.seed else "explicit deck"
            )
            print(_Painter(colour).bold(title), file=out)
            print(render(state, reveal=args.reveal, colour=colour), file=out)
            return 0
        if args.command == "moves":
            print("\n".join(_deal(args).legal_moves()), file=out)
            return 0
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        if text.lstrip().startswith("{"):
            record = GameRecord.from_dict(json.loads(text))
            state = record.new_state()
            moves = list(record.moves)
            ended = record.ended
            title = f"Replay, {record.to_dict()['variant'] or 'custom'}, " + (
                f"seed {record.seed}" if record.seed else "explicit deck"
            )
        else:
            state = _deal(args)
            moves = _read_moves(text)
            ended = None
            title = f"Replay, {args.variant}, " + (
                f"seed {args.seed}" if args.seed else "explicit deck"
            )
        p = _Painter(colour)
        print(p.bold(title), file=out)
        for number, move in enumerate(moves, 1):
            try:
                done = state.play(move)
            except MoveError as exc:
                print(render(state, reveal=args.reveal, colour=colour), file=out)
                print(f"move {number} ({move}) refused: {exc.reason}", file=sys.stderr)
                return 1
            print(f"{number:4d}. {done:<8} home {state.cards_home}", file=out)
            if args.each:
                print(render(state, reveal=args.reveal, colour=colour), file=out)
        if ended is not None:
            state.end(ended)
            print(f"      {ended.replace('_', ' ')}", file=out)
        print(render(state, reveal=args.reveal, colour=colour), file=out)
        return 0
    except (DeckError, RulesError, RecordError, OSError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


__all__ = ["main", "render", "make_rules"]
