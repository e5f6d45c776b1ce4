"""Tables and their deal logs in the database, translated to and from the core's types.

Nothing derived is stored: a table's deals are the fold of its event log
(a deal recorded appends, an undo takes the last one back), and its ledger
is the core's replay of those deals.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

import sqlite_utils

from .core import Deal, Evening, HouseRules, Replay, replay
from .core.evening_json import format_deal, parse_deal


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_token() -> str:
    """An unguessable link token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


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


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str  # "record" or "undo"
    number: int
    deal: Deal | None
    by: str | None
    created_at: str


def _table(row: dict[str, object]) -> Table:
    return Table(
        id=int(row["id"]),  # type: ignore[call-overload]
        token=str(row["token"]),
        spectator_token=str(row["spectator_token"]),
        players=tuple(json.loads(str(row["players"]))),
        first_dealer=str(row["first_dealer"]),
        rules=HouseRules.of(str(row["profile"]), json.loads(str(row["house_rules"]))),
        deals_agreed=int(row["deals_agreed"]),  # type: ignore[call-overload]
        chip_value_cents=None if row["chip_value_cents"] is None else int(row["chip_value_cents"]),  # type: ignore[call-overload]
        currency=str(row["currency"] or ""),
        created_at=str(row["created_at"]),
    )


def create_table(
    db: sqlite_utils.Database, players: tuple[str, ...], first_dealer: str, rules: HouseRules,
    deals_agreed: int, chip_value_cents: int | None, currency: str,
) -> Table:
    Evening(players, rules, (), deals_agreed)  # the core checks the names and the length
    row = {
        "token": new_token(),
        "spectator_token": new_token(),
        "players": json.dumps(list(players), ensure_ascii=False),
        "first_dealer": first_dealer,
        "profile": rules.profile_name,
        "house_rules": json.dumps(rules.changes()),
        "deals_agreed": deals_agreed,
        "chip_value_cents": chip_value_cents,
        "currency": currency,
        "created_at": _now(),
    }
    table_id = db["tables"].insert(row).last_pk  # type: ignore[union-attr]
    return _table({**row, "id": table_id})


def table_by_token(db: sqlite_utils.Database, token: str) -> Table | None:
    rows = list(db["tables"].rows_where("token = ?", [token], limit=1))
    return _table(rows[0]) if rows else None


def table_by_spectator_token(db: sqlite_utils.Database, token: str) -> Table | None:
    rows = list(db["tables"].rows_where("spectator_token = ?", [token], limit=1))
    return _table(rows[0]) if rows else None


def events(db: sqlite_utils.Database, table: Table) -> list[Event]:
    return [
        Event(
            seq=row["seq"], kind=row["kind"], number=row["number"],
            deal=parse_deal(json.loads(row["deal"])) if row["deal"] else None,
            by=row["by"], created_at=row["created_at"],
        )
        for row in db["events"].rows_where("table_id = ?", [table.id], order_by="seq")
    ]


def current_deals(log: list[Event]) -> tuple[Deal, ...]:
    deals: list[Deal] = []
    for event in log:
        if event.kind == "record" and event.deal is not None:
            deals.append(event.deal)
        elif event.kind == "undo":
            deals.pop()
    return tuple(deals)


def evening(table: Table, deals: tuple[Deal, ...]) -> Evening:
    return Evening(table.players, table.rules, deals, table.deals_agreed)


def ledger(db: sqlite_utils.Database, table: Table) -> Replay:
    return replay(evening(table, current_deals(events(db, table))))


def _append(db: sqlite_utils.Database, table: Table, kind: str, number: int, deal: Deal | None, by: str | None) -> None:
    with db.conn:
        seq = db.execute("select coalesce(max(seq), 0) + 1 from events where table_id = ?", [table.id]).fetchone()[0]
        db["events"].insert(
            {
                "table_id": table.id, "seq": seq, "kind": kind, "number": number,
                "deal": json.dumps(format_deal(deal), ensure_ascii=False) if deal else None,
                "by": by, "created_at": _now(),
            }
        )


def record_deal(db: sqlite_utils.Database, table: Table, deal: Deal, number: int, by: str | None = None) -> None:
    """Append deal ``number``; the caller has settled it against the current ledger."""
    _append(db, table, "record", number, deal, by)


def undo_last(db: sqlite_utils.Database, table: Table, number: int, by: str | None = None) -> None:
    """Take back deal ``number`` (the last): kept in the log as an undo, nothing deleted."""
    _append(db, table, "undo", number, None, by)


def update_rules(db: sqlite_utils.Database, table: Table, rules: HouseRules, deals_agreed: int,
                 chip_value_cents: int | None, currency: str) -> None:
    """Change the house rules; only before the first deal is recorded (the caller checks)."""
    db["tables"].update(  # type: ignore[union-attr]
        table.id,
        {"profile": rules.profile_name, "house_rules": json.dumps(rules.changes()), "deals_agreed": deals_agreed,
         "chip_value_cents": chip_value_cents, "currency": currency},
    )
