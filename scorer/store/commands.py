"""The one write path: every change to a table's log is a command, decided and appended in one transaction.

:func:`run` takes the write lock (``BEGIN IMMEDIATE``), re-reads the table's
settings, brings its ledger up to the log's last line, asks the core's
:func:`~scorer.core.ledger.log.decide_and_advance` whether the command still holds against the
log *as it is now*, and appends the line it returns, chained to the last.
Nothing is checked before the transaction that is not checked again inside
it; the unique ``(table_id, seq)`` index is a second, independent guard.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

import sqlite_utils

from ..core.i18n import _
from ..core.ledger.log import Amend, Command, Ledger, Line, Refused, Restore, Undo, decide_and_advance
from ..core.ledger.season import decide_in_season
from .database import write
from .chain import genesis, link
from .ledgers import ledger_cache
from .lines import INSERT, insert_values, row_of, sent
from .seasons import checked_for_writing, fold_circle, lines_of
from .tables import Table, now, reread


ONE_TIME_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""The shape of a form's one-time token (``secrets.token_urlsafe(16)`` makes 22 characters)."""


class SettledChange(Refused):
    """An undo, a correction or a restoration in an evening a recorded settlement covers, not confirmed against
    the settlements as they stand (the page must show what it changes in what was paid, and be tapped again)."""


@dataclass(frozen=True)
class Outcome:
    """What became of a command."""

    line: Line
    """The line written (or, for a form sent again, the line the first sending wrote)."""
    again: bool = False
    """The same form was sent before (a double tap, a retry): nothing new was written."""


def run(db: sqlite_utils.Database, table: Table, command: Command, once: str | None = None,
        settled_seen: int | None = None) -> Outcome:
    """Carry out ``command`` exactly once, or raise the core's :class:`~scorer.core.ledger.log.Refused`
    (or :class:`~scorer.core.DealError` / :class:`~scorer.core.ImpossibleDeal`) and write nothing.

    ``once`` is the one-time token of the form that sent it: the same token
    again writes nothing and answers as the first time did. ``settled_seen``: for an undo, a correction or a
    restoration in an evening of a circle, the circle's :meth:`~.circle_log.Circle.settled_mark` the page that
    asked for it showed; if a recorded settlement covers the evening and the mark is not today's (or none was
    given), :class:`SettledChange` is raised and nothing written: what was paid changes only once confirmed."""
    once = once if once and ONE_TIME_TOKEN.fullmatch(once) else None  # a token of ours, or none: nothing huge is stored
    with write(db) as conn:
        first = sent(conn, table.id, once) if once else None
        if first is not None:
            return Outcome(first, again=True)
        current = reread(conn, table)
        if current.circle_id is not None and current.circle_evening is not None:
            line, changed = _decide_in_circle(conn, current, command, settled_seen)
        else:
            ledger, _size = ledger_cache().recheck(conn, current)  # a log folded unchecked is checked again once, here
            line, after = decide_and_advance(command, ledger, at=now())  # the ledger after it folded in English
            if after.damage is not None:  # never store a line the fold cannot take (decide should not make one)
                raise Refused(_("This change cannot be written: {why}.").format(why=after.damage.message))
            changed = {current: (after, after.evening.carried_in)}
        previous = conn.execute("select hash from events where table_id = ? and seq = ?", [table.id, line.seq - 1]).fetchone()
        row = row_of(line)
        row["hash"] = link(previous[0] if previous else genesis(current), row)
        conn.execute(INSERT, insert_values(table.id, row, once))
    for folded, (ledger, carried) in changed.items():  # rechecked above, the new line decided, later evenings checked
        # the chain verified up to the new line (this table's fold read it, the new line chained to it here); a
        # later evening's log did not change: the hash its fold verified is kept
        ledger_cache().put(folded, ledger, ledger.seq, rechecked=True, carried=carried,
                           chained=str(row["hash"]) if folded.id == table.id else None)
    return Outcome(line)


def _decide_in_circle(conn: sqlite3.Connection, table: Table, command: Command,
                      settled_seen: int | None) -> tuple[Line, dict[Table, tuple[Ledger, int]]]:
    """Decide a command on an evening of a circle against the whole season as it stands: the
    circle folded inside this transaction, the evening's ledger checked again, a change to an evening a
    settlement covers refused unless confirmed against the settlements as they stand (:func:`run`), then the core's
    :func:`~scorer.core.ledger.season.decide_in_season` (a closed evening takes no new deal, every later evening
    must still settle with the carry the change produces). Returns the line and every ledger it changed."""
    assert table.circle_id is not None and table.circle_evening is not None
    folded = fold_circle(conn, table.circle_id)
    if folded is None:
        raise Refused(_("This evening's circle no longer exists."))
    _row, fold = folded
    ledgers = list(checked_for_writing(conn, fold))  # every evening's deals checked again, here
    circle = fold.circle  # its log as read in this transaction
    if isinstance(command, (Undo, Amend, Restore)) and circle is not None \
            and circle.settled_to() >= table.circle_evening and settled_seen != circle.settled_mark():
        raise SettledChange(_("Evening {number} is covered by a recorded settlement: look at "
                              "what this change does to what was paid, then confirm it.").format(number=table.circle_evening))
    line, changed = decide_in_season(command, ledgers, table.circle_evening, lines_of(conn, fold.tables), at=now())
    return line, {fold.tables[k - 1]: (after, after.evening.carried_in) for k, after in changed.items()}


def sent_before(db: sqlite_utils.Database, table: Table, once: str) -> Line | None:
    """The line written by the form with this one-time token, if it was sent before."""
    return sent(db.conn, table.id, once) if once else None
