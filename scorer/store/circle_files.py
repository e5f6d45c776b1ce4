"""A whole circle as one file: export as quadrille-circle/1 JSON (signed), and import with every check.

The file is the circle's settings (as its row holds them: the first link of its log's chain), its
log as stored (each line with its hash), and each evening as the table export the app already makes
(:func:`.files.export_evening`, in order). An import is checked whole before anything is written: the
file's size, encoding and nesting (as an evening file's, with the two levels a circle adds), the
circle's settings and members, every line of its log (hash recomputed and compared with the file's),
and every evening as a table import checks it, folded with what the evening before left on the table
(through the core's :func:`~scorer.core.season.replay_season`). Then the circle, its log, and each
evening's table with its log are written in one transaction.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

import sqlite_utils

from ..core import Evening, HouseRules, ScorerError
from ..core.evening_json import parse_evening
from ..core.limits import CIRCLE_MEMBERS_MAX, IMPORT_BYTES_MAX, JSON_DEPTH_MAX
from ..core.log import Line, LineKind, fold
from ..core.season import Season, replay_season
from ..db import write
from .chain import SIGNATURE_FIELD, genesis, link, sign, signed_here
from .circles import (
    Circle, _check_new_name, _check_settings, _circle_where, _events, _row, check_members, circle_genesis,
    circle_link, circle_tables,
)
from .files import (
    ImportRefused, _check_counts, _check_settings as _check_table_settings, _first_unfit, _history_lines, _int_field,
    _is_time, _no_constant, _no_duplicates, _whole_number, export_evening, nesting,
)
from .lines import INSERT, insert_values, row_of
from .tables import Table, insert_table, new_token, now

FORMAT = "quadrille-circle/1"
FIELDS = frozenset({"format", "name", "members", "profile", "house_rules", "deals_agreed", "chip_value_cents",
                    "currency", "log", "evenings", SIGNATURE_FIELD})
LOG_FIELDS = frozenset({"seq", "kind", "data", "at", "hash"})
DATA_FIELDS = {"member": frozenset({"name"}), "evening": frozenset({"evening", "players", "first_dealer"})}

CIRCLE_DEPTH_MAX = JSON_DEPTH_MAX + 2
"""Nesting of a circle file: each evening sits two levels down (the file's object, its ``evenings`` list),
so that every evening in it nests at most :data:`JSON_DEPTH_MAX` deep, as an evening file may."""


# --- export ---------------------------------------------------------------------------------------------


def _decoded(text: object) -> object:
    try:
        return json.loads(str(text))
    except (ValueError, RecursionError):  # edited by hand: kept as stored, so nothing is lost
        return text


def export_circle(db: sqlite_utils.Database, circle: Circle, secret_key: str) -> dict[str, object]:
    """The circle as quadrille-circle/1 JSON: its settings as its row holds them, its log as stored,
    each evening as its table's export, and this server's signature of all of it (left out when an
    evening was imported unverified, so that a circle file cannot launder an evening into "signed")."""
    row = _row(db.conn, "id", circle.id)
    if row is None:
        raise ImportRefused("This circle no longer exists.")
    evenings = circle_tables(db, circle)
    data: dict[str, object] = {
        "format": FORMAT,
        "name": row["name"],
        "members": _decoded(row["members"]),
        "profile": row["profile"],
        "house_rules": _decoded(row["house_rules"]),
        "deals_agreed": row["deals_agreed"],
        "chip_value_cents": row["chip_value_cents"],
        "currency": row["currency"],
        "log": [{"seq": line["seq"], "kind": line["kind"], "data": _decoded(line["data"]), "at": line["created_at"],
                 "hash": line["hash"]} for line in _events(db.conn, circle.id)],
        "evenings": [export_evening(db, table, secret_key) for table in evenings],
    }
    if all(table.provenance != "unverified" for table in evenings):
        data[SIGNATURE_FIELD] = sign(data, secret_key)
    return data


# --- reading a file -------------------------------------------------------------------------------------


def _place(path: tuple[str | int, ...]) -> str:
    """A place in the file: "evening 2, deal 3, 'tricks.hombre'", "line 4 of the circle's log, 'data.name'"."""
    head, rest = "the file", path
    if len(path) >= 2 and path[0] == "evenings" and isinstance(path[1], int):
        head, rest = f"evening {path[1] + 1}", path[2:]
        if len(rest) >= 2 and rest[0] in ("deals", "history") and isinstance(rest[1], int):
            head += f", deal {rest[1] + 1}" if rest[0] == "deals" else f", line {rest[1] + 1} of its history"
            rest = rest[2:]
    elif len(path) >= 2 and path[0] == "log" and isinstance(path[1], int):
        head, rest = f"line {path[1] + 1} of the circle's log", path[2:]
    return f"{head}, {'.'.join(str(p) for p in rest)!r}" if rest else head


def read_circle_file(raw: bytes) -> object:
    """The decoded JSON of an uploaded circle file: its size, encoding and nesting checked before it is
    parsed, every number and text after (as :func:`.files.read_evening_file` does for an evening)."""
    if len(raw) > IMPORT_BYTES_MAX:
        raise ImportRefused(f"That file is too large: a circle file may be at most {IMPORT_BYTES_MAX:,} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused("That file is not UTF-8 text: export a quadrille-circle/1 JSON file and try again") from None
    depth = nesting(text)
    if depth > CIRCLE_DEPTH_MAX:
        raise ImportRefused(f"the file nests arrays and objects {depth} deep; a circle file nests at most "
                            f"{CIRCLE_DEPTH_MAX} deep (each evening in it at most {JSON_DEPTH_MAX})")
    try:
        data = json.loads(text, parse_int=_whole_number, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except ImportRefused:
        raise
    except (ValueError, RecursionError) as error:
        raise ImportRefused(f"That file is not valid JSON: {error}") from None
    unfit = _first_unfit(data)
    if unfit is not None:
        raise ImportRefused(f"{_place(unfit[0])}: {unfit[1].why}")
    return data


# --- checking a file ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Settings:
    row: dict[str, object]
    """The circle's row as it will be written (without its links), the first link of its chain."""
    founders: tuple[str, ...]


@dataclass(frozen=True)
class _Evening:
    """One evening of the file, checked as a table import checks it, ready to be written."""

    evening: Evening
    first_dealer: str
    cents: int | None
    currency: str
    lines: list[Line]
    stated: list[str | None]
    checked: bool
    """Whether it came with a history (folded checked) or as deals alone (each replayed)."""
    signed: bool


def _refuse(where: str, error: Exception) -> ImportRefused:
    message = error.message if isinstance(error, ScorerError) else str(error)
    return ImportRefused(f"{where}: {message}")


def _settings(data: dict[str, Any]) -> _Settings:
    """The circle's own fields, as :func:`.circles.create_circle` checks them."""
    name, members, profile, house_rules = (data.get(k) for k in ("name", "members", "profile", "house_rules"))
    currency = data.get("currency")
    if not isinstance(name, str):
        raise ImportRefused("\"name\" must be the circle's name")
    if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
        raise ImportRefused("\"members\" must be a list of the founding members' names")
    if len(members) > CIRCLE_MEMBERS_MAX:
        raise ImportRefused(f"the file names {len(members)} members; a circle has at most {CIRCLE_MEMBERS_MAX}")
    if not isinstance(profile, str) or not isinstance(house_rules, dict):
        raise ImportRefused("\"profile\" must be a rule profile's name and \"house_rules\" an object of rule names and values")
    if not isinstance(currency, str):
        raise ImportRefused("\"currency\" must be a short text, such as EUR (\"\" for none)")
    deals_agreed = _int_field(data, "deals_agreed", 1, 10 ** 9, "the file", required=True)
    cents = _int_field(data, "chip_value_cents", 0, 10 ** 9, "the file")
    try:
        rules = HouseRules.of(profile, house_rules)
        check_members(members)
        assert deals_agreed is not None
        _check_settings(name, rules, deals_agreed, cents, currency)
    except (ValueError, ScorerError) as error:
        raise _refuse("the circle's settings", error) from None
    if rules.profile_name != profile or json.loads(json.dumps(rules.changes())) != house_rules:
        raise ImportRefused("the circle's settings: its house rules must be written as this app writes them "
                            f"(profile {rules.profile_name!r}, changes {rules.changes()!r})")
    row: dict[str, object] = {"name": name, "members": json.dumps(members, ensure_ascii=False), "profile": profile,
                              "house_rules": json.dumps(rules.changes()), "deals_agreed": deals_agreed,
                              "chip_value_cents": cents, "currency": currency}
    return _Settings(row, tuple(members))


def _log(data: dict[str, Any], settings: _Settings, evenings: int) -> tuple[list[dict[str, object]], list[dict[str, Any]]]:
    """The circle's log as rows to write, each hash recomputed and compared with the file's; and each
    evening line's data, in order."""
    log = data.get("log")
    if not isinstance(log, list):
        raise ImportRefused("\"log\" must be a list of the circle's log lines")
    if len(log) > evenings + CIRCLE_MEMBERS_MAX:
        raise ImportRefused(f"the circle's log has {len(log)} lines, more than its {evenings} evenings and "
                            f"{CIRCLE_MEMBERS_MAX} members can make")
    members = list(settings.founders)
    previous = circle_genesis(settings.row)
    rows: list[dict[str, object]] = []
    started: list[dict[str, Any]] = []
    for seq, item in enumerate(log, start=1):
        where = f"line {seq} of the circle's log"
        if not isinstance(item, dict) or set(item) != LOG_FIELDS:
            raise ImportRefused(f"{where} must have exactly {', '.join(sorted(LOG_FIELDS))}")
        kind, line, at, stated = item["kind"], item["data"], item["at"], item["hash"]
        if item["seq"] != seq or not isinstance(kind, str) or kind not in DATA_FIELDS:
            raise ImportRefused(f"{where} must have \"seq\": {seq} and a \"kind\" of {' or '.join(DATA_FIELDS)}"
                                f" (a {str(kind)[:20]!r} line cannot be imported)")
        if not isinstance(line, dict) or set(line) != DATA_FIELDS[kind]:
            raise ImportRefused(f"{where}: \"data\" of a {kind} line has exactly {', '.join(sorted(DATA_FIELDS[kind]))}")
        if not _is_time(at):
            raise ImportRefused(f"{where}: \"at\" must be a time such as 2026-11-21T21:04:00+00:00")
        if stated is not None and not (isinstance(stated, str) and re.fullmatch(r"[0-9a-f]{64}", stated)):
            raise ImportRefused(f"{where}: \"hash\" must be 64 hexadecimal digits, or null")
        if kind == "member":
            _member_line(line, members, where)
        else:
            _evening_line(line, members, len(started) + 1, where)
            started.append(line)
        row: dict[str, object] = {"seq": seq, "kind": kind, "data": json.dumps(line, sort_keys=True, ensure_ascii=False),
                                  "created_at": at}
        row["hash"] = circle_link(previous, row)
        if stated is not None and stated != row["hash"]:
            raise ImportRefused(f"the circle's log does not check: {where} was changed after it was written")
        previous = str(row["hash"])
        rows.append(row)
    if len(started) != evenings:
        raise ImportRefused(f"the circle's log starts {len(started)} evenings, but the file holds {evenings}")
    return rows, started


def _member_line(line: dict[str, Any], members: list[str], where: str) -> None:
    name = line["name"]
    if not isinstance(name, str):
        raise ImportRefused(f"{where}: the member's \"name\" must be a text")
    if len(members) >= CIRCLE_MEMBERS_MAX:
        raise ImportRefused(f"{where}: the circle would have more than {CIRCLE_MEMBERS_MAX} members")
    try:
        _check_new_name(name, members)
    except ScorerError as error:
        raise _refuse(where, error) from None
    members.append(name)


def _evening_line(line: dict[str, Any], members: list[str], number: int, where: str) -> None:
    players, dealer = line["players"], line["first_dealer"]
    if line["evening"] != number:
        raise ImportRefused(f"{where} must start evening {number}")
    if (not isinstance(players, list) or len(players) != 4 or len(set(map(str, players))) != 4
            or any(p not in members for p in players)):
        raise ImportRefused(f"{where}: \"players\" must be four different members of the circle at that time")
    if dealer not in players:
        raise ImportRefused(f"{where}: \"first_dealer\" must be one of the four")


def _evening(item: object, number: int, secret_key: str) -> _Evening:
    """One evening of the file, checked as :func:`.files.import_evening` checks a table's file (its
    history folded later, once what the evening before left on the table is known)."""
    where = f"evening {number}"
    if not isinstance(item, dict):
        raise ImportRefused(f"{where} must be an evening's JSON object")
    try:
        _check_counts(item)
        _int_field(item, "deals_agreed", 1, 10 ** 9, where)
        evening = parse_evening(item)
        first_dealer, cents, currency = _check_table_settings(item, evening)
        history = item.get("history")
        if history is None:
            stated: list[str | None] = [None] * len(evening.deals)
            lines = [Line(n, LineKind.RECORD, n, deal, at=now()) for n, deal in enumerate(evening.deals, start=1)]
        else:
            pairs = _history_lines(history, evening)
            lines, stated = [line for line, _ in pairs], [h for _, h in pairs]
    except (ImportRefused, ValueError, ScorerError) as error:
        raise _refuse(where, error) from None
    return _Evening(evening, first_dealer, cents, currency, lines, stated, history is not None, signed_here(item, secret_key))


def _season(members: tuple[str, ...], evenings: list[_Evening]) -> Season:
    """The core's season of the file's evenings, each folded with what the one before left."""
    plain = [e.evening for e in evenings]
    try:
        return replay_season(members, plain)
    except ScorerError:
        for k in range(1, len(plain) + 1):  # which evening fails: only when one does
            try:
                replay_season(members, plain[:k])
            except ScorerError as error:
                raise _refuse(f"evening {k}", error) from None
        raise


def _log_rows(e: _Evening, carried: int, number: int) -> list[dict[str, object]]:
    """The evening's log as rows to write, folded with what was carried into it and chained."""
    folded = fold(replace(e.evening, carried_in=carried), e.lines, check=e.checked)
    if folded.damage is not None:
        raise ImportRefused(f"evening {number}: the history does not hold at {folded.damage.message}")
    if folded.deals != e.evening.deals:
        raise ImportRefused(f"evening {number}: the history does not lead to the deals in the file")
    ev = e.evening
    previous = genesis(Table(0, "", "", ev.players, e.first_dealer, ev.rules, ev.deals_agreed, e.cents, e.currency, ""))
    rows = []
    for line, hash_stated in zip(e.lines, e.stated):
        row = row_of(line)
        row["hash"] = link(previous, row)
        if hash_stated is not None and hash_stated != row["hash"]:
            raise ImportRefused(f"evening {number}: the history does not check: line {line.seq} (deal {line.number}) "
                                "was changed after it was written")
        previous = str(row["hash"])
        rows.append(row)
    return rows


def import_circle(db: sqlite_utils.Database, data: object, secret_key: str) -> Circle:
    """Recreate a circle from a quadrille-circle/1 file: a new circle with its own links, its log, and
    each evening a new table of the circle with its log.

    Raises :class:`~.files.ImportRefused` and writes nothing if any check fails. An evening's table is
    marked signed only when the circle file carries this server's signature of exactly its content
    and the evening its own; otherwise ``unverified``, as a table import would mark it."""
    if not isinstance(data, dict):
        raise ImportRefused("a circle file must hold a JSON object")
    if data.get("format") != FORMAT:
        raise ImportRefused(f"not a {FORMAT} file: its \"format\" is {str(data.get('format'))[:40]!r}")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise ImportRefused(f"unknown field {unknown[0][:40]!r} (a circle file has: {', '.join(sorted(FIELDS))})")
    items = data.get("evenings")
    if not isinstance(items, list):
        raise ImportRefused("\"evenings\" must be a list of the circle's evenings, each a quadrille-evening/1 export")
    settings = _settings(data)
    log_rows, started = _log(data, settings, len(items))
    evenings = [_evening(item, k, secret_key) for k, item in enumerate(items, start=1)]
    for k, (e, line) in enumerate(zip(evenings, started), start=1):
        if list(e.evening.players) != line["players"] or e.first_dealer != line["first_dealer"]:
            raise ImportRefused(f"evening {k}: its players and first dealer are not those the circle's log started it with")
    members = settings.founders + tuple(str(row_data["name"]) for row_data in
                                        (json.loads(str(r["data"])) for r in log_rows if r["kind"] == "member"))
    season = _season(members, evenings)
    rows = [_log_rows(e, s.carried_in, k) for k, (e, s) in enumerate(zip(evenings, season.evenings), start=1)]
    signed = signed_here(data, secret_key)
    with write(db) as conn:  # the circle, its log, its evenings and theirs, or nothing
        row = {"token": new_token(), "spectator_token": new_token(), **settings.row, "created_at": now()}
        cursor = conn.execute(f"insert into circles ({', '.join(row)}) values ({', '.join('?' * len(row))})",
                              list(row.values()))
        circle_id = int(cursor.lastrowid or 0)
        conn.executemany("insert into circle_events (circle_id, seq, kind, data, created_at, hash) values (?, ?, ?, ?, ?, ?)",
                         [[circle_id, r["seq"], r["kind"], r["data"], r["created_at"], r["hash"]] for r in log_rows])
        for k, (e, log) in enumerate(zip(evenings, rows), start=1):
            ev = e.evening
            table = insert_table(conn, ev.players, e.first_dealer, ev.rules, ev.deals_agreed, e.cents, e.currency,
                                 "signed" if signed and e.signed else "unverified")
            conn.execute("update tables set circle_id = ?, circle_evening = ? where id = ?", [circle_id, k, table.id])
            conn.executemany(INSERT, [insert_values(table.id, r) for r in log])
        circle = _circle_where(conn, "id", circle_id)
    if circle is None:  # pragma: no cover - written just above
        raise ImportRefused("the circle could not be read back")
    return circle


__all__ = ["CIRCLE_DEPTH_MAX", "FORMAT", "export_circle", "import_circle", "read_circle_file"]
