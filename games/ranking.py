"""The SQL and ORM forms of the race ranking key (RULES.md 6).

Both are derived from :data:`games.engine.ranking.RANK_KEY`, the one
definition of the rule; ``tests/games/test_ranking.py`` checks that the
Python ranks, the scoring SQL, the live-standings ORM ordering and the bot's
independent check agree on generated tables with ties.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import F
from django.db.models.expressions import OrderBy

from games.engine.ranking import RANK_KEY, RANKING_RULE

__all__ = ["RANKING_RULE", "rank_order_by", "rank_order_sql"]


def rank_order_sql(columns: Mapping[str, str] | None = None) -> str:
    """The ``ORDER BY`` list of the ranking key in SQL, e.g.
    ``"cards_home DESC, elapsed_ms ASC"``.

    ``columns`` maps a key field (``cards_home``, ``elapsed_ms``) to the SQL
    expression that holds it in the query (default: the field name).  The
    expressions are written into SQL as given: pass column names, never input.
    """
    columns = columns or {}
    return ", ".join(
        f"{columns.get(p.field, p.field)} {'DESC' if p.descending else 'ASC'}" for p in RANK_KEY
    )


def rank_order_by(fields: Mapping[str, str] | None = None) -> list[OrderBy]:
    """The ranking key as ORM ``order_by`` expressions (for a ``Window(Rank())``).

    ``fields`` maps a key field to the lookup that holds it (e.g.
    ``{"cards_home": "game__cards_home", "elapsed_ms": "game__cards_home_ms"}``).
    """
    fields = fields or {}
    return [
        F(fields.get(p.field, p.field)).desc()
        if p.descending
        else F(fields.get(p.field, p.field)).asc()
        for p in RANK_KEY
    ]
