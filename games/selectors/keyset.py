"""Keyset (cursor) pagination over a total order, shared by the API and the pages.

A page is the rows after (or before) the last row seen in a total order
``(key, tie)`` (``tie`` unique), so a page never skips or repeats a row when
rows are added or move between two requests, beyond the rows that moved.
Cursors are opaque URL-safe strings; they name a row's sort values only (a
rating and a player id, a race end and a row id), never a card or a seed.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model, Q, QuerySet


class InvalidCursor(ValueError):
    """A cursor this order did not give out (the API answers 400 ``invalid_cursor``)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a value a cursor gives out")


def cursor_json(raw: bytes | str) -> Any:
    """The JSON value of a decoded cursor, refusing ``NaN`` and ``Infinity`` (which
    Python's parser takes, no cursor is made of, and a ``NaN`` key would compare with
    nothing, so such a cursor answered an empty page with 200).

    Raises ``ValueError`` (also for malformed JSON) or ``RecursionError`` (nested past the
    parser's depth); both callers turn them into :class:`InvalidCursor`.
    """
    return json.loads(raw, parse_constant=_no_constant)


@dataclass(frozen=True)
class KeysetPage:
    """One page: ``rows`` in the order, and the cursors of the pages after and before
    it (``None`` at either end)."""

    rows: list[Any]
    next_cursor: str | None
    previous_cursor: str | None


@dataclass(frozen=True)
class Keyset:
    """A total order ``(key, tie)`` for keyset pagination; ``tie`` must be unique.

    ``key_desc``/``tie_desc`` give each direction; ``parse`` turns a cursor's
    JSON value back into the key's type, ``dump`` makes it JSON.
    """

    key: str
    key_desc: bool
    tie: str
    tie_desc: bool
    parse: Callable[[Any], Any]
    dump: Callable[[Any], Any]
    page_size: int = 50
    max_page_size: int = 200

    def _after(self, key: Any, tie: Any, forward: bool) -> Q:
        """Rows after ``(key, tie)`` in the order (``forward``) or before it."""
        k_op = "lt" if self.key_desc == forward else "gt"
        t_op = "lt" if self.tie_desc == forward else "gt"
        return Q(**{f"{self.key}__{k_op}": key}) | Q(**{self.key: key, f"{self.tie}__{t_op}": tie})

    def _order(self, forward: bool) -> list[str]:
        def sign(desc: bool) -> str:
            return "-" if desc == forward else ""

        return [sign(self.key_desc) + self.key, sign(self.tie_desc) + self.tie]

    def cursor(self, row: Model, forward: bool) -> str:
        """The cursor of the page after ``row`` (``forward``) or before it."""
        data = [self.dump(getattr(row, self.key)), getattr(row, self.tie), "n" if forward else "p"]
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    def decode(self, cursor: str) -> tuple[Any, Any, bool]:
        """``(key, tie, forward)`` of a cursor; raises :class:`InvalidCursor`."""
        try:
            raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
            key, tie, way = cursor_json(raw)
            if way not in ("n", "p") or isinstance(tie, bool) or not isinstance(tie, int):
                raise ValueError(way)
            if not -(2**63) <= tie < 2**63:  # past any id column (SQLite's driver overflows)
                raise ValueError(tie)
            return self.parse(key), tie, way == "n"
        except (ValueError, TypeError, OverflowError, UnicodeDecodeError, RecursionError):
            raise InvalidCursor("the cursor is not one this list gave out") from None

    def window(self, qs: QuerySet[Any], *, cursor: str | None, size: int) -> KeysetPage:
        """The page of ``size`` rows (1 or more) of ``qs`` that ``cursor`` names (``None``:
        the first page).  Raises :class:`InvalidCursor`."""
        forward, has_before = True, False
        if cursor is not None:  # an empty cursor (``?cursor=``) is not one this list gave out
            key, tie, forward = self.decode(cursor)
            qs = qs.filter(self._after(key, tie, forward))
            has_before = True
        rows = list(qs.order_by(*self._order(forward))[: size + 1])
        more = len(rows) > size
        rows = rows[:size]
        if not forward:
            rows.reverse()
        nxt = prev = None
        if rows:
            if (more if forward else True) and (forward or has_before):
                nxt = self.cursor(rows[-1], True)
            if has_before if forward else more:
                prev = self.cursor(rows[0], False)
        return KeysetPage(rows=rows, next_cursor=nxt, previous_cursor=prev)
