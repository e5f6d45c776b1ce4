"""A table as a file: export as quadrille-evening/1 JSON (signed) or CSV, and import with every limit checked.

An import is checked whole before anything is written: the file's size, its
nesting, every number's range, every name, every deal (each must settle), the
history (it must fold into the deals, through the same fold as the app's own
log) and every stated hash. Then the table and its whole log are written in
one transaction.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from datetime import datetime
from dataclasses import dataclass, replace
from typing import Any, NoReturn

import sqlite_utils

from ..core import Deal, Evening, EveningFormatError, Pot, ScorerError, game_won, replay
from ..core.ledger.evening_json import format_evening, parse_deal, parse_evening
from ..core.i18n import _
from ..core.limits import (
    CHIP_VALUE_CENTS_MAX, CURRENCY_MAX, DEALS_AGREED_MAX, DEALS_AGREED_MIN, IMPORT_BYTES_MAX, JSON_DEPTH_MAX,
    LOG_LINES_MAX, REASON_MAX,
)
from ..core.ledger.log import Ledger, Line, LineKind, fold
from ..core.names import check_note, normalise
from ..core.words.report import account_name
from .database import snapshot, write
from .chain import SIGNATURE_FIELD, genesis, link, sign, signed_here
from .ledgers import in_english
from .reading import Refusal, Shape, is_utf8, read_json
from .seasons import ledger
from .lines import INSERT, insert_values, row_of, row_where, stored_lines
from .tables import Table, insert_table, now


def export_evening(db: sqlite_utils.Database, table: Table, secret_key: str, book: Ledger | None = None) -> dict[str, object]:
    """The table as quadrille-evening/1 JSON: its settings, the deals standing, its whole log as
    stored, and this server's signature of all of it (not for a table imported unverified: its
    export stays unsigned, so that an export and an import cannot launder its history into "signed").

    A table whose log is damaged exports the deals up to the damage and every
    line of its log as stored (a deal that cannot be read is given as its text),
    so that nothing is lost. Read as of one moment: its deals are those its history leads to.

    An evening of a circle says what it began with (``carried_in``: the chips the evening before left
    on the table, as its circle's fold has it), so that imported alone it settles as it does in its
    circle; if that cannot be known (its circle does not hold before it), the file leaves it out and is
    not signed."""
    with snapshot(db.conn):
        book = ledger(db, table) if book is None else book  # a circle's export hands each evening its fold's ledger
        data = format_evening(book.evening)  # with carried_in, when the ledger began with chips
        known = table.circle_id is None or book.damage is None or book.damage.seq > 0
        if table.circle_id is not None and known:
            data.setdefault("carried_in", 0)  # evening 1, or nothing left on the table: said, not left to be guessed
        data.update(first_dealer=table.first_dealer, chip_value_cents=table.chip_value_cents, currency=table.currency)
        data["history"] = [
            {"seq": row["seq"], "kind": row["kind"], "number": row["number"], "deal": stored_json(row["deal"]),
             "by": row["by"], "reason": row["reason"], "restores": row["restores"], "at": row["created_at"], "hash": row["hash"]}
            for row in stored_lines(db.conn, table.id)
        ]
    if table.provenance != "unverified" and known:  # signing it would vouch for a history this server never checked
        data[SIGNATURE_FIELD] = sign(data, secret_key)
    return data


RAW_FORMAT = "scorer-raw-table/1"


def raw_export(db: sqlite_utils.Database, token: str) -> dict[str, object]:
    """Everything stored for a table whose settings cannot be read: its row and every log line, as stored."""
    row = row_where(db.conn, "tables", "token", token) or {}
    return {"format": RAW_FORMAT, "table": row, "log": stored_lines(db.conn, row.get("id"))}


def stored_json(text: object) -> object:
    """A column's JSON as stored, or the column itself if it is not JSON (edited by hand: kept, so that nothing
    is lost), or nested too deep to parse."""
    try:
        return json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        return text


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """A text cell that a spreadsheet would run as a formula, made inert by a leading apostrophe
    (OWASP's rule for CSV injection); numbers are left as they are."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def transfers_csv(db: sqlite_utils.Database, table: Table) -> str:
    """One row per transfer of every deal standing; its sentence in English whatever the reader's language
    (a file for other programs, as the JSON export is)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["deal", "dealer", "hombre", "contract", "result", "from", "to", "amount", "reason", "rules", "source", "sentence",
                     "won"])
    book = ledger(db, table)
    if book.evening.carried_in:  # deal 0: what the evening began with, which deal 1 moves into its pool
        writer.writerow([0, "", "", "", "", "", account_name(Pot.CIRCLE_POOL), book.evening.carried_in, "carried_in", "pool_at_end",
                         "", f"left on the table by the evening before: {book.evening.carried_in}", ""])
    with in_english():
        for s in book.settlements:
            won = "yes" if game_won(s.deal, s.result) else "no"  # a vole announced and lost is lost (P)
            for t in s.transfers:
                writer.writerow([spreadsheet_safe(cell) for cell in (
                    s.number, s.deal.dealer, s.deal.hombre, s.deal.contract.value, s.result.value, account_name(t.payer),
                    account_name(t.payee), t.chips, t.reason.value, " ".join(t.rules), t.source, t.sentence, won)])
    return out.getvalue()


# --- import ---------------------------------------------------------------------------------------------


class ImportRefused(ScorerError, ValueError):
    """An evening file that cannot be imported; the message says which limit or check, and where. A
    ``ValueError`` too, as it was before it joined the app's errors: a caller may catch it as one."""


INTEGER_DIGITS_MAX = 9
"""Digits of any whole number in an imported file: every number the format holds is far smaller."""

CARRIED_IN_MAX = 10 ** INTEGER_DIGITS_MAX - 1
"""Chips an imported evening may say it began with: any whole number a file may write."""


def whole_number(text: str) -> int:
    if len(text.lstrip("-")) > INTEGER_DIGITS_MAX:
        raise Refusal(_("the number {number} is longer than {digits} digits: no field of an evening is that large").format(
            number=text[:20] + ("…" if len(text) > 20 else ""), digits=INTEGER_DIGITS_MAX))
    return int(text)


def no_constant(text: str) -> NoReturn:
    raise Refusal(_("{text} is not a number an evening can hold").format(text=text))


def _place(path: tuple[str | int, ...]) -> str:
    """A place in the file as the other refusals name it: "deal 2, 'tricks.hombre'", "line 3 of the history, 'number'"."""
    head, rest = _("the file"), path
    if len(path) >= 2 and path[0] in ("deals", "history") and isinstance(path[1], int):
        head = (_("deal {number}") if path[0] == "deals" else _("line {number} of the history")).format(number=path[1] + 1)
        rest = path[2:]
    return f"{head}, {'.'.join(str(p) for p in rest)!r}" if rest else head


def refused(where: str, error: Exception) -> ImportRefused:
    """The file refused at ``where``, for the reason ``error`` gives."""
    return ImportRefused(_("{where}: {why}").format(where=where, why=error))


def evening_lists() -> dict[str, tuple[int, str]]:
    """The lists of an evening file the limits bound, as the reader checks them (in the reader's language)."""
    return {"deals": (DEALS_AGREED_MAX, _("more than {limit} deals; an evening has at most {limit}")),
            "history": (LOG_LINES_MAX, _("more than {limit} lines; a table's log holds at most {limit}"))}


BYTE_ORDER_MARK = b"\xef\xbb\xbf"


def read_evening_file(raw: bytes) -> object:
    """The JSON of an uploaded file, its size and encoding checked before it is read, and every limit
    the reader knows as it reads (:mod:`.reading`: nesting, lists, texts, numbers, memory)."""
    shape = Shape(JSON_DEPTH_MAX, _("the file nests arrays and objects more than {limit} deep; an evening file nests "
                                    "at most {limit} deep"), evening_lists(), whole_number, no_constant)
    return read_file(raw, _("That file is too large: an evening file may be at most {limit:,} bytes"),
                     _("That file is not UTF-8 text: export a quadrille-evening/1 JSON file and try again"),
                     shape, _place)


def read_file(raw: bytes, too_large: str, not_utf8: str, shape: Shape,
              place: Callable[[tuple[str | int, ...]], str]) -> object:
    """The JSON of an uploaded file of either format: refused ``too_large`` or ``not_utf8`` before it is
    read, then read within ``shape``, a refusal's place named as ``place`` names it."""
    if len(raw) > IMPORT_BYTES_MAX:
        raise ImportRefused(too_large.format(limit=IMPORT_BYTES_MAX))
    if not is_utf8(raw):
        raise ImportRefused(not_utf8)
    try:  # a byte-order mark, as some editors save, is accepted
        return read_json(raw, shape, len(BYTE_ORDER_MARK) if raw.startswith(BYTE_ORDER_MARK) else 0)
    except Refusal as refusal:
        raise (refused(place(refusal.path), refusal) if refusal.path else ImportRefused(refusal.message)) from None


def int_field(data: dict[str, Any], key: str, low: int, high: int, where: str, default: int | None = None,
               required: bool = False) -> int | None:  # more than 5: a field, its range, where it is and if it may be left out
    """A whole number within its range; ``None`` where it may be left out (or null) and is."""
    if key not in data and default is not None:
        return default
    value = data.get(key)
    if value is None and not required:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = repr(value)
        raise ImportRefused(_("{where}: {key!r} must be a whole number from {low} to {high}, not {value}").format(
            where=where, key=key, low=low, high=high, value=shown if len(shown) <= 40 else shown[:39] + "…"))
    return value


def check_counts(data: dict[str, Any]) -> None:
    """The lengths of the file's lists, before a single deal is parsed."""
    deals, history = data.get("deals"), data.get("history")
    if isinstance(deals, list) and len(deals) > DEALS_AGREED_MAX:
        raise ImportRefused(_("the file holds {deals} deals; an evening has at most {limit}").format(
            deals=len(deals), limit=DEALS_AGREED_MAX))
    if isinstance(history, list) and len(history) > LOG_LINES_MAX:
        raise ImportRefused(_("the history has {lines} lines; a table's log holds at most {limit}").format(
            lines=len(history), limit=LOG_LINES_MAX))


def check_file_settings(data: dict[str, Any], evening: Evening) -> tuple[str, int | None, str]:
    """The table's own fields, each within its limit."""
    int_field(data, "deals_agreed", DEALS_AGREED_MIN, DEALS_AGREED_MAX, _("the file"), evening.deals_agreed)
    if len(evening.deals) > evening.deals_agreed:
        raise ImportRefused(_("the file holds {deals} deals, more than the {agreed} deals agreed").format(
            deals=len(evening.deals), agreed=evening.deals_agreed))
    first_dealer = data.get("first_dealer") or (evening.deals[0].dealer if evening.deals else evening.players[0])
    if isinstance(first_dealer, str):
        first_dealer = normalise(first_dealer)  # as the players' names are
    if first_dealer not in evening.players:
        raise ImportRefused(_("the first dealer {name!r} is not one of the players").format(name=str(first_dealer)[:40]))
    if evening.deals and evening.deals[0].dealer != first_dealer:
        raise ImportRefused(_("the first dealer is {name!r}, but deal 1 was dealt by {dealer!r}").format(
            name=first_dealer, dealer=evening.deals[0].dealer))
    cents = int_field(data, "chip_value_cents", 0, CHIP_VALUE_CENTS_MAX, _("the file"))
    currency = data.get("currency") or ""
    if not isinstance(currency, str) or len(currency) > CURRENCY_MAX or not currency.isprintable():
        raise ImportRefused(_("\"currency\" must be a short text of at most {limit} characters, such as EUR").format(
            limit=CURRENCY_MAX))
    return str(first_dealer), cents, currency


HISTORY_FIELDS = frozenset({"seq", "kind", "number", "deal", "by", "reason", "restores", "at", "hash"})
"""The fields a line of a file's history may have."""


def _history_line(item: object, seq: int, evening: Evening) -> tuple[Line, str | None]:
    """Line ``seq`` of the history, with the hash it states, each field checked in turn."""
    where = _("line {number} of the history").format(number=seq)
    if not isinstance(item, dict) or set(item) - HISTORY_FIELDS:
        raise ImportRefused(_("{where} is not a log line of this format").format(where=where))
    if item.get("seq") != seq:
        raise ImportRefused(_("{where} must have \"seq\": {seq}").format(where=where, seq=seq))
    try:
        kind = LineKind(item.get("kind"))
    except ValueError:
        raise ImportRefused(_("{where}: \"kind\" must be record, undo, amend or restore").format(where=where)) from None
    number = int_field(item, "number", 1, evening.deals_agreed, where, required=True)
    restores = int_field(item, "restores", 1, max(seq - 1, 1), where)
    by, reason, at, stated = (item.get(k) for k in ("by", "reason", "at", "hash"))
    by = _line_by(by, evening.players, where)
    _check_line_reason(reason, where)
    _check_line_time_and_hash(at, stated, where)
    deal = _line_deal(item, evening.players, where)
    assert number is not None
    return Line(seq, kind, number, deal, by, reason, restores, at or now()), stated


def _line_by(by: object, players: tuple[str, ...], where: str) -> str | None:
    """Who a line says wrote it: one of the players (her name in normal form) or null."""
    name = normalise(by) if isinstance(by, str) else by
    if name is None:
        return None
    if name not in players:
        raise ImportRefused(_("{where}: \"by\" must be one of the players or null").format(where=where))
    return str(name)  # one of the players' names


def _check_line_reason(reason: object, where: str) -> None:
    """A line's reason: null, or a note of at most :data:`~scorer.core.limits.REASON_MAX` characters."""
    if reason is not None and (not isinstance(reason, str) or len(reason) > REASON_MAX):
        raise ImportRefused(_("{where}: \"reason\" must be a text of at most {limit} characters, or null").format(
            where=where, limit=REASON_MAX))
    if reason is not None:
        try:
            check_note(reason)
        except ScorerError as error:
            raise refused(where, error) from None


def _check_line_time_and_hash(at: object, stated: object, where: str) -> None:
    """A line's time and stated hash: each null, or a time, 64 hexadecimal digits."""
    if at is not None and not is_time(at):
        raise ImportRefused(_("{where}: \"at\" must be a time such as 2026-11-21T21:04:00+00:00, or null").format(where=where))
    if stated is not None and not (isinstance(stated, str) and re.fullmatch(r"[0-9a-f]{64}", stated)):
        raise ImportRefused(_("{where}: \"hash\" must be 64 hexadecimal digits, or null").format(where=where))


NAMED = ("dealer", "hombre", "ally", "giver", "spadille")
"""The inputs of a deal that name a player."""


def _line_deal(item: dict[str, Any], players: tuple[str, ...], where: str) -> Deal | None:
    """A line's deal (none for an undo or a restoration), every player it names one of the table's. The fold
    checks the versions that stand at the end, not those corrected since (a file's history is settled once, as it
    ends): without this, a version no longer standing could bring any text into the log (a name of 100 KB, a
    right-to-left override)."""
    try:
        deal: Deal | None = parse_deal(item["deal"]) if item.get("deal") is not None else None
    except (ValueError, ScorerError) as error:
        raise refused(where, error) from None
    for role in NAMED if deal is not None else ():
        if getattr(deal, role) not in (None, *players):
            raise ImportRefused(_("{where}: the deal's \"{role}\" must be one of the players").format(where=where, role=role))
    return deal


def is_time(value: object) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class FileEvening:
    """An evening file read and checked as an import checks it, its history not yet folded."""

    evening: Evening
    first_dealer: str
    cents: int | None
    currency: str
    lines: list[Line]
    stated: list[str | None]
    """The hash each line's file states, or None."""
    checked: bool
    """Whether it came with a history (folded checked) or as deals alone (each replayed)."""
    signed: bool
    """Whether the file carries this server's signature of exactly its content."""
    carried_in: int | None
    """The chips the file says it began with (``carried_in``), if it says so."""


def file_evening(data: dict[str, Any], evening: Evening, secret_key: str) -> FileEvening:
    """The file of ``evening`` (its deals parsed): its table's own fields and its history checked."""
    signed = signed_here(data, secret_key)  # before the lines are made: not held with them
    first_dealer, cents, currency = check_file_settings(data, evening)
    history = data.get("history")
    if history is None:
        stated: list[str | None] = [None] * len(evening.deals)
        lines = [Line(n, LineKind.RECORD, n, deal, at=now()) for n, deal in enumerate(evening.deals, start=1)]
    elif not isinstance(history, list):
        raise ImportRefused(_("\"history\" must be a list of log lines"))
    else:
        pairs = [_history_line(item, seq, evening) for seq, item in enumerate(history, start=1)]
        lines, stated = [line for line, _ in pairs], [h for _, h in pairs]
    carried = data.get("carried_in")
    return FileEvening(evening, first_dealer, cents, currency, lines, stated, history is not None, signed,
                       carried if isinstance(carried, int) else None)


def log_rows(e: FileEvening, carried: int) -> list[dict[str, object]]:
    """The evening's log as rows to write: folded with the ``carried`` chips it began with (it must lead to
    the file's deals), and chained (each hash the file states must be the one computed)."""
    folded = fold(replace(e.evening, carried_in=carried), e.lines, check=e.checked)  # deals alone were replayed
    if folded.damage is not None:
        raise ImportRefused(_("the history does not hold at {damage}").format(damage=folded.damage.message))
    if folded.deals != e.evening.deals:
        raise ImportRefused(_("the history does not lead to the deals in the file"))
    ev = e.evening
    previous = genesis(Table(0, "", "", ev.players, e.first_dealer, ev.rules, ev.deals_agreed, e.cents, e.currency, ""))
    rows = []
    for line, hash_stated in zip(e.lines, e.stated):
        row = row_of(line)
        row["hash"] = link(previous, row)
        if hash_stated is not None and hash_stated != row["hash"]:
            raise ImportRefused(_("the history does not check: line {seq} (deal {number}) was changed after it was written").format(
                seq=line.seq, number=line.number))
        previous = str(row["hash"])
        rows.append(row)
    return rows


def import_evening(db: sqlite_utils.Database, data: object, secret_key: str) -> Table:
    """Recreate a table from exported JSON (or a plain evening file, recorded deal by deal).

    Raises :class:`ImportRefused` (or the core's :class:`EveningFormatError`)
    and writes nothing if any check fails. The table remembers whether the file
    carried this server's signature of exactly its content (``signed``) or not
    (``unverified``: its hash chain is consistent, but anyone can recompute one)."""
    if not isinstance(data, dict):
        raise EveningFormatError(_("an evening file must hold a JSON object"))
    check_counts(data)
    int_field(data, "deals_agreed", DEALS_AGREED_MIN, DEALS_AGREED_MAX, _("the file"))  # named with its range, before the core's check
    int_field(data, "carried_in", 0, CARRIED_IN_MAX, _("the file"))
    e = file_evening(data, parse_evening(data), secret_key)
    evening = e.evening
    if not e.checked:
        replay(evening)  # every deal must settle; DealError names the first that does not
    rows = log_rows(e, evening.carried_in)
    with write(db) as conn:  # the table and its whole log, or nothing
        # an evening of a circle imported alone begins with what its file says it did (NULL: nothing carried)
        table = insert_table(conn, evening.players, e.first_dealer, evening.rules, evening.deals_agreed, e.cents,
                             e.currency, "signed" if e.signed else "unverified", carried_in=evening.carried_in or None)
        conn.executemany(INSERT, [insert_values(table.id, r) for r in rows])
    return table
