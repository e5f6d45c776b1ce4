"""The rows of the ``events`` table as the core's log :class:`~scorer.core.ledger.log.Line` s, and back."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from ..core.errors import Words, said_of
from ..core.ledger.evening_json import format_deal, parse_deal
from ..core.i18n import N_
from ..core.ledger.log import Damage, Line, LineKind

COLUMNS = ("seq", "kind", "number", "deal", "by", "reason", "restores", "created_at", "hash")


def row_of(line: Line) -> dict[str, object]:
    """The columns the hash chain covers (see :func:`scorer.store.chain.link`); the deal as stored: canonical JSON
    (sorted keys), or NULL for an undo."""
    deal = json.dumps(format_deal(line.deal), ensure_ascii=False, sort_keys=True) if line.deal else None
    return {"seq": line.seq, "kind": line.kind.value, "number": line.number, "deal": deal, "by": line.by,
            "reason": line.reason, "restores": line.restores, "created_at": line.at}


def line_from_row(row: Mapping[str, Any]) -> Line:
    """One stored row as a line; raises ``ValueError`` with a plain message if it cannot be read (kept as
    :class:`~scorer.core.errors.Words`: it becomes a damage the ledger cache keeps for every reader)."""
    try:
        kind = LineKind(row["kind"])
    except ValueError:
        raise ValueError(Words(N_("its kind {kind!r} is not one of record, undo, amend, restore"), kind=row["kind"])) from None
    deal = None
    if row["deal"] is not None:
        try:
            deal = parse_deal(json.loads(row["deal"]))
        except (ValueError, RecursionError) as error:
            raise ValueError(Words(N_("its deal cannot be read: {why}"), why=said_of(error))) from None
    number, restores = row["number"], row["restores"]
    if not isinstance(number, int) or (restores is not None and not isinstance(restores, int)):
        raise ValueError(Words(N_("its deal number is not a whole number")))
    return Line(seq=row["seq"], kind=kind, number=number, deal=deal, by=row["by"], reason=row["reason"],
                restores=restores, at=row["created_at"] or "")


def dict_rows(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    """A query's rows as dicts of column name and value."""
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, values)) for values in cursor]


def stored_lines(conn: sqlite3.Connection, table_id: object) -> list[dict[str, Any]]:
    """Every line of a table's log as stored (every column), oldest first."""
    return dict_rows(conn.execute("select * from events where table_id = ? order by seq", [table_id]))


def row_where(conn: sqlite3.Connection, table: str, column: str, value: object) -> dict[str, Any] | None:
    """The row of ``table`` whose ``column`` is ``value`` (a table and a column of ours, never names from elsewhere)."""
    # Plain SQL: sqlite-utils' table objects read the schema first, on every request.
    found = dict_rows(conn.execute(f"select * from {table} where {column} = ? limit 1", [value]))
    return found[0] if found else None


INSERT = f"insert into events (table_id, {', '.join(COLUMNS)}, once) values ({', '.join('?' * (len(COLUMNS) + 2))})"
"""One log line written: its table, the columns of :func:`row_of` with its hash, and the form's one-time token."""


def insert_values(table_id: int, row: Mapping[str, object], once: str | None = None) -> list[object]:
    """The values of :data:`INSERT` for a line as :func:`row_of` gives it, with its ``hash``."""
    return [table_id, *(row[column] for column in COLUMNS), once]


def sent(conn: sqlite3.Connection, table_id: int, once: str) -> Line | None:
    """The line written by the form with this one-time token, if it was sent before (header only: no deal)."""
    row = conn.execute("select seq, kind, number, by, created_at from events where table_id = ? and once = ?",
                       [table_id, once]).fetchone()
    return None if row is None else Line(row[0], LineKind(row[1]), row[2], by=row[3], at=row[4])


def read_lines(conn: sqlite3.Connection, table_id: int, after: int = 0) -> tuple[list[Line], Damage | None]:
    """The table's lines after line ``after``, oldest first, up to the first that cannot be read
    (returned as the damage it does)."""
    cursor = conn.execute(
        f"select {', '.join(COLUMNS)} from events where table_id = ? and seq > ? order by seq", [table_id, after])
    lines: list[Line] = []
    for row in dict_rows(cursor):
        try:
            lines.append(line_from_row(row))
        except ValueError as error:
            return lines, Damage(row["seq"], row["number"] if isinstance(row["number"], int) else None, said_of(error))
    return lines, None


def log_size(conn: sqlite3.Connection, table_id: int) -> int:
    """How many lines the table's log has (its last seq)."""
    return int(conn.execute("select coalesce(max(seq), 0) from events where table_id = ?", [table_id]).fetchone()[0])
