"""The hash chain of a table's log, and the signature of an exported file.

Each line's hash is sha256 of the line before's hash and the line itself; the
first line is chained to the table's settings, frozen once it is written. A
chain shows that no line was changed, removed or inserted since it was
written, but anyone can recompute an unkeyed chain: an export therefore also
carries an HMAC made with this server's secret key (:func:`sign`), which only
this server can make or check.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

import sqlite_utils

from ..core.errors import Words, said_of
from ..core.i18n import N_, _
from ..core.ledger.log import Damage, Line, LineKind
from .lines import COLUMNS, dict_rows, line_from_row, stored_lines
from .tables import Table

KINDS = tuple(k.value for k in LineKind)


def genesis(table: Table) -> str:
    """The chain's first link: the table's settings, frozen once the first deal is recorded."""
    settings = {"players": list(table.players), "first_dealer": table.first_dealer, "profile": table.rules.profile_name,
                "house_rules": table.rules.changes(), "deals_agreed": table.deals_agreed,
                "chip_value_cents": table.chip_value_cents, "currency": table.currency}
    return hashlib.sha256(json.dumps(settings, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def link(previous: str, row: Mapping[str, object]) -> str:
    """The hash of one log line, chained to the line before it."""
    fields = {k: row.get(k) for k in ("seq", "kind", "number", "deal", "by", "reason", "restores", "created_at")}
    return hashlib.sha256((previous + json.dumps(fields, sort_keys=True, ensure_ascii=False)).encode()).hexdigest()


@dataclass(frozen=True)
class ChainBreak:
    seq: int
    number: int | None
    why: str
    """In the reader's language: a break is found for one reader (never kept in the ledger cache)."""


def verify(db: sqlite_utils.Database, table: Table) -> ChainBreak | None:
    """Check the table's log: every line's hash follows from the line before, with no line missing.
    Return where it first breaks, or None if it holds."""
    previous = genesis(table)
    for expected_seq, row in enumerate(stored_lines(db.conn, table.id), start=1):
        if row["seq"] != expected_seq:
            return ChainBreak(expected_seq, None, _("line {seq} of the log is missing").format(seq=expected_seq))
        if row["kind"] not in KINDS:
            return ChainBreak(row["seq"], row["number"], _("line {seq} has an unknown kind {kind!r}").format(
                seq=row["seq"], kind=row["kind"]))
        if link(previous, row) != row["hash"]:
            return ChainBreak(row["seq"], row["number"], _("line {seq} (deal {number}) was changed after it was written").format(
                seq=row["seq"], number=row["number"]))
        previous = row["hash"]
    return None


CHANGED = Words(N_("it was changed after it was written"))
"""Why a line whose hash does not follow from the line before damages its table's ledger."""


def read_chained(conn: sqlite3.Connection, table_id: int, after: int, previous: str) -> tuple[list[Line], Damage | None, str]:
    """The table's lines after line ``after``, oldest first, each checked to follow from the line before
    (``previous``: the hash of line ``after``, or the chain's :func:`genesis`), up to the first that is missing,
    cannot be read or does not follow (returned as the damage it does); and the hash of the last line returned.
    The ledger cache keeps that hash with its fold, so that each line is hashed once, when it is first folded."""
    cursor = conn.execute(f"select {', '.join(COLUMNS)} from events where table_id = ? and seq > ? order by seq",
                          [table_id, after])
    lines: list[Line] = []
    for expected, row in enumerate(dict_rows(cursor), start=after + 1):
        number = row["number"] if isinstance(row["number"], int) else None
        if row["seq"] != expected:  # as the fold names a line missing
            return lines, Damage(expected, None, Words(N_("line {seq} of the log is missing"), seq=expected)), previous
        try:
            line = line_from_row(row)
        except ValueError as error:
            return lines, Damage(expected, number, said_of(error)), previous
        if link(previous, row) != row["hash"]:
            return lines, Damage(expected, number, CHANGED), previous
        lines.append(line)
        previous = str(row["hash"])
    return lines, None, previous


SIGNATURE_FIELD = "signature"


def canonical(data: Mapping[str, object]) -> bytes:
    """The bytes a signature covers: the file's content without its signature, in one canonical form."""
    content = {k: v for k, v in data.items() if k != SIGNATURE_FIELD}
    return json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def sign(data: Mapping[str, object], secret_key: str) -> str:
    """The HMAC-SHA256 of an export's content with this server's key, in hex."""
    key = hmac.new(secret_key.encode(), b"scorer export signature v1", hashlib.sha256).digest()  # for exports alone
    return hmac.new(key, canonical(data), hashlib.sha256).hexdigest()


def signed_here(data: Mapping[str, object], secret_key: str) -> bool:
    """Whether ``data`` carries this server's signature of exactly its content."""
    signature = data.get(SIGNATURE_FIELD)
    return isinstance(signature, str) and re.fullmatch(r"[0-9a-f]{64}", signature) is not None \
        and hmac.compare_digest(signature, sign(data, secret_key))
