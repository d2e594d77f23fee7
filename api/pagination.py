"""Cursor pagination for long lists (DESIGN.md "API conventions")."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination

from api.errors import ProblemError

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


class SafeCursorPagination(CursorPagination):
    """Cursor pagination whose bad cursors are ``400 invalid_cursor``, never a 404 or 500."""

    def get_page_size(self, request: Any) -> int | None:
        """``?page_size=``: a positive integer (capped at ``max_page_size``), else 400
        ``validation_error``; absent, the list's default."""
        raw = request.query_params.get(self.page_size_query_param or "page_size")
        if raw is None:
            return int(self.page_size) if self.page_size is not None else None
        if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
            raise ProblemError(
                "validation_error",
                "The request has invalid fields; see 'errors'.",
                status=400,
                errors={"page_size": ["A positive integer is required."]},
            )
        size = int(raw)
        return min(size, self.max_page_size) if self.max_page_size else size

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        try:
            return super().paginate_queryset(queryset, request, view)
        except (NotFound, ValidationError, ValueError, TypeError, DatabaseError):
            raise ProblemError(
                "invalid_cursor",
                "The cursor is not one this list gave out: start again without it.",
                status=400,
            ) from None


class MovePagination(SafeCursorPagination):
    """Moves in play order; ``?page_size=`` up to 500 (default 100)."""

    ordering = "number"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


class NewestFirstPagination(SafeCursorPagination):
    """Newest first by ``started_at``; ``?page_size=`` up to 200 (default 50)."""

    ordering = "-started_at"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
