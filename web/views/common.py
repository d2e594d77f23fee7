"""Helpers shared by the views: service errors to pages, the server clock, ETag polling."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control


def server_now_ms() -> int:
    """The server clock in milliseconds since the epoch (pages count down from it)."""
    return int(timezone.now().timestamp() * 1000)


def not_found() -> Http404:
    """The 404 every missing or foreign object gets (ids leak nothing)."""
    return Http404("not found")


def etag_of(*parts: Any) -> str:
    """A strong ETag (quoted) of the parts' text."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:32]
    return f'"{digest}"'


def polled(request: HttpRequest, etag: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """Answer a poll: ``304 Not Modified`` when ``If-None-Match`` is ``etag`` (nothing is
    rendered), else ``render()`` with the ETag.  Never cached by the browser itself."""
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render()
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    return response
