"""Builders for explicit decks and positions used by the engine's scenario tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import CARD_NAMES, GameState, new_game
from games.engine.rules import make_rules

ALL_CARDS: tuple[str, ...] = CARD_NAMES


def build_deck(
    reserve: Sequence[str] = (),
    base: str | None = None,
    tableau: Sequence[str] = (),
    stock: Sequence[str] = (),
    fixed_base: str | None = None,
) -> list[str]:
    """A 52-card deck in deal order that lays out as asked (RULES.md 2.2).

    ``reserve`` lists the top of the reserve, bottom to top (its last card is
    D[12], the face-up top); ``base`` is D[13]; ``tableau`` is t1.. (D[14..]);
    ``stock`` is the start of the stock in draw order (D[18..]).  Every other
    card fills the remaining places in the order AC 2C .. KS.  With
    ``fixed_base`` (a rank such as ``"2"``) the four cards of that rank are put
    at the end and the 48 others are laid out reserve 13, tableau 4, stock.
    """
    wanted = [*reserve, *([base] if base else []), *tableau, *stock]
    assert len(set(wanted)) == len(wanted), f"a card is asked for twice: {wanted}"
    if fixed_base is not None:
        assert base is None
        assert all(c[0] != fixed_base for c in wanted)
        base_cards = [c for c in ALL_CARDS if c[0] == fixed_base]
        filler = [c for c in ALL_CARDS if c not in wanted and c[0] != fixed_base]
        size, base_slot = 48, None
    else:
        base_cards = []
        filler = [c for c in ALL_CARDS if c not in wanted]
        size, base_slot = 52, 13
    slots: list[str | None] = [None] * size
    res_start = 13 - len(reserve)
    for k, c in enumerate(reserve):
        slots[res_start + k] = c
    tab_start = 14 if base_slot is not None else 13
    if base_slot is not None and base:
        slots[base_slot] = base
    for k, c in enumerate(tableau):
        slots[tab_start + k] = c
    for k, c in enumerate(stock):
        slots[tab_start + 4 + k] = c
    it = iter(filler)
    deck = [c if c is not None else next(it) for c in slots]
    deck.extend(base_cards)
    assert sorted(deck) == sorted(ALL_CARDS)
    return deck


def deal(variant: str = "classic", **kw: Any) -> GameState:
    """``new_game`` from :func:`build_deck`; deck keywords and rule options may be mixed."""
    deck_keys = ("reserve", "base", "tableau", "stock", "fixed_base")
    deck_kw = {k: kw.pop(k) for k in deck_keys if k in kw}
    rules = make_rules(variant, **kw)
    if rules.base != "dealt":
        deck_kw["fixed_base"] = rules.base
    return new_game(variant, deck=build_deck(**deck_kw), **kw)


def position(
    variant: str = "classic",
    *,
    base_rank: str,
    reserve: Sequence[str] = (),
    home: dict[str, int] | None = None,
    tableau: Sequence[Sequence[str]] = ((), (), (), ()),
    stock: Sequence[str] = (),
    waste: Sequence[str] = (),
    leftovers: str = "stock",
    redeals_used: int = 0,
    **options: Any,
) -> GameState:
    """A mid-game position (via ``GameState.from_dict``) with every pile given explicitly.

    ``home`` is the number of cards on each suit's foundation (from the base
    rank up).  Cards named nowhere go to the end of ``leftovers``: ``"stock"``
    (drawn last), ``"waste"`` (bottom of the waste) or ``"reserve"`` (bottom).
    """
    rules = make_rules(variant, **options)
    b = "A23456789TJQK".index(base_rank)
    home = home or {}
    foundations = {
        s: ["A23456789TJQK"[(b + k) % 13] + s for k in range(home.get(s, 0))] for s in "CDHS"
    }
    named = [*reserve, *stock, *waste, *(c for p in tableau for c in p)]
    named += [c for f in foundations.values() for c in f]
    assert len(set(named)) == len(named), "a card is placed twice"
    rest = [c for c in ALL_CARDS if c not in named]
    reserve, stock, waste = list(reserve), list(stock), list(waste)
    if leftovers == "stock":
        stock += rest
    elif leftovers == "waste":
        waste = rest + waste
    elif leftovers == "reserve":
        reserve = rest + reserve
    else:
        assert not rest, f"cards left over: {rest}"
    data = {
        "format": "canfield-state",
        "version": 1,
        "rules": rules.to_dict(),
        "base_rank": base_rank,
        "reserve": reserve,
        "foundations": foundations,
        "tableau": [list(p) for p in tableau],
        "stock": stock,
        "waste": waste,
        "redeals_used": redeals_used,
        "ended": None,
    }
    return GameState.from_dict(data)
