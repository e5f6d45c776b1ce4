"""A circle's row and its log as the store reads them: the :class:`Circle` they describe, the
hash chain that links the log's lines, and what a log edited by hand can get wrong that its chain, computed
again, would not show (:func:`circle_problem`). Nothing here writes; :mod:`.circles` writes, through the
circle's fold (:mod:`.seasons`).

A circle is its settings row (its name, its founding members, the house rules, length and chip value
its evenings start with) and its append-only log ``circle_events``: a member added, an evening started,
a member renamed (the old name stays taken, the evenings keep the names they were played with), the
season settled (evenings a to b: who paid whom, as the page showed it), and a settlement taken back (the last
one standing, with its reason: a new line, never a rewrite; the next settle-up covers its evenings again).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..core import HouseRules, Payment, ScorerError
from ..core.errors import Counted, Said, Words, said_of
from ..core.i18n import N_
from ..core.limits import CIRCLE_MEMBERS_MAX, REASON_MAX
from .lines import dict_rows
from .tables import Table, settings_of

KINDS = ("evening", "member", "rename", "settled", "unsettled")


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
    taken_back_at: str | None = None
    """When it was taken back (an ``unsettled`` line), or None while it stands."""
    taken_back_by: int = 0
    """The line of the log that took it back (0 while it stands)."""
    reason: str = ""
    """Why it was taken back."""


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
    """Each ``settled`` line of its log still standing, in order (one taken back is in ``taken_back``)."""
    taken_back: tuple[Settlement, ...] = ()
    """Each settlement taken back since, in order, with when and why."""
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

    def history(self) -> tuple[Settlement, ...]:
        """Every settlement recorded, standing or taken back, in the order they were recorded."""
        return tuple(sorted((*self.settlements, *self.taken_back), key=lambda s: s.seq))

    def settled_mark(self) -> int:
        """The line of the log that last recorded or took back a settlement (0 if none): what a change to a
        settled evening was shown against."""
        return max((*(s.seq for s in self.settlements), *(s.taken_back_by for s in self.taken_back)), default=0)

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


def read_events(conn: sqlite3.Connection, circle_id: int) -> list[dict[str, object]]:
    return dict_rows(conn.execute("select * from circle_events where circle_id = ? order by seq", [circle_id]))


def circle_from(row: Mapping[str, object], events: Sequence[Mapping[str, Any]]) -> Circle:
    try:
        founders = tuple(str(name) for name in json.loads(str(row["members"])))
        members = list(founders)
        renames: list[tuple[str, str]] = []
        settlements: list[Settlement] = []
        evenings = 0
        evening_members: list[tuple[str, ...]] = []
        taken_back: list[Settlement] = []
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
                settlements.append(Settlement(int(line["seq"]), int(data["first"]), int(data["last"]),
                                              payments, str(line["created_at"])))
            elif line["kind"] == "unsettled" and settlements and settlements[-1].seq == int(data["settlement"]):
                # the last standing taken back (any other: the log's sense check names it, circle_problem)
                taken_back.append(replace(settlements.pop(), taken_back_at=str(line["created_at"]),
                                          reason=str(data["reason"]), taken_back_by=int(line["seq"])))
        return Circle(
            **settings_of(row),
            name=str(row["name"]),
            members=tuple(members),
            founders=founders,
            evenings=evenings,
            renames=tuple(renames),
            settlements=tuple(settlements),
            taken_back=tuple(taken_back),
            lines=len(events),
            evening_members=tuple(evening_members),
        )
    except (ValueError, TypeError, KeyError, RecursionError, ScorerError) as error:
        raise UnreadableCircle(Words(N_("the circle cannot be read: {error}"), error=said_of(error))) from None



def chain_break(row: Mapping[str, object], events: Sequence[Mapping[str, object]]) -> tuple[int, Said] | None:
    """Where the circle's log first breaks its chain (a line missing, of an unknown kind, or changed after it
    was written), as (line, why); None if every line follows from the one before, the first from the row."""
    previous = circle_genesis(row)
    for expected_seq, line in enumerate(events, start=1):
        seq = line["seq"]
        if seq != expected_seq:
            return expected_seq, Words(N_("line {seq} of the circle's log is missing"), seq=expected_seq)
        if line["kind"] not in KINDS:
            return expected_seq, Words(N_("line {seq} of the circle's log has an unknown kind {kind!r}"), seq=seq, kind=line["kind"])
        if circle_link(previous, line) != line["hash"]:
            return expected_seq, Words(N_("line {seq} of the circle's log was changed after it was written"), seq=seq)
        previous = str(line["hash"])
    return None


def circle_problem(row: Mapping[str, object], events: Sequence[Mapping[str, object]], tables: Sequence[Table]) -> Said | None:
    """Why the circle's row and log do not hold, or None: a break in the chain (:func:`chain_break`), or what
    a log edited with its chain computed again can still get wrong: fewer than four founders or more
    members than a circle has, a name twice, a rename of somebody who is not a member then or to a name
    taken, a settlement of evenings not played or by somebody who was not a member, a settlement taken back
    that is not the last one standing or with no reason, an evening line that
    is not its table's, or a table of the circle that no evening line started."""
    broken = chain_break(row, events)
    if broken is not None:
        return broken[1]
    try:
        return _sense(row, events, tables)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as error:
        return Words(N_("a line of the circle's log cannot be read ({why})"), why=said_of(error))


def _sense(row: Mapping[str, object], events: Sequence[Mapping[str, object]], tables: Sequence[Table]) -> Said | None:
    members = [str(m) for m in json.loads(str(row["members"]))]
    if not 4 <= len(members) <= CIRCLE_MEMBERS_MAX or len(set(members)) != len(members):
        return Words(N_("its founding members are not four to {most} different names"), most=CIRCLE_MEMBERS_MAX)
    sensed = _Sensed(members, set(members), tables)
    for line in events:
        problem = sensed.line(line["seq"], line["kind"], json.loads(str(line["data"])))
        if problem is not None:
            return problem
    if sensed.started != len(tables):
        return Words(N_("the circle has tables for {tables} but its log started {started}: a line is missing"),
                     tables=Counted("{n} evening", "{n} evenings", len(tables)),
                     started=Counted("{n} evening", "{n} evenings", sensed.started))
    return None


@dataclass
class _Sensed:
    """The circle as the lines of its log read so far leave it (:func:`_sense`): each kind of line checked
    against it, then taken into it."""

    members: list[str]
    """Its members then, under their names of then."""
    ever: set[str]
    """Every name a member has had: never taken again."""
    tables: Sequence[Table]
    started: int = 0
    settled: int = 0
    standing: list[tuple[int, int]] = field(default_factory=list)
    """Each settlement standing: (its line, the first evening it settled)."""

    def line(self, seq: object, kind: object, data: Any) -> Said | None:
        """What is wrong with this line of the log, or None (a line of no known kind: its chain said so)."""
        checks = {"member": self.member, "rename": self.rename, "evening": self.evening, "settled": self.settle,
                  "unsettled": self.unsettle}
        check = checks.get(str(kind))
        return None if check is None else check(seq, data)

    def member(self, seq: object, data: Any) -> Said | None:
        name = data["name"]
        if not isinstance(name, str) or name in self.ever or len(self.members) >= CIRCLE_MEMBERS_MAX:
            return Words(N_("line {seq} adds a member named as a member is or was, or one too many"), seq=seq)
        self.members.append(name)
        self.ever.add(name)
        return None

    def rename(self, seq: object, data: Any) -> Said | None:
        old, new = data["old"], data["new"]
        if old not in self.members or not isinstance(new, str) or new in self.ever:
            return Words(N_("line {seq} renames {old!r}, who is not a member then, or to a name already taken"), seq=seq, old=old)
        self.members[self.members.index(old)] = new
        self.ever.add(new)
        return None

    def evening(self, seq: object, data: Any) -> Said | None:
        self.started += 1
        started, tables = self.started, self.tables
        table = tables[started - 1] if started <= len(tables) else None
        if data["evening"] != started or table is None or table.circle_evening != started \
                or list(table.players) != data["players"] or any(p not in self.members for p in table.players):
            return Words(N_("line {seq} starts evening {evening}, which is not the circle's table of that evening "
                            "or not four of its members"), seq=seq, evening=data.get("evening"))
        return None

    def settle(self, seq: object, data: Any) -> Said | None:
        last, settled = data["last"], self.settled
        if data["first"] != settled + 1 or not isinstance(last, int) or not settled <= last <= self.started:
            return Words(N_("line {seq} settles evenings {first} to {last}, not the evenings after {settled} played by then"),
                         seq=seq, first=data.get("first"), last=last, settled=settled)
        for payment in data["payments"]:
            if payment["payer"] not in self.members or payment["payee"] not in self.members or not isinstance(payment["cents"], int):
                return Words(N_("line {seq} records a payment by or to somebody who is not a member then"), seq=seq)
        self.settled = max(settled, last)
        self.standing.append((int(seq), data["first"]))  # type: ignore[call-overload]
        return None

    def unsettle(self, seq: object, data: Any) -> Said | None:
        which, reason = data["settlement"], data["reason"]
        if not self.standing or which != self.standing[-1][0] or not isinstance(reason, str) \
                or not 0 < len(reason) <= REASON_MAX:
            return Words(N_("line {seq} takes back a settlement that is not the last one standing, or gives no reason"), seq=seq)
        _line, first = self.standing.pop()
        self.settled = first - 1
        return None
