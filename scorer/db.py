"""The SQLite database in instance/, reached through sqlite-utils (flaskr's get_db on g)."""

from __future__ import annotations

import sqlite3

import click
import sqlite_utils
from flask import Flask, current_app, g
from flask.cli import with_appcontext

SCHEMA_VERSION = 1


def get_db() -> sqlite_utils.Database:
    if "db" not in g:
        conn = sqlite3.connect(current_app.config["DATABASE"], detect_types=sqlite3.PARSE_DECLTYPES)
        conn.row_factory = sqlite3.Row
        g.db = sqlite_utils.Database(conn)
    return g.db  # type: ignore[no-any-return]


def close_db(e: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.conn.close()


def init_db() -> None:
    """Create (or bring up to date) the schema; safe to run on an existing database."""
    db = get_db()
    meta = db["meta"]
    if not meta.exists():
        db.create_table("meta", {"key": str, "value": str}, pk="key")
    meta.upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")  # type: ignore[union-attr]


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database tables in instance/ if they are not there."""
    init_db()
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
