"""The embedded Celery broker: kombu's SQLAlchemy transport on a SQLite file.

With no ``REDIS_URL`` or ``CELERY_BROKER_URL`` the service still runs its tasks in a
real Celery worker with beat (``python3 dev.py serve`` starts one), through a broker
that needs no server: a SQLite file beside the database (:func:`embedded_broker_file`).
The URL is ``sqlite-broker+sqlite:///<file>``.

kombu's stock ``sqla`` transport hands every broker transport option to SQLAlchemy's
``create_engine``, which refuses the options a Redis broker uses and the polling
interval; this subclass keeps them apart, sets the SQLite busy timeout and polls
every :data:`POLL_SECONDS` (kombu's default is 1 s, which would add up to a second to
every race close).  Messages are claimed with ``BEGIN IMMEDIATE`` (kombu), so two
workers never take the same one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kombu.transport import TRANSPORT_ALIASES
from kombu.transport.sqlalchemy import Channel as SQLAlchemyChannel
from kombu.transport.sqlalchemy import Transport as SQLAlchemyTransport
from sqlalchemy import create_engine, text

#: Transport alias registered with kombu (the scheme before ``+sqlite:///``).
ALIAS = "sqlite-broker"
#: Seconds between two looks at the queue table while idle.
POLL_SECONDS = 0.1
#: Seconds a connection waits for SQLite's write lock before failing.
BUSY_TIMEOUT_SECONDS = 20


def embedded_broker_file(database: dict[str, Any], base_dir: Path) -> Path:
    """The broker's SQLite file: ``<db file stem>-broker.sqlite3`` beside a SQLite database.

    Each SQLite database gets its own broker, so two local services (``dev.py serve`` and
    ``dev.py demo``) never run each other's tasks.  With another database engine the file
    is ``celery-broker.sqlite3`` beside ``manage.py``.
    """
    if database.get("ENGINE") == "django.db.backends.sqlite3":
        name = Path(str(database["NAME"]))
        if str(name) != ":memory:" and not str(name).startswith("file:"):
            return name.with_name(f"{name.stem}-broker.sqlite3")
    return base_dir / "celery-broker.sqlite3"


def embedded_broker_url(path: Path) -> str:
    """The Celery broker URL of the SQLite file ``path``."""
    return f"{ALIAS}+sqlite:///{path}"


class Channel(SQLAlchemyChannel):
    """kombu's SQLAlchemy channel with an engine built from the URL alone."""

    def _engine_from_config(self) -> Any:
        client: Any = self.connection.client
        return create_engine(str(client.hostname), connect_args={"timeout": BUSY_TIMEOUT_SECONDS})

    def probe(self) -> None:
        """Open the broker file (creating its tables) and run ``SELECT 1`` (health check).

        kombu's ``ensure_connection`` never touches the file of a SQL transport; this
        does, so an unwritable or missing directory shows up as an error.
        """
        self.session.execute(text("SELECT 1"))
        self.session.commit()


class Transport(SQLAlchemyTransport):
    """kombu's SQLAlchemy transport polling every :data:`POLL_SECONDS` (``sqlite`` driver)."""

    Channel = Channel
    polling_interval = POLL_SECONDS
    driver_type = "sqlite"
    driver_name = "sqlite"


TRANSPORT_ALIASES.setdefault(ALIAS, f"{__name__}:Transport")
