"""Celery tasks for the game domain.

Tasks stay thin: they call services. They run with ``acks_late`` and may be
delivered twice, so each one must be idempotent.
"""

from typing import TypedDict

from celery import shared_task
from django.db import connection


class PingResult(TypedDict):
    """What :func:`ping` returns."""

    echo: str
    database: str


@shared_task(name="games.ping")
def ping(echo: str) -> PingResult:
    """Echo ``echo`` back after a ``SELECT 1`` on the worker's database connection.

    Proves a round trip: the message crossed the broker, a worker ran it with the
    project's settings and database, and the result came back through the result
    backend. Returns the echo and the database vendor the worker used.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"echo": echo, "database": connection.vendor}
