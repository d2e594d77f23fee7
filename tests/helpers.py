"""Helpers shared by several test modules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_ENV_READ = re.compile(r"\benv(?:\.\w+)?\(\s*\"([A-Z][A-Z0-9_]*)\"")


def settings_env_vars() -> set[str]:
    """Names of every environment variable ``canfield_site/settings.py`` reads."""
    source = (ROOT / "canfield_site" / "settings.py").read_text()
    return set(_ENV_READ.findall(source))


def env_example_vars() -> set[str]:
    """Names assigned (uncommented) in ``.env.example``."""
    names = set()
    for line in (ROOT / ".env.example").read_text().splitlines():
        match = re.match(r"([A-Z][A-Z0-9_]*)=", line)
        if match:
            names.add(match.group(1))
    return names


def scripted_play(seed: str, count: int, *, prefer_home: bool, variant: str = "classic") -> str:
    """Status of a game of ``seed`` after the scripted play the race tests use: up to
    ``count`` moves, each the first foundation move (``prefer_home``) or else the last
    legal move listed.  Pure engine: no database."""
    from games.engine import new_game

    state = new_game(variant, seed=seed)
    for _ in range(count):
        if state.status() != "playing":
            break
        moves = state.legal_moves()
        home = [m for m in moves if m.endswith(">f")]
        state.play(home[0] if (prefer_home and home) else moves[-1])
    return str(state.status())


def race_seed_ok(seed: str) -> bool:
    """The property every in-process test race's seed has (tests/conftest.py): a classic
    game on it is playing at the deal, after 40 home-first moves, after 3 last-listed
    moves and after a draw; so no scripted race test ends ``blocked`` by chance."""
    from games.engine import new_game

    dealt = new_game("classic", seed=seed)
    if dealt.status() != "playing" or "draw" not in dealt.legal_moves():
        return False
    dealt.play("draw")
    return (
        dealt.status() == "playing"
        and scripted_play(seed, 40, prefer_home=True) == "playing"
        and scripted_play(seed, 3, prefer_home=False) == "playing"
    )


def blocked_seed(prefix: str, tries: int = 5000) -> str:
    """The first seed ``{prefix}-N`` (N < ``tries``) whose classic deal is blocked at the
    deal (RULES.md 3.9): no move but draw and redeal ever."""
    from games.engine import new_game

    seed = next(
        (
            f"{prefix}-{n}"
            for n in range(tries)
            if new_game("classic", seed=f"{prefix}-{n}").status() == "blocked"
        ),
        None,
    )
    assert seed is not None, f"no classic deal blocked at the deal among {prefix}-0..{tries - 1}"
    return seed


def ticking(start: datetime) -> Iterator[datetime]:
    """A clock that moves one second on every reading (patch ``timezone.now`` with
    ``lambda: next(clock)``): two readings of one answer never agree."""
    t = start
    while True:
        yield t
        t += timedelta(seconds=1)
