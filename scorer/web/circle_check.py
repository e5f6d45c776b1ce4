"""A circle's Check page (issue 14): ``/c/<token>/check`` says whether the circle's own log holds
(:func:`~scorer.store.verify_circle`) and, for each of its evenings, whether that table's log holds, with
the same two checks as the table's Check page (``/t/<token>/verify``, :func:`scorer.audit.chain`): the
hash chain (:func:`~scorer.store.verify`) and every deal settled again (:func:`~scorer.store.rechecked_ledger`).

It never answers 500: a circle whose row or log cannot be read (:class:`~scorer.store.UnreadableCircle`)
gets a page that says so, as a table that cannot be read does (``table/unreadable.html``). A table's
Check page has no watch-only counterpart, so neither has a circle's.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, render_template
from flask_babel import gettext as _

from .core.log import Damage
from .db import get_db
from .store import (
    LEDGERS, ChainBreak, Circle, CircleDamage, SeasonFold, Table, UnreadableCircle, season_fold, UnreadableTable, circle_by_token, circle_last_written, circle_tables, log_size,
    rechecked_ledger, verify, verify_circle,
)

bp = Blueprint("circle_check", __name__)


@dataclass(frozen=True)
class EveningCheck:
    """One evening of the circle, checked as its table's Check page checks it."""

    number: int
    table: Table
    lines: int
    broken: ChainBreak | None
    """Where the table's hash chain first breaks, if it does."""
    damage: Damage | None
    """Where its log stops settling, if it does (the table is then read-only)."""

    @property
    def holds(self) -> bool:
        return self.broken is None and self.damage is None


@dataclass(frozen=True)
class CircleCheck:
    """What the circle's Check page shows."""

    circle: Circle
    broken: ChainBreak | None
    """Where the circle's log first breaks, if it does."""
    last_at: str | None
    """When the circle's last line was written (None for an empty log)."""
    evenings: list[EveningCheck]
    unchecked: str | None
    """Why the logs could not be checked (an evening's table, or a line of the circle's log, that cannot be read)."""
    damage: CircleDamage | None = None
    """Why the season does not hold, as its fold says (the circle is then read-only)."""


def _evening(number: int, table: Table, fold: SeasonFold) -> EveningCheck:
    db = get_db()
    book = fold.ledger_of(number)
    if book is None or fold.tables[number - 1].id != table.id or (book.damage is not None and book.seq == 0):
        damage = rechecked_ledger(db, table).damage  # not in the fold as it stands: checked on its own
    else:  # every deal checked again, as the table's Check page does, from what the fold says it began with
        damage = LEDGERS.recheck(db.conn, table, book.evening.carried_in, fold.sizes[number - 1])[0].damage
    return EveningCheck(number, table, log_size(db.conn, table.id), verify(db, table), damage)


def check_circle(circle: Circle) -> CircleCheck:
    """Check the circle's log and each of its evenings' logs."""
    db = get_db()
    last_at = circle_last_written(db, circle)
    try:
        tables = circle_tables(db, circle)
        broken = verify_circle(db, circle)
    except UnreadableTable as error:
        return CircleCheck(circle, None, last_at, [], _("an evening's table cannot be read (%(why)s)", why=error.message))
    except (AttributeError, TypeError, ValueError) as error:  # a line whose hash holds but whose data is not the store's
        return CircleCheck(circle, None, last_at, [], _("a line of the circle's log cannot be read (%(why)s)", why=str(error)))
    numbered = [(t.circle_evening if t.circle_evening is not None else i, t) for i, t in enumerate(tables, start=1)]
    fold = season_fold(db, circle)  # folded once: each evening checked from it (not a fold per evening)
    return CircleCheck(circle, broken, last_at, [_evening(n, t, fold) for n, t in numbered], None, fold.damage)


@bp.route("/c/<token>/check")
def check(token: str) -> tuple[str, int]:
    try:
        circle = circle_by_token(get_db(), token)
    except UnreadableCircle as error:
        # its row or log edited by hand or written by another build: say so, never a 500
        return render_template("circle/check.html", unreadable=error.message, circle=None, result=None), 200
    if circle is None:
        abort(404)
    return render_template("circle/check.html", unreadable=None, circle=circle, result=check_circle(circle)), 200
