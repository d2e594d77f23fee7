"""Logging filters referenced by ``LOGGING`` in ``canfield_site/settings.py``."""

from __future__ import annotations

import logging


class WithoutTraceback(logging.Filter):
    """Drop the traceback of a record, keeping its one-line message.

    For ``django.security.DisallowedHost``: a request naming a ``Host`` outside
    ``ALLOWED_HOSTS`` (scanners send them all day) is an expected refusal, answered
    ``400`` (problem+json under ``/api/``); its message ("Invalid HTTP_HOST header:
    'evil.example'. ...") says everything, and the traceback through Django's request
    handling said nothing more on a dozen lines.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record, without ``exc_info``, ``exc_text`` or ``stack_info``."""
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


#: The periodic task whose idle runs :class:`QuietIdleRaceSweeps` leaves out of the logs.
RACE_SWEEP_TASK = "games.race_sweep"
#: The loggers it is attached to (``canfield_site/celery.py``): beat's, and the worker's
#: "received" and "succeeded" lines.
QUIET_SWEEP_LOGGERS = ("celery.beat", "celery.worker.strategy", "celery.app.trace")


class QuietIdleRaceSweeps(logging.Filter):
    """Drop the INFO lines of race sweeps that had nothing to do.

    Beat sends ``games.race_sweep`` every ``RACE_SWEEP_SECONDS`` (2 s): at
    ``--loglevel=INFO`` (compose's) beat wrote "Sending due task race-sweeper" and the
    worker "Task games.race_sweep[...] received" and "... succeeded in 0.01s: []" for
    each, about 130,000 lines a day that buried everything else.  Left out: beat's
    sending of it, the worker's receipt of it, and its success when it closed nothing
    (``[]``).  Kept: a sweep that closed or scored a race (its result lists them), any
    failure, and every other task's lines.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """``False`` for an idle race sweep's INFO line, else ``True``."""
        if record.levelno != logging.INFO:
            return True
        args = record.args
        if record.name == "celery.beat":
            return not (isinstance(args, tuple) and len(args) == 2 and args[1] == RACE_SWEEP_TASK)
        if not isinstance(args, dict) or args.get("name") != RACE_SWEEP_TASK:
            return True
        if record.name == "celery.worker.strategy":
            return False  # "received"
        return "return_value" not in args or args["return_value"] != "[]"
