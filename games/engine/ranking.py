"""The race ranking rule (RULES.md 6): the one definition of the ranking key.

Players who won come first, by the time they took; the rest by cards home
(more is better), then by the elapsed time at which they reached that count
(earlier is better).  Ties that remain share a rank (competition ranking:
1, 2, 2, 4).  The number of moves never breaks a tie, and how a game ended
(resigned, timed out, blocked) does not change its place.  Disqualified
entries (and entrants who never started) are left out of the ranking.

A winner has 52 cards home and its ``elapsed_ms`` is the time it took to win,
so one key, ``(cards_home descending, elapsed_ms ascending)``, orders winners
first by time and then everybody else.

:data:`RANK_KEY` is the key as data; every other form is derived from it:
:func:`rank_key` (Python sort key), :func:`rank_entries` (Python ranks),
``games.ranking.rank_order_sql`` (the SQL ``ORDER BY`` of the scoring query)
and ``games.ranking.rank_order_by`` (the ORM ordering of live standings).
Pure Python: no Django import.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class KeyPart:
    """One component of the ranking key: a result field and its direction."""

    #: ``cards_home`` (cards, 1 to 52) or ``elapsed_ms`` (milliseconds).
    field: str
    #: ``True``: a larger value ranks better.
    descending: bool


#: The ranking key, most significant first (RULES.md 6).
RANK_KEY: tuple[KeyPart, ...] = (
    KeyPart("cards_home", descending=True),
    KeyPart("elapsed_ms", descending=False),
)

#: The rule in words, served by the API in every race's ``ranking_rule``.
RANKING_RULE = (
    "Players who won come first, by the time they took; the rest by cards home (more is "
    "better), then by the elapsed time at which they reached that count (earlier is better). "
    "Ties that remain share a rank (1, 2, 2, 4). The number of moves never breaks a tie, and "
    "how a game ended (resigned, timed out, blocked) does not change its place. Disqualified "
    "entries are not ranked, nor, in a window race, is an entrant who never started; in a "
    "scheduled race every game starts with the race, so every entrant not disqualified is "
    "ranked (one who never moved as timed out)."
)


def rank_key(result: Mapping[str, Any]) -> tuple[int, ...]:
    """The sort key of one result: smaller sorts first.

    ``result`` maps ``cards_home`` (cards) and ``elapsed_ms`` (ms, ``None`` read
    as 0) to numbers; other keys (``moves``, ``status``) are ignored on purpose.
    """
    out = []
    for part in RANK_KEY:
        value = int(result[part.field] or 0)
        out.append(-value if part.descending else value)
    return tuple(out)


def is_ranked(result: Mapping[str, Any]) -> bool:
    """Whether a result takes part in the ranking: started (has ``cards_home``), not
    disqualified (``disqualified`` missing reads as ``False``)."""
    return result.get("cards_home") is not None and not result.get("disqualified", False)


def rank_entries(results: Sequence[Mapping[str, Any]]) -> list[int | None]:
    """The rank of each result, in input order: ``None`` for one left out
    (:func:`is_ranked`), otherwise ``1 +`` the number of ranked results with a
    strictly better key (ties share a rank, the next rank skips: 1, 2, 2, 4)."""
    keys = [rank_key(r) if is_ranked(r) else None for r in results]
    ranked = sorted(k for k in keys if k is not None)
    out: list[int | None] = []
    for key in keys:
        if key is None:
            out.append(None)
            continue
        out.append(bisect_left(ranked, key) + 1)  # 1 + the number strictly better
    return out
