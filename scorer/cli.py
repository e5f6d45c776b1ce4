"""The ``scorer`` command: settle an evening file, referee its play, list the house rules, check a database."""

from __future__ import annotations

import json
import sys
from typing import IO, Any

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
    from .links import check_base_url
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


    from .db import connect
    from .store import UnreadableTable, log_size, rechecked_ledger, table_from_row
    from .store import verify as verify_table

    if not os.path.exists(db_path):
        click.echo(f"scorer: no database at {db_path}", err=True)
        sys.exit(2)
    db = connect(db_path)
    broken = 0
    rows = ([db.conn.execute("select * from tables where token = ?", [t]).fetchone() for t in tokens] if tokens
            else db.conn.execute("select * from tables order by id").fetchall())
    if tokens and None in rows:
        click.echo(f"scorer: no table with the link {tokens[rows.index(None)]}", err=True)
        sys.exit(2)
    for row in rows:
        try:
            table = table_from_row(dict(row))
        except UnreadableTable as error:
            broken += 1
            click.echo(f"table {row['token']}: BROKEN: {error.message}")
            continue
        who = f"table {table.token} ({', '.join(table.players)})"
        lines = log_size(db.conn, table.id)
        chain = verify_table(db, table)
        damage = rechecked_ledger(db, table).damage
        if chain is None and damage is None:
            click.echo(f"{who}: {lines} lines, intact")
            continue
        broken += 1
        if chain is not None:
            where = f" — deal {chain.number}" if chain.number is not None else ""
            click.echo(f"{who}: BROKEN at line {chain.seq}{where}: {chain.why}")
        if damage is not None:
            click.echo(f"{who}: CANNOT BE REPLAYED at {damage.message}")
    if not tokens:
        broken += _verify_circles(db)
    sys.exit(1 if broken else 0)


def _verify_circles(db: Any) -> int:
    """Check every circle's hash-chained log; say what holds and what breaks; return how many broke."""
    from .store import UnreadableCircle, circle_by_token, verify_circle

    broken = 0
    for (token,) in db.conn.execute("select token from circles order by id").fetchall():
        try:
            circle = circle_by_token(db, token)
        except UnreadableCircle as error:
            broken += 1
            click.echo(f"circle {token}: BROKEN: {error.message}")
            continue
        assert circle is not None
        chain = verify_circle(db, circle)
        if chain is None:
            click.echo(f"circle {token} ({circle.name}): {circle.evenings} evening{'' if circle.evenings == 1 else 's'}, intact")
            continue
        broken += 1
        click.echo(f"circle {token} ({circle.name}): BROKEN at line {chain.seq}: {chain.why}")
    return broken
