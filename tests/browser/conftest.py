"""Real-browser fixtures: Playwright driving the system Chromium (``/usr/bin/chromium``).

Playwright cannot download its own browsers here, so it launches the Debian ``chromium``
package (``CHROMIUM_PATH`` overrides the path; ``.ci/run`` installs the package when it is
missing). Browser tests are marked ``browser``: locally they skip when no Chromium is
installed; under ``CI=true`` they fail instead.

Screenshots go to ``SCREENSHOT_DIR`` (default ``/tmp/canfield-screenshots``), outside the
repository; ``.ci/run`` lists them in the CI log.

Playwright's sync API runs an event loop in the test thread, so Django's "async unsafe"
guard is switched off for these tests (``DJANGO_ALLOW_ASYNC_UNSAFE``): the ORM calls the
tests make are ordinary synchronous calls in that same thread.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import IN_CI

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
SCREENSHOT_DIR = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/canfield-screenshots"))  # noqa: S108


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test below ``tests/browser/`` as a browser test."""
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """One headless Chromium per test module (a ``playwright.sync_api.Browser``).

    Module scope, not session: Playwright's sync API keeps an asyncio loop running in
    the test thread while it is open, which would break later tests that call
    ``asyncio.run()``. Test modules are never interleaved (pytest-randomly shuffles
    modules, then the tests inside each), so the loop lives only during browser tests.
    """
    if not CHROMIUM.exists():
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if IN_CI:
            pytest.fail(f"CI=true and a browser is required: {reason}", pytrace=False)
        pytest.skip(reason)
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        yield browser
        browser.close()


@pytest.fixture
def browser_context(chromium: object) -> Iterator[object]:
    """A fresh browser context (own cookies) at 1,280 x 900 px, closed after the test."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")  # type: ignore[attr-defined]
    yield context
    context.close()


@pytest.fixture
def page(browser_context: object) -> object:
    """A page in :func:`browser_context` (a ``playwright.sync_api.Page``)."""
    return browser_context.new_page()  # type: ignore[attr-defined]


def screenshot(page: object, name: str, *, full_page: bool = True) -> Path:
    """Save a PNG of ``page`` as ``SCREENSHOT_DIR/<name>.png`` and return its path.

    ``name`` is reduced to ``[A-Za-z0-9_.-]``; the directory is created if needed.
    """
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / (re.sub(r"[^A-Za-z0-9_.-]+", "-", name) + ".png")
    page.screenshot(path=str(path), full_page=full_page)  # type: ignore[attr-defined]
    return path


def horizontal_overflow(page: object) -> int:
    """Pixels by which the document is wider than the viewport (0: no horizontal overflow)."""
    return int(
        page.evaluate(  # type: ignore[attr-defined]
            "() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth)"
        )
    )
