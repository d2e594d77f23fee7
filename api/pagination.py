"""Cursor pagination for long lists (DESIGN.md "API conventions").

Every list is paginated by a **keyset** cursor over its whole ordering: the
ordering always ends with a unique key (the primary key is appended when it is
not already there), and the cursor carries the values of every ordering field
of the last row it returned.  The next page is then "the rows after this tuple"
(``(a > x) OR (a = x AND b > y) OR ...``), so rows with equal sort keys are
neither repeated nor skipped, however many there are.  (DRF's own
``CursorPagination`` keeps only the first ordering field plus an offset capped
at 1,000: past 1,000 equal keys it repeats a page forever.)

Cursors are opaque (URL-safe base64 of a small JSON document); a cursor this
server did not give out, or one for another list, is ``400 invalid_cursor``.
The values in a cursor are those of fields the list already shows (times,
numbers, ids): no cursor carries anything hidden (RULES.md 7).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import DatabaseError
from django.db.models import Model, Q, QuerySet
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.utils.urls import remove_query_param, replace_query_param

from api.errors import ProblemError
from api.parsers import capped_decimal
from api.serializers import MAX_INPUT_INT
from games.selectors.keyset import cursor_json

#: Query parameters of every cursor-paginated list, for the schema.
CURSOR_PARAMETERS = [
    OpenApiParameter("cursor", str, description="opaque cursor from `next` or `previous`"),
    OpenApiParameter(
        "page_size",
        {"type": "integer", "minimum": 1},
        description="items per page: a positive integer (larger than the list's maximum "
        "gives the maximum); anything else is 400 `validation_error`",
    ),
]


#: The query parameters that page a list; a list that comes whole refuses them.
PAGING_PARAMETERS = ("cursor", "page_size")

#: How a list that comes whole answers ``?cursor=`` or ``?page_size=``, for the schema.
NOT_PAGINATED = (
    "not_paginated: the list comes whole, in one response; `cursor` and `page_size` "
    "(the paginated lists' parameters) are refused, not ignored"
)


def refuse_paging(request: Any) -> None:
    """400 ``not_paginated`` when ``request`` asks a list that comes whole for a page.

    A race's standings and results, a player's results in a tournament and the list of
    rating pools are answered whole (each is one document: with the phase, the seed
    reveal or the rating rule).  The standings may be cut to their first lines instead
    (``?limit=``, with the caller's own and the ``count``: the race stream's events carry
    the first 100), which is not a page either: there is no next one.
    Taking ``?cursor=``/``?page_size=`` as absent let a client believe it had a page of
    them; refusing them also keeps the parameters free should these lists be paged one
    day (no request accepted now would change meaning).
    """
    asked = [name for name in PAGING_PARAMETERS if name in request.query_params]
    if asked:
        raise ProblemError(
            "not_paginated",
            f"This list is not paginated: it comes whole. Leave out {' and '.join(asked)}.",
            status=400,
        )


def _invalid_cursor() -> ProblemError:
    return ProblemError(
        "invalid_cursor",
        "The cursor is not one this list gave out: start again without it.",
        status=400,
    )


def _b64(text: str) -> str:
    """URL-safe base64 of ``text`` without ``=`` padding (no ``%3D`` in links)."""
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def _unb64(raw: str) -> str:
    """The text of a cursor made by :func:`_b64` (padding restored); ``ValueError`` if bad."""
    return base64.urlsafe_b64decode((raw + "=" * (-len(raw) % 4)).encode("ascii")).decode("utf-8")


def page_size_param(raw: str, *, maximum: int | None) -> int:
    """The page size a ``?page_size=`` value asks for: a positive decimal integer, capped at
    ``maximum`` (``None``: ``MAX_INPUT_INT``; any number of digits: a 5,000-digit one is
    simply more than the cap).
    Raises :class:`ProblemError` 400 ``validation_error`` for anything else."""
    size = capped_decimal(raw, maximum if maximum is not None else MAX_INPUT_INT)
    if not size:  # not a decimal integer, or zero
        raise ProblemError(
            "validation_error",
            "The request has invalid fields; see 'errors'.",
            status=400,
            errors={"page_size": ["A positive integer is required."]},
        )
    return size


class SafeCursorPagination(CursorPagination):
    """Keyset cursor pagination over ``ordering`` + the primary key (see the module).

    ``ordering`` is a field name or a tuple of them (``-`` for descending); the
    primary key is appended (in the direction of the last field) unless the
    ordering already ends with it.  Ordering fields must be non-null columns of
    the queryset's model.  Responses are ``{"next", "previous", "results"}``;
    ``next`` is ``null`` on the last page.  Bad cursors are ``400 invalid_cursor``,
    never a 404 or 500.
    """

    def _full_ordering(self, model: type[Model]) -> tuple[str, ...]:
        fields = (self.ordering,) if isinstance(self.ordering, str) else tuple(self.ordering)
        pk = model._meta.pk
        assert pk is not None
        last = fields[-1].lstrip("-")
        if last in ("pk", "id", pk.name, pk.attname):
            return fields
        return (*fields, ("-" if fields[-1].startswith("-") else "") + pk.name)

    def get_page_size(self, request: Any) -> int | None:
        """``?page_size=``: a positive integer (capped at ``max_page_size``), else 400
        ``validation_error``; absent, the list's default."""
        raw = request.query_params.get(self.page_size_query_param or "page_size")
        if raw is None:
            return int(self.page_size) if self.page_size is not None else None
        return page_size_param(raw, maximum=self.max_page_size)

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        """The page of ``queryset`` that the request's ``cursor`` points at (a list)."""
        self.request = request
        self.base_url = request.build_absolute_uri()
        self.page_size = self.get_page_size(request)
        if not self.page_size:
            return None
        model = queryset.model
        self._fields = self._full_ordering(model)
        values, reverse = self._decode(request, model)
        if values is None:
            # No cursor: nothing the client sent can fail here, and a database error is
            # the server's (it was answered "400 invalid_cursor: start again without it"
            # to a request that had none).
            return self._page(queryset, values, reverse)
        try:
            return self._page(queryset, values, reverse)
        except (ValidationError, ValueError, TypeError, OverflowError, DatabaseError):
            # OverflowError: a value past the column's range (a forged 1e400 is infinity,
            # which an integer field refuses so; SQLite's driver refuses a huge integer).
            raise _invalid_cursor() from None

    # ----------------------------------------------------------- cursor values
    def _decode(self, request: Any, model: type[Model]) -> tuple[list[Any] | None, bool]:
        raw = request.query_params.get(self.cursor_query_param)
        if raw is None:
            return None, False
        try:
            doc = cursor_json(_unb64(raw))
            encoded, reverse = doc["v"], doc["r"]
            if not isinstance(encoded, list) or len(encoded) != len(self._fields):
                raise ValueError("wrong number of values")
            if not isinstance(reverse, bool):
                raise ValueError("bad direction")
            values = [
                model._meta.get_field(name.lstrip("-")).to_python(value)  # type: ignore[union-attr]
                for name, value in zip(self._fields, encoded, strict=True)
            ]
            if any(v is None for v in values):
                raise ValueError("null value")
        except (
            ValueError,
            TypeError,
            KeyError,
            UnicodeError,
            binascii.Error,
            ValidationError,
            FieldDoesNotExist,
            OverflowError,
            RecursionError,  # "[[[[..." nested past the parser's depth
        ):
            raise _invalid_cursor() from None
        return values, reverse

    def _encode(self, row: Any, *, reverse: bool) -> str:
        values = []
        for name in self._fields:
            field = row._meta.get_field(name.lstrip("-"))
            values.append(field.value_to_string(row))
        doc = json.dumps({"v": values, "r": reverse}, separators=(",", ":"))
        return _b64(doc)

    def _after(self, values: list[Any], *, reverse: bool) -> Q:
        """Rows strictly after ``values`` in the ordering (before it when ``reverse``)."""
        condition = Q(pk__in=[])  # false
        equal: dict[str, Any] = {}
        for name, value in zip(self._fields, values, strict=True):
            column = name.lstrip("-")
            descending = name.startswith("-") != reverse
            condition |= Q(**equal, **{f"{column}__{'lt' if descending else 'gt'}": value})
            equal[column] = value
        return condition

    def _page(self, queryset: QuerySet[Any], values: list[Any] | None, reverse: bool) -> list[Any]:
        order = [
            (name[1:] if name.startswith("-") else f"-{name}") if reverse else name
            for name in self._fields
        ]
        qs = queryset.order_by(*order)
        if values is not None:
            qs = qs.filter(self._after(values, reverse=reverse))
        size = int(self.page_size or 0)
        rows = list(qs[: size + 1])
        more = len(rows) > size
        rows = rows[:size]
        if reverse:
            rows.reverse()
            self.has_previous, self.has_next = more, values is not None
        else:
            self.has_next, self.has_previous = more, values is not None
        self.page = rows
        self._first: Any = rows[0] if rows else None
        self._last: Any = rows[-1] if rows else None
        self._values, self._reverse = values, reverse
        return rows

    # ----------------------------------------------------------- links
    def _link(self, cursor: str | None) -> str:
        if cursor is None:
            return str(remove_query_param(str(self.base_url), self.cursor_query_param))
        return str(replace_query_param(str(self.base_url), self.cursor_query_param, cursor))

    def get_next_link(self) -> str | None:
        """URL of the next page, or ``None`` on the last page."""
        if not self.has_next:
            return None
        if self._last is not None:
            return self._link(self._encode(self._last, reverse=False))
        # An empty page reached backwards: the next page starts where this cursor pointed.
        assert self._values is not None
        return self._link(self._raw_cursor(reverse=False))

    def get_previous_link(self) -> str | None:
        """URL of the previous page, or ``None`` on the first page."""
        if not self.has_previous:
            return None
        if self._first is not None:
            return self._link(self._encode(self._first, reverse=True))
        assert self._values is not None
        return self._link(self._raw_cursor(reverse=True))

    def _raw_cursor(self, *, reverse: bool) -> str:
        raw = self.request.query_params.get(self.cursor_query_param, "")
        doc = cursor_json(_unb64(raw))
        doc["r"] = reverse
        text = json.dumps(doc, separators=(",", ":"))
        return _b64(text)

    def decode_cursor(self, request: Any) -> Any:  # pragma: no cover - replaced by _decode
        """Not used: DRF's offset cursor is replaced by the keyset cursor."""
        raise NotFound

    def encode_cursor(self, cursor: Any) -> str:  # pragma: no cover - replaced by _encode
        """Not used: DRF's offset cursor is replaced by the keyset cursor."""
        raise NotImplementedError


class MovePagination(SafeCursorPagination):
    """Moves in play order (then id); ``?page_size=`` up to 500 (default 100)."""

    ordering = ("number", "id")
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


class NewestFirstPagination(SafeCursorPagination):
    """Newest first by ``started_at`` (then id); ``?page_size=`` up to 200 (default 50)."""

    ordering = ("-started_at", "-id")
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
