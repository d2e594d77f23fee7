"""Beat and the worker log no line for a race sweep that had nothing to do.

Seen by an operator: at compose's ``--loglevel=INFO`` the race sweeper (every 2 s)
wrote three lines per sweep across beat and the worker, about 130,000 a day, and the
lines worth reading drowned among them.
"""

from __future__ import annotations

import logging

import pytest
from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS
from celery.app.trace import info as trace_info

import canfield_site.celery  # noqa: F401 - attaches the filters, as beat and the worker do


def _context(name: str, return_value: str) -> dict[str, object]:
    return {
        "id": "6f1c",
        "name": name,
        "return_value": return_value,
        "runtime": 0.01,
        "args": "()",
        "kwargs": "{}",
    }


def _messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records]


@pytest.fixture(autouse=True)
def _info(caplog: pytest.LogCaptureFixture) -> None:
    for name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
        caplog.set_level(logging.INFO, logger=name)


def test_beat_does_not_log_sending_the_race_sweep(caplog: pytest.LogCaptureFixture) -> None:
    beat = logging.getLogger("celery.beat")
    beat.info("Scheduler: Sending due task %s (%s)", "race-sweeper", "games.race_sweep")
    beat.info("Scheduler: Sending due task %s (%s)", "solver-sweeper", "games.solver_sweep")
    assert _messages(caplog) == ["Scheduler: Sending due task solver-sweeper (games.solver_sweep)"]


def test_the_worker_logs_a_race_sweep_only_when_it_closed_something(
    caplog: pytest.LogCaptureFixture,
) -> None:
    received = logging.getLogger("celery.worker.strategy")
    received.info(LOG_RECEIVED, _context("games.race_sweep", ""))
    trace_info(LOG_SUCCESS, _context("games.race_sweep", "[]"))
    trace_info(LOG_SUCCESS, _context("games.race_sweep", "['4b10:finished']"))
    received.info(LOG_RECEIVED, _context("games.race_rate", ""))
    trace_info(LOG_SUCCESS, _context("games.race_rate", "'rated'"))
    assert _messages(caplog) == [
        "Task games.race_sweep[6f1c] succeeded in 0.01s: ['4b10:finished']",
        "Task games.race_rate[6f1c] received",
        "Task games.race_rate[6f1c] succeeded in 0.01s: 'rated'",
    ]


def test_a_failed_race_sweep_is_still_logged(caplog: pytest.LogCaptureFixture) -> None:
    logging.getLogger("celery.app.trace").error(
        "Task %(name)s[%(id)s] raised", _context("games.race_sweep", "")
    )
    assert _messages(caplog) == ["Task games.race_sweep[6f1c] raised"]
