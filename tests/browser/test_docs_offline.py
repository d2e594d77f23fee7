"""The API docs pages work offline: every request they make goes to this server (issue 13.5).

Chromium loads Swagger UI and ReDoc from the live server; every request the page makes
(documents, scripts, styles, fonts, images, the schema, XHR) is recorded, and any whose
origin is not the server's fails the test.  ``data:`` and ``blob:`` URLs never leave the
browser and are allowed.  The page must also have rendered the API (so a page that broke
before loading anything cannot pass).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import screenshot


def _outside(urls: list[str], server: str) -> list[str]:
    origin = urlsplit(server)
    return [
        url
        for url in urls
        if urlsplit(url).scheme not in ("data", "blob")
        and (urlsplit(url).scheme, urlsplit(url).netloc) != (origin.scheme, origin.netloc)
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "rendered"),
    [
        ("/api/v1/docs/", ".swagger-ui .info .title"),
        ("/api/v1/redoc/", ".api-info h1"),
    ],
)
def test_docs_page_makes_no_request_outside_the_server(
    live_server: object, page: object, path: str, rendered: str
) -> None:
    server = str(live_server.url)  # type: ignore[attr-defined]
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))  # type: ignore[attr-defined]
    page.goto(f"{server}{path}", wait_until="networkidle")  # type: ignore[attr-defined]
    title = page.locator(rendered).first  # type: ignore[attr-defined]
    title.wait_for(timeout=30_000)
    assert "Canfield race server API" in title.inner_text()
    page.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    screenshot(page, f"docs-{path.strip('/').replace('/', '-')}", full_page=False)
    assert f"{server}/api/v1/schema" in {u.split("?")[0].rstrip("/") for u in requested}
    assert _outside(requested, server) == []
