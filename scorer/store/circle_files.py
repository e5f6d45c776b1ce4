"""A whole circle as one file: export as quadrille-circle/1 JSON (signed), and import with every check.

The file is the circle's settings (as its row holds them: the first link of its log's chain), its
log as stored (each line with its hash), and each evening as the table export the app already makes
(:func:`.files.export_evening`, in order). An import is checked whole before anything is written: the
file's size and encoding, then, as it is read (:mod:`.reading`), its nesting (as an evening file's, with
the two levels a circle adds), the length of its lists and the memory its values take; the number of
its evenings (at most :data:`~scorer.core.limits.CIRCLE_DEALS_MAX` deals agreed in all) and log lines,
the circle's settings and members, every line of its log (hash
recomputed and compared with the file's; each kind checked as the store checks it when it writes it:
a member added or renamed under the same name rules, an old name never taken again; an evening
started with four members of that time; a settlement of the evenings after the last one settled, up
to those started by then), and every evening with the circle's settings (profile, house rules, chip
value, currency, length) and as a table import checks it, read under today's names and folded with
what the evening before left on the table (through the core's
:func:`~scorer.core.ledger.season.replay_season`), which is what the evening's ``carried_in`` says when it
says it. Then the circle, its log, and each evening's table with its log are written in one transaction.

A ``settled`` line's payments are checked for their shape and ranges only (members of that time, two
different ones, a whole number of cents from 1 to what a file may write, no more payments than
members), not recomputed: they are what the page showed when it was recorded, and the rule that made
them may since have changed.

Provenance: the circle's row and each evening's table say ``signed`` only when the file carries this
server's signature of exactly its content (and, for an evening, its own); otherwise ``unverified``. A
circle or any of its evenings ``unverified`` exports with no signature, so a file cannot be made
"signed" by passing it through this server.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

import sqlite_utils

from ..core import HouseRules, ScorerError
from ..core.errors import Counted
from ..core.ledger.evening import DEFAULT_DEALS_AGREED
from ..core.rules import DEFAULT_PROFILE
from ..core.ledger.evening_json import parse_evening
from ..core.i18n import _
from ..core.limits import (
    CIRCLE_DEALS_MAX, CIRCLE_EVENINGS_MAX, CIRCLE_LOG_LINES_MAX, CIRCLE_MEMBERS_MAX, DEALS_AGREED_MIN,
    JSON_DEPTH_MAX, REASON_MAX, circle_evenings_max,
)
from ..core.names import check_note, normalise
from ..core.ledger.season import Season, replay_season
from .database import snapshot, write
from .chain import SIGNATURE_FIELD, sign, signed_here
from .circle_log import read_events
from .seasons import fold_circle, renamed_evening
from .circles import (
    Circle, check_circle_settings, check_untaken, circle_where, check_members, circle_genesis,
    circle_link, circle_tables, settings_row,
)
from .files import (
    INTEGER_DIGITS_MAX, FileEvening, ImportRefused, check_counts, evening_lists, export_evening, file_evening,
    int_field, is_time, log_rows, no_constant, raw_export, read_file, refused, stored_json, whole_number,
)
from .reading import Shape
from .lines import INSERT, dict_rows, insert_values, row_where
from .tables import insert_row, insert_table, new_token, now

FORMAT = "quadrille-circle/1"
FIELDS = frozenset({"format", "name", "members", "profile", "house_rules", "deals_agreed", "chip_value_cents",
                    "currency", "log", "evenings", SIGNATURE_FIELD})
LOG_FIELDS = frozenset({"seq", "kind", "data", "at", "hash"})
DATA_FIELDS = {"member": frozenset({"name"}), "evening": frozenset({"evening", "players", "first_dealer"}),
               "rename": frozenset({"old", "new"}), "settled": frozenset({"first", "last", "payments"}),
               "unsettled": frozenset({"settlement", "reason"})}
PAYMENT_FIELDS = frozenset({"payer", "payee", "cents"})
PAYMENT_CENTS_MAX = 10 ** INTEGER_DIGITS_MAX - 1
"""A payment of a ``settled`` line, in cents (or chips): any whole number a file may write at all."""

CIRCLE_DEPTH_MAX = JSON_DEPTH_MAX + 2
"""Nesting of a circle file: each evening sits two levels down (the file's object, its ``evenings`` list),
so that every evening in it nests at most :data:`JSON_DEPTH_MAX` deep, as an evening file may."""

RAW_CIRCLE_FORMAT = "scorer-raw-circle/1"


def raw_circle_export(db: sqlite_utils.Database, token: str) -> dict[str, object]:
    """Everything stored for a circle that cannot be read: its row, every line of its log, and each of its
    evenings' table rows with their logs, as stored (not importable: nothing is checked or lost)."""
    row = row_where(db.conn, "circles", "token", token) or {}
    tables = dict_rows(db.conn.execute("select * from tables where circle_id = ? order by circle_evening", [row.get("id")]))
    return {"format": RAW_CIRCLE_FORMAT, "circle": row,
            "log": dict_rows(db.conn.execute("select * from circle_events where circle_id = ? order by seq", [row.get("id")])),
            "evenings": [raw_export(db, str(t["token"])) for t in tables]}


# --- export ---------------------------------------------------------------------------------------------


def export_circle(db: sqlite_utils.Database, circle: Circle, secret_key: str) -> dict[str, object]:
    """The circle as quadrille-circle/1 JSON: its settings as its row holds them, its log as stored,
    each evening as its table's export, and this server's signature of all of it (left out when the
    circle or one of its evenings was imported unverified, so that a circle file cannot launder a
    circle or an evening into "signed"). Read as of one moment: its log starts the evenings it holds."""
    with snapshot(db.conn):
        return _circle_data(db, circle, secret_key)


def _circle_data(db: sqlite_utils.Database, circle: Circle, secret_key: str) -> dict[str, object]:
    row = row_where(db.conn, "circles", "id", circle.id)
    if row is None:
        raise ImportRefused(_("This circle no longer exists."))
    evenings = circle_tables(db, circle)
    folded = fold_circle(db.conn, circle.id)  # folded once: each evening's ledger from it (not a fold per evening)
    books = {t.id: book for t, book in zip(folded[1].tables, folded[1].ledgers)} if folded is not None else {}
    data: dict[str, object] = {
        "format": FORMAT,
        "name": row["name"],
        "members": stored_json(row["members"]),
        "profile": row["profile"],
        "house_rules": stored_json(row["house_rules"]),
        "deals_agreed": row["deals_agreed"],
        "chip_value_cents": row["chip_value_cents"],
        "currency": row["currency"],
        "log": [{"seq": line["seq"], "kind": line["kind"], "data": stored_json(line["data"]), "at": line["created_at"],
                 "hash": line["hash"]} for line in read_events(db.conn, circle.id)],
        "evenings": [export_evening(db, table, secret_key, books.get(table.id)) for table in evenings],
    }
    if row.get("provenance") != "unverified" and all(table.provenance != "unverified" for table in evenings):
        data[SIGNATURE_FIELD] = sign(data, secret_key)
    return data


# --- reading a file -------------------------------------------------------------------------------------


def _place(path: tuple[str | int, ...]) -> str:
    """A place in the file: "evening 2, deal 3, 'tricks.hombre'", "line 4 of the circle's log, 'data.name'"."""
    head, rest = _("the file"), path
    if len(path) >= 2 and path[0] == "evenings" and isinstance(path[1], int):
        head, rest = _("evening {number}").format(number=path[1] + 1), path[2:]
        if len(rest) >= 2 and rest[0] in ("deals", "history") and isinstance(rest[1], int):
            head = (_("{evening}, deal {number}") if rest[0] == "deals" else _("{evening}, line {number} of its history")).format(
                evening=head, number=rest[1] + 1)
            rest = rest[2:]
    elif len(path) >= 2 and path[0] == "log" and isinstance(path[1], int):
        head, rest = _("line {number} of the circle's log").format(number=path[1] + 1), path[2:]
    return f"{head}, {'.'.join(str(p) for p in rest)!r}" if rest else head


def read_circle_file(raw: bytes) -> object:
    """The JSON of an uploaded circle file: its size and encoding checked before it is read, and every
    limit the reader knows as it reads (as :func:`.files.read_evening_file` does for an evening)."""
    lists = {**evening_lists(),
             "evenings": (CIRCLE_EVENINGS_MAX, _("more than {limit} evenings; a circle has at most {limit}")),
             "log": (CIRCLE_LOG_LINES_MAX, _("more than {limit} lines; a circle file may hold at most {limit}"))}
    shape = Shape(CIRCLE_DEPTH_MAX, _("the file nests arrays and objects more than {limit} deep; a circle file nests at most "
                                      "{limit} deep (each evening in it at most {evening_limit})").format(
                                          limit="{limit}", evening_limit=JSON_DEPTH_MAX), lists, whole_number, no_constant)
    return read_file(raw, _("That file is too large: a circle file may be at most {limit:,} bytes"),
                     _("That file is not UTF-8 text: export a quadrille-circle/1 JSON file and try again"),
                     shape, _place)


# --- checking a file ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Settings:
    row: dict[str, object]
    """The circle's row as it will be written (without its links), the first link of its chain."""
    founders: tuple[str, ...]
    rules: HouseRules
    deals_agreed: int


def _settings(data: dict[str, Any]) -> _Settings:
    """The circle's own fields, as :func:`.circles.create_circle` checks them."""
    name, members, profile, house_rules = (data.get(k) for k in ("name", "members", "profile", "house_rules"))
    currency = data.get("currency")
    if not isinstance(name, str):
        raise ImportRefused(_("\"name\" must be the circle's name"))
    if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
        raise ImportRefused(_("\"members\" must be a list of the founding members' names"))
    if len(members) > CIRCLE_MEMBERS_MAX:
        raise ImportRefused(_("the file names {members} members; a circle has at most {limit}").format(
            members=len(members), limit=CIRCLE_MEMBERS_MAX))
    if not isinstance(profile, str) or not isinstance(house_rules, dict):
        raise ImportRefused(_("\"profile\" must be a rule profile's name and \"house_rules\" an object of rule names and values"))
    if not isinstance(currency, str):
        raise ImportRefused(_("\"currency\" must be a short text, such as EUR (\"\" for none)"))
    deals_agreed = int_field(data, "deals_agreed", 1, 10 ** 9, _("the file"), required=True)
    cents = int_field(data, "chip_value_cents", 0, 10 ** 9, _("the file"))
    try:
        rules = HouseRules.of(profile, house_rules)
        check_members(members)
        assert deals_agreed is not None
        check_circle_settings(name, rules, deals_agreed, cents, currency)
    except (ValueError, ScorerError) as error:
        raise refused(_("the circle's settings"), error) from None
    if rules.profile_name != profile or json.loads(json.dumps(rules.changes())) != house_rules:
        raise ImportRefused(_("the circle's settings: its house rules must be written as this app writes them "
                              "(profile {profile!r}, changes {changes!r})").format(profile=rules.profile_name, changes=rules.changes()))
    row = settings_row(name, members, rules, deals_agreed, cents, currency)
    return _Settings(row, tuple(members), rules, deals_agreed)


@dataclass(frozen=True)
class _Log:
    """The circle's log, checked: its rows to write, and what it says of the circle."""

    rows: list[dict[str, object]]
    started: list[dict[str, Any]]
    """Each ``evening`` line's data, in order (the players under their names of that time)."""
    members: tuple[str, ...]
    """Every member, under today's names, in the order they joined (as :attr:`.circles.Circle.members`)."""
    names: dict[str, str]
    """Each old name, to the name its member has now (as :meth:`.circles.Circle.current_names`)."""


def _log(data: dict[str, Any], settings: _Settings, evenings: int) -> _Log:
    """The circle's log as rows to write, each hash recomputed and compared with the file's, each line
    checked against the circle as the lines before it leave it; first, at most
    :data:`~scorer.core.limits.CIRCLE_DEALS_MAX` deals agreed in all the file's ``evenings``, and a log of at most
    :data:`~scorer.core.limits.CIRCLE_LOG_LINES_MAX` lines."""
    most = circle_evenings_max(settings.deals_agreed)
    if evenings > most:
        raise ImportRefused(_("the file holds {evenings} evenings of {deals} deals; a circle has at most {limit:,} "
                              "deals agreed in all its evenings, so at most {most} evenings of {deals} deals").format(
                                  evenings=evenings, deals=settings.deals_agreed, limit=CIRCLE_DEALS_MAX, most=most))
    log = data.get("log")
    if not isinstance(log, list):
        raise ImportRefused(_("\"log\" must be a list of the circle's log lines"))
    if len(log) > CIRCLE_LOG_LINES_MAX:
        raise ImportRefused(_("the circle's log has {lines} lines; a circle file may hold at most {limit}").format(
            lines=len(log), limit=CIRCLE_LOG_LINES_MAX))
    read = _LogRead(Circle(id=0, token="", spectator_token="", name="", members=settings.founders,
                           founders=settings.founders, rules=HouseRules.of(), deals_agreed=DEALS_AGREED_MIN,
                           chip_value_cents=None, currency="", created_at=""), [])
    previous = circle_genesis(settings.row)
    rows: list[dict[str, object]] = []
    for seq, item in enumerate(log, start=1):
        where = _("line {number} of the circle's log").format(number=seq)
        kind, line, at, stated = _log_item(item, seq, where)
        read.take(kind, line, where, seq)
        row: dict[str, object] = {"seq": seq, "kind": kind, "data": json.dumps(line, sort_keys=True, ensure_ascii=False),
                                  "created_at": at}
        row["hash"] = circle_link(previous, row)
        if stated is not None and stated != row["hash"]:
            raise ImportRefused(_("the circle's log does not check: {where} was changed after it was written").format(where=where))
        previous = str(row["hash"])
        rows.append(row)
    if len(read.started) != evenings:
        raise ImportRefused(_("the circle's log starts {started}, but the file holds {evenings}").format(
            started=Counted("{n} evening", "{n} evenings", len(read.started)), evenings=Counted("{n} evening", "{n} evenings", evenings)))
    return _Log(rows, read.started, read.circle.members, read.circle.current_names())


def _log_item(item: object, seq: int, where: str) -> tuple[str, dict[str, Any], str, str | None]:
    """One line of the file's log, its shape checked: its kind, its data (the fields of its kind), its time and
    the hash it states (or None)."""
    if not isinstance(item, dict) or set(item) != LOG_FIELDS:
        raise ImportRefused(_("{where} must have exactly {fields}").format(where=where, fields=", ".join(sorted(LOG_FIELDS))))
    kind, line, at, stated = item["kind"], item["data"], item["at"], item["hash"]
    if type(item["seq"]) is not int or item["seq"] != seq or not isinstance(kind, str) or kind not in DATA_FIELDS:
        raise ImportRefused(_("{where} must have \"seq\": {seq} and a \"kind\" of {kinds} (a {kind!r} line cannot be "
                              "imported)").format(where=where, seq=seq, kinds=", ".join(DATA_FIELDS), kind=str(kind)[:20]))
    if not isinstance(line, dict) or set(line) != DATA_FIELDS[kind]:
        raise ImportRefused(_("{where}: \"data\" of a {kind} line has exactly {fields}").format(
            where=where, kind=kind, fields=", ".join(sorted(DATA_FIELDS[kind]))))
    if not is_time(at):
        raise ImportRefused(_("{where}: \"at\" must be a time such as 2026-11-21T21:04:00+00:00").format(where=where))
    if stated is not None and not (isinstance(stated, str) and re.fullmatch(r"[0-9a-f]{64}", stated)):
        raise ImportRefused(_("{where}: \"hash\" must be 64 hexadecimal digits, or null").format(where=where))
    return kind, line, at, stated


@dataclass
class _LogRead:
    """The circle as the lines of the file's log read so far leave it (:func:`.circles.check_untaken` reads
    its members and renames), the evenings started and the last one settled."""

    circle: Circle
    started: list[dict[str, Any]]
    """Each ``evening`` line's data, in order."""
    settled: int = 0
    standing: list[tuple[int, int]] = field(default_factory=list)
    """Each settlement standing: (its line, the first evening it settled)."""

    def take(self, kind: str, line: dict[str, Any], where: str, seq: int = 0) -> None:
        """A line of the log (line ``seq``), checked as the store checks that kind of line when it writes it, then taken."""
        circle = self.circle
        if kind == "member":
            if len(circle.members) >= CIRCLE_MEMBERS_MAX:
                raise ImportRefused(_("{where}: the circle would have more than {limit} members").format(
                    where=where, limit=CIRCLE_MEMBERS_MAX))
            self.circle = replace(circle, members=(*circle.members, _untaken(line["name"], circle, where)))
        elif kind == "rename":
            old = line["old"]
            if not isinstance(old, str) or old not in circle.members:
                raise ImportRefused(_("{where}: \"old\" must be the name of a member of the circle at that time, not "
                                      "{old!r}").format(where=where, old=str(old)[:40]))
            new = _untaken(line["new"], circle, where)
            self.circle = replace(circle, members=tuple(new if m == old else m for m in circle.members),
                                  renames=(*circle.renames, (old, new)))
        elif kind == "settled":
            self.standing.append((seq, self.settled + 1))
            self.settled = _settled_line(line, circle.members, self.settled, len(self.started), where)
        elif kind == "unsettled":
            self.settled = _unsettled_line(line, self.standing, where)
        else:
            _evening_line(line, circle.members, len(self.started) + 1, where)
            self.started.append(line)


def _untaken(name: object, circle: Circle, where: str) -> str:
    """A new name for a member, checked as the store checks one (:func:`.circles.check_untaken`): possible,
    in normal form, not alike to a member's name nor to any name the circle had before a rename."""
    if not isinstance(name, str):
        raise ImportRefused(_("{where}: a member's name must be a text").format(where=where))
    try:
        check_untaken(name, circle)
    except ScorerError as error:
        raise refused(where, error) from None
    return name


def _settled_line(line: dict[str, Any], members: tuple[str, ...], settled: int, started: int, where: str) -> int:
    """A settlement's range and the shape of its payments (not recomputed: see the module's docstring);
    the last evening it settles."""
    first, last, payments = line["first"], line["last"], line["payments"]
    if type(first) is not int or first != settled + 1:
        raise ImportRefused(_("{where}: \"first\" must be {first}, the evening after the last one settled").format(
            where=where, first=settled + 1))
    if type(last) is not int or not settled <= last <= started:
        raise ImportRefused(_("{where}: \"last\" must be from {settled} (changes to settled evenings alone) to "
                              "{started} (the evenings started by then)").format(where=where, settled=settled, started=started))
    if not isinstance(payments, list) or len(payments) > len(members):
        raise ImportRefused(_("{where}: \"payments\" must be a list of at most {limit} payments "
                              "(as many as the circle has members)").format(where=where, limit=len(members)))
    for k, payment in enumerate(payments, start=1):
        at = _("{where}, payment {number}").format(where=where, number=k)
        if not isinstance(payment, dict) or set(payment) != PAYMENT_FIELDS:
            raise ImportRefused(_("{where} must have exactly {fields}").format(where=at, fields=", ".join(sorted(PAYMENT_FIELDS))))
        payer, payee, cents = payment["payer"], payment["payee"], payment["cents"]
        if payer not in members or payee not in members or payer == payee:
            raise ImportRefused(_("{where}: \"payer\" and \"payee\" must be two different members of the circle "
                                  "at that time").format(where=at))
        if type(cents) is not int or not 1 <= cents <= PAYMENT_CENTS_MAX:
            raise ImportRefused(_("{where}: \"cents\" must be a whole number from 1 to {limit:,}").format(
                where=at, limit=PAYMENT_CENTS_MAX))
    return last


def _unsettled_line(line: dict[str, Any], standing: list[tuple[int, int]], where: str) -> int:
    """A settlement taken back: the last one standing (taken off ``standing``), with a reason as a correction's;
    the last evening settled once it is taken back."""
    which, reason = line["settlement"], line["reason"]
    if not standing or type(which) is not int or which != standing[-1][0]:
        raise ImportRefused(_("{where}: \"settlement\" must be the line of the last settlement standing").format(where=where))
    if not isinstance(reason, str) or not 0 < len(reason) <= REASON_MAX or normalise(reason) != reason:
        raise ImportRefused(_("{where}: \"reason\" must be a text of 1 to {limit} characters, in its normal form").format(
            where=where, limit=REASON_MAX))
    try:
        check_note(reason)
    except ScorerError as error:
        raise refused(where, error) from None
    return standing.pop()[1] - 1


def _evening_line(line: dict[str, Any], members: tuple[str, ...], number: int, where: str) -> None:
    players, dealer = line["players"], line["first_dealer"]
    if type(line["evening"]) is not int or line["evening"] != number:
        raise ImportRefused(_("{where} must start evening {number}").format(where=where, number=number))
    if (not isinstance(players, list) or len(players) != 4 or len(set(map(str, players))) != 4
            or any(p not in members for p in players)):
        raise ImportRefused(_("{where}: \"players\" must be four different members of the circle at that time").format(
            where=where))
    if dealer not in players:
        raise ImportRefused(_("{where}: \"first_dealer\" must be one of the four").format(where=where))


def _evening(item: object, number: int, secret_key: str) -> FileEvening:
    """One evening of the file, checked as :func:`.files.import_evening` checks a table's file (its
    history folded later, once what the evening before left on the table is known)."""
    where = _("evening {number}").format(number=number)
    if not isinstance(item, dict):
        raise ImportRefused(_("{where} must be an evening's JSON object").format(where=where))
    try:
        check_counts(item)
        return file_evening(item, parse_evening(item), secret_key)
    except (ImportRefused, ValueError, ScorerError) as error:
        raise refused(where, error) from None


def _season(members: tuple[str, ...], names: dict[str, str], evenings: list[FileEvening]) -> Season:
    """The core's season of the file's evenings, each read under today's names (as
    :func:`.circles.circle_season` reads them) and folded with what the one before left."""
    plain = [renamed_evening(e.evening, names) for e in evenings]
    try:
        return replay_season(members, plain)
    except ScorerError:
        for k in range(1, len(plain) + 1):  # which evening fails: only when one does
            try:
                replay_season(members, plain[:k])
            except ScorerError as error:
                raise refused(_("evening {number}").format(number=k), error) from None
        raise


def _items(data: object) -> list[object]:
    """The file's evenings, once its own fields are checked (its format, no unknown field)."""
    if not isinstance(data, dict):
        raise ImportRefused(_("a circle file must hold a JSON object"))
    if data.get("format") != FORMAT:
        raise ImportRefused(_("not a {format} file: its \"format\" is {found!r}").format(
            format=FORMAT, found=str(data.get("format"))[:40]))
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise ImportRefused(_("unknown field {field!r} (a circle file has: {fields})").format(
            field=unknown[0][:40], fields=", ".join(sorted(FIELDS))))
    items = data.get("evenings")
    if not isinstance(items, list):
        raise ImportRefused(_("\"evenings\" must be a list of the circle's evenings, each a quadrille-evening/1 export"))
    if len(items) > CIRCLE_EVENINGS_MAX:
        raise ImportRefused(_("the file holds {evenings} evenings; a circle has at most {limit}").format(
            evenings=len(items), limit=CIRCLE_EVENINGS_MAX))
    return items


def _check_settings_of(item: object, number: int, settings: _Settings) -> None:
    """An evening of the file with the circle's settings, as each evening of a circle is made
    (:func:`.circles.start_evening`): its profile, house rules, chip value, currency and length. Checked
    before its deals are read, which another profile would read otherwise."""
    if not isinstance(item, dict):
        return  # not an evening at all: read as one, it says so
    profile, changes = item.get("profile", DEFAULT_PROFILE), item.get("house_rules", {})
    try:
        rules = HouseRules.of(profile, changes) if isinstance(profile, str) and isinstance(changes, dict) else None
    except (ValueError, ScorerError):
        rules = None  # read as an evening, it says what is wrong with them
    for field, value, expected in (
            ("profile", rules.profile_name if rules else profile, settings.rules.profile_name),
            ("house_rules", rules.changes() if rules else changes, settings.rules.changes()),
            ("chip_value_cents", item.get("chip_value_cents"), settings.row["chip_value_cents"]),
            ("currency", item.get("currency") or "", settings.row["currency"]),
            ("deals_agreed", item.get("deals_agreed", DEFAULT_DEALS_AGREED), settings.deals_agreed)):
        if value != expected or type(value) is not type(expected):
            raise ImportRefused(_("evening {number}: its {field!r} is {value}, not the circle's {expected}: each evening "
                                  "of a circle is played with the circle's settings").format(
                                      number=number, field=field, value=_shown(value), expected=_shown(expected)))


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 160 else text[:159] + "…"


def _evenings(items: list[object], settings: _Settings, log: _Log, secret_key: str, consume: bool) -> list[FileEvening]:
    """Each evening of the file, read and checked, with its players and first dealer those the circle's
    log started it with; each one's JSON dropped from the file once read, if ``consume`` (the file's
    values and the evenings made of them are then not held together)."""
    evenings = []
    for k, (item, line) in enumerate(zip(items, log.started), start=1):
        _check_settings_of(item, k, settings)
        e = _evening(item, k, secret_key)
        if list(e.evening.players) != line["players"] or e.first_dealer != line["first_dealer"]:
            raise ImportRefused(_("evening {number}: its players and first dealer are not those the circle's log "
                                  "started it with").format(number=k))
        evenings.append(e)
        if consume:
            items[k - 1] = None
    return evenings


def import_circle(db: sqlite_utils.Database, data: object, secret_key: str, consume: bool = False) -> Circle:
    """Recreate a circle from a quadrille-circle/1 file: a new circle with its own links, its log, and
    each evening a new table of the circle with its log.

    Raises :class:`~.files.ImportRefused` and writes nothing if any check fails. An evening's table is
    marked signed only when the circle file carries this server's signature of exactly its content
    and the evening its own; otherwise ``unverified``, as a table import would mark it. The circle's
    row is marked so too (``signed`` or ``unverified``): see :func:`export_circle`. With ``consume``
    (a file read for this import alone), each evening's JSON is taken out of ``data`` once it is read."""
    items = _items(data)
    assert isinstance(data, dict)
    settings = _settings(data)
    log = _log(data, settings, len(items))
    signed = signed_here(data, secret_key)  # before the evenings are read: their JSON may be dropped as they are
    evenings = _evenings(items, settings, log, secret_key, consume)
    season = _season(log.members, log.names, evenings)
    rows = []
    for k, (e, s) in enumerate(zip(evenings, season.evenings), start=1):
        if e.carried_in is not None and e.carried_in != s.carried_in:  # what its file says it began with
            stated = Counted("{n} chip carried in", "{n} chips carried in", e.carried_in)
            raise ImportRefused(_("evening {number}: its file says it began with {stated}, but the evening before "
                                  "leaves {carried} on the table").format(number=k, stated=stated, carried=s.carried_in))
        try:
            rows.append(log_rows(e, s.carried_in))
        except ImportRefused as error:
            raise refused(_("evening {number}").format(number=k), error) from None
    with write(db) as conn:  # the circle, its log, its evenings and theirs, or nothing
        row = {"token": new_token(), "spectator_token": new_token(), **settings.row, "created_at": now(),
               "provenance": "signed" if signed else "unverified"}
        circle_id = insert_row(conn, "circles", row)
        for line in log.rows:
            insert_row(conn, "circle_events", {"circle_id": circle_id, **line})
        for k, (e, table_rows) in enumerate(zip(evenings, rows), start=1):
            ev = e.evening
            table = insert_table(conn, ev.players, e.first_dealer, ev.rules, ev.deals_agreed, e.cents, e.currency,
                                 "signed" if signed and e.signed else "unverified", circle_id=circle_id,
                                 circle_evening=k)
            conn.executemany(INSERT, [insert_values(table.id, r) for r in table_rows])
        circle = circle_where(conn, "id", circle_id)
    if circle is None:  # pragma: no cover - written just above
        raise ImportRefused(_("the circle could not be read back"))
    return circle


__all__ = ["RAW_CIRCLE_FORMAT", "raw_circle_export", "CIRCLE_DEPTH_MAX", "CIRCLE_LOG_LINES_MAX", "FORMAT", "export_circle", "import_circle", "read_circle_file"]
