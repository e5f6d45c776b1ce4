"""The SQLite database, without Flask: the connection (WAL, busy timeout, durability), the one write
transaction, a read as of one moment, and the schema with its migration. The store writes through these;
the web layer (:mod:`scorer.web.db`) keeps one connection per server thread and runs :func:`migrate` at start.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import sqlite_utils

SCHEMA_VERSION = 8
BUSY_TIMEOUT_MS = 10_000
SYNCHRONOUS = ("FULL", "NORMAL")
"""The durability a commit may be given (the ``SYNCHRONOUS`` setting; docs/HOSTING.md says what each promises).
``FULL``, the default: a committed deal survives a crash of the app and a power cut (the commit waits for
the disk). ``NORMAL``: in WAL mode the commit does not wait for the disk, so a power cut or an operating
system crash may lose the last transactions committed (never corrupt the database); a crash of the app
alone loses nothing."""


def synchronous(value: object) -> str:
    """The ``SYNCHRONOUS`` setting checked: ``FULL`` or ``NORMAL`` (any case), else ValueError."""
    text = str(value).strip().upper()
    if text not in SYNCHRONOUS:
        raise ValueError(f"SYNCHRONOUS must be FULL or NORMAL, not {value!r}")
    return text


def owner_only(path: str) -> None:
    """A database file not there yet made empty and readable by its owner only (0600), as SQLite takes an empty
    file for an empty database: it holds every table's link. SQLite gives the ``-wal`` and ``-shm`` files it makes
    beside it the database's own mode. A file already there keeps its mode; ``:memory:`` and URIs are left alone."""
    if path in ("", ":memory:") or path.startswith("file:"):
        return
    with suppress(OSError):  # there already, or its folder missing or closed: SQLite's own open then says why
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def connect(path: str, durability: str = "FULL") -> sqlite_utils.Database:
    """A connection in autocommit mode: every write that spans rows runs in :func:`write`.

    WAL lets phones read while one writes; the busy timeout makes a writer wait
    its turn instead of failing when four phones write at once. ``durability``
    is the ``synchronous`` pragma (:data:`SYNCHRONOUS`): ``FULL``, a committed
    deal survives a crash or a power cut, unless the ``SYNCHRONOUS`` setting
    chose ``NORMAL``.
    """
    owner_only(path)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous(durability)}")  # checked: one of two words, never text from elsewhere
    conn.execute("PRAGMA foreign_keys = ON")
    return sqlite_utils.Database(conn)


@contextmanager
def write(db: sqlite_utils.Database) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken at once (BEGIN IMMEDIATE) so that two writers never interleave:
    everything inside commits together or not at all."""
    conn = db.conn
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """Read as of one moment: inside the caller's transaction if it is in one, else in a read transaction
    (WAL: a writer meanwhile is not seen, and is not kept waiting). What is read in parts (a circle and its
    evenings, an evening's deals and its history) is then the parts of one state."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def migrate(db: sqlite_utils.Database) -> None:
    """Create every table and column that is missing; safe to run on an existing database."""
    if not db["meta"].exists():
        db.create_table("meta", {"key": str, "value": str}, pk="key")
    _create_settings(db, "tables", {
        "token": str,             # the players' link: unguessable
        "spectator_token": str,   # the read-only link
        "players": str,           # JSON list of four names in the order of play
        "first_dealer": str,
    })
    # The append-only log of what was done at a table: a deal recorded, the last deal undone.
    _create_log(db, "events", "table_id", {"number": int, "deal": str, "by": str, "created_at": str,
                                           "reason": str, "restores": int, "hash": str}, {"number", "created_at"})
    # Schema 3: corrections and the hash chain; schema 4: the one-time token of the form that wrote the line.
    _add_columns(db, "events", {"reason": str, "restores": int, "hash": str, "once": str})
    # Schema 5: how an imported table's history came here (signed by this server, or unverified).
    _add_columns(db, "tables", {"provenance": str})
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS events_once ON events (table_id, once) WHERE once IS NOT NULL")
    # Schema 6: circles, their hash-chained log, and each table's place in its circle's evenings.
    _create_settings(db, "circles", {
        "token": str,             # the members' link: unguessable
        "spectator_token": str,   # the watch-only link
        "name": str,
        "members": str,           # JSON list of the names as they were given (four at least)
    })
    # The circle's append-only log: an evening started, a member added; hash-chained like a table's.
    _create_log(db, "circle_events", "circle_id", {"data": str, "created_at": str, "hash": str},
                {"data", "created_at", "hash"})
    _add_columns(db, "tables", {"circle_id": int, "circle_evening": int})
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS tables_circle_evening ON tables (circle_id, circle_evening) "
               "WHERE circle_id IS NOT NULL")
    # Schema 7: how an imported circle came here (``signed`` by this server, or ``unverified``); null for a
    # circle created here, as a table's ``provenance`` (schema 5). Its export is signed only if neither the
    # circle nor any of its evenings is ``unverified``.
    _add_columns(db, "circles", {"provenance": str})
    # Schema 8: the chips a table of no circle began with, an evening of a circle exported and
    # imported alone: its file says what the evening before carried in, and the table keeps it so that it
    # settles as it did in its circle. Null (nothing carried) for every other table; an evening of a circle
    # never stores it (its ledger computes it from the evenings before).
    _add_columns(db, "tables", {"carried_in": int})
    db.table("meta").upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")


def _create_settings(db: sqlite_utils.Database, name: str, first: dict[str, type]) -> None:
    """A settings row's table (a table's or a circle's): its ``first`` columns, then the settings both have,
    each link unique."""
    if db[name].exists():
        return
    columns = {"id": int, **first,
               "profile": str,
               "house_rules": str,       # JSON object: the rules changed from the profile
               "deals_agreed": int,
               "chip_value_cents": int,  # money value of one chip, or null
               "currency": str,
               "created_at": str}
    db.create_table(name, columns, pk="id", not_null={*first, "profile", "house_rules", "deals_agreed"})
    for link in ("token", "spectator_token"):
        db.table(name).create_index([link], unique=True)


def _create_log(db: sqlite_utils.Database, name: str, owner: str, rest: dict[str, type], not_null: set[str]) -> None:
    """An append-only log's table: each line its owner's (``table_id``, a row of ``tables``; ``circle_id``, of
    ``circles``), numbered by ``seq`` from 1, then its ``rest``."""
    if not db[name].exists():
        db.create_table(name, {"id": int, owner: int, "seq": int, "kind": str, **rest}, pk="id",
                        foreign_keys=[(owner, owner.removesuffix("_id") + "s", "id")], not_null={owner, "seq", "kind", *not_null})
        db.table(name).create_index([owner, "seq"], unique=True)


def _add_columns(db: sqlite_utils.Database, name: str, columns: dict[str, type]) -> None:
    """The columns a later schema added, to a table made before it."""
    present = db.table(name).columns_dict
    for column, kind in columns.items():
        if column not in present:
            db.table(name).add_column(column, kind)
