"""The largest table the limits allow: its export fits the import limit and comes back the same.

Every limit at once: 400 deals, 2,000 lines of log, four names of 30 characters and every
reason of 200, all in characters of four UTF-8 bytes, three names in every deal."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.largest_table import largest_file


from scorer.core.limits import IMPORT_BYTES_MAX
from scorer.web.db import connect, migrate
from scorer.store import export_evening, import_evening, read_evening_file, table_by_token


def test_the_largest_table_exports_a_file_within_the_import_limit_that_comes_back_the_same(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "largest.sqlite"))
    migrate(db)
    imported = import_evening(db, largest_file(), "key")
    # As if the table had been played on this server (an import of an unsigned file exports unsigned).
    db.conn.execute("update tables set provenance = 'created' where id = ?", [imported.id])
    table = table_by_token(db, imported.token)
    assert table is not None
    first = (json.dumps(export_evening(db, table, "key"), indent=2, ensure_ascii=False) + "\n").encode()
    assert len(first) <= IMPORT_BYTES_MAX * 3 // 4, len(first)  # with room for a fifth name in each line
    again = import_evening(db, read_evening_file(first), "key")
    assert again.provenance == "signed"
    second = (json.dumps(export_evening(db, again, "key"), indent=2, ensure_ascii=False) + "\n").encode()
    assert second == first
