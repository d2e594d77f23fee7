"""An independent, deliberately simple Canfield model written from RULES.md alone.

It shares no code with ``games.engine``: positions are plain dicts of card
strings in the shape of ``GameState.to_dict()`` (piles bottom to top, the
stock in draw order, foundations as lists from the base card up), and every
rule is spelled out the slow, obvious way.  The differential tests compare the
engine's legal moves, the positions its moves produce and its blocked status
with this model.
"""

from __future__ import annotations

import copy
from typing import Any

RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
RED_SUITS = {"H", "D"}
TABLEAU_NAMES = ["t1", "t2", "t3", "t4"]


def rank_of(card: str) -> int:
    return RANK_ORDER.index(card[0])


def suit_of(card: str) -> str:
    return card[1]


def is_red(card: str) -> bool:
    return card[1] in RED_SUITS


def one_higher(rank: int) -> int:
    """RULES.md 1: ranks wrap, A is one higher than K."""
    return (rank + 1) % 13


def base_rank(position: dict[str, Any]) -> int:
    return RANK_ORDER.index(position["base_rank"])


def can_build_on(card: str, target: str, position: dict[str, Any]) -> bool:
    """RULES.md 3.3 and section 4 (build, tableau_wrap): may ``card`` go on ``target``?"""
    rules = position["rules"]
    if one_higher(rank_of(card)) != rank_of(target):
        return False
    if rules["tableau_wrap"] == "base-relative" and rank_of(target) == base_rank(position):
        # Building down from the base rank would cross from the lowest rank
        # of the foundation order to the highest one.
        return False
    if rules["build"] == "alternate-colour":
        return is_red(card) != is_red(target)
    if rules["build"] == "same-suit":
        return suit_of(card) == suit_of(target)
    return True  # any-suit: by rank only


def can_go_home(card: str, position: dict[str, Any]) -> bool:
    """RULES.md 3.2: started by the base rank, built up in suit, wrapping, up to 13 cards."""
    pile = position["foundations"][suit_of(card)]
    if len(pile) == 13:
        return False
    if not pile:
        return rank_of(card) == base_rank(position)
    return rank_of(card) == one_higher(rank_of(pile[-1]))


def empty_pile_accepts(source: str, position: dict[str, Any]) -> bool:
    """RULES.md 3.7 and section 4 (autofill, empty_pile): may a card from ``source`` fill a space?

    ``source`` is ``"reserve"``, ``"waste"`` or ``"tableau"``.
    """
    rules = position["rules"]
    if rules["autofill"] and position["reserve"]:
        return False  # the reserve fills it
    if rules["empty_pile"] == "waste-only":
        return source == "waste"
    return True


def legal_moves(position: dict[str, Any]) -> set[str]:
    """Every legal move of ``position`` in canonical notation, as a set."""
    if position.get("ended"):
        return set()
    rules = position["rules"]
    moves: set[str] = set()
    tableau = position["tableau"]

    def to_tableau(card: str, source: str, from_pile: int | None) -> None:
        for j in range(4):
            if j == from_pile:
                continue
            target = tableau[j]
            if target:
                if can_build_on(card, target[-1], position):
                    moves.add(f"{card}>{TABLEAU_NAMES[j]}")
            elif empty_pile_accepts(source, position):
                moves.add(f"{card}>{TABLEAU_NAMES[j]}")

    # Single available cards (3.1) to the foundations (3.2).
    singles = []
    if position["reserve"]:
        singles.append(position["reserve"][-1])
    if position["waste"]:
        singles.append(position["waste"][-1])
    for pile in tableau:
        if pile:
            singles.append(pile[-1])
    for card in singles:
        if can_go_home(card, position):
            moves.add(f"{card}>f")

    if position["reserve"]:
        to_tableau(position["reserve"][-1], "reserve", None)
    if position["waste"]:
        to_tableau(position["waste"][-1], "waste", None)

    mode = rules["tableau_moves"]
    for i, pile in enumerate(tableau):
        if not pile:
            continue
        if mode == "top-or-whole":
            movers = {pile[-1], pile[0]}
        elif mode == "whole-pile":
            movers = {pile[0]}
        else:  # any-run
            movers = set(pile)
        for card in movers:
            to_tableau(card, "tableau", i)

    if position["stock"]:
        moves.add("draw")
    elif position["waste"] and redeal_allowed(position):
        moves.add("redeal")
    return moves


def redeal_allowed(position: dict[str, Any]) -> bool:
    limit = position["rules"]["redeals"]
    return limit is None or position["redeals_used"] < limit


def apply(position: dict[str, Any], move: str) -> dict[str, Any]:
    """The position after legal ``move`` (a new dict; ``position`` is not changed)."""
    p = copy.deepcopy(position)
    rules = p["rules"]
    if move == "draw":
        n = min(rules["draw"], len(p["stock"]))
        drawn, p["stock"] = p["stock"][:n], p["stock"][n:]
        p["waste"].extend(drawn)  # the first card drawn goes down first
        return p
    if move == "redeal":
        p["stock"] = p["waste"]  # turned over: the bottom of the waste is drawn first
        p["waste"] = []
        p["redeals_used"] += 1
        return p
    card, dest = move.split(">")
    emptied: int | None = None
    if p["reserve"] and p["reserve"][-1] == card:
        moving = [p["reserve"].pop()]
    elif p["waste"] and p["waste"][-1] == card:
        moving = [p["waste"].pop()]
    else:
        for i, pile in enumerate(p["tableau"]):
            if card in pile:
                k = pile.index(card)
                moving = pile[k:]
                del pile[k:]
                if not pile:
                    emptied = i
                break
        else:
            raise AssertionError(f"reference: {card} not found")
    if dest == "f":
        assert len(moving) == 1
        p["foundations"][suit_of(card)].append(card)
    else:
        p["tableau"][TABLEAU_NAMES.index(dest)].extend(moving)
    if emptied is not None and rules["autofill"] and p["reserve"]:
        p["tableau"][emptied].append(p["reserve"].pop())
    return p


def cards_home(position: dict[str, Any]) -> int:
    return sum(len(v) for v in position["foundations"].values())


def is_blocked(position: dict[str, Any]) -> bool:
    """RULES.md 3.9 by brute force: explore every position draw and redeal alone reach."""
    if cards_home(position) == 52:
        return False
    seen: set[tuple[tuple[str, ...], tuple[str, ...], int]] = set()
    todo = [position]
    while todo:
        p = todo.pop()
        used = 0 if rules_unlimited(p) else p["redeals_used"]
        key = (tuple(p["stock"]), tuple(p["waste"]), used)
        if key in seen:
            continue
        seen.add(key)
        moves = legal_moves(p)
        if moves - {"draw", "redeal"}:
            return False
        todo.extend(apply(p, m) for m in moves)
    return True


def rules_unlimited(position: dict[str, Any]) -> bool:
    return position["rules"]["redeals"] is None


def status(position: dict[str, Any]) -> str:
    if position.get("ended"):
        return str(position["ended"])
    if cards_home(position) == 52:
        return "won"
    return "blocked" if is_blocked(position) else "playing"


def all_card_moves() -> list[str]:
    """Every well-formed move text: 52 cards x 5 destinations, draw and redeal."""
    cards = [r + s for s in "CDHS" for r in RANK_ORDER]
    return [f"{c}>{d}" for c in cards for d in ("f", *TABLEAU_NAMES)] + ["draw", "redeal"]
