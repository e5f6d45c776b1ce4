"""The ``scorer`` command: settle an evening file, list the house rules."""

from __future__ import annotations

import json
import sys

import click

from .core import DealError, EveningFormatError, replay
from .core.evening_json import loads
from .core.report import replay_json, replay_text
from .core.rules_doc import rules_markdown, rules_text


@click.group()
def main() -> None:
    """Keeps the score of Quadrille: settle evenings, list house rules."""


@main.command()
@click.argument("evening_file", type=click.File("r", encoding="utf-8"))
@click.option("--text", "as_text", is_flag=True, help="Print a readable table instead of JSON.")
@click.option("--close", is_flag=True, help="Also close the evening: share out the pool per the house rule pool_at_end.")
def settle(evening_file: click.utils.LazyFile, as_text: bool, close: bool) -> None:
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
@click.option("--markdown", is_flag=True, help="Print the Markdown of docs/RULES.md.")
def rules(markdown: bool) -> None:
    """List every house rule: its default, its alternatives and its sources."""
    click.echo(rules_markdown() if markdown else rules_text(), nl=False)
