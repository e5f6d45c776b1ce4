"""Tables in the database: their settings row, its links, and the change of settings before the first deal."""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import sqlite_utils

from ..core import Evening, HouseRules, ScorerError
from ..core.errors import Words, said_of
from ..core.i18n import N_, _
from ..core.ledger.log import TableChanged
from .database import write
from .lines import row_where


def now() -> str:
    """The time a line or a table is written: UTC, ISO 8601, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_token() -> str:
    """An unguessable link token: 128 random bits, URL-safe, never starting with "-" or "_"
    (a token that starts with "-" would read as an option on a command line)."""
    while True:
        token = secrets.token_urlsafe(16)
        if token[0].isalnum():
            return token


@dataclass(frozen=True)
class Table:
    id: int
    token: str
    spectator_token: str
    players: tuple[str, ...]
    first_dealer: str
    rules: HouseRules
    deals_agreed: int
    chip_value_cents: int | None
    currency: str
    created_at: str
    provenance: str = "created"
    """How its history came here: ``created`` on this server, or imported ``signed`` by this server,
    or imported ``unverified`` (a hash chain anyone could have recomputed)."""
    circle_id: int | None = None
    circle_evening: int | None = None
    """Which evening of its circle this table is (1, 2, ...), if it is one: from the second on, its first
    pool starts with what the evening before left on the table (:mod:`scorer.store.ledgers`, never stored)."""
    carried_in: int = 0
    """For a table of no circle: the chips its first pool began with, stated by the file it was imported
    from (an evening of a circle exported alone); 0 for any other table."""

    @property
    def imported(self) -> bool:
        """Whether the table is a copy imported from a file (``signed`` or ``unverified``), not started here; its
        ``created_at`` is then when the copy was made."""
        return self.provenance != "created"

    @property
    def settings(self) -> tuple[object, ...]:
        """Everything the deals are settled by: a change of any of it re-settles the evening."""
        return (self.players, self.first_dealer, self.rules, self.deals_agreed, self.chip_value_cents, self.currency)

    def evening(self) -> Evening:
        return Evening(self.players, self.rules, (), self.deals_agreed)


class UnreadableTable(ScorerError):
    """A table row whose settings cannot be read (edited by hand, or written by another build)."""


def settings_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """The fields a table's row and a circle's row both hold (links and settings), as :class:`Table` and
    :class:`~.circle_log.Circle` have them; raises ``ValueError``, ``TypeError`` or ``KeyError`` if one cannot be
    read."""
    return {"id": int(row["id"]), "token": str(row["token"]), "spectator_token": str(row["spectator_token"]),
            "rules": HouseRules.of(str(row["profile"]), json.loads(str(row["house_rules"]))),
            "deals_agreed": int(row["deals_agreed"]),
            "chip_value_cents": None if row["chip_value_cents"] is None else int(row["chip_value_cents"]),
            "currency": str(row["currency"] or ""), "created_at": str(row["created_at"])}


def settings_columns(rules: HouseRules, deals_agreed: int, chip_value_cents: int | None,
                     currency: str) -> dict[str, object]:
    """The settings a table's row and a circle's row both hold, as their columns hold them."""
    return {"profile": rules.profile_name, "house_rules": json.dumps(rules.changes()), "deals_agreed": deals_agreed,
            "chip_value_cents": chip_value_cents, "currency": currency}


def table_from_row(row: Mapping[str, Any]) -> Table:
    """The table a settings row describes; raises :class:`UnreadableTable` if it cannot be read."""
    try:
        table = Table(
            players=tuple(json.loads(str(row["players"]))),
            first_dealer=str(row["first_dealer"]),
            **settings_of(row),
            provenance=str(row.get("provenance") or "created"),
            circle_id=None if row.get("circle_id") is None else int(row["circle_id"]),
            circle_evening=None if row.get("circle_evening") is None else int(row["circle_evening"]),
            carried_in=int(row.get("carried_in") or 0),
        )
        if table.carried_in < 0:
            raise ValueError(f"carried_in {table.carried_in} is negative")
        table.evening()  # the core's checks of the names and the length (a row written by another build may fail them)
        return table
    except (ValueError, TypeError, KeyError, ScorerError) as error:
        # kept as Words: it may become a damage the ledger cache keeps (an earlier evening of a circle)
        raise UnreadableTable(Words(N_("the table's settings cannot be read: {error}"), error=said_of(error))) from None


def insert_table(  # more than 5: a new table's settings, one each, as its row has a column for each
    conn: sqlite3.Connection, players: tuple[str, ...], first_dealer: str, rules: HouseRules,
    deals_agreed: int, chip_value_cents: int | None, currency: str, provenance: str = "created", **place: int | None,
) -> Table:
    """Write a new table's row; call inside :func:`write`. ``place``: its ``circle_id`` and ``circle_evening``, or
    the ``carried_in`` of an evening of a circle imported alone."""
    Evening(players, rules, (), deals_agreed)  # the core checks the names and the length
    row: dict[str, object] = {"token": new_token(), "spectator_token": new_token(),
                              "players": json.dumps(list(players), ensure_ascii=False), "first_dealer": first_dealer,
                              **settings_columns(rules, deals_agreed, chip_value_cents, currency), "created_at": now(),
                              "provenance": provenance, **place}
    return table_from_row({**row, "id": insert_row(conn, "tables", row)})


def insert_row(conn: sqlite3.Connection, name: str, row: Mapping[str, object]) -> int:
    """Write ``row`` into the table ``name`` (one of ours: never a name from elsewhere); its new id."""
    columns = ", ".join(row)
    cursor = conn.execute(f"insert into {name} ({columns}) values ({', '.join('?' * len(row))})", list(row.values()))
    return int(cursor.lastrowid or 0)


def create_table(  # more than 5: a new table's settings, one each, as its row has a column for each
    db: sqlite_utils.Database, players: tuple[str, ...], first_dealer: str, rules: HouseRules,
    deals_agreed: int, chip_value_cents: int | None, currency: str,
) -> Table:
    with write(db) as conn:
        return insert_table(conn, players, first_dealer, rules, deals_agreed, chip_value_cents, currency)


def _table_where(db: sqlite_utils.Database, column: str, token: str) -> Table | None:
    row = row_where(db.conn, "tables", column, token)
    return table_from_row(row) if row else None


def table_by_token(db: sqlite_utils.Database, token: str) -> Table | None:
    """The table of a players' link; raises :class:`UnreadableTable` if its row cannot be read."""
    return _table_where(db, "token", token)


def table_by_spectator_token(db: sqlite_utils.Database, token: str) -> Table | None:
    return _table_where(db, "spectator_token", token)


def reread(conn: sqlite3.Connection, table: Table) -> Table:
    """The table's settings as they are now, inside a write transaction: a command prepared
    against other settings (changed on another phone meanwhile) is refused."""
    row = row_where(conn, "tables", "id", table.id)
    if row is None:
        raise TableChanged(_("This table no longer exists."))
    read = {"players": json.dumps(list(table.players), ensure_ascii=False), "first_dealer": table.first_dealer,
            **settings_columns(table.rules, table.deals_agreed, table.chip_value_cents, table.currency)}
    if all(row.get(column) == value for column, value in read.items()):
        return table  # the settings as the table was read with them (its links, place and carry never change)
    current = table_from_row(row)
    if current.settings != table.settings:
        raise TableChanged(_("The table's settings were changed on another phone: check the deal again."))
    return current


class RulesFrozen(TableChanged):
    """The first deal is recorded: the house rules can no longer change."""


class CircleEvening(TableChanged):
    """An evening of a circle: its settings are its circle's, never changed for it alone."""


def change_settings(db: sqlite_utils.Database, table: Table, rules: HouseRules, deals_agreed: int,
                    chip_value_cents: int | None, currency: str) -> None:  # more than 5: the settings it changes, one each
    """Change the house rules, length and chip value: only while the log is empty, checked in the
    same transaction that writes, so a deal recorded meanwhile freezes them for good."""
    Evening(table.players, rules, (), deals_agreed)
    with write(db) as conn:
        row = row_where(conn, "tables", "id", table.id)
        if row is not None and row.get("circle_id") is not None:  # read inside the transaction that writes
            raise CircleEvening(_("This evening plays by its circle's settings: they are changed for no single evening."))
        if conn.execute("select 1 from events where table_id = ? limit 1", [table.id]).fetchone():
            raise RulesFrozen(_("The house rules are frozen: the first deal has been recorded."))
        columns = settings_columns(rules, deals_agreed, chip_value_cents, currency)
        conn.execute(f"update tables set {', '.join(f'{name} = ?' for name in columns)} where id = ?",
                     [*columns.values(), table.id])
