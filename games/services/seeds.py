"""Fresh secret seeds whose deal can be played: one rule for races and practice games.

A deal *blocked at the deal* (RULES.md 3.9: no move but ``draw`` and ``redeal`` in any
position those two reach) is a game over at its first second.  About 1 classic deal
in 100 is one (19 of classic seeds 0..1999, and as many of one-pass and superior;
none of draw-one, rainbow or storehouse).  Whenever the server draws a seed itself, for
a race (:func:`games.services.races.race_seed`) or for a practice game started
without a seed or deck (:func:`games.services.games.game_start`), it draws with
:func:`live_seed`, so neither is ever dealt such a game.  A seed or deck the player
gives is dealt as asked, blocked or not.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import Rules, new_game, random_seed, status
from games.services.errors import InvalidOptions

#: Fresh seeds :func:`live_seed` tries before it gives up on rules whose deals are all
#: blocked at the deal (about 1 classic deal in 100 is; none of 64 in a row is, for
#: rules where even half of them are, once in 10^19).
LIVE_DEAL_ATTEMPTS = 64


def live_seed(rules: Rules, *, draw: Callable[[], str] | None = None) -> str:
    """A fresh seed whose deal under ``rules`` is not blocked at the deal (RULES.md 3.9).

    ``draw``: the seed source, called once per attempt (default
    :func:`games.engine.random_seed`, 32 hex digits from :mod:`secrets`); each caller
    passes its own, so that tests can give each a known sequence.  Seeds are drawn
    until one deals a game that can move; the check reads only the deal, and nothing
    about a rejected seed is kept or shown (a race commits to the seed it keeps, RULES.md
    7).  Raises :class:`InvalidOptions` when :data:`LIVE_DEAL_ATTEMPTS` seeds in a row
    all deal blocked games (rules under which nearly every deal is dead).
    """
    source = draw or random_seed
    for _attempt in range(LIVE_DEAL_ATTEMPTS):
        seed = source()
        if status(new_game(rules, seed=seed)) != "blocked":
            return seed
    raise InvalidOptions(
        f"{LIVE_DEAL_ATTEMPTS} deals in a row under these rules were blocked at the deal "
        "(no move but draw and redeal): choose other options"
    )
