"""The live-stream tests share the browser harness (``chromium``) with tests/browser.

They also share one server process and its Redis, which one test kills and restarts, so
their order matters: this folder's tests keep their file order (pytest-randomly still
shuffles where they stand among the rest, and everything else).
"""

from __future__ import annotations

import os

import pytest

from tests.browser.conftest import chromium  # noqa: F401 - re-exported as a fixture here


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the tests of tests/live/ back in file order, in the slots they were given."""
    slots = [
        n for n, item in enumerate(items) if "tests/live/" in str(item.path).replace(os.sep, "/")
    ]
    ordered = sorted((items[n] for n in slots), key=lambda i: (str(i.path), i.reportinfo()[1] or 0))
    for n, item in zip(slots, ordered, strict=True):
        items[n] = item
