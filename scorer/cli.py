"""The ``scorer`` command: settle an evening file, referee its play, list the house rules, check a database."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, NoReturn

import click

from .core import (DealError, EveningFormatError, ScorerError, loads, replay, replay_json, replay_text, rules_markdown,
                   rules_text)
from .serve import main as serve


def _refuse(message: str, status: int = 1) -> NoReturn:
    """Say ``message`` on standard error, after the command's name, and exit with ``status``."""
    click.echo(f"scorer: {message}", err=True)
    sys.exit(status)


@contextmanager
def _refusing(what: str, *errors: type[ScorerError]) -> Iterator[None]:
    """Runs the block; one of ``errors`` raised in it is refused (:func:`_refuse`), its message after ``what``."""
    try:
        yield
    except errors as error:
        _refuse(f"{what}: {error.message}")


@click.group()
def main() -> None:
    """Keeps the score of Quadrille: settle evenings, list house rules."""


@main.command()
@click.argument("evening_file", type=click.File("r", encoding="utf-8"))
@click.option("--text", "as_text", is_flag=True, help="Print a readable table instead of JSON.")
@click.option("--close", is_flag=True, help="Also close the evening: share out the pool per the house rule pool_at_end.")
def settle(evening_file: IO[str], as_text: bool, close: bool) -> None:
    """Settle every deal of a quadrille-evening/1 JSON file (- for standard input)."""
    with _refusing(evening_file.name, EveningFormatError, DealError):
        result = replay(loads(evening_file.read()))
    if as_text:
        click.echo(replay_text(result, close=close), nl=False)
    else:
        click.echo(json.dumps(replay_json(result, close=close), indent=2, ensure_ascii=False))


@main.command()
@click.argument("evening_file", type=click.File("r", encoding="utf-8"))
@click.option("--text", "as_text", is_flag=True, help="Print a readable account instead of JSON.")
def play(evening_file: IO[str], as_text: bool) -> None:
    """Referee the play of every deal of an evening file that carries its play record (- for standard input)."""
    from .core import referee, report_json, report_text

    with _refusing(evening_file.name, EveningFormatError):
        evening = loads(evening_file.read())
    reports = [(n, referee(deal, evening.players, deal.play, evening.rules)) for n, deal in enumerate(evening.deals, start=1)
               if deal.play is not None]
    if as_text:
        click.echo("".join(report_text(n, r) for n, r in reports) or "No deal of this file carries its play.\n", nl=False)
    else:
        click.echo(json.dumps({"deals": [report_json(n, r) for n, r in reports]}, indent=2, ensure_ascii=False))


@main.command()
@click.option("--markdown", is_flag=True, help="Print the Markdown of docs/RULES.md.")
def rules(markdown: bool) -> None:
    """List every house rule: its default, its alternatives and its sources."""
    click.echo(rules_markdown() if markdown else rules_text(), nl=False)


main.add_command(serve)


INSTANCE_HELP = ("The app's instance folder, whose database (scorer.sqlite, or DATABASE in its config.py) is used, "
                 "as `scorer serve --instance` is given it (default: SCORER_INSTANCE_PATH, else instance/ in a clone, "
                 "<venv>/var/scorer-instance when installed: where the app finds it).")


def app_database_options(what: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--instance`` and ``--db``: the database a command works on is the app's, found as the app finds it,
    unless ``--db`` names a file."""
    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        command = click.option("--db", "db_path", default=None, type=click.Path(dir_okay=False),
                               help=f"{what} itself, whatever the instance folder (overrides --instance).")(command)
        return click.option("--instance", default=None, type=click.Path(file_okay=False), help=INSTANCE_HELP)(command)
    return decorate


def found_database(db_path: str | None, instance: str | None, missing: int | None = 2) -> str:
    """The database file a command uses: ``--db`` as given, else the app's (:func:`scorer.web.instance.app_database`),
    said on standard error. One that is not there, unless ``missing`` is None: say where it was looked for and how
    to point at the app's, and exit with the status ``missing``."""
    from .web.instance import FoundBy, app_database

    if db_path:
        path, how = db_path, "given by --db"
    else:
        found = app_database(instance)
        path = found.path
        how = {FoundBy.GIVEN: "in the instance folder --instance gives",
               FoundBy.ENVIRONMENT: "in the instance folder SCORER_INSTANCE_PATH gives",
               FoundBy.DEFAULT: "in this install's default instance folder: neither --instance nor SCORER_INSTANCE_PATH "
                                "is given"}[found.instance.found_by]
        if found.configured:
            how = f"named by DATABASE in {os.path.join(found.instance.folder, 'config.py')}, " + how.removeprefix("in ")
    if missing is not None and not os.path.isfile(path):
        _refuse(f"no database at {os.path.abspath(path)} ({how}). If the app is served with another instance folder, "
                "give it with --instance FOLDER (the folder given to `scorer serve --instance`, or "
                "SCORER_INSTANCE_PATH=FOLDER), or the database itself with --db FILE.", missing)
    click.echo(f"scorer: the database {os.path.abspath(path)} ({how})", err=True)
    return path


@main.command()
@app_database_options("The SQLite database to check")
@click.argument("tokens", nargs=-1)
def verify(db_path: str | None, instance: str | None, tokens: tuple[str, ...]) -> None:
    """Check the hash chain of every table's log and every deal in it again, and every circle's log (or the tables whose link tokens are given)."""
    from .store.database import connect
    from .store import NoSuchTable, check_database

    path = found_database(db_path, instance)
    broken = 0
    try:
        for finding in check_database(connect(path), tokens):
            click.echo(finding.text)
            broken += finding.broken
    except NoSuchTable as error:
        _refuse(f"no table with the link {error.message}", 2)
    sys.exit(1 if broken else 0)


@main.command()
@click.argument("dest", type=click.Path(file_okay=False))
@app_database_options("The SQLite database to copy")
@click.option("--keep", default=14, show_default=True, type=click.IntRange(1), help="Backups kept in DEST (older ones deleted).")
def backup(dest: str, db_path: str | None, instance: str | None, keep: int) -> None:
    """Copy the app's database into the folder DEST while the app runs, check the copy as verify does, keep the last N."""
    from .store import BackupError, backup as take_backup

    path = found_database(db_path, instance, missing=1)
    with _refusing("backup", BackupError):
        written = take_backup(path, dest, keep)
    click.echo(f"{written.path}: {written.checked.holds}, verified")
    for old in written.removed:
        click.echo(f"removed the older backup {old}")
    for other in written.kept:
        click.echo(f"not removed, as it is not a backup this command can verify: {other}")


@main.command()
@click.argument("backup_file", metavar="BACKUP", type=click.Path(dir_okay=False))
@app_database_options("The SQLite database to replace")
@click.option("--yes", is_flag=True, help="Do not ask before replacing the database.")
def restore(backup_file: str, db_path: str | None, instance: str | None, yes: bool) -> None:
    """Put the backup BACKUP in place of the app's database if it verifies (the app must be stopped); the database
    replaced is kept beside it as <db>.before-restore-<time>."""
    from .store import BackupError, Checked, restore as put_back

    path = found_database(db_path, instance, missing=None)

    def confirm(checked: Checked) -> bool:
        click.echo(f"{backup_file}: {checked.holds}, verified.")
        question = (f"Replace {path} with it? The app must be stopped" if os.path.exists(path) else
                    f"There is no database at {path} yet: put it there?")
        return yes or click.confirm(question, default=False)

    with _refusing("restore", BackupError):
        restored = put_back(backup_file, path, confirm)
    kept = f"; the database replaced is now {restored.aside}" if restored.aside else ""
    click.echo(f"restored {backup_file} to {path}{kept}")
