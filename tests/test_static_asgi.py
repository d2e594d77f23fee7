"""Static files under ASGI: WhiteNoise's file response iterated a file synchronously,
which Django's ASGI handler answered with a warning on every static request (a user
saw "StreamingHttpResponse must consume synchronous iterators" in the server log)."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import Any

from django.http import HttpResponse
from django.test import RequestFactory

from canfield_site.middleware import StaticFilesMiddleware

APP_CSS = Path(__file__).resolve().parent.parent / "web" / "static" / "web" / "app.css"


async def _downstream(request: Any) -> HttpResponse:
    return HttpResponse(b"not static")


def test_a_static_file_is_answered_whole_on_the_async_path(settings: Any) -> None:
    # Found through the static finders, as ``dev.py serve`` does in development.
    settings.WHITENOISE_AUTOREFRESH = True
    settings.WHITENOISE_USE_FINDERS = True
    middleware = StaticFilesMiddleware(_downstream)
    url = f"{settings.STATIC_URL}web/app.css"  # the fixture reads the project's settings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        response = asyncio.run(middleware(RequestFactory().get(url)))
        other = asyncio.run(middleware(RequestFactory().get("/")))
    assert response.status_code == 200
    assert not response.streaming
    assert response.content == APP_CSS.read_bytes()
    assert response["Content-Type"].startswith("text/css")
    assert int(response["Content-Length"]) == APP_CSS.stat().st_size
    assert other.content == b"not static"
