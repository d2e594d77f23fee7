"""Cursor pagination for long lists (DESIGN.md "API conventions")."""

from __future__ import annotations

from rest_framework.pagination import CursorPagination


class MovePagination(CursorPagination):
    """Moves in play order; ``?page_size=`` up to 500 (default 100)."""

    ordering = "number"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


class NewestFirstPagination(CursorPagination):
    """Newest first by ``started_at``; ``?page_size=`` up to 200 (default 50)."""

    ordering = "-started_at"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
