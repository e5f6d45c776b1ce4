"""Benchmark: 8 hostile 6 MiB imports at once (issue 22, point 6a), against the bound docs/LIMITS.md states.

    .venv/bin/python bench/imports.py [--at-once 8] [--shape "empty lists, 12 to a list, 6 deep"] [--quick]

Eight threads of one process (as waitress's eight threads would) each import a hostile file of the
largest size an upload may have (tests/helpers/hostile_files.py: by default the shape that takes the most, a
tree of empty lists read until its values pass the reader's memory budget), half of them evening
files and half circle files, each on its own connection to one database. Run twice: once under
tracemalloc, which gives the most memory held at once by all of them (every thread's blocks, the
files' own bytes included: they are the uploads), and once without, which gives the time and what
the process's resident memory grew by (``ru_maxrss``) and kept once all were refused. Prints each
against the bound: at most ``IMPORT_MEMORY_PER_BYTE`` + 1 bytes for each byte of each file and 8 MB
more, besides the files themselves (the reference); exits 1 if the traced peak passes it. ``--quick``: one
file. Run by hand; tests/test_bench.py runs it with ``--quick``.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from common import figure  # noqa: E402  (bench/common.py, beside this script)
from helpers.hostile_files import BUDGET_SHAPES, hostile  # noqa: E402  (tests/helpers/hostile_files.py)
from scorer.core import IMPORT_BYTES_MAX, ScorerError  # noqa: E402
from scorer.core.limits import IMPORT_MEMORY_PER_BYTE  # noqa: E402
from scorer.web.db import connect, migrate  # noqa: E402
from scorer.store import ImportRefused, import_circle, import_evening, read_circle_file, read_evening_file  # noqa: E402

BEYOND = 8 * 1024 * 1024


def one(path: str, kind: str, raw: bytes, refusals: list[str]) -> None:
    db = connect(path)
    try:
        if kind == "evening":
            import_evening(db, read_evening_file(raw), "key")
        else:
            import_circle(db, read_circle_file(raw), "key", consume=True)
        refusals.append("IMPORTED")
    except (ImportRefused, ScorerError) as error:  # an evening's format error is a ScorerError
        refusals.append(str(error)[:100])


def at_once(path: str, files: list[tuple[str, bytes]]) -> tuple[float, list[str]]:
    refusals: list[str] = []
    threads = [threading.Thread(target=one, args=(path, kind, raw, refusals)) for kind, raw in files]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, refusals


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def current_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--at-once", type=int, default=8)
    parser.add_argument("--shape", default=BUDGET_SHAPES[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.at_once = 1
    kinds = ["evening", "circle"] * args.at_once
    files = [(kind, hostile(kind, args.shape)) for kind in kinds[:args.at_once]]
    assert all(len(raw) == IMPORT_BYTES_MAX for _, raw in files)
    bound = args.at_once * ((IMPORT_MEMORY_PER_BYTE + 1) * IMPORT_BYTES_MAX + BEYOND)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "bench.sqlite")
        migrate(connect(path))
        gc.collect()
        before, held_before = rss_mb(), current_rss_mb()
        seconds, refusals = at_once(path, files)
        gc.collect()
        grew, kept = rss_mb() - before, current_rss_mb() - held_before
        tracemalloc.start()
        traced_seconds, _ = at_once(path, files)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    print(f"{args.at_once} hostile files of {IMPORT_BYTES_MAX:,} bytes at once ({args.shape}), half evenings, half circles")
    for refusal in sorted(set(refusals)):
        print(f"  refused: {refusal}")
    print(f"  time: {seconds:.1f} s ({traced_seconds:.1f} s under tracemalloc)")
    print(f"  traced peak of all at once: {peak / 1e6:.0f} MB; the bound: {bound / 1e6:.0f} MB "
          f"({args.at_once} x ({IMPORT_MEMORY_PER_BYTE + 1} x {IMPORT_BYTES_MAX / 1e6:.1f} MB + {BEYOND / 1e6:.1f} MB))")
    print(f"  resident memory: grew by {grew:.0f} MB at most, {kept:.0f} MB kept after all were refused")
    figure("traced peak of all at once", peak / 1e6, "MB", "the bound docs/LIMITS.md states", bound / 1e6, "≤ the bound",
           peak <= bound)
    return 0 if peak <= bound and "IMPORTED" not in refusals else 1


if __name__ == "__main__":
    sys.exit(main())
