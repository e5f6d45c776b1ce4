"""The ``scorer`` command: settle an evening file, referee its play, list the house rules, check a database."""

from __future__ import annotations

import json
import sys
from typing import IO

import click

from .core import DealError, EveningFormatError, loads, replay, replay_json, replay_text, rules_markdown, rules_text


@click.group()
def main() -> None:
    """Keeps the score of Quadrille: settle evenings, list house rules."""


@main.command()
@click.argument("evening_file", type=click.File("r", encoding="utf-8"))
@click.option("--text", "as_text", is_flag=True, help="Print a readable table instead of JSON.")
@click.option("--close", is_flag=True, help="Also close the evening: share out the pool per the house rule pool_at_end.")
def settle(evening_file: IO[str], as_text: bool, close: bool) -> None:
    """Settle every deal of a quadrille-evening/1 JSON file (- for standard input)."""
    try:
        evening = loads(evening_file.read())
        result = replay(evening)
    except (EveningFormatError, DealError) as error:
        click.echo(f"scorer: {evening_file.name}: {error.message}", err=True)
        sys.exit(1)
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

    try:
        evening = loads(evening_file.read())
    except EveningFormatError as error:
        click.echo(f"scorer: {evening_file.name}: {error.message}", err=True)
        sys.exit(1)
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


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535))
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 256), help="Requests served at once.")
@click.option("--instance", "instance", default=None, type=click.Path(file_okay=False),
              help="The instance folder: database, secret key, config.py (default: SCORER_INSTANCE_PATH, else "
                   "instance/ in a clone, <venv>/var/scorer-instance when installed).")
@click.option("--base-url", default=None,
              help="Where phones open the app (http://192.168.1.20:8080, https://scorer.example.org): the table links "
                   "and QR codes are built from it (default: SCORER_BASE_URL, else this server's own address).")
def serve(host: str, port: int, threads: int, instance: str | None, base_url: str | None) -> None:
    """Serve the app with waitress, a production server (no debugger, no reloader); the database's
    schema is created or brought up to date first."""
    from .web.links import check_base_url
    from .serve import run

    if base_url:
        try:
            check_base_url(base_url)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--base-url") from error
    run(host, port, threads, base_url, instance)


@main.command()
@click.option("--db", "db_path", default="instance/scorer.sqlite", show_default=True, type=click.Path(dir_okay=False),
              help="The app's SQLite database.")
@click.argument("tokens", nargs=-1)
def verify(db_path: str, tokens: tuple[str, ...]) -> None:
    """Check the hash chain of every table's log and every deal in it again, and every circle's log (or the tables whose link tokens are given)."""
    import os

    from .store.database import connect
    from .store import NoSuchTable, check_database

    if not os.path.exists(db_path):
        click.echo(f"scorer: no database at {db_path}", err=True)
        sys.exit(2)
    broken = 0
    try:
        for finding in check_database(connect(db_path), tokens):
            click.echo(finding.text)
            broken += finding.broken
    except NoSuchTable as error:
        click.echo(f"scorer: no table with the link {error.token}", err=True)
        sys.exit(2)
    sys.exit(1 if broken else 0)


@main.command()
@click.argument("dest", type=click.Path(file_okay=False))
@click.option("--db", "db_path", default="instance/scorer.sqlite", show_default=True, type=click.Path(dir_okay=False),
              help="The app's SQLite database.")
@click.option("--keep", default=14, show_default=True, type=click.IntRange(1), help="Backups kept in DEST (older ones deleted).")
def backup(dest: str, db_path: str, keep: int) -> None:
    """Copy the database into the folder DEST while the app runs, check the copy as verify does, keep the last N."""
    from .store import BackupError
    from .store import backup as take_backup

    try:
        written = take_backup(db_path, dest, keep)
    except BackupError as error:
        click.echo(f"scorer: backup: {error.message}", err=True)
        sys.exit(1)
    held = written.checked
    click.echo(f"{written.path}: {held.tables} table{'' if held.tables == 1 else 's'}, "
               f"{held.circles} circle{'' if held.circles == 1 else 's'}, verified")
    for path in written.removed:
        click.echo(f"removed the older backup {path}")


@main.command()
@click.argument("backup_file", metavar="BACKUP", type=click.Path(dir_okay=False))
@click.option("--db", "db_path", default="instance/scorer.sqlite", show_default=True, type=click.Path(dir_okay=False),
              help="The app's SQLite database, replaced.")
@click.option("--yes", is_flag=True, help="Do not ask before replacing the database.")
def restore(backup_file: str, db_path: str, yes: bool) -> None:
    """Put the backup BACKUP in place of the database if it verifies (the app must be stopped); the database
    replaced is kept beside it as <db>.before-restore-<time>."""
    from .store import BackupError, Checked
    from .store import restore as put_back

    def confirm(checked: Checked) -> bool:
        click.echo(f"{backup_file}: {checked.tables} tables, {checked.circles} circles, verified.")
        return yes or click.confirm(f"Replace {db_path} with it? The app must be stopped", default=False)

    try:
        restored = put_back(backup_file, db_path, confirm)
    except BackupError as error:
        click.echo(f"scorer: restore: {error.message}", err=True)
        sys.exit(1)
    kept = f"; the database replaced is now {restored.aside}" if restored.aside else ""
    click.echo(f"restored {backup_file} to {db_path}{kept}")
