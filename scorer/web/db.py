"""The SQLite database in instance/, for the web layer (flaskr's get_db on g): one connection kept per
server thread, and ``flask --app scorer init-db``. The connection, the write transaction and the schema are
the store's (:mod:`scorer.store.database`, no Flask); they are named here too for the app and its tests.
"""

from __future__ import annotations

import threading

import click
import sqlite_utils
from flask import Flask, current_app, g
from flask.cli import with_appcontext

from ..store.database import (
    BUSY_TIMEOUT_MS, SCHEMA_VERSION, SYNCHRONOUS, connect, migrate, snapshot, synchronous, write,
)

__all__ = ["BUSY_TIMEOUT_MS", "SCHEMA_VERSION", "SYNCHRONOUS", "close_db", "connect", "get_db", "init_app", "init_db",
           "init_db_command", "migrate", "snapshot", "synchronous", "write"]


def _kept(app: Flask) -> threading.local:
    """The connections this app keeps open, one per server thread."""
    kept: threading.local = app.extensions.setdefault("scorer.db", threading.local())
    return kept


def get_db() -> sqlite_utils.Database:
    """This request's connection (flaskr's get_db on g).

    Each server thread keeps its connection open from one request to the next:
    opening one costs its pragmas, and closing the last one checkpoints the WAL,
    together about a quarter of the time it takes to record a deal. A kept
    connection holds no transaction between requests (every write commits or
    rolls back inside :func:`write`)."""
    db: sqlite_utils.Database | None = g.get("db")
    if db is None:
        kept = _kept(current_app)
        path = current_app.config["DATABASE"]
        if getattr(kept, "path", None) != path:
            kept.db, kept.path = connect(path, current_app.config.get("SYNCHRONOUS", "FULL")), path
        g.db = db = kept.db
    return db


def close_db(e: BaseException | None = None) -> None:
    """End of a request: give the connection back to its thread, never in a transaction."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:  # pragma: no cover - write() always ends its transaction
        db.conn.execute("ROLLBACK")


def init_db() -> None:
    migrate(get_db())


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database tables in instance/ if they are not there."""
    init_db()
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    with app.app_context():
        init_db()
