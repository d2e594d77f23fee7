"""Guards that the real-server configuration is the one in use when it is required."""

from __future__ import annotations

import pytest
from django.db import connection

from canfield_site.celery import app


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db
def test_real_servers_in_use() -> None:
    """With PostgreSQL and Redis configured (always under CI=true), both are really used."""
    assert connection.vendor == "postgresql"
    assert connection.connection is not None
    assert type(connection.connection).__module__.startswith("psycopg")
    assert app.conf.task_always_eager is False
    assert app.conf.broker_url.startswith("redis://")
