"""Tables and their deal logs in the database, translated to and from the core's types.

Nothing derived is stored: a table's deals are the fold of its event log
(a deal recorded appends, an undo takes the last one back), and its ledger
is the core's replay of those deals.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from datetime import datetime, timezone

import sqlite_utils

from .db import write

from .core import Deal, Evening, HouseRules, Replay, Settlement, TableState, replay, settle
from .core.evening_json import format_deal, format_evening, parse_deal, parse_evening
from .core.report import account_name


def _now() -> str:
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


@dataclass(frozen=True)
class Event:
    """One line of a table's append-only log.

    ``record`` adds deal ``number``; ``undo`` takes the last deal back;
    ``amend`` replaces deal ``number`` with a corrected version; ``restore``
    puts back the deal of an earlier version (``restores`` is its ``seq``).
    Each line's ``hash`` chains it to the line before (see :func:`verify`).
    """

    seq: int
    kind: str
    number: int
    deal: Deal | None
    by: str | None
    created_at: str
    reason: str | None = None
    restores: int | None = None
    hash: str = ""


KINDS = ("record", "undo", "amend", "restore")


def table_from_row(row: dict[str, object]) -> Table:
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
    with write(db) as conn:
        return _insert_table(conn, players, first_dealer, rules, deals_agreed, chip_value_cents, currency)


def _insert_table(
    conn: sqlite3.Connection, players: tuple[str, ...], first_dealer: str, rules: HouseRules,
    deals_agreed: int, chip_value_cents: int | None, currency: str,
) -> Table:
    Evening(players, rules, (), deals_agreed)  # the core checks the names and the length
    row: dict[str, object] = {
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
    cursor = conn.execute(f"insert into tables ({', '.join(row)}) values ({', '.join('?' * len(row))})", list(row.values()))
    return table_from_row({**row, "id": cursor.lastrowid})


def _table_where(db: sqlite_utils.Database, column: str, token: str) -> Table | None:
    # Plain SQL: sqlite-utils' table objects read the schema first, on every request.
    cursor = db.execute(f"select * from tables where {column} = ? limit 1", [token])
    row = cursor.fetchone()
    return table_from_row(dict(zip([c[0] for c in cursor.description], row))) if row else None


def table_by_token(db: sqlite_utils.Database, token: str) -> Table | None:
    return _table_where(db, "token", token)


def table_by_spectator_token(db: sqlite_utils.Database, token: str) -> Table | None:
    return _table_where(db, "spectator_token", token)


def events(db: sqlite_utils.Database, table: Table) -> list[Event]:
    """The table's whole log, oldest first."""
    return [_event(row) for row in db["events"].rows_where("table_id = ?", [table.id], order_by="seq")]


def current_deals(log: list[Event]) -> tuple[Deal, ...]:
    """The deals standing after the log: the fold of its records, undos, amendments and restorations."""
    deals: list[Deal] = []
    for event in log:
        if event.kind == "record" and event.deal is not None:
            deals.append(event.deal)
        elif event.kind == "undo":
            deals.pop()
        elif event.kind in ("amend", "restore") and event.deal is not None:
            deals[event.number - 1] = event.deal
    return tuple(deals)


def versions(log: list[Event], number: int) -> list[Event]:
    """Every version of deal ``number`` since it was last recorded, oldest first."""
    found: list[Event] = []
    for event in log:
        if event.number != number:
            continue
        if event.kind == "undo":
            found = []
        elif event.kind == "record":
            found = [event]
        else:
            found.append(event)
    return found


def evening(table: Table, deals: tuple[Deal, ...]) -> Evening:
    return Evening(table.players, table.rules, deals, table.deals_agreed)


def ledger(db: sqlite_utils.Database, table: Table) -> Replay:
    """The table's replayed evening, brought up to date from the log incrementally (see LedgerCache)."""
    return LEDGERS.get(db, table)


def ledger_and_log_size(db: sqlite_utils.Database, table: Table) -> tuple[Replay, int]:
    """:func:`ledger`, and how many lines of the log it covers."""
    return LEDGERS.get_with_size(db, table)


def log_size(db: sqlite_utils.Database, table: Table) -> int:
    """How many lines the table's log has (its last seq)."""
    row = db.execute("select coalesce(max(seq), 0) from events where table_id = ?", [table.id]).fetchone()
    return int(row[0])


def versions_of(db: sqlite_utils.Database, table: Table, number: int) -> list[Event]:
    """Every version of deal ``number`` since it was last recorded, oldest first."""
    rows = db["events"].rows_where("table_id = ? and number = ?", [table.id, number], order_by="seq")
    return versions([_event(row) for row in rows], number)


def _event(row: dict[str, Any]) -> Event:
    return Event(
        seq=row["seq"], kind=row["kind"], number=row["number"],
        deal=parse_deal(json.loads(row["deal"])) if row["deal"] else None,
        by=row["by"], created_at=row["created_at"], reason=row["reason"], restores=row["restores"],
        hash=row["hash"] or "",
    )


@dataclass
class _Replayed:
    seq: int
    """The last line of the log applied."""
    rules: HouseRules
    deals: list[Deal]
    settlements: list[Settlement]
    replay: Replay | None = None
    """The same as a core Replay, made once (copying a long evening's lists costs time on every page)."""


class LedgerCache:
    """Each table's replay, kept in memory and brought up to date from the lines added since.

    A request reads only the log's last seq and any newer lines: a new deal is
    settled from the state after the last one (no replay), an undo drops the
    last settlement, and a correction of deal k replays from the state before
    deal k. The cache is only a copy: the log in the database is the truth,
    and a cache that finds the log shorter than it remembers starts over.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.tables: OrderedDict[str, _Replayed] = OrderedDict()
        """Keyed by the table's link token: unique across databases, unlike its row id."""
        self.lock = threading.Lock()

    def clear(self) -> None:
        with self.lock:
            self.tables.clear()

    def get(self, db: sqlite_utils.Database, table: Table) -> Replay:
        return self.get_with_size(db, table)[0]

    def get_with_size(self, db: sqlite_utils.Database, table: Table) -> tuple[Replay, int]:
        """The replay and the log size it was brought up to (read once, in the same query)."""
        last = log_size(db, table)
        with self.lock:
            cached = self.tables.get(table.token)
            if cached is not None:
                self.tables.move_to_end(table.token)
        if cached is None or cached.seq > last or cached.rules != table.rules:
            cached = _Replayed(0, table.rules, [], [])
        if cached.seq < last:
            rows = db["events"].rows_where("table_id = ? and seq > ?", [table.id, cached.seq], order_by="seq")
            cached = self._apply(table, cached, [_event(row) for row in rows])
            with self.lock:
                self.tables[table.token] = cached
                self.tables.move_to_end(table.token)
                while len(self.tables) > self.size:
                    self.tables.popitem(last=False)
        if cached.replay is None:
            final = cached.settlements[-1].after if cached.settlements else TableState.start(table.players)
            cached.replay = Replay(evening(table, tuple(cached.deals)), tuple(cached.settlements), final)
        return cached.replay, last

    @staticmethod
    def _apply(table: Table, cached: _Replayed, new: list[Event]) -> _Replayed:
        deals = list(cached.deals)
        settlements = list(cached.settlements)
        for event in new:
            if event.kind == "record" and event.deal is not None:
                deals.append(event.deal)
                state = settlements[-1].after if settlements else TableState.start(table.players)
                settlements.append(settle(event.deal, state, table.rules, table.deals_agreed))
            elif event.kind == "undo":
                deals.pop()
                settlements.pop()
            elif event.kind in ("amend", "restore") and event.deal is not None:
                k = event.number
                deals[k - 1] = event.deal
                del settlements[k - 1:]
                state = settlements[-1].after if settlements else TableState.start(table.players)
                for deal in deals[k - 1:]:
                    settlement = settle(deal, state, table.rules, table.deals_agreed)
                    settlements.append(settlement)
                    state = settlement.after
        return _Replayed(new[-1].seq if new else cached.seq, table.rules, deals, settlements)


LEDGERS = LedgerCache()


def genesis(table: Table) -> str:
    """The chain's first link: the table's settings, frozen once the first deal is recorded."""
    settings = {"players": list(table.players), "first_dealer": table.first_dealer, "profile": table.rules.profile_name,
                "house_rules": table.rules.changes(), "deals_agreed": table.deals_agreed,
                "chip_value_cents": table.chip_value_cents, "currency": table.currency}
    return hashlib.sha256(json.dumps(settings, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def link(previous: str, row: dict[str, object]) -> str:
    """The hash of one log line, chained to the line before it."""
    fields = {k: row.get(k) for k in ("seq", "kind", "number", "deal", "by", "reason", "restores", "created_at")}
    return hashlib.sha256((previous + json.dumps(fields, sort_keys=True, ensure_ascii=False)).encode()).hexdigest()


def _append(db: sqlite_utils.Database, table: Table, kind: str, number: int, deal: Deal | None, by: str | None,
            reason: str | None = None, restores: int | None = None, created_at: str | None = None,
            once: str | None = None) -> None:
    with write(db) as conn:
        _insert(conn, table, kind, number, deal, by, reason, restores, created_at, once)


def _insert(conn: sqlite3.Connection, table: Table, kind: str, number: int, deal: Deal | None, by: str | None,
            reason: str | None = None, restores: int | None = None, created_at: str | None = None,
            once: str | None = None) -> None:
    """Append one line to the table's log, chained to the last; call inside :func:`write`."""
    last = conn.execute("select seq, hash from events where table_id = ? order by seq desc limit 1", [table.id]).fetchone()
    seq, previous = (last[0] + 1, last[1]) if last else (1, genesis(table))
    row = _event_row(seq, kind, number, deal, by, reason, restores, created_at or _now())
    row["hash"] = link(previous, row)
    conn.execute(
        "insert into events (table_id, seq, kind, number, deal, by, reason, restores, created_at, hash, once) "
        "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [table.id, row["seq"], kind, number, row["deal"], by, reason, restores, row["created_at"], row["hash"], once],
    )


@dataclass(frozen=True)
class Recorded:
    """What became of a request to record a deal."""

    number: int
    by: str | None
    again: bool
    """The same form was sent before (a double tap, a retry): nothing new was written."""


class DealTaken(Exception):
    """Another phone recorded this deal number first."""

    def __init__(self, number: int, by: str | None) -> None:
        who = f" by {by}" if by else ""
        super().__init__(f"Deal {number} was just recorded{who} on another phone.")
        self.number = number
        self.by = by


def sent_before(db: sqlite_utils.Database, table: Table, once: str) -> Event | None:
    """The log line written by the form with this one-time token, if it was sent before."""
    if not once:
        return None
    row = db.execute("select seq, kind, number, by, created_at from events where table_id = ? and once = ?",
                     [table.id, once]).fetchone()
    return None if row is None else Event(seq=row[0], kind=row[1], number=row[2], deal=None, by=row[3], created_at=row[4])


def recorded_by(db: sqlite_utils.Database, table: Table, number: int) -> str | None:
    return _recorded_by(db.conn, table, number)


def _deals_standing(conn: sqlite3.Connection, table: Table) -> int:
    """How many deals stand: the last record or undo says it (record n: n; undo n: n - 1).
    Read backwards from the end of the log, so it costs the same however long the evening."""
    row = conn.execute(
        "select kind, number from events where table_id = ? and kind in ('record', 'undo') order by seq desc limit 1",
        [table.id],
    ).fetchone()
    if row is None:
        return 0
    return int(row[1]) if row[0] == "record" else int(row[1]) - 1


def _recorded_by(conn: sqlite3.Connection, table: Table, number: int) -> str | None:
    row = conn.execute("select by from events where table_id = ? and kind = 'record' and number = ? order by seq desc limit 1",
                       [table.id, number]).fetchone()
    return None if row is None else row[0]


def record_deal(db: sqlite_utils.Database, table: Table, deal: Deal, number: int, by: str | None = None,
                once: str | None = None) -> Recorded:
    """Record deal ``number`` exactly once.

    ``once`` is the one-time token of the form that sent it: the same token
    again (a double tap, a resent form, a retried request) writes nothing and
    answers as the first time did. If another phone recorded ``number``
    first, :class:`DealTaken` says who. The check and the write are one
    transaction, so two phones can never both record the same deal.
    """
    with write(db) as conn:
        if once:
            first = conn.execute("select number, by from events where table_id = ? and once = ?", [table.id, once]).fetchone()
            if first is not None:
                return Recorded(first[0], first[1], again=True)
        standing = _deals_standing(conn, table)
        if number != standing + 1:
            raise DealTaken(number, _recorded_by(conn, table, number) if number <= standing else None)
        _insert(conn, table, "record", number, deal, by, once=once)
    return Recorded(number, by, again=False)


def undo_last(db: sqlite_utils.Database, table: Table, number: int, by: str | None = None, once: str | None = None) -> bool:
    """Take back deal ``number`` if it is still the last (kept in the log as an undo, nothing deleted).
    Return False, writing nothing, if it is not, or if this form was already sent."""
    with write(db) as conn:
        if once and conn.execute("select 1 from events where table_id = ? and once = ?", [table.id, once]).fetchone():
            return False
        if _deals_standing(conn, table) != number:
            return False
        _insert(conn, table, "undo", number, None, by, once=once)
    return True


def amend_deal(db: sqlite_utils.Database, table: Table, number: int, deal: Deal, by: str | None, reason: str | None) -> None:
    """A corrected version of deal ``number``; the versions before it stay in the log."""
    _append(db, table, "amend", number, deal, by, reason)


def restore_version(db: sqlite_utils.Database, table: Table, number: int, version: Event, by: str | None,
                    reason: str | None) -> None:
    """Put back an earlier version of deal ``number``, itself as a new version."""
    _append(db, table, "restore", number, version.deal, by, reason, restores=version.seq)


@dataclass(frozen=True)
class ChainBreak:
    seq: int
    number: int | None
    why: str


def verify(db: sqlite_utils.Database, table: Table) -> ChainBreak | None:
    """Check the table's log: every line's hash follows from the line before, with no line missing.
    Return where it first breaks, or None if it holds."""
    previous = genesis(table)
    expected_seq = 1
    for row in db["events"].rows_where("table_id = ?", [table.id], order_by="seq"):
        if row["seq"] != expected_seq:
            return ChainBreak(expected_seq, None, f"line {expected_seq} of the log is missing")
        if row["kind"] not in KINDS:
            return ChainBreak(row["seq"], row["number"], f"line {row['seq']} has an unknown kind {row['kind']!r}")
        if link(previous, row) != row["hash"]:
            return ChainBreak(row["seq"], row["number"], f"line {row['seq']} (deal {row['number']}) was changed after it was written")
        previous = row["hash"]
        expected_seq += 1
    return None


def update_rules(db: sqlite_utils.Database, table: Table, rules: HouseRules, deals_agreed: int,
                 chip_value_cents: int | None, currency: str) -> None:
    """Change the house rules; only before the first deal is recorded (the caller checks)."""
    db["tables"].update(  # type: ignore[union-attr]
        table.id,
        {"profile": rules.profile_name, "house_rules": json.dumps(rules.changes()), "deals_agreed": deals_agreed,
         "chip_value_cents": chip_value_cents, "currency": currency},
    )


# --- export and import --------------------------------------------------------------


def export_evening(db: sqlite_utils.Database, table: Table) -> dict[str, object]:
    """The table as quadrille-evening/1 JSON: its settings, the deals standing, and its whole log."""
    log = events(db, table)
    data = format_evening(evening(table, current_deals(log)))
    data["first_dealer"] = table.first_dealer
    data["chip_value_cents"] = table.chip_value_cents
    data["currency"] = table.currency
    data["history"] = [
        {"seq": e.seq, "kind": e.kind, "number": e.number, "deal": format_deal(e.deal) if e.deal else None,
         "by": e.by, "reason": e.reason, "restores": e.restores, "at": e.created_at, "hash": e.hash}
        for e in log
    ]
    return data


class ImportRefused(ValueError):
    """An evening file that cannot be imported; the message says why."""


def import_evening(db: sqlite_utils.Database, data: object) -> Table:
    """Recreate a table from exported JSON (or a plain evening file, recorded deal by deal).

    The file is checked like any evening (every deal settles), its history must
    lead to its deals, and a history that carries hashes must chain unbroken.
    """
    evening_ = parse_evening(data)  # raises EveningFormatError with the deal number
    assert isinstance(data, dict)
    first_dealer = data.get("first_dealer") or (evening_.deals[0].dealer if evening_.deals else evening_.players[0])
    if first_dealer not in evening_.players:
        raise ImportRefused(f"the first dealer {first_dealer!r} is not one of the players")
    cents = data.get("chip_value_cents")
    if cents is not None and (isinstance(cents, bool) or not isinstance(cents, int) or cents < 0):
        raise ImportRefused("\"chip_value_cents\" must be a whole number of cents, or null")
    currency = data.get("currency") or ""
    if not isinstance(currency, str) or len(currency) > 5:
        raise ImportRefused("\"currency\" must be a short text, such as EUR")
    replay(evening_)  # every deal must settle
    history = data.get("history")
    entries = _history(history, evening_) if history is not None else [
        {"kind": "record", "number": n, "deal": d, "by": None, "reason": None, "restores": None, "at": None, "hash": None}
        for n, d in enumerate(evening_.deals, start=1)
    ]
    settings = Table(0, "", "", evening_.players, first_dealer, evening_.rules, evening_.deals_agreed, cents, currency, "")
    rows = _chain(settings, entries)  # every check is done before anything is written
    with write(db) as conn:  # the table and its whole log, or nothing
        table = _insert_table(conn, evening_.players, first_dealer, evening_.rules, evening_.deals_agreed, cents, currency)
        conn.executemany(
            "insert into events (table_id, seq, kind, number, deal, by, reason, restores, created_at, hash) "
            "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [[table.id, r["seq"], r["kind"], r["number"], r["deal"], r["by"], r["reason"], r["restores"], r["created_at"], r["hash"]]
             for r in rows],
        )
    return table


def _event_row(seq: int, kind: str, number: int, deal: Deal | None, by: str | None, reason: str | None,
               restores: int | None, created_at: str) -> dict[str, object]:
    return {"seq": seq, "kind": kind, "number": number,
            "deal": json.dumps(format_deal(deal), ensure_ascii=False, sort_keys=True) if deal else None,
            "by": by, "reason": reason, "restores": restores, "created_at": created_at}


def _chain(table: Table, entries: list[dict[str, Any]]) -> list[dict[str, object]]:
    """The log lines of an import with their hashes; a line whose stated hash differs was tampered with."""
    previous = genesis(table)
    rows = []
    for seq, entry in enumerate(entries, start=1):
        row = _event_row(seq, entry["kind"], entry["number"], entry["deal"], entry["by"], entry["reason"],
                         entry["restores"], entry["at"] or _now())
        row["hash"] = link(previous, row)
        if entry["hash"] is not None and entry["hash"] != row["hash"]:
            raise ImportRefused(f"the history does not check: line {seq} (deal {entry['number']}) was changed after it was written")
        previous = str(row["hash"])
        rows.append(row)
    return rows


def _history(history: object, evening_: Evening) -> list[dict[str, Any]]:
    if not isinstance(history, list):
        raise ImportRefused("\"history\" must be a list of log lines")
    entries: list[dict[str, Any]] = []
    for i, line in enumerate(history, start=1):
        if not isinstance(line, dict) or line.get("kind") not in KINDS or line.get("seq") != i:
            raise ImportRefused(f"line {i} of the history is not a log line of this format")
        number = line.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ImportRefused(f"line {i} of the history has no deal number")
        restores = line.get("restores")
        if restores is not None and (isinstance(restores, bool) or not isinstance(restores, int)):
            raise ImportRefused(f"line {i} of the history: 'restores' must be a line number")
        try:
            deal = parse_deal(line["deal"]) if line.get("deal") is not None else None
        except ValueError as error:
            raise ImportRefused(f"line {i} of the history: {error}") from None
        for key in ("by", "reason", "at", "hash"):
            if line.get(key) is not None and not isinstance(line.get(key), str):
                raise ImportRefused(f"line {i} of the history: {key!r} must be text")
        entries.append({"kind": line["kind"], "number": number, "deal": deal, "by": line.get("by"),
                        "reason": line.get("reason"), "restores": restores, "at": line.get("at"),
                        "hash": line.get("hash")})
    log = [Event(seq=i, kind=e["kind"], number=e["number"], deal=e["deal"], by=e["by"], created_at="")
           for i, e in enumerate(entries, start=1)]
    try:
        standing = current_deals(log)
    except IndexError:
        raise ImportRefused("the history undoes or corrects a deal that was never recorded") from None
    if standing != evening_.deals:
        raise ImportRefused("the history does not lead to the deals in the file")
    return entries


def transfers_csv(db: sqlite_utils.Database, table: Table) -> str:
    """One row per transfer of every deal standing."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["deal", "dealer", "hombre", "contract", "result", "from", "to", "amount", "reason", "rules", "source", "sentence"])
    for s in ledger(db, table).settlements:
        for t in s.transfers:
            writer.writerow([s.number, s.deal.dealer, s.deal.hombre, s.deal.contract.value, s.result.value,
                             account_name(t.payer), account_name(t.payee), t.chips, t.reason.value, " ".join(t.rules),
                             t.source, t.sentence])
    return out.getvalue()
