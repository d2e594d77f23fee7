"""Fixtures of the bot client tests: a fake API, and a fake clock instead of real waits."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import canfield_bot.bot as bot_module
import canfield_bot.client as client_module
from tests.bot.fake_api import FakeApi


class FakeClock:
    """``time.monotonic``/``perf_counter`` and ``asyncio.sleep`` on a clock that only
    moves when slept on: every sleep is recorded (seconds) and returns at once."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def perf_counter(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)  # the real one: a sleep still lets other tasks run


class AsyncioWith:
    """The ``asyncio`` module as a patched module sees it, with ``sleep`` replaced."""

    def __init__(self, sleep: Callable[[float], Awaitable[None]]) -> None:
        self.sleep = sleep

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)


class FixedRandom:
    """``random.random()`` always ``value``: the backoff jitter becomes exact."""

    def __init__(self, value: float) -> None:
        self.value = value

    def random(self) -> float:
        return self.value


def approx(delays: list[float]) -> Any:
    """``delays`` up to float rounding (``0.2 * 0.75`` is ``0.15000000000000002``)."""
    return pytest.approx(delays, rel=1e-12)


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """No test of the bot client reads the wall clock, sleeps or draws a random jitter.

    The backoff factor is ``0.5 + 0.5 / 2 = 0.75``: delays 0.15, 0.3, 0.6, ... s.
    """
    fake = FakeClock()
    monkeypatch.setattr(client_module, "time", fake)
    monkeypatch.setattr(client_module, "asyncio", AsyncioWith(fake.sleep))
    monkeypatch.setattr(client_module, "random", FixedRandom(0.5))
    monkeypatch.setattr(bot_module, "asyncio", AsyncioWith(fake.sleep))
    return fake


@pytest.fixture
def api() -> FakeApi:
    return FakeApi()
