"""A circle's season folded from the logs of its evenings, each once: the unit of every read and write of a
circle's evening.

An evening of a circle starts with what the evening before left on the table, so its ledger depends on
every evening before it. :func:`fold_circle` folds the season left to right: each evening's log through
the app's ledger cache (:data:`~.ledgers.LEDGERS`, keyed by the evening's settings, what it carried in and its
log's length), each carrying into the next, then the core's :func:`~scorer.core.ledger.season.season_of` over
the replays it made (nothing settled twice). The fold is kept per circle (the app's :data:`SEASONS`), keyed by the
circle's row and log and by each evening's table and log length: a page read of a season nothing changed
folds nothing, and a change to evening k folds k and the evenings after it once each.

The fold also says whether the circle holds (:class:`CircleDamage`): its own log's chain and sense (no
line missing or changed, members named once, renames and settlements of members), each evening its
table, each evening's settings its circle's, each evening's log settling with what it carried in. A
damaged circle is read-only: every write to it or its evenings is refused, and its pages say why.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import sqlite_utils

from ..core import Deal, Evening, ScorerError
from ..core.caches import Cache
from ..core.errors import Said, Words, said_of
from ..core.ledger.evening import Replay, replay, replay_continued
from ..core.i18n import N_
from ..core.ledger.log import Command, Ledger, Line, ReadOnly
from ..core.ledger.season import Season, decide_in_season, left_by, season_of
from .database import snapshot
from .circle_log import Circle, UnreadableCircle, circle_from, circle_problem, read_events
from .ledgers import CACHE_DEALS, LedgerCache, damaged_start, in_english, ledger_cache
from .lines import dict_rows, log_size, read_lines, row_where
from .tables import Table, UnreadableTable, table_from_row


T = TypeVar("T")


@dataclass(frozen=True)
class CircleDamage:
    """Where a circle stops holding, and why: it is then read-only."""

    evening: int | None
    """The evening at fault, or None for the circle's own row or log."""
    said: Said

    @property
    def words(self) -> Words:
        if self.evening is None:
            return Words(N_("the circle's log: {why}"), why=self.said)
        return Words(N_("evening {number}: {why}"), number=self.evening, why=self.said)

    @property
    def message(self) -> str:
        return str(self.words)


@dataclass(frozen=True)
class SeasonFold:
    """A circle's evenings folded in order, each with what the one before left on the table."""

    tables: tuple[Table, ...]
    """Every evening's table, in order (those the fold could read)."""
    ledgers: tuple[Ledger, ...]
    """One per table: its log folded with what the evening before carried into it. An evening after a
    damaged one is an empty ledger damaged before its first line (nothing of it can be settled)."""
    season: Season | None
    """The season (every evening closed, today's names), or None when the circle does not hold."""
    damage: CircleDamage | None
    """The first thing that makes the circle read-only, if any."""
    weight: int = 0
    sizes: tuple[int, ...] = ()
    """One per table: its log's length, read in the same snapshot as the fold (past its ledger's last line
    if the log is damaged there). A form made from an evening's page carries it: the length of the log it shows."""
    circle: Circle | None = None
    """The circle as its row and log say in the same snapshot (None if they cannot be read): a page shows it with
    the season, never a circle read before a member was renamed or added with a season folded after."""
    _made: dict[object, object] = field(default_factory=dict, repr=False, compare=False)

    def made(self, key: object, make: Callable[[], T]) -> T:
        """What ``make`` makes of this fold (statistics, running totals, a chart), made once per fold and kept
        with it: a page read of a season nothing changed makes nothing again."""
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]  # type: ignore[return-value]

    def ledger_of(self, number: int) -> Ledger | None:
        return self.ledgers[number - 1] if 1 <= number <= len(self.ledgers) else None


# --- the circle's own log: its sense ----------------------------------------------------------------------


SETTINGS_DIFFER = (N_("its profile is not the circle's"), N_("its house rules are not the circle's"),
                   N_("its length is not the circle's"), N_("its chip value is not the circle's"),
                   N_("its currency is not the circle's"))
"""Why an evening's settings are not its circle's, one sentence for each setting, in the order of :func:`evening_settings_differ`."""


def evening_settings_differ(circle: Circle, table: Table) -> str | None:
    """Why an evening's settings (profile, house rules, length, chip value, currency) are not its circle's
    (the first that differs, as a sentence of :data:`SETTINGS_DIFFER`), or None: an evening of a circle
    plays by the circle's settings."""
    theirs = (circle.rules.profile_name, circle.rules.changes(), circle.deals_agreed, circle.chip_value_cents, circle.currency)
    ours = (table.rules.profile_name, table.rules.changes(), table.deals_agreed, table.chip_value_cents, table.currency)
    return next((why for why, a, b in zip(SETTINGS_DIFFER, theirs, ours) if a != b), None)


# --- the fold -------------------------------------------------------------------------------------------------


def _sizes(conn: sqlite3.Connection, circle_id: int) -> dict[int, int]:
    """Each evening's log length (its last line's seq), in one query."""
    sizes: dict[int, int] = {}
    for table_id, size in conn.execute("select id, (select max(seq) from events where table_id = tables.id) "
                                       "from tables where circle_id = ?", [circle_id]):
        try:
            sizes[int(table_id)] = int(size)
        except (TypeError, ValueError):  # a seq edited by hand into text: its fold names the line
            sizes[int(table_id)] = 0
    return sizes


def renamed_evening(evening: Evening, names: Mapping[str, str]) -> Evening:
    """An evening read with its players' names of today: a member renamed since is her new name in its
    players and its deals (its table and log keep the names it was played with)."""
    if not any(p in names for p in evening.players):
        return evening

    def name(player: str | None) -> str | None:
        return None if player is None else names.get(player, player)

    def deal(d: Deal) -> Deal:
        return replace(d, dealer=names.get(d.dealer, d.dealer), hombre=names.get(d.hombre, d.hombre), ally=name(d.ally),
                       spadille=name(d.spadille), giver=name(d.giver), revealed_ally=name(d.revealed_ally))

    return replace(evening, players=tuple(names.get(p, p) for p in evening.players), deals=tuple(deal(d) for d in evening.deals))


@dataclass(frozen=True)
class _Kept:
    key: tuple[object, ...]
    """What the fold was made from as its reads see it: the circle's row, its log's length and last line, each
    evening's row and the last line of each evening's log."""
    fold: SeasonFold
    before_evenings: CircleDamage | None
    """What the circle's row and log, and its evenings' rows, say is wrong (the fold's damage before any evening's log)."""
    renamed: dict[tuple[object, ...], Replay]
    """Replays of evenings read under today's names (a member renamed since), by (table, log length, carry, names)."""

    def weigh(self) -> int:
        """What it weighs in the cache: the deals of its fold."""
        return self.fold.weight


SEASONS: Cache[str, _Kept] = Cache(CACHE_DEALS, _Kept.weigh)
"""The process's season folds, by their circle's link token, bounded by the deals they hold: see :func:`fold_circle`."""


class SeasonCache(Cache[str, _Kept]):
    """A season cache of one's own (``scorer verify``'s check), bounded as the process's."""

    def __init__(self, max_deals: int = CACHE_DEALS) -> None:
        super().__init__(max_deals, _Kept.weigh)


_FOLDING = tuple(threading.Lock() for _ in range(64))
"""One lock per stripe of circles: a circle is folded by one request at a time, the others waiting for its
result instead of folding it too (eight phones opening a season nothing has folded yet fold it once)."""


def fold_circle(conn: sqlite3.Connection, circle_id: int, ledgers: LedgerCache | None = None,
                seasons: Cache[str, _Kept] | None = None) -> tuple[dict[str, object], SeasonFold] | None:
    """The circle's row and its season folded (:class:`SeasonFold`), or None if there is no such circle.
    Reads as of one moment (a read transaction, or the caller's write transaction). ``ledgers`` and
    ``seasons`` are the caches it folds through: the process's, unless given (``scorer verify`` and a backup's
    check bring their own)."""
    ledgers = ledgers if ledgers is not None else ledger_cache()
    seasons = seasons if seasons is not None else SEASONS
    with snapshot(conn), in_english():
        row = row_where(conn, "circles", "id", circle_id)
        if row is None:
            return None
        head = conn.execute("select count(*), (select hash from circle_events where circle_id = ?1 order by seq desc "
                            "limit 1) from circle_events where circle_id = ?1", [circle_id]).fetchone()
        rows = dict_rows(conn.execute("select * from tables where circle_id = ? order by circle_evening", [circle_id]))
        sizes = _sizes(conn, circle_id)
        key = ((tuple(row.items()), tuple(head), tuple(tuple(r.items()) for r in rows)),
               tuple(sizes.get(r["id"], 0) for r in rows))
        kept = seasons.get(str(row["token"]))
        if kept is not None and kept.key == key:
            return row, kept.fold
        with _FOLDING[hash(row["token"]) % len(_FOLDING)]:
            kept = seasons.get(str(row["token"]))
            if kept is not None and kept.key == key:  # another request folded it meanwhile
                return row, kept.fold
            made = _fold(conn, row, rows, sizes, key, kept if kept is not None and kept.key[0] == key[0] else None, ledgers)
            seasons.put(str(row["token"]), made)
    return row, made.fold


def _circle_read(conn: sqlite3.Connection, row: dict[str, object],
                 rows: list[dict[str, object]]) -> tuple[Circle | None, list[Table], CircleDamage | None]:
    """The circle, its evenings' tables (those that could be read) and what is wrong with them, read afresh: its
    log's chain and sense checked (:func:`~.circle_log.circle_problem`)."""
    tables: list[Table] = []
    damage: CircleDamage | None = None
    for number, table_row in enumerate(rows, start=1):
        try:
            tables.append(table_from_row(table_row))
        except UnreadableTable as error:
            damage = CircleDamage(number, Words(N_("its table cannot be read ({why})"), why=said_of(error)))
            break
    events = read_events(conn, int(row["id"]))  # type: ignore[call-overload]
    try:
        circle: Circle | None = circle_from(row, events)
    except UnreadableCircle as error:
        return None, tables, damage or CircleDamage(None, error.said)
    if damage is None:
        problem = circle_problem(row, events, tables)
        damage = CircleDamage(None, problem) if problem is not None else None
    return circle, tables, damage


def _fold(conn: sqlite3.Connection, row: dict[str, object], rows: list[dict[str, object]], sizes: dict[int, int],  # more than 5: the rows read in the write transaction, and the fold before
          key: tuple[object, ...], kept: _Kept | None, cache: LedgerCache) -> _Kept:
    """The circle folded. ``kept``: its fold before, of the same row, log and evenings' rows (an evening's log grew
    since): its circle, tables and checks are taken as they are, and so is each evening before the first whose
    log's last line changed (its ledger, and its evening of the season)."""
    if kept is not None:
        circle, tables, damage = kept.fold.circle, list(kept.fold.tables), kept.before_evenings
    else:
        circle, tables, damage = _circle_read(conn, row, rows)
    first = damage
    table_sizes = tuple(sizes.get(t.id, 0) for t in tables)
    same = kept is not None and kept.fold.season is not None
    ledgers: list[Ledger] = []
    carried = 0
    for number, table in enumerate(tables, start=1):
        if same and kept is not None and kept.fold.sizes[number - 1] == table_sizes[number - 1]:
            ledgers.append(kept.fold.ledgers[number - 1])  # its log's last line as it was, with what it carried in
            carried = kept.fold.season.evenings[number - 1].carried_out  # type: ignore[union-attr]
            continue
        same = False
        ledger, damage, carried = _evening(conn, cache, circle, table, number, damage, carried, table_sizes[number - 1])
        ledgers.append(ledger)
    season: Season | None = None
    renamed: dict[tuple[object, ...], Replay] = {}
    weight = sum(len(ledger.deals) + 1 for ledger in ledgers)
    if damage is None and circle is not None:
        try:
            season = _season(circle, tables, ledgers, kept.renamed if kept else {}, renamed,
                             kept.fold.season if kept is not None else None)
        except ScorerError as error:
            damage = CircleDamage(None, error.said)
        weight += sum(len(r.settlements) for r in renamed.values())
    fold = SeasonFold(tuple(tables), tuple(ledgers), season, damage, weight, table_sizes, circle)
    return _Kept(key, fold, first, renamed)


def _evening(conn: sqlite3.Connection, cache: LedgerCache, circle: Circle | None, table: Table, number: int,  # more than 5: an evening, what came before it and its log's length
             damage: CircleDamage | None, carried: int, size: int) -> tuple[Ledger, CircleDamage | None, int]:
    """Evening ``number``'s ledger, its log folded through ``cache`` with what the evening before left on the
    table (``carried``); the first damage so far, and what it leaves on the table. An evening after a damaged
    one, or one that cannot start as its circle's (:func:`_cannot_start`), is a damaged start: nothing of it
    is settled."""
    if damage is not None and damage.evening is not None and damage.evening < number:
        return damaged_start(table, Words(N_("evening {number} of the circle does not hold ({why})"),
                                           number=damage.evening, why=damage.said)), damage, carried
    why = _cannot_start(circle, table, carried)
    if why is not None:
        return damaged_start(table, why), damage or CircleDamage(number, why), carried
    ledger, _size = cache.at(conn, table, carried, size)
    if ledger.damage is not None:
        return ledger, damage or CircleDamage(number, ledger.damage.words), carried
    return ledger, damage, left_by(ledger)


def _cannot_start(circle: Circle | None, table: Table, carried: int) -> Words | None:
    """Why an evening cannot start as its circle's, or None: its settings are not the circle's, or the
    evening before left chips on the table and its rules have no pool to carry them into."""
    differ = evening_settings_differ(circle, table) if circle is not None else None  # unreadable: damaged already
    if differ is not None:
        return Words(differ)
    if carried and not table.rules.profile.system.has_pool:
        return Words(N_("the evening before left {chips} chips on the table, but its rules have no pool"), chips=carried)
    return None


def _season(circle: Circle, tables: Sequence[Table], ledgers: Sequence[Ledger],  # more than 5: a season and what it is made from before
            renamed_before: Mapping[tuple[object, ...], Replay], renamed: dict[tuple[object, ...], Replay],
            before: Season | None = None) -> Season:
    """The season of evenings folded into ``ledgers``, under today's names (an evening a member renamed since
    sat in is replayed under her new name, or taken from ``renamed_before``; each such replay is put in ``renamed``).
    ``before``: the season of the same circle's log, whose evenings of the very same replays are taken as they
    are. Raises :class:`~scorer.core.SeasonError`."""
    names = circle.current_names()
    names_key = tuple(sorted(names.items()))
    replays = []
    for table, ledger in zip(tables, ledgers):
        if any(p in names for p in ledger.evening.players):
            # kept by evening, carry and names, and continued from the deals it shares with the evening as it
            # was (a deal added replays that deal alone: never the whole evening again for each deal)
            key = (table.token, ledger.evening.carried_in, names_key)
            evening = renamed_evening(ledger.replay.evening, names)
            was = renamed_before.get(key)
            done = was if was is not None and was.evening == evening else (
                replay(evening) if was is None else replay_continued(was, evening))
            renamed[key] = done
            replays.append(done)
        else:
            replays.append(ledger.replay)
    then = [tuple(names.get(m, m) for m in members) for members in circle.evening_members]
    return season_of(circle.members, replays, then if len(then) == len(replays) else None, before)


def season_after(conn: sqlite3.Connection, table: Table, command: Command) -> tuple[Season, Season]:
    """An evening of a circle: the season as it stands, and as it would be after ``command`` (a correction
    or a restoration shown before it is saved): every later evening folded again with the carry it then
    has. Nothing is written. Raises as the write path would (:func:`~scorer.core.ledger.season.decide_in_season`:
    a later evening it would break, named) and :class:`~scorer.core.ledger.log.ReadOnly` for a circle that does not hold."""
    assert table.circle_id is not None and table.circle_evening is not None
    folded = fold_circle(conn, table.circle_id)
    if folded is None or folded[1].season is None:
        why = folded[1].damage.words if folded is not None and folded[1].damage is not None else Words(N_("the circle no longer exists"))
        raise ReadOnly(Words(N_("This evening's circle does not hold ({where}): it can be read and exported, not changed."), where=why))
    row, fold = folded
    assert fold.season is not None
    with snapshot(conn), in_english():
        circle = fold.circle  # as of the fold's own snapshot (a member renamed since would be another season)
        assert circle is not None
        ledgers = list(fold.ledgers)
        _line, changed = decide_in_season(command, ledgers, table.circle_evening, lines_of(conn, fold.tables))
        for k, after in changed.items():
            ledgers[k - 1] = after
        kept = SEASONS.get(str(row["token"]))  # the replays of renamed evenings, continued rather than made anew
        return fold.season, _season(circle, fold.tables, ledgers, kept.renamed if kept is not None else {}, {})


def lines_of(conn: sqlite3.Connection, tables: Sequence[Table]) -> Callable[[int], list[Line]]:
    """Evening k's log as its lines (up to the first that cannot be read), as
    :func:`~scorer.core.ledger.season.decide_in_season` reads a later evening."""
    return lambda k: read_lines(conn, tables[k - 1].id, 0)[0]


class CircleDamaged(ReadOnly):
    """A circle that does not hold (its log or an evening's edited by hand): read-only, every write refused."""

    def __init__(self, damage: CircleDamage) -> None:
        super().__init__(Words(N_("This circle does not hold ({where}): it can be read and exported, not changed. "
                                  "Its Check page says more."), where=damage.words))
        self.damage = damage


def checked_for_writing(conn: sqlite3.Connection, fold: SeasonFold) -> tuple[Ledger, ...]:
    """Inside a write transaction, with ``fold`` folded in it (:func:`fold_circle`: the circle's log and each
    evening's log as their last lines read in it say): its evenings with every deal checked again once for each
    time it is folded from the database, as a table's write path checks its own (a deal edited with its chain
    computed again is found here before anything is written); raises :class:`CircleDamaged` if the circle does
    not hold."""
    if fold.damage is not None:
        raise CircleDamaged(fold.damage)
    checked, cache = [], ledger_cache()
    for number, (table, ledger, size) in enumerate(zip(fold.tables, fold.ledgers, fold.sizes), start=1):
        again = ledger if cache.rechecked(table, ledger) else cache.recheck(conn, table, ledger.evening.carried_in, size)[0]
        if again.damage is not None:
            raise CircleDamaged(CircleDamage(number, again.damage.words))
        checked.append(again)
    return tuple(checked)


def ledger_and_log_size(db: sqlite_utils.Database, table: Table) -> tuple[Ledger, int]:
    """A table's ledger and its log's length; for an evening of a circle, as its circle's fold has it
    (begun with what the evening before left). The one way every reader gets a table's ledger."""
    if table.circle_id is None or table.circle_evening is None:
        return ledger_cache().get(db.conn, table)
    folded = fold_circle(db.conn, table.circle_id)
    if folded is not None:
        _row, fold = folded
        ledger = fold.ledger_of(table.circle_evening)
        if ledger is not None and fold.tables[table.circle_evening - 1].id == table.id \
                and fold.tables[table.circle_evening - 1].settings == table.settings:
            # the log's length as of the fold (never read after it: a line written meanwhile would give a form
            # the length of a log it does not show, and a correction made from it would pass the write path's check)
            return ledger, max(ledger.seq, fold.sizes[table.circle_evening - 1])
    return damaged_start(table, Words(N_("its circle cannot be read"))), log_size(db.conn, table.id)


def ledger(db: sqlite_utils.Database, table: Table) -> Ledger:
    """The table's log folded into deals, versions and settlements (an evening of a circle begun with what
    the evening before left: :func:`ledger_and_log_size`)."""
    return ledger_and_log_size(db, table)[0]


def rechecked_ledger(db: sqlite_utils.Database, table: Table) -> Ledger:
    """:func:`ledger` with every deal checked again (the Check page, ``scorer verify``)."""
    folded, _size = ledger_and_log_size(db, table)
    if folded.damage is not None and folded.seq == 0:
        return folded  # damaged before its first line (its circle does not hold before it): nothing to check
    return ledger_cache().recheck(db.conn, table, folded.evening.carried_in)[0]


def evening_closed(db: sqlite_utils.Database, table: Table) -> int | None:
    """For an evening of a circle whose next evening has begun, the next evening's number (the evening ended
    then: its deals can be corrected, none added or taken back); None for any other table."""
    if table.circle_id is None or table.circle_evening is None:
        return None
    found = db.conn.execute("select min(circle_evening) from tables where circle_id = ? and circle_evening > ?",
                            [table.circle_id, table.circle_evening]).fetchone()
    return int(found[0]) if found and found[0] is not None else None
