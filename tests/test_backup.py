"""Backups (issue 15, point 3): `scorer backup` copies the database while deals are being recorded, and
`scorer restore` puts back only a copy that verifies, keeping the database it replaces."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flask import Flask
from helpers.store import PLAYERS, solo

from scorer import create_app
from scorer.cli import main
from scorer.core import HouseRules
from scorer.core.ledger.log import Record
from scorer.web.db import connect, get_db
from scorer.store import LEDGERS, BackupError, Table, backup, check_database, create_table, ledger, run, table_by_token
from scorer.store.backup import BACKUP_NAME, named_as_backups, verifies

TABLES = 3
DEALS = 148
"""Deals agreed at each table: more than its phone records before the test stops it."""


def backups(dest: str) -> list[str]:
    """The backups in ``dest``: files named as ``scorer backup`` names them that verify as backups, oldest first."""
    return [path for path in named_as_backups(dest) if verifies(path) is None]


def cli(*args: str, given: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=given)


def close_kept(app: Flask) -> None:
    """Close this thread's kept connection to the app's database (a server thread that ends)."""
    kept = app.extensions["scorer.db"]
    if getattr(kept, "db", None) is not None:
        kept.db.conn.close()
        del kept.db, kept.path


def stop(app: Flask) -> None:
    """The app stopped: no connection of this process left open on its database."""
    close_kept(app)
    LEDGERS.clear()


def new_table(app: Flask) -> Table:
    with app.app_context():
        return create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), DEALS, None, "")


def recorded(db_path: str) -> set[tuple[str, int]]:
    """Every deal recorded in the database: (table token, deal number)."""
    conn = sqlite3.connect(db_path)
    try:
        return set(conn.execute("select t.token, e.number from events e join tables t on t.id = e.table_id "
                                "where e.kind = 'record'").fetchall())
    finally:
        conn.close()


def intact(db_path: str) -> bool:
    db = connect(db_path)
    try:
        return not any(f.broken for f in check_database(db))
    finally:
        db.conn.close()


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file in the folder and the sha256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


class Phone(threading.Thread):
    """A server thread recording one table's deals through the store's write path, one after another, with its
    own kept connection (as waitress's threads do); each deal is acknowledged once run() has returned."""

    def __init__(self, app: Flask, table: Table, acknowledged: list[tuple[str, int]], halt: threading.Event) -> None:
        super().__init__()
        self.app, self.table, self.acknowledged, self.halt = app, table, acknowledged, halt
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with self.app.app_context():
                db = get_db()
                for number in range(1, DEALS + 1):
                    if self.halt.is_set():
                        break
                    run(db, self.table, Record(number, solo(ledger(db, self.table), self.table,
                                                            PLAYERS[number % 4], 5 + number % 3)))
                    self.acknowledged.append((self.table.token, number))
                    time.sleep(0.001)
            close_kept(self.app)
        except BaseException as error:  # pragma: no cover - reported by the test
            self.error = error


def test_a_backup_taken_during_recording_restores_every_deal_acknowledged_before_it(app: Flask, tmp_path: Path) -> None:
    db_path = app.config["DATABASE"]
    dest = tmp_path / "backups"
    tables = [new_table(app) for _ in range(TABLES)]
    acknowledged: list[tuple[str, int]] = []
    halt = threading.Event()
    phones = [Phone(app, table, acknowledged, halt) for table in tables]
    for phone in phones:
        phone.start()
    taken: list[tuple[set[tuple[str, int]], str]] = []
    try:
        for wanted in (15, 45, 90):  # three backups while the phones write
            while len(acknowledged) < wanted and any(p.is_alive() for p in phones):
                time.sleep(0.005)
            before = set(acknowledged)
            result = cli("backup", str(dest), "--db", db_path, "--keep", "5")
            assert result.exit_code == 0, result.output
            path = result.stdout.split(":", 1)[0]
            assert f"{TABLES} tables, 0 circles, verified" in result.output
            taken.append((before, path))
        during = len(acknowledged)
        while len(acknowledged) < during + 10 and any(p.is_alive() for p in phones):
            time.sleep(0.005)
    finally:
        halt.set()
        for phone in phones:
            phone.join(timeout=60)
    assert all(p.error is None for p in phones), [p.error for p in phones]
    assert len(set(acknowledged)) > max(len(before) for before, _ in taken)  # the phones went on writing after the backups
    assert [os.path.join(dest, name) for name in sorted(os.listdir(dest))] == sorted(path for _, path in taken)  # one file each
    everything = recorded(db_path)
    assert set(acknowledged) <= everything

    stop(app)
    for before, path in taken:
        result = cli("restore", path, "--db", db_path, "--yes")
        assert result.exit_code == 0, result.output
        assert f"{TABLES} tables, 0 circles, verified" in result.output and "before-restore" in result.output
        restored = recorded(db_path)
        assert before <= restored <= everything  # nothing acknowledged before the backup is missing; nothing invented
        assert intact(db_path)
        assert not os.path.exists(db_path + "-wal")
    assert len(list(tmp_path.glob("test.sqlite.before-restore-*"))) == 3  # each database replaced was kept

    served = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test"})
    with served.app_context():
        for table in tables:
            found = table_by_token(get_db(), table.token)
            assert found is not None
            deals = {n for token, n in restored if token == table.token}
            assert len(ledger(get_db(), found).settlements) == len(deals)
    assert served.test_client().get(f"/t/{tables[0].token}/ledger").status_code == 200
    close_kept(served)


def played(app: Flask, deals: int = 6) -> Table:
    table = new_table(app)
    with app.app_context():
        db = get_db()
        for number in range(1, deals + 1):
            run(db, table, Record(number, solo(ledger(db, table), table, PLAYERS[number % 4], 5 + number % 3)))
    return table


def taken(app: Flask, dest: Path) -> str:
    result = cli("backup", str(dest), "--db", app.config["DATABASE"])
    assert result.exit_code == 0, result.output
    return result.stdout.split(":", 1)[0]


def test_a_tampered_backup_is_refused_and_nothing_changes(app: Flask, tmp_path: Path) -> None:
    played(app)
    path = taken(app, tmp_path / "backups")
    conn = sqlite3.connect(path)
    (deal,) = conn.execute("select deal from events where seq = 4").fetchone()
    conn.execute("update events set deal = ? where seq = 4", [deal.replace("hearts", "diamonds")])
    conn.commit()
    conn.close()
    stop(app)
    before = fingerprint(tmp_path)

    result = cli("restore", path, "--db", app.config["DATABASE"], "--yes")
    assert result.exit_code == 1
    assert "does not verify, so it was not restored" in result.output
    assert "BROKEN at line 4 — deal 4: line 4 (deal 4) was changed after it was written" in result.output
    assert fingerprint(tmp_path) == before  # no file replaced, set aside or left behind


def test_a_file_that_is_not_a_database_is_refused(app: Flask, tmp_path: Path) -> None:
    played(app, 2)
    stop(app)
    fake = tmp_path / "backups" / "scorer-20260101T000000Z.sqlite"
    fake.parent.mkdir()
    fake.write_text("a shopping list, not a database\n" * 10)
    empty = tmp_path / "backups" / "empty.sqlite"
    sqlite3.connect(empty).execute("create table t (x)").connection.close()
    before = fingerprint(tmp_path)
    refused = cli("restore", str(fake), "--db", app.config["DATABASE"], "--yes")
    assert refused.exit_code == 1 and "not an SQLite database" in refused.output
    assert cli("restore", str(empty), "--db", app.config["DATABASE"], "--yes").output.count("not a scorer database") == 1
    missing = cli("restore", str(tmp_path / "none.sqlite"), "--db", app.config["DATABASE"], "--yes")
    assert missing.exit_code == 1 and "no backup at" in missing.output
    assert fingerprint(tmp_path) == before


def test_a_backup_of_a_newer_schema_is_refused(app: Flask, tmp_path: Path) -> None:
    played(app, 2)
    path = taken(app, tmp_path / "backups")
    conn = sqlite3.connect(path)
    conn.execute("update meta set value = '99' where key = 'schema_version'")
    conn.commit()
    conn.close()
    stop(app)
    before = fingerprint(tmp_path)
    result = cli("restore", path, "--db", app.config["DATABASE"], "--yes")
    assert result.exit_code == 1 and "newer than this build knows" in result.output
    assert fingerprint(tmp_path) == before


def test_restore_is_refused_while_the_app_holds_the_database_open(app: Flask, tmp_path: Path) -> None:
    played(app, 2)
    path = taken(app, tmp_path / "backups")
    with app.app_context():
        get_db().conn.execute("select count(*) from events").fetchone()  # the app's kept connection, open
    before = recorded(app.config["DATABASE"]), sorted(os.listdir(tmp_path)), fingerprint(tmp_path / "backups")
    result = cli("restore", path, "--db", app.config["DATABASE"], "--yes")
    assert result.exit_code == 1 and "open in another process: stop the app" in result.output
    assert (recorded(app.config["DATABASE"]), sorted(os.listdir(tmp_path)), fingerprint(tmp_path / "backups")) == before
    stop(app)


def test_restore_asks_first_and_keeps_the_database_it_replaces(app: Flask, tmp_path: Path) -> None:
    table = played(app, 3)
    path = taken(app, tmp_path / "backups")
    with app.app_context():
        db = get_db()
        run(db, table, Record(4, solo(ledger(db, table), table, "Ann", 6)))  # recorded after the backup
    stop(app)
    db_path = app.config["DATABASE"]
    os.chmod(db_path, 0o664)
    before = fingerprint(tmp_path)
    declined = cli("restore", path, "--db", db_path, given="n\n")
    assert declined.exit_code == 1 and "The app must be stopped" in declined.output and "nothing restored" in declined.output
    assert fingerprint(tmp_path) == before

    accepted = cli("restore", path, "--db", db_path, given="y\n")
    assert accepted.exit_code == 0, accepted.output
    assert {n for _, n in recorded(db_path)} == {1, 2, 3}
    [aside] = tmp_path.glob("test.sqlite.before-restore-*")
    assert {n for _, n in recorded(str(aside))} == {1, 2, 3, 4}
    assert fingerprint(tmp_path)[aside.name] == before["test.sqlite"]
    assert os.stat(db_path).st_mode == aside.stat().st_mode  # the app's user can still write it


def test_a_database_that_does_not_verify_is_not_backed_up(app: Flask, tmp_path: Path) -> None:
    played(app, 3)
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.execute("delete from events where seq = 2")
    conn.commit()
    conn.close()
    dest = tmp_path / "backups"
    result = cli("backup", str(dest), "--db", app.config["DATABASE"])
    assert result.exit_code == 1
    assert "does not verify, so it was not kept" in result.output and "line 2 of the log is missing" in result.output
    assert os.listdir(dest) == []
    assert cli("backup", str(dest), "--db", str(tmp_path / "none.sqlite")).exit_code == 1


def test_keep_prunes_only_older_backups(app: Flask, tmp_path: Path) -> None:
    """--keep deletes only backups it made and can verify: a file merely named as a backup is never deleted."""
    played(app, 2)
    dest = tmp_path / "backups"
    old = [os.path.basename(backup(app.config["DATABASE"], str(dest), keep=99, now=datetime(2020, 1, d, tzinfo=timezone.utc)).path)
           for d in range(1, 5)]
    assert old == [f"scorer-2020010{d}T000000Z.sqlite" for d in range(1, 5)]
    others = ["notes.txt", "scorer-latest.sqlite", "scorer-20200101T000000Z.sqlite.bak", "scorer-20200101T000000Z.db"]
    named = ["scorer-20191231T000000Z.sqlite", "scorer-20191231T000000Z-2.sqlite"]  # older than every backup
    for name in others + named:
        (dest / name).write_text(name)
    empty = sqlite3.connect(dest / "scorer-20191230T000000Z.sqlite")  # an SQLite file, not a scorer database
    empty.execute("create table t (x)")
    empty.close()
    named.append("scorer-20191230T000000Z.sqlite")
    (dest / "scorer-20200109T000000Z.sqlite").mkdir()  # a folder of that name is not a backup
    first = cli("backup", str(dest), "--db", app.config["DATABASE"], "--keep", "3")
    assert first.exit_code == 0, first.output
    assert first.output.count("removed the older backup") == 2
    assert first.output.count("not removed, as it is not a backup this command can verify") == 3
    assert "scorer-20191231T000000Z.sqlite (not an SQLite database)" in first.output
    assert "scorer-20191230T000000Z.sqlite (not a scorer database (no schema version))" in first.output
    names = set(os.listdir(dest))
    assert {old[2], old[3]} <= names and not {old[0], old[1]} & names
    for _ in range(3):
        assert cli("backup", str(dest), "--db", app.config["DATABASE"], "--keep", "3").exit_code == 0
    kept = [os.path.basename(p) for p in backups(str(dest))]
    assert len(kept) == 3 and not set(old) & set(kept) and all(name.startswith("scorer-20") for name in kept)
    assert set(others) | set(named) | {"scorer-20200109T000000Z.sqlite"} | set(kept) == set(os.listdir(dest))
    assert all((dest / name).read_text() == name for name in others + named[:2])
    assert cli("backup", str(dest), "--db", app.config["DATABASE"], "--keep", "0").exit_code == 2


@pytest.mark.parametrize("made", ["the database", "its -wal file", "its -shm file", "a backup"])
def test_the_database_and_its_backups_are_readable_by_their_owner_only(tmp_path: Path, made: str) -> None:
    """They hold every table's link: created 0600 whatever the umask lets through (SQLite gives its -wal and -shm
    files the database's own mode)."""
    old = os.umask(0o022)
    try:
        app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"),
                          "DATABASE": str(tmp_path / "instance" / "scorer.sqlite")})
        db_path = app.config["DATABASE"]
        path = {"the database": db_path, "its -wal file": db_path + "-wal", "its -shm file": db_path + "-shm",
                "a backup": backup(db_path, str(tmp_path / "backups")).path}[made]
        assert os.path.exists(path), path
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, oct(os.stat(path).st_mode)
    finally:
        os.umask(old)
        close_kept(app)


def test_two_backups_in_one_second_get_two_names(app: Flask, tmp_path: Path) -> None:
    played(app, 2)
    at = datetime(2026, 11, 22, 7, 35, 33, tzinfo=timezone.utc)
    first = backup(app.config["DATABASE"], str(tmp_path), now=at)
    second = backup(app.config["DATABASE"], str(tmp_path), now=at)
    assert os.path.basename(first.path) == "scorer-20261122T073533Z.sqlite"
    assert os.path.basename(second.path) == "scorer-20261122T073533Z-2.sqlite"
    assert BACKUP_NAME.fullmatch(os.path.basename(second.path))
    assert backups(str(tmp_path)) == [first.path, second.path]
    assert first.checked.tables == 1 and first.checked.broken == []
    with pytest.raises(BackupError, match="at least 1"):
        backup(app.config["DATABASE"], str(tmp_path), keep=0)
    assert sqlite3.connect(first.path).execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, no WAL
