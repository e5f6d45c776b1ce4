"""What a refused import holds (issue 22, point 6a): docs/LIMITS.md's bound, measured with tracemalloc.

Before issue 22, ``json.loads`` built every object of a file before any of it was checked: a refused
6 MiB file of empty objects held 158 MB (25 times its size), one of nested lists 222 MB. docs/LIMITS.md
states the bound now: a refused import holds at most ``IMPORT_MEMORY_PER_BYTE`` + 1 bytes for each
byte of its file, and 8 MB more (what checking the largest evening the limits allow takes, whatever
its file's size). Each hostile shape of tests/helpers/hostile_files.py is a 6 MiB file; tracemalloc counts
every block Python allocates while it is read and checked (the file's own bytes, read before, are
not counted: they are the upload itself).
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlite_utils
from helpers.docs import read, section
from helpers.hostile_files import BUDGET_SHAPES, KINDS, SHAPES, hostile, padded, refused_for
from helpers.largest_table import largest_file

from scorer.core import EveningFormatError, ScorerError
from scorer.core.limits import IMPORT_BYTES_MAX, IMPORT_MEMORY_PER_BYTE
from scorer.web.db import connect, migrate
from scorer.store import ImportRefused, import_circle, import_evening, read_circle_file, read_evening_file
from scorer.store import reading

PER_BYTE = IMPORT_MEMORY_PER_BYTE + 1
"""docs/LIMITS.md's bound: bytes a refused import holds for each byte of its file..."""
BEYOND = 8 * 1024 * 1024
"""... and this many more, whatever the file's size."""


def test_the_limits_document_states_the_bound_measured_here() -> None:
    held = " ".join(section(read("docs/LIMITS.md"), "## What a refused import holds").split())
    assert held.startswith(f"At most {PER_BYTE} bytes of memory for each byte of its file, and {BEYOND // 2**20} MB "
                           "more"), held[:120]
    assert "`IMPORT_MEMORY_PER_BYTE`" in held


@pytest.fixture
def db(tmp_path: Path) -> sqlite_utils.Database:
    database = connect(str(tmp_path / "memory.sqlite"))
    migrate(database)
    return database


def importer(db: sqlite_utils.Database, kind: str) -> Callable[[bytes], object]:
    if kind == "evening":
        return lambda raw: import_evening(db, read_evening_file(raw), "key")
    return lambda raw: import_circle(db, read_circle_file(raw), "key", consume=True)  # as /c/import calls it


def refused_peak(run: Callable[[bytes], object], raw: bytes) -> tuple[int, str]:
    """The most memory held while ``raw`` is imported (and refused), and why it was refused."""
    tracemalloc.start()
    try:
        run(raw)
    except (ImportRefused, EveningFormatError, ScorerError) as error:
        why = str(error)
    else:
        raise AssertionError("the file was imported")
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak, why


def tables(db: sqlite_utils.Database) -> int:
    return int(db.execute("select count(*) from tables").fetchone()[0] + db.execute("select count(*) from circles").fetchone()[0])


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_hostile_file_holds_at_most_the_stated_bound(db: sqlite_utils.Database, kind: str, shape: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # tracemalloc makes reading several times slower: the time budget (tested below) is not what this measures
    monkeypatch.setattr(reading, "IMPORT_SECONDS_MAX", 600)
    raw = hostile(kind, shape)
    assert len(raw) == IMPORT_BYTES_MAX
    peak, why = refused_peak(importer(db, kind), raw)
    assert refused_for(kind, shape) in why
    assert peak <= PER_BYTE * len(raw), (peak / len(raw), why)  # 6 MiB: the 8 MB more are not even needed
    if shape in BUDGET_SHAPES:
        assert peak >= (IMPORT_MEMORY_PER_BYTE - 1) * len(raw)  # the budget, and nothing else, stopped it
    assert tables(db) == 0


def spoiled(data: dict[str, object], history: list[dict[str, object]]) -> bytes:
    """``data`` with the last line of ``history`` changed after it was written: refused at the last check."""
    history[-1]["hash"] = "0" * 64
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def test_a_file_refused_at_its_last_check_holds_at_most_the_stated_bound(db: sqlite_utils.Database) -> None:
    """The largest evening the limits allow (400 deals, 2,000 lines, every name and reason at its longest)
    goes through every check but the last hash: alone, and padded to the size limit."""
    data = largest_file()
    raw = spoiled(data, data["history"])  # type: ignore[arg-type]
    for body in (raw, padded(raw)):
        peak, why = refused_peak(importer(db, "evening"), body)
        assert "line 2000 (deal 400) was changed after it was written" in why
        assert peak <= PER_BYTE * len(body) + BEYOND, peak
    assert tables(db) == 0


def test_a_circle_refused_at_its_last_check_holds_at_most_the_stated_bound(db: sqlite_utils.Database) -> None:
    """Ten evenings of 40 deals, each deal recorded ten times and undone nine (the densest history the
    limits allow: 20 lines name each deal), written without a space: refused at its very last line."""
    names = ("A", "B", "C", "D")

    def deal(n: int) -> dict[str, object]:
        return {"dealer": names[(n - 1) % 4], "hombre": names[n % 4], "contract": "solo", "trumps": "hearts",
                "tricks": {"hombre": 6}}

    def evening() -> dict[str, object]:
        history: list[dict[str, object]] = []
        for n in range(1, 41):
            for _ in range(9):
                history += [{"seq": len(history) + 1, "kind": "record", "number": n, "deal": deal(n)},
                            {"seq": len(history) + 2, "kind": "undo", "number": n}]
            history.append({"seq": len(history) + 1, "kind": "record", "number": n, "deal": deal(n)})
        return {"format": "quadrille-evening/1", "players": list(names), "deals_agreed": 40, "first_dealer": "A",
                "deals": [deal(n) for n in range(1, 41)], "history": history}

    evenings = [evening() for _ in range(10)]
    log = [{"seq": k, "kind": "evening", "data": {"evening": k, "players": list(names), "first_dealer": "A"},
            "at": "2026-11-22T01:00:00+00:00", "hash": None} for k in range(1, 11)]
    data = {"format": "quadrille-circle/1", "name": "Club", "members": list(names), "profile": "quadrille", "house_rules": {},
            "deals_agreed": 40, "chip_value_cents": None, "currency": "", "log": log, "evenings": evenings}
    raw = spoiled(data, evenings[-1]["history"])  # type: ignore[arg-type]
    peak, why = refused_peak(importer(db, "circle"), raw)
    assert "evening 10: the history does not check: line 760 (deal 40)" in why
    assert peak <= PER_BYTE * len(raw) + BEYOND, peak / len(raw)
    assert tables(db) == 0


def densest_evening() -> dict[str, object]:
    """An evening of 100 deals, each recorded ten times and undone nine, each line with its time, one-letter
    names: as many objects for each byte as a file within the limits can hold."""
    names = ("A", "B", "C", "D")
    history: list[dict[str, object]] = []
    for n in range(1, 101):
        deal = {"dealer": names[(n - 1) % 4], "hombre": names[n % 4], "contract": "solo", "trumps": "hearts", "tricks": {"hombre": 6}}
        for k in range(19):
            line: dict[str, object] = {"seq": len(history) + 1, "kind": "undo" if k % 2 else "record", "number": n}
            if not k % 2:
                line["deal"] = deal
            line["at"] = f"2026-11-21T{len(history) // 3600:02d}:{len(history) // 60 % 60:02d}:{len(history) % 60:02d}"
            history.append(line)
    return {"format": "quadrille-evening/1", "players": list(names), "deals_agreed": 100, "first_dealer": "A",
            "deals": [h["deal"] for h in history if h["seq"] % 19 == 0], "history": history}


def test_the_densest_file_within_the_limits_is_read_well_within_the_budget(db: sqlite_utils.Database,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is not a limit a real file meets: the densest one takes at most three quarters of it."""
    raw = json.dumps(densest_evening(), separators=(",", ":")).encode()
    shape = reading.Shape(8, "{limit}", {"deals": (400, ""), "history": (2000, ""), "evenings": (100, ""), "log": (400, "")})
    monkeypatch.setattr(reading, "IMPORT_MEMORY_PER_BYTE", 0.75 * IMPORT_MEMORY_PER_BYTE)  # three quarters of the budget
    monkeypatch.setattr(reading, "MEMORY_BASE", 0)
    assert isinstance(reading.read_json(raw, shape), dict)  # not refused
    table = import_evening(db, read_evening_file(raw), "key")
    assert table.deals_agreed == 100


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seconds, refused", [(0, "reading it took more than 0 seconds of the server's time"),
                                              (60, "more values than a file of its size can hold")])
def test_reading_a_file_has_a_time_budget(db: sqlite_utils.Database, monkeypatch: pytest.MonkeyPatch, kind: str,
                                          seconds: int, refused: str) -> None:
    """``IMPORT_SECONDS_MAX`` of the reading thread's time: past it, the file is refused, saying so (with none left, at
    once); within it, the memory budget stops the costliest hostile shape first."""
    monkeypatch.setattr(reading, "IMPORT_SECONDS_MAX", seconds)
    with pytest.raises((ImportRefused, EveningFormatError, ScorerError)) as error:
        importer(db, kind)(hostile(kind, "numbers all different"))
    assert refused in str(error.value)
    assert tables(db) == 0
