"""Random rules, deals and positions shared by the property and differential tests."""

from __future__ import annotations

import os
import random
from typing import Any

from hypothesis import HealthCheck, settings

from games.engine import PRESETS, GameState, new_game
from games.engine.rules import BUILDS, EMPTY_PILE, TABLEAU_MOVES, TABLEAU_WRAP, make_rules

PRESET_NAMES = tuple(PRESETS)

#: Whether ``HYPOTHESIS_PROFILE=ci`` asks for the longer, freshly random search.
SEARCH = os.environ.get("HYPOTHESIS_PROFILE") == "ci"

#: Settings of the engine's hypothesis tests: quick and derandomized (the same examples
#: on every run, so a local failure repeats and a pass means the same thing each time)
#: unless ``HYPOTHESIS_PROFILE=ci``, which searches longer with fresh examples (a failure
#: there prints the ``@reproduce_failure`` blob to replay it).
ENGINE_SETTINGS = settings(
    max_examples=400 if SEARCH else 50,
    derandomize=not SEARCH,
    print_blob=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "draw": (1, 3),
    "redeals": (None, 0, 1, 2),
    "build": BUILDS,
    "tableau_moves": TABLEAU_MOVES,
    "autofill": (True, False),
    "empty_pile": EMPTY_PILE,
    "reserve_face_up": (True, False),
    "base": ("dealt", "A", "2", "7", "K"),
    "tableau_wrap": TABLEAU_WRAP,
}


def random_options(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A preset and a random subset of overridden options."""
    preset = rng.choice(PRESET_NAMES)
    opts = {k: rng.choice(v) for k, v in OPTION_VALUES.items() if rng.random() < 0.4}
    return preset, opts


def random_game(rng: random.Random) -> GameState:
    preset, opts = random_options(rng)
    return new_game(preset, seed=f"s{rng.getrandbits(40)}", **opts)


def random_walk(state: GameState, rng: random.Random, steps: int) -> list[str]:
    """Play up to ``steps`` random legal moves on ``state`` (in place), preferring progress.

    Foundation and reserve moves are favoured so that walks reach deep
    positions (empty reserve, empty piles, many cards home).  Returns the moves.
    """
    played: list[str] = []
    for _ in range(steps):
        moves = state.legal_moves()
        if not moves:
            break
        home = [m for m in moves if m.endswith(">f")]
        move = rng.choice(home) if home and rng.random() < 0.7 else rng.choice(moves)
        state.play(move)
        played.append(move)
    return played


def synthetic_position(rng: random.Random) -> GameState:
    """An arbitrary position: random foundations and piles (moves depend on tops and bottoms)."""
    preset, opts = random_options(rng)
    rules = make_rules(preset, **opts)
    base = rules.base if rules.base != "dealt" else rng.choice("A23456789TJQK")
    b = "A23456789TJQK".index(base)
    foundations: dict[str, list[str]] = {}
    home: list[str] = []
    for s in "CDHS":
        n = rng.choice([0, 0, 1, 3, 6, 10, 12, 13]) if rules.base == "dealt" else rng.randint(1, 13)
        foundations[s] = ["A23456789TJQK"[(b + k) % 13] + s for k in range(n)]
        home += foundations[s]
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in home]
    rng.shuffle(rest)
    piles: dict[str, list[str]] = {"reserve": [], "stock": [], "waste": [], "t": []}
    weights = {
        "reserve": rng.choice([0, 0, 1, 3]),
        "stock": rng.choice([0, 1, 3]),
        "waste": rng.choice([0, 1, 3]),
        "t": rng.choice([1, 3, 6]),
    }
    names = [k for k, w in weights.items() if w] or ["t"]
    for c in rest:
        piles[rng.choices(names, [weights[k] for k in names])[0]].append(c)
    tableau: list[list[str]] = [[], [], [], []]
    for c in piles["t"]:
        tableau[rng.randrange(4)].append(c)
    if rules.autofill and piles["reserve"]:
        # Reachable positions never hold an empty pile beside a non-empty reserve.
        for p in tableau:
            if not p and piles["reserve"]:
                p.append(piles["reserve"].pop())
    redeals_used = rng.choice([0, 0, 1, 2])
    if rules.redeals is not None:
        redeals_used = min(redeals_used, rules.redeals)
    data = {
        "format": "canfield-state",
        "version": 1,
        "rules": rules.to_dict(),
        "base_rank": base,
        "reserve": piles["reserve"],
        "foundations": foundations,
        "tableau": tableau,
        "stock": piles["stock"],
        "waste": piles["waste"],
        "redeals_used": redeals_used,
        "ended": None,
    }
    return GameState.from_dict(data)
