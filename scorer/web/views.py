"""What the pages of a table show, as a typed value: the table view every page of a table starts from.

A page passes a view's fields to its template by name (:meth:`TableView.context`): the templates
read ``ledger``, ``played``, ``dealer``... as before. The audit and tally pages add their own
fields in their own views (``DealView`` in :mod:`scorer.audit`, ``TallyView`` in :mod:`scorer.tally`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields

from flask import Flask, session

from ..core import Contract, Damage, Ledger, Replay, Settlement, SettleUp, System, result_label, settle_up
from .db import get_db
from .i18n import money
from ..store import Table, evening_closed, ledger_and_log_size


@dataclass(frozen=True)
class Banner:
    """The deal the banner of a table's pages tells ("Deal 4 of 4 · Dealer Denis · Eldest Anne"): its number, its
    dealer and its eldest hand."""

    number: int
    dealer: str
    eldest: str


def banner_of(played: int, dealer: str, eldest: str, last: Settlement | None, finished: bool) -> Banner:
    """The deal the banner tells: the next deal (``played + 1``, dealt by ``dealer``, ``eldest`` leading) while one
    can be recorded; once the evening is over (or closed by its circle's next evening), the last deal played, with
    the dealer who dealt it and its eldest (not the next in turn, who deals no more this evening)."""
    if finished and last is not None:
        return Banner(last.number, last.deal.dealer, last.before.eldest(last.deal.dealer))
    return Banner(played + 1, dealer, eldest)


@dataclass(frozen=True)
class TableView:
    """What every page of a table shows: the replayed ledger and whose deal is next."""

    system: System
    """The profile's settlement system: the pages ask it what to show (its units, its last column...)."""
    units: str
    """What the balances count, as a plural noun ("chips", "points", "counters")."""
    standing: tuple[tuple[str, str], ...]
    """What the table carries into the next deal, as the system tells it: (label, value) pairs."""
    multipliers: Mapping[str, int]
    """Each player's multiplier if she is Hombre next, where the system keeps one per player; else empty."""
    table: Table
    ledger: Replay
    """The deals settled, and the table's state after the last."""
    book: Ledger
    """The table's log folded: the deals standing and their versions, and any damage."""
    damage: Damage | None
    log_size: int
    """Lines in the table's log (0 until the first deal is recorded: the house rules are not frozen)."""
    played: int
    number: int
    """The next deal's number."""
    dealer: str
    """Who deals next."""
    eldest: str
    """Who is eldest hand next (on the dealer's right)."""
    banner: Banner
    """The deal the banner at the top of the table's pages tells: the next, or the last once no deal can follow."""
    over: bool
    """Whether all the deals agreed are played."""
    closed: int | None
    """For an evening of a circle whose next evening has begun, that evening's number: it takes no new deal."""
    contracts: tuple[Contract, ...]
    """The contracts the table's profile plays."""
    last: Settlement | None
    me: str | None
    """Who holds this phone, as the phone said."""

    def context(self) -> dict[str, object]:
        """The fields by name, for ``render_template``."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def table_view(table: Table) -> TableView:
    """The view of ``table`` as it stands: its log replayed (from the cache) and whose deal is next."""
    book, size = ledger_and_log_size(get_db(), table)
    result = book.replay
    played = len(result.settlements)
    dealer = result.next_dealer or table.first_dealer
    system = table.rules.profile.system
    eldest = result.final.eldest(dealer)
    over = played >= table.deals_agreed
    closed = evening_closed(get_db(), table)
    last = result.settlements[-1] if result.settlements else None
    return TableView(
        system=system,
        units=system.units_text,  # for a sentence, in the reader's language
        standing=system.standing(result.final, table.rules, eldest),
        multipliers=system.multipliers(result.final, table.rules),
        table=table,
        ledger=result,
        book=book,
        damage=book.damage,
        log_size=size,
        played=played,
        number=played + 1,
        dealer=dealer,
        eldest=eldest,
        banner=banner_of(played, dealer, eldest, last, over or closed is not None),
        over=over,
        closed=closed,
        contracts=table.rules.profile.contracts,
        last=last,
        me=phone_holder(table),
    )


@dataclass(frozen=True)
class EveningMoney:
    """What an evening comes to in money: its settle-up (the pool closed per ``pool_at_end``, the fewest payments)
    and how an amount is said. The table's page after the last deal and the tally say it alike."""

    settle: SettleUp
    has_money: bool
    """Whether a chip has a money value at this table."""
    money: Callable[[int], str]
    """An amount in cents as money, or in the table's units when a chip has no money value."""


def evening_money(table: Table, view: TableView) -> EveningMoney:
    """The settle-up of ``table`` as ``view`` shows it, at the table's chip value (one unit a chip if it has none)."""
    value = table.chip_value_cents

    def in_money(cents: int) -> str:
        return money(cents, table.currency) if value is not None else table.rules.profile.system.count(cents)

    return EveningMoney(settle_up(view.ledger, value if value is not None else 1), value is not None, in_money)


def phone_holder(table: Table) -> str | None:
    """Who holds this phone, as the phone said (kept in its session)."""
    me = session.get("me")
    return me if me in table.players else None


NUMBER_COLUMN, LAST_COLUMN = 9.0, 12.0
"""Percent of a ledger's or a tally's width for the deal's number, and for the last column (the pool's)."""


def name_widths(players: Sequence[str]) -> list[float]:
    """Each player's column, in percent of a ledger's or a tally's width: the room the number and the pool's columns
    leave, shared by the length of each name's longest piece that cannot wrap (at a space or after a hyphen),
    never less than a figure's room (+251) nor more than 14 characters': a short name's column gives its room to a
    long one's, and a name is cut only when no column has room for its longest piece."""
    def weight(name: str) -> float:
        pieces = [piece for word in name.split() for piece in re.split(r"(?<=-)", word) if piece]
        return min(max([len(p) + 1.5 for p in pieces] + [6.0]), 15.0)  # 1.5: the cell's padding

    weights = [weight(p) for p in players]
    room = 100.0 - NUMBER_COLUMN - LAST_COLUMN
    return [round(room * w / sum(weights), 2) for w in weights]


def init_app(app: Flask) -> None:
    """``result_label`` and ``name_widths`` for the templates (a deal's result as the ledger names it, the players'
    columns)."""
    app.add_template_global(result_label, "result_label")
    app.add_template_global(name_widths, "name_widths")
