"""The PostgreSQL set-up the benchmarks share: their database, made when missing, and
Django on it."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit


def ensure_database(url: str) -> None:
    """Create the database of ``url`` (``postgres://user@host:port/name``) when it does
    not exist, through the server's ``postgres`` database."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def django_on(url: str) -> None:
    """Set Django up in this process on the PostgreSQL database ``url`` (created when
    missing, then migrated): ``DEBUG`` on unless set, no Redis (tasks and live events
    stay in the process)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DEBUG", "true")
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
    ensure_database(url)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
