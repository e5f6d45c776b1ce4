"""Backups of the database: every log checked as ``scorer verify`` checks it, a consistent copy taken while
the app runs, and a restore that puts back only a copy that verifies.

- :func:`check_database`: every table's hash chain and every deal settled again, every circle's log (what
  ``scorer verify`` reports, line by line);
- :func:`backup`: SQLite's online backup API copies one consistent snapshot (a read transaction, which in
  WAL mode never blocks the app's writers) to a temporary file in the destination; the copy is turned into
  a single self-contained file (rollback journal, no ``-wal``), checked (``PRAGMA integrity_check`` and
  :func:`check_database`), fsynced and renamed to ``scorer-YYYYmmddTHHMMSSZ.sqlite``, readable by its owner
  only (it holds every table's link); then only the last N backups are kept: files of that name that are
  scorer databases SQLite finds sound (:func:`verifies`), no other file however it is named;
- :func:`restore`: the same checks on a copy made in the database's folder, then the current database and
  its ``-wal``/``-shm`` files renamed aside together (``<db>.before-restore-<time>``) and the copy renamed
  into place. It refuses while another process holds the database open: the app must be stopped.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime, timezone
from urllib.parse import quote

import sqlite_utils

from ..core.errors import ScorerError
from ..core.i18n import ngettext
from .database import SCHEMA_VERSION, migrate
from .chain import verify
from .circles import UnreadableCircle, circle_by_token, verify_circle
from .ledgers import LEDGERS, LedgerCache
from .seasons import SEASONS, SeasonCache, fold_circle
from .lines import log_size
from .tables import UnreadableTable, table_from_row

KEEP = 14
"""Backups kept in the destination by default: two weeks of nightly copies."""
BACKUP_NAME = re.compile(r"scorer-(\d{8}T\d{6}Z)(?:-(\d+))?\.sqlite")
"""A backup's file name; the number after the time tells apart two backups of the same second."""
SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_S = 10.0
SIDE_FILES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database: they belong to it, and are never left to a database put in its place."""


# --- checking every log -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One line of the report: a table or a circle, intact or broken."""
    kind: str  # "table" or "circle"
    text: str
    broken: bool


class NoSuchTable(ScorerError):
    """A link token :func:`check_database` was asked for and found no table for; the token is its message."""


def check_database(db: sqlite_utils.Database, tokens: Sequence[str] = ()) -> Iterator[Finding]:
    """Check the hash chain of every table's log and settle every deal in it again, then check every circle's
    log (or only the tables whose link tokens are given; :class:`NoSuchTable` if one is not there). The
    ledgers are folded in a cache of this check's own, never the app's: a copy of a database holds the same
    tokens as the database it was taken from."""
    cache, seasons = LedgerCache(), SeasonCache()
    rows = ([db.conn.execute("select * from tables where token = ?", [t]).fetchone() for t in tokens] if tokens
            else db.conn.execute("select * from tables order by id").fetchall())
    folds: dict[int, object] = {}  # each circle folded once for this check, not once for each of its evenings
    if tokens and None in rows:
        raise NoSuchTable(tokens[rows.index(None)])
    for row in rows:
        yield from _check_table(db, (cache, seasons), dict(row), folds)
    if not tokens:
        yield from _check_circles(db, (cache, seasons))


def _check_table(db: sqlite_utils.Database, caches: tuple[LedgerCache, SeasonCache], row: dict[str, object],
                 folds: dict[int, object]) -> Iterator[Finding]:
    try:
        table = table_from_row(row)
    except UnreadableTable as error:
        yield Finding("table", f"table {row['token']}: BROKEN: {error.message}", True)
        return
    who = f"table {table.token} ({', '.join(table.players)})"
    chain = verify(db, table)
    cache, seasons = caches
    carried: int | None = None  # a table of no circle: what it began with (LedgerCache.recheck)
    if table.circle_id is not None and table.circle_evening is not None:  # it begins with what its circle's evening before left
        if table.circle_id not in folds:
            folds[table.circle_id] = fold_circle(db.conn, table.circle_id, cache, seasons)
        folded = folds[table.circle_id]
        began = folded[1].ledger_of(table.circle_evening) if isinstance(folded, tuple) else None
        carried = began.evening.carried_in if began is not None else 0
    damage = cache.recheck(db.conn, table, carried)[0].damage
    if chain is None and damage is None:
        lines = log_size(db.conn, table.id)
        yield Finding("table", f"{who}: " + ngettext("{n} line, intact", "{n} lines, intact", lines).format(n=lines), False)
        return
    if chain is not None:
        where = f" — deal {chain.number}" if chain.number is not None else ""
        yield Finding("table", f"{who}: BROKEN at line {chain.seq}{where}: {chain.why}", True)
    if damage is not None:
        yield Finding("table", f"{who}: CANNOT BE REPLAYED at {damage.message}", True)


def _check_circles(db: sqlite_utils.Database, caches: tuple[LedgerCache, SeasonCache]) -> Iterator[Finding]:
    for (token,) in db.conn.execute("select token from circles order by id").fetchall():
        try:
            circle = circle_by_token(db, token)
        except UnreadableCircle as error:
            yield Finding("circle", f"circle {token}: BROKEN: {error.message}", True)
            continue
        assert circle is not None
        folded = fold_circle(db.conn, circle.id, *caches)
        damage = folded[1].damage if folded is not None else None
        try:
            chain = verify_circle(db, circle)
        except UnreadableTable as error:  # an evening's table row: named as the fold names it ("evening 2: ...")
            why = damage.message if damage is not None else error.message
            yield Finding("circle", f"circle {token} ({circle.name}): BROKEN: {why}", True)
            continue
        if chain is None and damage is not None:
            yield Finding("circle", f"circle {token} ({circle.name}): DOES NOT HOLD at {damage.message}", True)
        elif chain is None:
            evenings = ngettext("{n} evening, intact", "{n} evenings, intact", circle.evenings).format(n=circle.evenings)
            yield Finding("circle", f"circle {token} ({circle.name}): {evenings}", False)
        else:
            yield Finding("circle", f"circle {token} ({circle.name}): BROKEN at line {chain.seq}: {chain.why}", True)


# --- a copy checked ---------------------------------------------------------------------------------------


class BackupError(ScorerError):
    """Why a backup could not be written, or a copy cannot be restored; nothing was changed (its
    :attr:`~scorer.core.errors.ScorerError.message` says why)."""


@dataclass(frozen=True)
class Checked:
    """What a copy holds, once checked."""
    tables: int
    circles: int
    broken: list[str] = field(default_factory=list)

    @property
    def holds(self) -> str:
        """What the copy holds, counted: "12 tables, 2 circles", "1 table, 0 circles"."""
        return ", ".join((ngettext("{n} table", "{n} tables", self.tables).format(n=self.tables),
                          ngettext("{n} circle", "{n} circles", self.circles).format(n=self.circles)))


def check_copy(path: str, name: str) -> Checked:
    """Check a copy of the database: SQLite, ``PRAGMA integrity_check``, a schema this build knows, and every
    log as :func:`check_database` checks it. The copy is made a single file (rollback journal) first, and an
    older schema is brought up to this build's (as the app does when it starts): call it on a copy of one's
    own. Raise :class:`BackupError` (naming it ``name``) if it cannot be read at all; its broken logs are listed."""
    _require_sqlite(path, name)
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("PRAGMA journal_mode = DELETE")
        problems = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise BackupError(f"{name}: the SQLite integrity check fails: {'; '.join(problems[:3])}")
        schema = _schema_version(conn, name)
        if schema > SCHEMA_VERSION:
            raise BackupError(f"{name}: its schema (version {schema}) is newer than this build knows "
                              f"(version {SCHEMA_VERSION}): use the build that wrote it")
        db = sqlite_utils.Database(conn)
        if schema < SCHEMA_VERSION:
            migrate(db)
        findings = list(check_database(db))
        tables, circles = (int(conn.execute(f"select count(*) from {t}").fetchone()[0]) for t in ("tables", "circles"))
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{name}: cannot be read as a database: {error}") from None
    finally:
        conn.close()
    return Checked(tables, circles, [f.text for f in findings if f.broken])


def _require_sqlite(path: str, name: str) -> None:
    try:
        with open(path, "rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise BackupError(f"{name}: cannot be read: {error.strerror}") from None
    if header != SQLITE_HEADER:
        raise BackupError(f"{name}: not an SQLite database")


def _schema_version(conn: sqlite3.Connection, name: str) -> int:
    try:
        row = conn.execute("select value from meta where key = 'schema_version'").fetchone()
    except sqlite3.OperationalError:
        row = None
    if row is None or not str(row[0]).isdigit():
        raise BackupError(f"{name}: not a scorer database (no schema version)")
    return int(row[0])


# --- backup -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    path: str
    checked: Checked
    removed: list[str]
    """The older backups deleted to keep the last N."""
    kept: list[str] = field(default_factory=list)
    """Files named as backups but not deleted, as they do not verify as backups: each with why."""


def backup(db_path: str, dest: str, keep: int = KEEP, now: datetime | None = None) -> Written:
    """Copy the database at ``db_path`` (while the app runs) into the folder ``dest``, check the copy, and keep
    the last ``keep`` backups there. A copy that does not verify is removed: :class:`BackupError`."""
    if keep < 1:
        raise BackupError("--keep must be at least 1")
    if not os.path.isfile(db_path):
        raise BackupError(f"no database at {db_path}")
    _require_sqlite(db_path, db_path)
    with _temporary(dest, ".scorer-backup-") as tmp:
        _copy(db_path, tmp)
        checked = check_copy(tmp, f"the copy of {db_path}")
        if checked.broken:
            raise BackupError(f"the copy of {db_path} does not verify, so it was not kept: " + "; ".join(checked.broken))
        _fsync(tmp)
        path = _place(tmp, dest, _stamp(now))
        _fsync(dest)
    removed, kept = prune(dest, keep)
    return Written(path, checked, removed, kept)


@contextmanager
def _temporary(folder: str, prefix: str) -> Iterator[str]:
    """A new empty file in ``folder`` (made if missing), removed if what is done with it fails."""
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        yield tmp
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _copy(db_path: str, tmp: str) -> None:
    """One consistent snapshot through SQLite's online backup API, in a single step: a read transaction,
    which in WAL mode lets the app go on writing (what it writes meanwhile is not in the copy)."""
    try:
        with closing(sqlite3.connect(db_path, timeout=BUSY_TIMEOUT_S)) as source, \
                closing(sqlite3.connect(tmp)) as target:
            source.backup(target)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{db_path}: cannot be copied: {error}") from None


def _stamp(now: datetime | None) -> str:
    return (now or datetime.now(timezone.utc)).astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _place(tmp: str, dest: str, stamp: str) -> str:
    """Rename the checked copy to its backup name, never over another backup (two in one second get -2, -3...)."""
    n = 0
    while True:
        n += 1
        path = os.path.join(dest, f"scorer-{stamp}{'' if n == 1 else f'-{n}'}.sqlite")
        try:
            os.link(tmp, path)  # fails if the name is taken, unlike a rename
        except FileExistsError:
            continue
        except OSError:  # a file system without hard links
            if os.path.lexists(path):
                continue
            os.rename(tmp, path)
            return path
        os.remove(tmp)
        return path


def named_as_backups(dest: str) -> list[str]:
    """The files in ``dest`` named as :func:`backup` names them, oldest first."""
    try:
        names = os.listdir(dest)
    except FileNotFoundError:
        return []
    found = []
    for name in names:
        match = BACKUP_NAME.fullmatch(name)
        path = os.path.join(dest, name)
        if match and os.path.isfile(path) and not os.path.islink(path):
            found.append((match.group(1), int(match.group(2) or 1), path))
    return [path for _, _, path in sorted(found)]


def verifies(path: str) -> str | None:
    """Why the file at ``path`` is not a backup :func:`backup` made, or None if it is one: an SQLite file whose
    ``PRAGMA quick_check`` passes and that holds a scorer schema. Read only: the file is never changed."""
    try:
        _require_sqlite(path, path)
        with closing(sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)) as conn:
            problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                return f"the SQLite check fails: {'; '.join(problems[:3])}"
            _schema_version(conn, path)
    except BackupError as error:
        return error.message.removeprefix(f"{path}: ")
    except sqlite3.DatabaseError as error:
        return f"cannot be read as a database: {error}"
    return None


def prune(dest: str, keep: int) -> tuple[list[str], list[str]]:
    """Delete all but the last ``keep`` backups in ``dest``; no other file is touched, not even one named as a
    backup that does not verify as one. Return those deleted, and those named as backups but kept (with why)."""
    named = {path: verifies(path) for path in named_as_backups(dest)}
    old = [path for path, why in named.items() if why is None][:-keep]
    kept = [f"{path} ({why})" for path, why in named.items() if why is not None]
    for path in old:
        os.remove(path)
    if old:
        _fsync(dest)
    return old, kept


# --- restore ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    checked: Checked
    aside: str | None
    """Where the database that was replaced now is (with its -wal and -shm files, if it had them)."""


def restore(backup_path: str, db_path: str, confirm: Callable[[Checked], bool] | None = None,
            now: datetime | None = None) -> Restored:
    """Put the backup at ``backup_path`` in place of the database at ``db_path``, if it verifies; the app must
    be stopped (refused while another process holds the database open). ``confirm`` is asked once the copy
    has verified; if it says no, nothing changes. Raise :class:`BackupError` and change nothing otherwise."""
    if not os.path.isfile(backup_path):
        raise BackupError(f"no backup at {backup_path}")
    _require_sqlite(backup_path, backup_path)
    folder = os.path.dirname(os.path.abspath(db_path))
    with _temporary(folder, f".{os.path.basename(db_path)}.restore-") as tmp:
        shutil.copyfile(backup_path, tmp)
        checked = check_copy(tmp, backup_path)
        if checked.broken:
            raise BackupError(f"{backup_path} does not verify, so it was not restored: " + "; ".join(checked.broken))
        _same_owner(tmp, db_path)
        _fsync(tmp)
        _refuse_if_open(db_path)
        if confirm is not None and not confirm(checked):
            raise BackupError("nothing restored")
        aside = _set_aside(db_path, _stamp(now))
        os.replace(tmp, db_path)
        _fsync(folder)
    LEDGERS.clear()  # the process's: they may be those of the database replaced
    SEASONS.clear()
    return Restored(checked, aside)


def _same_owner(tmp: str, db_path: str) -> None:
    """Give the copy the mode (and, as root, the owner) of the database it replaces: the app's user must be able
    to write it."""
    if not os.path.exists(db_path):
        return
    old = os.stat(db_path)
    os.chmod(tmp, stat.S_IMODE(old.st_mode))
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.chown(tmp, old.st_uid, old.st_gid)


def _refuse_if_open(db_path: str) -> None:
    """Open the database, read it and close it: the last connection to close folds the WAL into the file and
    deletes it, so a WAL still there means another process (the app) holds the database open."""
    if not os.path.exists(db_path):
        return
    # a database that cannot be read: it is set aside whole, below
    with suppress(sqlite3.DatabaseError), closing(sqlite3.connect(db_path, timeout=BUSY_TIMEOUT_S)) as conn:
        conn.execute("select count(*) from sqlite_master").fetchone()
    if os.path.exists(db_path + "-wal"):
        raise BackupError(f"{db_path} is open in another process: stop the app, then restore (nothing was changed; "
                          f"if nothing is running, {db_path}-wal was left by a crash: open the database once "
                          "with sqlite3 to fold it in)")


def _set_aside(db_path: str, stamp: str) -> str | None:
    """Rename the database and the files SQLite keeps beside it to ``<db>.before-restore-<time>``: a WAL of the
    old database must never be applied to the new one, and the old one keeps it."""
    if not os.path.exists(db_path):
        return None
    aside, n = f"{db_path}.before-restore-{stamp}", 1
    while any(os.path.lexists(aside + suffix) for suffix in ("", *SIDE_FILES)):
        n += 1
        aside = f"{db_path}.before-restore-{stamp}-{n}"
    os.rename(db_path, aside)
    for suffix in SIDE_FILES:
        if os.path.exists(db_path + suffix):
            os.rename(db_path + suffix, aside + suffix)
    return aside


def _fsync(path: str) -> None:
    """Flush a file, or a folder's entries, to the disk."""
    with suppress(OSError):  # a folder that cannot be opened (not on Linux), a file system that cannot sync one
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
