"""docs/LIMITS.md's table of limits states every limit the code enforces, with the code's value."""

from __future__ import annotations

import re
from helpers.docs import read, section

from scorer.core import limits
from scorer.store import circle_files, files, ledgers, reading



def documented() -> dict[str, str]:
    """Each limit's name and value as docs/LIMITS.md's table of limits gives them (the table comes before the
    document's first section)."""
    table_text = read("docs/LIMITS.md").split("\n## ", 1)[0]
    table: dict[str, str] = {}
    for names, values in re.findall(r"^\| ((?:`[A-Z_]+`(?:, )?)+) \| ([0-9, ]+) \|", table_text, re.M):
        for name, value in zip(re.findall(r"`([A-Z_]+)`", names), values.split(", ")):
            table[name] = value.strip()
    return table


def test_every_limit_is_in_the_limits_document_with_its_value() -> None:
    enforced = {name: value for name, value in vars(limits).items() if name.isupper() and isinstance(value, int)}
    enforced["INTEGER_DIGITS_MAX"] = files.INTEGER_DIGITS_MAX
    enforced["CACHE_DEALS"] = ledgers.CACHE_DEALS
    enforced["CIRCLE_DEPTH_MAX"] = circle_files.CIRCLE_DEPTH_MAX
    enforced["LIST_ITEMS_MAX"] = reading.LIST_ITEMS_MAX
    enforced["OBJECT_KEYS_MAX"] = reading.OBJECT_KEYS_MAX
    enforced["TEXT_CHARS_MAX"] = reading.TEXT_CHARS_MAX
    table = documented()
    assert set(enforced) <= set(table), set(enforced) - set(table)
    for name, value in enforced.items():
        assert table[name] == str(value), name
