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

from ..core import Contract, Damage, Ledger, Replay, Settlement, SettleUp, System, Words, result_label, settle_up
from ..core.errors import Said
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
        """The fields by name, for ``render_template``; and worded for the page only (a form sent and answered by a
        redirect words nothing), what the balances count ("chips", "points", "counters") and what the table carries
        into the next deal, (label, value) pairs as the system tells them."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)}, "units": self.system.units_text,
                "standing": self.system.standing(self.ledger.final, self.table.rules, self.eldest)}


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


NUMBER_COLUMN, LAST_COLUMN = 2.6, 2.8
"""Rems of a ledger's or a tally's width for the deal's number (room for its last row's word, "Total", "Now" or "Solde",
in the small type of the heads) and for the last column (the pool's, "Poule" in French): fixed, whatever the screen; the
players' columns share what they leave (:func:`name_widths`)."""

PHONE_ROOM = 390 - 2 * 12 - 16 * (NUMBER_COLUMN + LAST_COLUMN)
"""Pixels the players' columns share on the narrowest phone the pages are made for (390 px wide, less the page's
margins and the two fixed columns): what :func:`name_widths` sizes them for; a wider screen widens each in
proportion."""

FIGURE_ROOM = 51.0
"""Pixels of a player's column that a figure needs: a total in bold with its sign ("−244", "+251") and the cell's
padding. No column is narrower, so no figure is cut."""

_EMS = {**dict.fromkeys("ijlIJ'.", .36), **dict.fromkeys("frt-", .48), **dict.fromkeys("csz", .6),
        **dict.fromkeys("mwMW", 1.04)}
"""Ems of a letter of a name in a column head (bold), where it differs from :func:`_piece_width`'s others."""


def _piece_width(piece: str) -> float:
    """Pixels a piece of a name takes in a column head (12 px bold, DejaVu Sans's widths or a little more: a phone's
    own fonts are narrower), with the head's padding."""
    return 12 * sum(_EMS.get(c, .78 if c.isupper() else .7) for c in piece) + 6.4


def name_widths(players: Sequence[str], room: float = PHONE_ROOM) -> list[float]:
    """Each player's column, in percent of the room a ledger's or a tally's number and last columns leave (the
    percentages sum to 100): each column first gets a figure's room; then, on a phone, each name gets the room of
    its longest piece that cannot wrap (at a space or after a hyphen), the shortest first, so that a name is cut
    only when no column has room for it (its whole name is in its head's title); what is left is shared by the
    same lengths. A short name's column gives its room to a long one's. ``room``: the pixels they share on a phone."""
    def need(name: str) -> float:
        pieces = [piece for word in name.split() for piece in re.split(r"(?<=-)", word) if piece]
        return max([_piece_width(p) for p in pieces] + [FIGURE_ROOM])

    needs = [need(p) for p in players]
    if not needs:
        return []
    if sum(needs) <= room:
        widths = needs  # every name whole: the room left shared by the same lengths
    else:  # a figure's room each, then as many whole names as the rest holds, the shortest first
        spare = max(room - FIGURE_ROOM * len(needs), 0.0)
        extras = sorted(n - FIGURE_ROOM for n in needs)
        level = 0.0
        for i, extra in enumerate(extras):
            if extra * (len(extras) - i) > spare:
                level = spare / (len(extras) - i)
                break
            spare -= extra
        else:
            level = extras[-1]
        widths = [FIGURE_ROOM + min(n - FIGURE_ROOM, level) for n in needs]
    return [round(100 * w / sum(widths), 2) for w in widths]


def column_widths(players: Sequence[str]) -> list[str]:
    """The CSS widths of a ledger's or a tally's columns (its ``<col>``): the deal's number and the last column in
    rems, each player's in percent (:func:`name_widths`, summing to 100): a table of fixed layout gives the
    percentages what the fixed columns leave, in proportion."""
    return [f"{NUMBER_COLUMN}rem", *(f"{w}%" for w in name_widths(players)), f"{LAST_COLUMN}rem"]


STANDING_ROOM = 390 - 2 * 12
"""Pixels a table of the players alone (the standing on a table's page) shares on the narrowest phone."""


def standing_widths(players: Sequence[str]) -> list[str]:
    """The CSS widths of the columns of a table of the players alone: their names' share of the width
    (:func:`name_widths`)."""
    return [f"{w}%" for w in name_widths(players, STANDING_ROOM)]


def counts_unbroken(said: str) -> str:
    """``said`` with each figure kept with the word after it ("−2 mils 4 fish" wraps between "mils" and "4", never
    between "−2" and "mils"): a no-break space after each figure."""
    return re.sub(r"(?<=\d) ", "\u00a0", said)


def init_app(app: Flask) -> None:
    """``result_label``, ``column_widths``, ``standing_widths`` and the filter ``counts_unbroken`` for the templates
    (a deal's result as the ledger names it, the widths of a ledger's, a tally's or the standing's columns, counts
    that wrap between them only)."""
    app.add_template_global(result_label, "result_label")
    app.add_template_global(column_widths, "column_widths")
    app.add_template_global(standing_widths, "standing_widths")
    app.add_template_filter(counts_unbroken, "counts_unbroken")
