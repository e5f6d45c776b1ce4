"""Each table's ledger, kept in memory and brought up to date from the lines added since.

The log in the database is the truth; the cache is a copy. A request reads the
log's last seq and any newer lines, and folds them in with the core's
:func:`~scorer.core.ledger.log.advance`: a new deal is settled from the state after the
last (no replay), a correction of deal k replays from deal k. The cache is
bounded by the deals it holds (memory), not by the number of tables.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace

from ..core.caches import Cache
from ..core.errors import Counted, Later, Said, Words
from ..core.i18n import N_, translating
from ..core.ledger.log import Damage, Ledger, advance, recheck
from .chain import genesis, read_chained
from .lines import log_size
from .tables import Table

CACHE_DEALS = 20_000
"""Deals the process keeps in memory across all its tables (about 3 kB each): the least recently read tables go first."""


def in_english() -> AbstractContextManager[None]:
    """Fold in English: a ledger is kept in the cache that every reader shares, whatever their language
   , so any sentence made while it is folded (a damage's why) is made in English, never in the
    language of the reader whose request happened to fold it. What is worded for a reader is worded
    when it is shown."""
    return translating(str)  # each sentence as it is written


@dataclass(frozen=True)
class _Entry:
    settings: tuple[object, ...]
    ledger: Ledger
    size: int
    """The log's length when this ledger was made (past ``ledger.seq`` if the log is damaged)."""
    rechecked: bool = False
    """Every deal folded from the database has been checked again (:meth:`LedgerCache.recheck`)."""
    chained: str | None = None
    """The hash of line ``ledger.seq``, every line up to it found to follow from the one before (the chain
    verified as far as the fold went: a line is hashed when it is first folded, never again); None if not known."""

    def weigh(self) -> int:
        """What it weighs in the cache: its deals, and one for the table."""
        return len(self.ledger.deals) + 1


LEDGERS: Cache[str, _Entry] = Cache(CACHE_DEALS, _Entry.weigh)
"""The process's ledgers, by their table's link token (unique across databases): :func:`ledger_cache` reads and
writes them."""


class LedgerCache:
    """Ledgers kept in a :class:`~scorer.core.caches.Cache` by their table's link token, bounded by the deals
    they hold: the process's (:func:`ledger_cache`), or one of its own (``scorer verify``'s check)."""

    def __init__(self, kept: Cache[str, _Entry] | None = None, max_deals: int = CACHE_DEALS) -> None:
        self.tables: Cache[str, _Entry] = kept if kept is not None else Cache(max_deals, _Entry.weigh)
        """Keyed by the table's link token: unique across databases, unlike its row id."""

    def _cached(self, table: Table, carried: int) -> _Entry | None:
        entry = self.tables.get(table.token)
        ours = entry is not None and entry.settings == (table.settings, carried)
        return entry if ours and entry is not None and (entry.chained is not None or entry.ledger.damage is not None) else None

    def put(self, table: Table, ledger: Ledger, size: int, rechecked: bool = False, carried: int | None = None,  # more than 5: a fold and how far it was checked
            chained: str | None = None) -> None:
        """Keep ``ledger`` (the log folded up to line ``size``), unless a newer one is kept already.
        It is kept under the table's settings and what its circle carried into it (``carried``, by
        default the ledger's own ``carried_in``): a change of either folds the log afresh. ``chained`` is
        the hash of its last line, the chain verified up to it; if not given, the hash kept with the same
        log folded before (another carry, or checked again); a ledger whose chain is not known is folded afresh
        when next read."""
        carried = ledger.evening.carried_in if carried is None else carried
        if chained is None:
            old = self.tables.get(table.token)
            if old is not None and old.settings[0] == table.settings and old.ledger.seq == ledger.seq:
                chained = old.chained
        entry = _Entry((table.settings, carried), ledger, size, rechecked, chained)
        self.tables.put(table.token, entry, unless=lambda old: old.settings == entry.settings and old.size > size)

    def get(self, conn: sqlite3.Connection, table: Table) -> tuple[Ledger, int]:
        """A table of no circle: its ledger as of its log's last line, and the log's length (read once), begun
        with what its file said it began with (an evening of a circle imported alone: ``tables.carried_in``).
        (An evening of a circle is read through its circle's fold: :func:`.seasons.ledger_and_log_size`.)"""
        carried = table.carried_in
        if carried and not table.rules.profile.system.has_pool:  # a row edited by hand: nothing of it settles
            why = Words(N_("the table began with {chips}, but {profile} has no pool to carry them into"),
                        chips=Counted("{n} chip carried in", "{n} chips carried in", carried),
                        profile=Later(table.rules.profile, "title"))
            return damaged_start(table, why), log_size(conn, table.id)
        return self.at(conn, table, carried)

    def at(self, conn: sqlite3.Connection, table: Table, carried: int, size: int | None = None) -> tuple[Ledger, int]:
        """The table's ledger begun with ``carried`` chips from the evening before (its circle's fold
        says how many), and the log's length (``size`` if the caller read it already)."""
        size = log_size(conn, table.id) if size is None else size
        entry = self._cached(table, carried)
        if entry is not None and entry.size == size:
            return entry.ledger, size
        growing = entry is not None and entry.size < size
        if entry is not None and growing:
            ledger, chained = entry.ledger, entry.chained
        else:
            ledger, chained = Ledger.start(replace(table.evening(), carried_in=carried)), genesis(table)
        if ledger.damage is None and chained is not None:
            # each new line's hash checked against the last verified (in full when the fold is first made): a line
            # edited by hand, its chain not computed again, damages the ledger, and a damaged table is read-only
            lines, broken, chained = read_chained(conn, table.id, ledger.seq, chained)
            # checked when written (decide, or the import's check), hash-chained since: not checked again
            # here; a deal that fails to settle still damages the ledger, and recheck checks every deal
            with in_english():
                ledger = advance(ledger, lines, broken, check=False)
            size = max(size, ledger.seq)  # a line appended between the two reads
        self.put(table, ledger, size, rechecked=growing and entry is not None and entry.rechecked, carried=carried,
                 chained=chained)
        return ledger, size

    def rechecked(self, table: Table, ledger: Ledger) -> bool:
        """Whether ``ledger`` is the table's kept ledger, every deal of it checked again (:meth:`recheck`)."""
        entry = self.tables.get(table.token)
        return entry is not None and entry.ledger is ledger and entry.rechecked

    def recheck(self, conn: sqlite3.Connection, table: Table, carried: int | None = None,
                size: int | None = None) -> tuple[Ledger, int]:
        """The table's ledger (begun with ``carried``) with every deal folded from the database checked
        again, once for each time it is folded from the database (:func:`~scorer.core.ledger.log.recheck`): the
        write path calls it inside its transaction, the Check page too. A deal that fails damages the kept ledger."""
        if carried is None:  # a table of no circle: what its file said it began with
            carried = table.carried_in
            if carried and not table.rules.profile.system.has_pool:
                return self.get(conn, table)  # damaged before its first line: nothing to check
        with in_english():
            ledger, size = self.at(conn, table, carried, size)
            entry = self._cached(table, carried)
            if entry is not None and entry.size == size and entry.rechecked:
                return ledger, size
            checked = recheck(ledger)
        self.put(table, checked, size, rechecked=True, carried=carried)
        return checked, size


def damaged_start(table: Table, why: Said) -> Ledger:
    """The table's ledger damaged before its first line: nothing of it is settled."""
    return replace(Ledger.start(table.evening()), damage=Damage(0, None, why))


def ledger_cache() -> LedgerCache:
    """The process's ledgers."""
    return LedgerCache(LEDGERS)
