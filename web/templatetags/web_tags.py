"""Template filters of the pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping[key]`` in a template (``None`` when absent)."""
    return mapping.get(key)


@register.filter
def seconds(ms: int | None) -> str:
    """Milliseconds as seconds with one decimal (``83412`` -> ``"83.4"``); ``""`` for None."""
    if ms is None:
        return ""
    return f"{ms / 1000:.1f}"
