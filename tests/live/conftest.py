"""The live-stream tests share the browser harness (``chromium``) with tests/browser."""

from tests.browser.conftest import chromium  # noqa: F401 - re-exported as a fixture here
