"""Circles in the database (issue 14): a named group of players, its evenings in order, and its own log.

A circle is its settings row (its name, its founding members, the house rules, length and chip value
its evenings start with) and its append-only log ``circle_events``: a member added, an evening started,
a member renamed (the old name stays taken, the evenings keep the names they were played with), the
season settled (evenings a to b: who paid whom, as the page showed it).
Each line is hash-chained to the one before, the first to the circle's settings, exactly as a table's
log is (:mod:`.chain`). Its evenings are ordinary tables (``tables.circle_id``, ``tables.circle_evening``
1, 2, ...) with their own logs; what an evening leaves on the table is carried into the next one's first
pool by the ledger cache (:meth:`~.ledgers.LedgerCache.carried_in`), never stored, so a correction in an
early evening flows into every later one.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import sqlite_utils

from ..core import Deal, Evening, HouseRules, ImpossibleDeal, Payment, ScorerError
from ..core.errors import Words, said_of
from ..core.i18n import N_, _
from ..core.settleup import fewest_payments
from ..core.limits import (
    CHIP_VALUE_CENTS_MAX, CIRCLE_EVENINGS_MAX, CIRCLE_LOG_LINES_MAX, CIRCLE_MEMBERS_MAX, CIRCLE_NAME_MAX, CURRENCY_MAX, DEALS_AGREED_MAX, DEALS_AGREED_MIN,
)
from ..core.log import Refused
from ..core.model import check_players
from ..core.names import check_name, check_note, identity, normalise, skeleton
from ..core.season import Season, replay_season
from ..db import write
from .chain import ChainBreak
from .ledgers import LEDGERS, ledger
from .lines import dict_rows
from .tables import Table, insert_table, new_token, now, table_from_row

KINDS = ("evening", "member", "rename", "settled")


class CircleRefused(Refused):
    """A change to a circle that cannot be made against the circle as it is now; the message says why."""


class UnreadableCircle(ScorerError):
    """A circle whose row or log cannot be read (edited by hand, or written by another build)."""


@dataclass(frozen=True)
class Settlement:
    """A ``settled`` line of the circle's log: evenings ``first`` to ``last`` settled by these payments
    (in cents, or in chips when the circle's chips have no value), as the page showed them."""

    seq: int
    first: int
    last: int
    payments: tuple[Payment, ...]
    created_at: str


@dataclass(frozen=True)
class Circle:
    id: int
    token: str
    spectator_token: str
    name: str
    members: tuple[str, ...]
    """Every member, in the order they joined: the founders, then each one added since."""
    founders: tuple[str, ...]
    """The members the circle was started with (its settings row: the first link of its chain)."""
    rules: HouseRules
    deals_agreed: int
    chip_value_cents: int | None
    currency: str
    created_at: str
    evenings: int = 0
    """How many evenings its log has started."""
    renames: tuple[tuple[str, str], ...] = ()
    """Each ``rename`` line of its log, in order: (the old name, the new one)."""
    settlements: tuple[Settlement, ...] = ()
    """Each ``settled`` line of its log, in order."""
    lines: int = 0
    """How many lines its log has (a settlement's form carries it: the season as the page showed it)."""
    evening_members: tuple[tuple[str, ...], ...] = ()
    """For each evening its log started, the members then (with the names they had then)."""

    def current_names(self) -> dict[str, str]:
        """Each old name, to the name its member has now."""
        names: dict[str, str] = {}
        for old, new in self.renames:
            names = {k: (new if v == old else v) for k, v in names.items()}
            names[old] = new
        return names

    def settled_to(self) -> int:
        """The last evening settled (0 if none)."""
        return self.settlements[-1].last if self.settlements else 0


# --- the hash chain ------------------------------------------------------------------------------------


def circle_genesis(row: Mapping[str, object]) -> str:
    """The chain's first link: the circle's settings row as it was written (never changed)."""
    settings = {"name": row["name"], "members": json.loads(str(row["members"])), "profile": row["profile"],
                "house_rules": json.loads(str(row["house_rules"])), "deals_agreed": row["deals_agreed"],
                "chip_value_cents": row["chip_value_cents"], "currency": row["currency"]}
    return hashlib.sha256(json.dumps(settings, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def circle_link(previous: str, row: Mapping[str, object]) -> str:
    """The hash of one line of a circle's log, chained to the line before it (as :func:`.chain.link`)."""
    fields = {k: row.get(k) for k in ("seq", "kind", "data", "created_at")}
    return hashlib.sha256((previous + json.dumps(fields, sort_keys=True, ensure_ascii=False)).encode()).hexdigest()


def _append(conn: sqlite3.Connection, circle_row: Mapping[str, object], kind: str, data: Mapping[str, object]) -> None:
    """Append one line to the circle's log, chained to its last; call inside :func:`write`."""
    last = conn.execute("select seq, hash from circle_events where circle_id = ? order by seq desc limit 1",
                        [circle_row["id"]]).fetchone()
    row: dict[str, object] = {"seq": (last[0] if last else 0) + 1, "kind": kind,
                              "data": json.dumps(data, sort_keys=True, ensure_ascii=False), "created_at": now()}
    row["hash"] = circle_link(last[1] if last else circle_genesis(circle_row), row)
    conn.execute("insert into circle_events (circle_id, seq, kind, data, created_at, hash) values (?, ?, ?, ?, ?, ?)",
                 [circle_row["id"], row["seq"], row["kind"], row["data"], row["created_at"], row["hash"]])


def verify_circle(db: sqlite_utils.Database, circle: Circle) -> ChainBreak | None:
    """Check the circle's log: every line's hash follows from the line before, with no line missing, and
    each evening it started is the table that says so. Return where it first breaks, or None if it holds."""
    row = _row(db.conn, "id", circle.id)
    if row is None:
        return ChainBreak(0, None, _("the circle no longer exists"))
    previous = circle_genesis(row)
    evenings = {t.circle_evening: t for t in circle_tables(db, circle)}
    members = list(json.loads(str(row["members"])))
    started = settled = 0
    for expected_seq, line in enumerate(_events(db.conn, circle.id), start=1):
        seq = line["seq"]
        if seq != expected_seq:
            return ChainBreak(expected_seq, None, _("line {seq} of the circle's log is missing").format(seq=expected_seq))
        if line["kind"] not in KINDS:
            return ChainBreak(seq, None, _("line {seq} of the circle's log has an unknown kind {kind!r}").format(
                seq=seq, kind=line["kind"]))
        if circle_link(previous, line) != line["hash"]:
            return ChainBreak(seq, None, _("line {seq} of the circle's log was changed after it was written").format(seq=seq))
        previous = str(line["hash"])
        if line["kind"] == "evening":
            data = json.loads(str(line["data"]))
            table = evenings.get(data.get("evening"))
            if table is None or list(table.players) != data.get("players"):
                return ChainBreak(seq, data.get("evening"),
                                  _("line {seq} of the circle's log starts evening {evening}, "
                                    "which is not the circle's table of that evening").format(seq=seq, evening=data.get("evening")))
            started += 1
        elif line["kind"] == "member":
            members.append(json.loads(str(line["data"])).get("name"))
        elif line["kind"] == "rename":
            data = json.loads(str(line["data"]))
            if data.get("old") not in members or data.get("new") in members:
                return ChainBreak(seq, None, _("line {seq} of the circle's log renames {old!r}, "
                                               "who is not a member then, or to a name already taken").format(seq=seq, old=data.get("old")))
            members[members.index(data["old"])] = data.get("new")
        elif line["kind"] == "settled":
            data = json.loads(str(line["data"]))
            last = data.get("last")
            if data.get("first") != settled + 1 or not isinstance(last, int) or not settled <= last <= started:
                return ChainBreak(seq, None, _("line {seq} of the circle's log settles evenings {first} to {last}, "
                                               "not the evenings after {settled} played by then").format(
                                                   seq=seq, first=data.get("first"), last=data.get("last"), settled=settled))
            settled = last
    return None


# --- reading -------------------------------------------------------------------------------------------


def _row(conn: sqlite3.Connection, column: str, value: object) -> dict[str, object] | None:
    found = dict_rows(conn.execute(f"select * from circles where {column} = ? limit 1", [value]))
    return found[0] if found else None


def _events(conn: sqlite3.Connection, circle_id: int) -> list[dict[str, object]]:
    return dict_rows(conn.execute("select * from circle_events where circle_id = ? order by seq", [circle_id]))


def circle_last_written(db: sqlite_utils.Database, circle: Circle) -> str | None:
    """When the circle's last log line was written (None for an empty log)."""
    found = db.conn.execute("select created_at from circle_events where circle_id = ? order by seq desc limit 1",
                            [circle.id]).fetchone()
    return str(found[0]) if found else None


def _circle_from(row: Mapping[str, object], events: Sequence[Mapping[str, object]]) -> Circle:
    try:
        founders = tuple(str(name) for name in json.loads(str(row["members"])))
        members = list(founders)
        renames: list[tuple[str, str]] = []
        settlements: list[Settlement] = []
        evenings = 0
        evening_members: list[tuple[str, ...]] = []
        for line in events:
            data = json.loads(str(line["data"]))
            if line["kind"] == "member":
                members.append(str(data["name"]))
            elif line["kind"] == "evening":
                evenings += 1
                evening_members.append(tuple(members))
            elif line["kind"] == "rename":
                old, new = str(data["old"]), str(data["new"])
                members[members.index(old)] = new
                renames.append((old, new))
            elif line["kind"] == "settled":
                payments = tuple(Payment(str(p["payer"]), str(p["payee"]), int(p["cents"])) for p in data["payments"])
                settlements.append(Settlement(int(line["seq"]), int(data["first"]), int(data["last"]),  # type: ignore[call-overload]
                                              payments, str(line["created_at"])))
        return Circle(
            id=int(row["id"]),  # type: ignore[call-overload]
            token=str(row["token"]),
            spectator_token=str(row["spectator_token"]),
            name=str(row["name"]),
            members=tuple(members),
            founders=founders,
            rules=HouseRules.of(str(row["profile"]), json.loads(str(row["house_rules"]))),
            deals_agreed=int(row["deals_agreed"]),  # type: ignore[call-overload]
            chip_value_cents=None if row["chip_value_cents"] is None else int(row["chip_value_cents"]),  # type: ignore[call-overload]
            currency=str(row["currency"] or ""),
            created_at=str(row["created_at"]),
            evenings=evenings,
            renames=tuple(renames),
            settlements=tuple(settlements),
            lines=len(events),
            evening_members=tuple(evening_members),
        )
    except (ValueError, TypeError, KeyError, ScorerError) as error:
        raise UnreadableCircle(Words(N_("the circle cannot be read: {error}"), error=said_of(error))) from None


def _circle_where(conn: sqlite3.Connection, column: str, value: object) -> Circle | None:
    row = _row(conn, column, value)
    return None if row is None else _circle_from(row, _events(conn, int(row["id"])))  # type: ignore[call-overload]


def circle_by_token(db: sqlite_utils.Database, token: str) -> Circle | None:
    """The circle of a members' link; raises :class:`UnreadableCircle` if it cannot be read."""
    return _circle_where(db.conn, "token", token)


def circle_by_spectator_token(db: sqlite_utils.Database, token: str) -> Circle | None:
    """The circle of a watch-only link."""
    return _circle_where(db.conn, "spectator_token", token)


def circle_of(db: sqlite_utils.Database, table: Table) -> Circle | None:
    """The circle a table is an evening of, if any."""
    return None if table.circle_id is None else _circle_where(db.conn, "id", table.circle_id)


def _tables(conn: sqlite3.Connection, circle_id: int) -> list[Table]:
    rows = dict_rows(conn.execute("select * from tables where circle_id = ? order by circle_evening", [circle_id]))
    return [table_from_row(row) for row in rows]


def circle_tables(db: sqlite_utils.Database, circle: Circle) -> list[Table]:
    """The circle's evenings, in order (each an ordinary table)."""
    return _tables(db.conn, circle.id)


def circle_season(db: sqlite_utils.Database, circle: Circle) -> Season:
    """The circle's season: :func:`~scorer.core.season.replay_season` over its evenings' standing deals
    (each as far as it settles), each carrying into the next what the one before left on the table.

    Raises :class:`~scorer.core.SeasonError` for an evening the season cannot take (chips carried into
    an evening whose rules have no pool)."""
    names = circle.current_names()
    tables = circle_tables(db, circle)
    then = [tuple(names.get(m, m) for m in members) for members in circle.evening_members]
    return replay_season(circle.members, [_renamed(ledger(db, table).evening, names) for table in tables],
                         then if len(then) == len(tables) else None)


def _renamed(evening: Evening, names: Mapping[str, str]) -> Evening:
    """An evening read with its players' names of today: a member renamed since is her new name in its
    players and its deals (its table and log keep the names it was played with)."""
    if not any(p in names for p in evening.players):
        return evening

    def name(player: str | None) -> str | None:
        return None if player is None else names.get(player, player)

    def deal(d: Deal) -> Deal:
        return replace(d, dealer=names.get(d.dealer, d.dealer), hombre=names.get(d.hombre, d.hombre), ally=name(d.ally),
                       spadille=name(d.spadille), giver=name(d.giver))

    return replace(evening, players=tuple(names.get(p, p) for p in evening.players), deals=tuple(deal(d) for d in evening.deals))


@dataclass(frozen=True)
class Owing:
    """What a settlement would settle now: the evenings played since the last one, and any change made
    since to the evenings it settled (a deal recorded or corrected there after it was settled)."""

    first: int
    last: int
    """The evenings it settles for the first time, ``first`` to ``last``; none when ``last`` is ``first - 1``
    (it settles only changes made to evenings settled before)."""
    cents: dict[str, int]
    """What each member wins or owes (in cents, or chips when they have no value), today's names."""
    payments: tuple[Payment, ...]
    """The fewest payments that settle ``cents``."""
    changed: dict[str, int]
    """The part of ``cents`` that comes from changes to evenings already settled (all 0 if none)."""


def paid(circle: Circle) -> tuple[Payment, ...]:
    """Every payment of the circle's settlements, under today's names."""
    names = circle.current_names()
    return tuple(Payment(names.get(p.payer, p.payer), names.get(p.payee, p.payee), p.cents)
                 for s in circle.settlements for p in s.payments)


def owing(circle: Circle, season: Season) -> Owing | None:
    """What a settlement would settle now (:class:`Owing`): every evening after the last settled, up to the
    last with a deal standing, and what changed since in those settled, less what was paid; None if no
    evening has been played since the last settlement and nothing settled has changed."""
    settled = circle.settled_to()
    played = [e.number for e in season.evenings[settled:] if e.replay.settlements]
    last = played[-1] if played else settled
    value, payments = _value(circle), paid(circle)
    changed = season.owed(value, payments, settled)
    if not played and not any(changed.values()):
        return None
    cents = season.owed(value, payments, last)
    return Owing(settled + 1, last, cents, fewest_payments(cents), changed)


def to_settle(circle: Circle, season: Season) -> tuple[int, int] | None:
    """The evenings a settlement would settle now (as :func:`owing`), or None."""
    found = owing(circle, season)
    return None if found is None else (found.first, found.last)


def settle_digest(first: int, last: int, payments: Sequence[Payment]) -> str:
    """What a settlement's form shows, in short: the page's settle-up must still be the one shown."""
    shown = [first, last, [[p.payer, p.payee, p.cents] for p in payments]]
    return hashlib.sha256(json.dumps(shown, ensure_ascii=False).encode()).hexdigest()[:16]


def _value(circle: Circle) -> int:
    return circle.chip_value_cents if circle.chip_value_cents is not None else 1


# --- writing -------------------------------------------------------------------------------------------


def _check_new_name(name: str, others: Sequence[str]) -> None:
    """A possible name, in normal form, neither the same as nor alike to the eye to any of ``others``
    (as the core checks a table's four players: :func:`scorer.core.model.check_players`)."""
    check_name(name)
    if normalise(name) != name:
        raise ImpossibleDeal(_("{name!r} is not written in its normal form (NFC, single spaces, none around it): "
                               "write it as {normal!r}").format(name=name, normal=normalise(name)), "players")
    for other in others:
        if identity(name) == identity(other):
            raise ImpossibleDeal(_("the circle already has a member named {other!r}; give each a different name").format(
                other=other), "players")
        if any(a == b for a, b in zip(skeleton(name), skeleton(other))):
            raise ImpossibleDeal(_("{name!r} looks like {other!r}, a member of the circle; "
                                   "give each member a name the others can tell apart").format(name=name, other=other), "players")


def _check_untaken(name: str, circle: Circle) -> None:
    """A possible name for a member, not alike to any member's name nor to any name the circle had before
    a rename (an old name stays taken: it is never used for another person)."""
    _check_new_name(name, circle.members)
    try:
        _check_new_name(name, [old for old, _ in circle.renames])
    except ImpossibleDeal:
        raise ImpossibleDeal(_("{name!r} is, or looks like, a name a member of the circle had before she was renamed: "
                               "a name is never used for another person").format(name=name), "players") from None


def check_members(members: Sequence[str]) -> None:
    """Four to :data:`CIRCLE_MEMBERS_MAX` names, each possible and in normal form, no two the same or alike."""
    if not 4 <= len(members) <= CIRCLE_MEMBERS_MAX:
        raise ImpossibleDeal(_("a circle has 4 to {limit} members; {given} were given").format(
            limit=CIRCLE_MEMBERS_MAX, given=len(members)), "players")
    for i, name in enumerate(members):
        _check_new_name(name, members[:i])


def _check_settings(name: str, rules: HouseRules, deals_agreed: int, chip_value_cents: int | None, currency: str) -> None:
    if not name or len(name) > CIRCLE_NAME_MAX or name != name.strip():
        raise ImpossibleDeal(_("a circle's name has 1 to {limit} characters, none blank around it").format(
            limit=CIRCLE_NAME_MAX), "name")
    check_note(name, N_("a circle's name"))
    if not DEALS_AGREED_MIN <= deals_agreed <= DEALS_AGREED_MAX:
        raise ImpossibleDeal(_("an evening has {low} to {high} deals").format(low=DEALS_AGREED_MIN, high=DEALS_AGREED_MAX),
                             "deals_agreed")
    if chip_value_cents is not None and not 0 <= chip_value_cents <= CHIP_VALUE_CENTS_MAX:
        raise ImpossibleDeal(_("a chip is worth at most {limit} cents").format(limit=CHIP_VALUE_CENTS_MAX), "chip_value_cents")
    if len(currency) > CURRENCY_MAX:
        raise ImpossibleDeal(_("the currency has at most {limit} characters").format(limit=CURRENCY_MAX), "currency")
    check_note(currency, N_("the currency"))
    Evening(("A", "B", "C", "D"), rules, (), deals_agreed)  # the core's check of the length


def create_circle(  # more than 5: a circle's settings are a table's, with its name and members
    db: sqlite_utils.Database, name: str, members: Sequence[str], rules: HouseRules, deals_agreed: int,
    chip_value_cents: int | None, currency: str,
) -> Circle:
    """Start a circle; raises :class:`~scorer.core.ImpossibleDeal` naming the setting at fault."""
    members = tuple(members)
    check_members(members)
    _check_settings(name, rules, deals_agreed, chip_value_cents, currency)
    row: dict[str, object] = {
        "token": new_token(),
        "spectator_token": new_token(),
        "name": name,
        "members": json.dumps(list(members), ensure_ascii=False),
        "profile": rules.profile_name,
        "house_rules": json.dumps(rules.changes()),
        "deals_agreed": deals_agreed,
        "chip_value_cents": chip_value_cents,
        "currency": currency,
        "created_at": now(),
    }
    with write(db) as conn:
        cursor = conn.execute(f"insert into circles ({', '.join(row)}) values ({', '.join('?' * len(row))})",
                              list(row.values()))
    return _circle_from({**row, "id": cursor.lastrowid}, [])


def _reread(conn: sqlite3.Connection, circle: Circle) -> tuple[dict[str, object], Circle]:
    """The circle's row and the circle as its log says now, inside a write transaction; refused if its
    log already has :data:`CIRCLE_LOG_LINES_MAX` lines (every command appends one)."""
    row = _row(conn, "id", circle.id)
    if row is None:
        raise CircleRefused(_("This circle no longer exists."))
    current = _circle_from(row, _events(conn, circle.id))
    if current.lines >= CIRCLE_LOG_LINES_MAX:
        raise CircleRefused(_("The circle's log has {limit} lines, as many as a circle may have: "
                              "start a new circle for the next season.").format(limit=CIRCLE_LOG_LINES_MAX))
    return row, current


def add_member(db: sqlite_utils.Database, circle: Circle, name: str) -> Circle:
    """Add a member, who starts at 0 (a ``member`` line of the circle's log). A name the circle has
    or had (or one alike to the eye) cannot be used again. Raises :class:`CircleRefused` or
    :class:`~scorer.core.ImpossibleDeal`, and writes nothing."""
    with write(db) as conn:
        row, current = _reread(conn, circle)
        if len(current.members) >= CIRCLE_MEMBERS_MAX:
            raise CircleRefused(_("The circle has {limit} members, as many as a circle may have.").format(limit=CIRCLE_MEMBERS_MAX))
        _check_untaken(name, current)
        _append(conn, row, "member", {"name": name})
        events = _events(conn, circle.id)
    return _circle_from(row, events)


def start_evening(db: sqlite_utils.Database, circle: Circle, seated: Sequence[str], first_dealer: str,
                  number: int | None = None) -> Table:
    """Start the circle's next evening: a table of the four ``seated`` (in the order of play) with the
    circle's house rules, length and chip value, and an ``evening`` line in the circle's log, in one
    write transaction. ``number``, if given, is the evening the form meant to start: if another phone
    started it meanwhile, nothing is written.

    Refused (:class:`CircleRefused`, nothing written) when one seated is not a member or sits twice,
    the first dealer is not seated, or the evening before has no deal standing (so two phones starting
    the next evening at once start it once)."""
    seated = tuple(seated)
    with write(db) as conn:
        row, current = _reread(conn, circle)
        strangers = [name for name in seated if name not in current.members]
        if strangers:
            raise CircleRefused(_("{name} is not a member of the circle.").format(name=strangers[0]))
        try:
            check_players(seated)
        except ImpossibleDeal as error:
            raise CircleRefused(_("Four different members sit down: {why}.").format(why=error.message)) from None
        if first_dealer not in seated:
            raise CircleRefused(_("The first dealer must be one of the four at the table, not {name}.").format(name=first_dealer))
        tables = _tables(conn, circle.id)
        n = len(tables) + 1
        if current.evenings != len(tables) or any(t.circle_evening != k for k, t in enumerate(tables, start=1)):
            raise CircleRefused(_("The circle's evenings do not match its log: check it before starting another."))
        if number is not None and number != n:
            raise CircleRefused(_("Evening {number} was just started on another phone.").format(number=n - 1))
        if n > CIRCLE_EVENINGS_MAX:
            raise CircleRefused(_("The circle has {limit} evenings, as many as a circle may have: "
                                  "start a new circle for the next season.").format(limit=CIRCLE_EVENINGS_MAX))
        if tables and not LEDGERS.get(conn, tables[-1])[0].deals:
            raise CircleRefused(_("Evening {number} has no deal recorded yet: play it before starting the next.").format(
                number=n - 1))
        table = insert_table(conn, seated, first_dealer, current.rules, current.deals_agreed,
                             current.chip_value_cents, current.currency)
        conn.execute("update tables set circle_id = ?, circle_evening = ? where id = ?", [circle.id, n, table.id])
        _append(conn, row, "evening", {"evening": n, "players": list(seated), "first_dealer": first_dealer})
        started = dict_rows(conn.execute("select * from tables where id = ?", [table.id]))[0]
    return table_from_row(started)


def rename_member(db: sqlite_utils.Database, circle: Circle, old: str, new: str) -> Circle:
    """Rename a member (a ``rename`` line of the circle's log, never a rewrite): the circle and its season
    call her ``new`` from then on; the evenings' tables keep the names they were played with. A name
    the circle has or had (or one alike to the eye) cannot be used again, for anybody. Raises
    :class:`CircleRefused` or :class:`~scorer.core.ImpossibleDeal`, and writes nothing."""
    with write(db) as conn:
        row, current = _reread(conn, circle)
        if old not in current.members:
            raise CircleRefused(_("{name} is not a member of the circle (renamed meanwhile on another phone?).").format(name=old))
        _check_untaken(new, current)
        _append(conn, row, "rename", {"old": old, "new": new})
        events = _events(conn, circle.id)
    return _circle_from(row, events)


def record_settlement(db: sqlite_utils.Database, circle: Circle, lines: int, shown: str | None = None) -> Circle:
    """Record that the circle settled what :func:`owing` says now (a ``settled`` line: the evenings it
    settles for the first time, and who paid whom: the fewest payments of what those evenings come to
    and what changed since in the evenings settled before, less what was paid), in one write transaction. ``lines`` is the length of the circle's log the page was built on, ``shown``
    (optional) the :func:`settle_digest` of the settle-up it showed: if either has changed (another
    phone settled, an evening was started, a member renamed, a deal recorded or corrected), nothing is
    written. Refused (:class:`CircleRefused`) too when there is nothing to settle."""
    with write(db) as conn:
        row, current = _reread(conn, circle)
        if current.lines != lines:
            raise CircleRefused(_("The circle changed since this page was shown (settled or added to on another phone): "
                                  "look at the settle-up again before recording it."))
        found = owing(current, circle_season(db, current))
        if found is None:
            raise CircleRefused(_("No evening has been played since the last settlement, and none settled has changed: "
                                  "there is nothing to settle."))
        first, last, payments = found.first, found.last, found.payments
        if shown is not None and shown != settle_digest(first, last, payments):
            raise CircleRefused(_("The settle-up changed since this page was shown (a deal recorded or corrected): "
                                  "look at it again before recording it."))
        _append(conn, row, "settled", {"first": first, "last": last,
                                       "payments": [{"payer": p.payer, "payee": p.payee, "cents": p.cents} for p in payments]})
        events = _events(conn, circle.id)
    return _circle_from(row, events)
