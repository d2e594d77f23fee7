"""Generous throttles for the tournament API tests (as in tests/api)."""

from tests.api.conftest import _throttles  # noqa: F401 - autouse fixture
