"""Circles in the database: a named group of players, its evenings in order, and its own log,
written here; read in :mod:`.circle_log`, folded as one season in :mod:`.seasons`.

Its evenings are ordinary tables (``tables.circle_id``, ``tables.circle_evening`` 1, 2, ...) with their own
logs; what an evening leaves on the table is carried into the next one's first pool by the circle's fold
(:func:`.seasons.fold_circle`), never stored, so a correction in an early evening flows into every later
one. Every write to a circle or to one of its evenings is decided against that fold inside one write
transaction: the circle is the unit of consistency.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from ..core import HouseRules, ImpossibleDeal, Payment
from ..core.errors import Words
from ..core.i18n import N_, _
from ..core.ledger.settleup import fewest_payments
from ..core.limits import (
    CHIP_VALUE_CENTS_MAX, CIRCLE_EVENINGS_MAX, CIRCLE_LOG_LINES_MAX, CIRCLE_MEMBERS_MAX, CIRCLE_NAME_MAX, CURRENCY_MAX, DEALS_AGREED_MAX, DEALS_AGREED_MIN,
    CIRCLE_DEALS_MAX, REASON_MAX, circle_evenings_max,
)
from ..core.ledger.log import Command, Refused
from ..core.model import check_players
from ..core.names import check_name, check_note, identity, normalise, skeleton
from ..core.ledger.season import Season
from ..core.ledger.evening import Evening
from .database import write
from .chain import ChainBreak
from .circle_log import (
    KINDS, Circle, Settlement, UnreadableCircle, chain_break, circle_from, circle_genesis, circle_link, circle_problem,
    read_events,
)
from .lines import dict_rows, row_where
from .seasons import CircleDamage, CircleDamaged, SeasonFold, checked_for_writing, fold_circle, season_after
from .tables import Table, insert_row, insert_table, new_token, now, settings_columns, table_from_row

__all__ = ["KINDS", "Circle", "CircleDamaged", "CircleRefused", "Settlement", "UnreadableCircle", "circle_genesis", "circle_link"]


class CircleRefused(Refused):
    """A change to a circle that cannot be made against the circle as it is now; the message says why."""


def _append(conn: sqlite3.Connection, circle_row: Mapping[str, Any], kind: str, data: Mapping[str, object]) -> Circle:
    """Append one line to the circle's log, chained to its last; call inside :func:`write`. The circle as its log
    then says."""
    last = conn.execute("select seq, hash from circle_events where circle_id = ? order by seq desc limit 1",
                        [circle_row["id"]]).fetchone()
    row: dict[str, object] = {"circle_id": circle_row["id"], "seq": (last[0] if last else 0) + 1, "kind": kind,
                              "data": json.dumps(data, sort_keys=True, ensure_ascii=False), "created_at": now()}
    row["hash"] = circle_link(last[1] if last else circle_genesis(circle_row), row)
    insert_row(conn, "circle_events", row)
    return circle_from(circle_row, read_events(conn, circle_row["id"]))


def verify_circle(db: sqlite_utils.Database, circle: Circle) -> ChainBreak | None:
    """Check the circle's row and log: every line's hash follows from the line before, with no line missing,
    and what the lines say makes sense (:func:`~.circle_log.circle_problem`: members, renames, settlements,
    each evening its table and each table an evening). Return where it first breaks, or None if it holds."""
    row = row_where(db.conn, "circles", "id", circle.id)
    if row is None:
        return ChainBreak(0, None, _("the circle no longer exists"))
    events = read_events(db.conn, circle.id)
    broken = chain_break(row, events)
    if broken is not None:
        return ChainBreak(broken[0], None, str(broken[1]))
    problem = circle_problem(row, events, circle_tables(db, circle))
    return None if problem is None else ChainBreak(len(events), None, str(problem))


def circle_last_written(db: sqlite_utils.Database, circle: Circle) -> str | None:
    """When the circle's last log line was written (None for an empty log)."""
    found = db.conn.execute("select created_at from circle_events where circle_id = ? order by seq desc limit 1",
                            [circle.id]).fetchone()
    return str(found[0]) if found else None


def circle_where(conn: sqlite3.Connection, column: str, value: object) -> Circle | None:
    row = row_where(conn, "circles", column, value)
    return None if row is None else circle_from(row, read_events(conn, int(row["id"])))


def circle_by_token(db: sqlite_utils.Database, token: str) -> Circle | None:
    """The circle of a members' link; raises :class:`UnreadableCircle` if it cannot be read."""
    return circle_where(db.conn, "token", token)


def circle_by_spectator_token(db: sqlite_utils.Database, token: str) -> Circle | None:
    """The circle of a watch-only link."""
    return circle_where(db.conn, "spectator_token", token)


def circle_of(db: sqlite_utils.Database, table: Table) -> Circle | None:
    """The circle a table is an evening of, if any."""
    return None if table.circle_id is None else circle_where(db.conn, "id", table.circle_id)


def circle_tables(db: sqlite_utils.Database, circle: Circle) -> list[Table]:
    """The circle's evenings, in order (each an ordinary table)."""
    rows = dict_rows(db.conn.execute("select * from tables where circle_id = ? order by circle_evening", [circle.id]))
    return [table_from_row(row) for row in rows]


def season_fold(db: sqlite_utils.Database, circle: Circle) -> SeasonFold:
    """The circle's season as its evenings' logs say now (:func:`.seasons.fold_circle`), with the first thing
    that makes it read-only, if any."""
    folded = fold_circle(db.conn, circle.id)
    if folded is None:
        raise UnreadableCircle(Words(N_("the circle no longer exists")))
    return folded[1]


class CircleDoesNotHold(UnreadableCircle):
    """A circle whose season does not hold (:class:`~.seasons.CircleDamage`): read-only; its pages say why
    and still lead to each of its evenings."""

    def __init__(self, fold: SeasonFold) -> None:
        assert fold.damage is not None
        super().__init__(fold.damage.words)
        self.fold = fold


def _season(fold: SeasonFold) -> Season:
    if fold.season is None:
        raise CircleDoesNotHold(fold)
    return fold.season


def circle_season(db: sqlite_utils.Database, circle: Circle) -> Season:
    """The circle's season (each evening as far as it settles, each carrying into the next what the one
    before left on the table); raises :class:`UnreadableCircle` naming the damage of a circle that does
    not hold (its pages read :func:`season_fold` and show it instead)."""
    return _season(season_fold(db, circle))


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


def check_untaken(name: str, circle: Circle) -> None:
    """A possible name for a member, not alike to any member's name nor to any name the circle had before
    a rename (an old name stays taken: it is never used for another person)."""
    _check_new_name(name, circle.members)
    try:
        _check_new_name(name, [old for old, _ in circle.renames])
    except ImpossibleDeal:
        raise ImpossibleDeal(_("{name!r} is, or looks like, a name a member of the circle had before a renaming: "
                               "a name is never used for another person").format(name=name), "players") from None


def check_members(members: Sequence[str]) -> None:
    """Four to :data:`CIRCLE_MEMBERS_MAX` names, each possible and in normal form, no two the same or alike."""
    if not 4 <= len(members) <= CIRCLE_MEMBERS_MAX:
        raise ImpossibleDeal(_("a circle has 4 to {limit} members; {given} were given").format(
            limit=CIRCLE_MEMBERS_MAX, given=len(members)), "players")
    for i, name in enumerate(members):
        _check_new_name(name, members[:i])


def check_circle_settings(name: str, rules: HouseRules, deals_agreed: int, chip_value_cents: int | None, currency: str) -> None:
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


def settings_row(  # more than 5: a circle's settings, one each
    name: str, members: Sequence[str], rules: HouseRules, deals_agreed: int, chip_value_cents: int | None,
    currency: str,
) -> dict[str, object]:
    """A circle's settings as its row holds them (the first link of its log's chain)."""
    return {"name": name, "members": json.dumps(list(members), ensure_ascii=False),
            **settings_columns(rules, deals_agreed, chip_value_cents, currency)}


def create_circle(  # more than 5: a circle's settings are a table's, with its name and members
    db: sqlite_utils.Database, name: str, members: Sequence[str], rules: HouseRules, deals_agreed: int,
    chip_value_cents: int | None, currency: str,
) -> Circle:
    """Start a circle; raises :class:`~scorer.core.ImpossibleDeal` naming the setting at fault."""
    members = tuple(members)
    check_members(members)
    check_circle_settings(name, rules, deals_agreed, chip_value_cents, currency)
    row = {"token": new_token(), "spectator_token": new_token(),
           **settings_row(name, members, rules, deals_agreed, chip_value_cents, currency), "created_at": now()}
    with write(db) as conn:
        circle_id = insert_row(conn, "circles", row)
    return circle_from({**row, "id": circle_id}, [])


def _reread(conn: sqlite3.Connection, circle: Circle) -> tuple[dict[str, object], Circle, SeasonFold]:
    """The circle's row, the circle as its log says now and its season folded, inside a write transaction;
    refused if the circle does not hold (it is read-only) or its log already has :data:`CIRCLE_LOG_LINES_MAX`
    lines (every command appends one)."""
    folded = fold_circle(conn, circle.id)
    if folded is None:
        raise CircleRefused(_("This circle no longer exists."))
    row, fold = folded
    checked_for_writing(conn, fold)  # raises CircleDamaged: nothing is written to a circle that does not hold
    events = read_events(conn, circle.id)  # the log written to: its chain and sense checked again, here
    problem = circle_problem(row, events, fold.tables)
    if problem is not None:
        raise CircleDamaged(CircleDamage(None, problem))
    current = circle_from(row, events)
    if current.lines >= CIRCLE_LOG_LINES_MAX:
        raise CircleRefused(_("The circle's log has {limit} lines, as many as a circle may have: "
                              "start a new circle for the next season.").format(limit=CIRCLE_LOG_LINES_MAX))
    return row, current, fold


def add_member(db: sqlite_utils.Database, circle: Circle, name: str) -> Circle:
    """Add a member, who starts at 0 (a ``member`` line of the circle's log). A name the circle has
    or had (or one alike to the eye) cannot be used again. Raises :class:`CircleRefused` or
    :class:`~scorer.core.ImpossibleDeal`, and writes nothing."""
    with write(db) as conn:
        row, current, fold = _reread(conn, circle)
        if len(current.members) >= CIRCLE_MEMBERS_MAX:
            raise CircleRefused(_("The circle has {limit} members, as many as a circle may have.").format(limit=CIRCLE_MEMBERS_MAX))
        check_untaken(name, current)
        return _append(conn, row, "member", {"name": name})


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
        row, current, fold = _reread(conn, circle)
        strangers = [name for name in seated if name not in current.members]
        if strangers:
            raise CircleRefused(_("{name} is not a member of the circle.").format(name=strangers[0]))
        try:
            check_players(seated)
        except ImpossibleDeal as error:
            raise CircleRefused(_("Four different members sit down: {why}.").format(why=error.message)) from None
        if first_dealer not in seated:
            raise CircleRefused(_("The first dealer must be one of the four at the table, not {name}.").format(name=first_dealer))
        tables = circle_tables(db, circle)  # in this transaction: its connection's
        n = len(tables) + 1
        if current.evenings != len(tables) or any(t.circle_evening != k for k, t in enumerate(tables, start=1)):
            raise CircleRefused(_("The circle's evenings do not match its log: check it before starting another."))
        if number is not None and number != n:
            raise CircleRefused(_("Evening {number} was just started on another phone.").format(number=n - 1))
        if n > CIRCLE_EVENINGS_MAX:
            raise CircleRefused(_("The circle has {limit} evenings, as many as a circle may have: "
                                  "start a new circle for the next season.").format(limit=CIRCLE_EVENINGS_MAX))
        if n > circle_evenings_max(current.deals_agreed):
            raise CircleRefused(_("The circle has {count} evenings of {deals} deals, as many as a circle may have "
                                  "({limit} deals in all): start a new circle for the next season.").format(
                                      count=n - 1, deals=current.deals_agreed, limit=CIRCLE_DEALS_MAX))
        if tables and not fold.ledgers[-1].deals:
            raise CircleRefused(_("Evening {number} has no deal recorded yet: play it before starting the next.").format(
                number=n - 1))
        table = insert_table(conn, seated, first_dealer, current.rules, current.deals_agreed,
                             current.chip_value_cents, current.currency, circle_id=circle.id, circle_evening=n)
        _append(conn, row, "evening", {"evening": n, "players": list(seated), "first_dealer": first_dealer})
    return table


def rename_member(db: sqlite_utils.Database, circle: Circle, old: str, new: str) -> Circle:
    """Rename a member (a ``rename`` line of the circle's log, never a rewrite): the circle and its season
    call her ``new`` from then on; the evenings' tables keep the names they were played with. A name
    the circle has or had (or one alike to the eye) cannot be used again, for anybody. Raises
    :class:`CircleRefused` or :class:`~scorer.core.ImpossibleDeal`, and writes nothing."""
    with write(db) as conn:
        row, current, fold = _reread(conn, circle)
        if old not in current.members:
            raise CircleRefused(_("{name} is not a member of the circle (renamed meanwhile on another phone?).").format(name=old))
        check_untaken(new, current)
        return _append(conn, row, "rename", {"old": old, "new": new})


def record_settlement(db: sqlite_utils.Database, circle: Circle, lines: int, shown: str | None = None) -> Circle:
    """Record that the circle settled what :func:`owing` says now (a ``settled`` line: the evenings it
    settles for the first time, and who paid whom: the fewest payments of what those evenings come to
    and what changed since in the evenings settled before, less what was paid), in one write transaction. ``lines`` is the length of the circle's log the page was built on, ``shown``
    (optional) the :func:`settle_digest` of the settle-up it showed: if either has changed (another
    phone settled, an evening was started, a member renamed, a deal recorded or corrected), nothing is
    written. Refused (:class:`CircleRefused`) too when there is nothing to settle."""
    with write(db) as conn:
        row, current, fold = _reread(conn, circle)
        if current.lines != lines:
            raise CircleRefused(_("The circle changed since this page was shown (settled or added to on another phone): "
                                  "look at the settle-up again before recording it."))
        found = owing(current, _season(fold))
        if found is None:
            raise CircleRefused(_("No evening has been played since the last settlement, and none settled has changed: "
                                  "there is nothing to settle."))
        first, last, payments = found.first, found.last, found.payments
        if shown is not None and shown != settle_digest(first, last, payments):
            raise CircleRefused(_("The settle-up changed since this page was shown (a deal recorded or corrected): "
                                  "look at it again before recording it."))
        paying = [{"payer": p.payer, "payee": p.payee, "cents": p.cents} for p in payments]
        return _append(conn, row, "settled", {"first": first, "last": last, "payments": paying})


def take_back_settlement(db: sqlite_utils.Database, circle: Circle, seq: int, reason: str, lines: int) -> Circle:
    """Take back the settlement recorded by line ``seq`` of the circle's log, the last one standing (an
    ``unsettled`` line with ``reason``: the settlement stays in the log, as a deal's earlier version does), in one
    write transaction: its evenings are to settle again, and the next settle-up covers them. ``lines``: the length
    of the log the page was built on. Refused (:class:`CircleRefused`, nothing written) if the log changed since,
    the settlement is not the last one standing, or no reason is given; :class:`~scorer.core.ImpossibleDeal` for a
    reason too long or holding an invisible character."""
    reason = normalise(reason) if reason else ""
    if not reason:
        raise CircleRefused(_("Say why the settlement is taken back: the reason is kept with it."))
    if len(reason) > REASON_MAX:
        raise ImpossibleDeal(_("the reason has at most {limit} characters").format(limit=REASON_MAX), "reason")
    check_note(reason)
    with write(db) as conn:
        row, current, _fold = _reread(conn, circle)
        if current.lines != lines:
            raise CircleRefused(_("The circle changed since this page was shown (settled or added to on another phone): "
                                  "look at its settlements again before taking one back."))
        if not current.settlements or current.settlements[-1].seq != seq:
            raise CircleRefused(_("Only the last settlement standing can be taken back."))
        return _append(conn, row, "unsettled", {"settlement": seq, "reason": reason})


@dataclass(frozen=True)
class SettledEffect:
    """What a change to an evening a recorded settlement covers does to what was paid, shown before it is saved."""

    evening: int
    settlement: Settlement
    """The settlement standing that covers the evening (who paid whom, and when)."""
    mark: int
    """The circle's :meth:`~.circle_log.Circle.settled_mark` it was shown against: the form carries it, and the write
    path refuses the change if a settlement was recorded or taken back since."""
    moved: dict[str, int]
    """What the change alone moves in what each member wins or owes over the evenings settled (cents, or chips)."""
    after: Owing | None
    """What is still to pay once it is saved (None: nobody owes anybody)."""
    circle: Circle
    """The circle as it was shown (its chip's value and currency say how the amounts read)."""


def settled_effect(circle: Circle, before: Season, after: Season, evening: int) -> SettledEffect | None:
    """What changing evening ``evening`` of the circle, its season ``before`` becoming ``after``, does to what was
    paid; None if no settlement standing covers that evening."""
    if circle.settled_to() < evening:
        return None
    covering = next((s for s in circle.settlements if s.first <= evening <= s.last), circle.settlements[-1])
    value, payments, settled = _value(circle), paid(circle), circle.settled_to()
    was, now = before.owed(value, payments, settled), after.owed(value, payments, settled)
    return SettledEffect(evening, covering, circle.settled_mark(), {m: now[m] - was.get(m, 0) for m in circle.members},
                         owing(circle, after), circle)


def settled_effect_of(db: sqlite_utils.Database, table: Table, command: Command) -> SettledEffect | None:
    """What ``command`` (an undo, a correction or a restoration) on ``table``, an evening of a circle, does to what was
    paid (:func:`settled_effect`), nothing written; None for a table of no circle or an evening no settlement covers.
    Raises as the write path would refuse the command (:func:`.seasons.season_after`)."""
    if table.circle_id is None or table.circle_evening is None:
        return None
    folded = fold_circle(db.conn, table.circle_id)
    circle = folded[1].circle if folded is not None else None
    if circle is None or circle.settled_to() < table.circle_evening:
        return None
    before, after = season_after(db.conn, table, command)
    return settled_effect(circle, before, after, table.circle_evening)
