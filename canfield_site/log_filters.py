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
