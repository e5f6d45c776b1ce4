"""Benchmark: 8 hostile 6 MiB imports at once, in the store and over a real server, against docs/LIMITS.md's bounds.

    .venv/bin/python bench/imports.py [--at-once 8] [--shape "empty lists, 12 to a list, 6 deep"] [--quick]

Eight threads of one process (as waitress's eight threads would) each import a hostile file of the
largest size an upload may have (tests/helpers/hostile_files.py: by default the shape that takes the most, a
tree of empty lists read until its values pass the reader's memory budget), half of them evening
files and half circle files, each on its own connection to one database. Run twice: once under
tracemalloc, which gives the most memory held at once by all of them (every thread's blocks, the
files' own bytes included: they are the uploads), and once without, which gives the time and what
the process's resident memory grew by (``ru_maxrss``) and kept once all were refused. Prints each
against the bound: at most ``IMPORT_MEMORY_PER_BYTE`` + 1 bytes for each byte of each file and 8 MB
more, besides the files themselves (the reference); exits 1 if the traced peak passes it.

Then over a real server (tests/helpers/served.py: waitress, the serve command's 8 threads, in a process of
its own), the same files posted at once to ``/import`` and ``/c/import`` while ``/healthz`` is polled and a
phone records a deal: the slowest ``/healthz`` and the record beside the same taken on the idle server (the
reference), against the targets (1 s, 2 s); the server's memory at its peak and once all were answered, above
what it held before, against docs/LIMITS.md's bounds. ``--quick``: one file. Run by hand; tests/test_bench.py
runs it with ``--quick``.
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
from helpers.served import Client, Poll, Served, import_file, ready_to_record, timed  # noqa: E402
from scorer.core import IMPORT_BYTES_MAX, HouseRules, ScorerError  # noqa: E402
from scorer.core.limits import IMPORT_MEMORY_PER_BYTE  # noqa: E402
from scorer.web.db import connect, migrate  # noqa: E402
from scorer.store import (  # noqa: E402
    ImportRefused, create_table, import_circle, import_evening, read_circle_file, read_evening_file,
)

HEALTHZ_MAX, RECORD_MAX = 1.0, 2.0
"""Seconds: docs/LIMITS.md's targets while the files are read."""
PEAK_MB_MAX, KEPT_MB_MAX = 100, 48
"""MB: docs/LIMITS.md's bounds on what the server holds above what it held before, meanwhile and afterwards."""

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


def served(folder: Path, files: list[tuple[str, bytes]]) -> bool:
    """The files posted at once to a real server; prints its figures, and whether all hold."""
    db = connect(str(folder / "served.sqlite"))
    migrate(db)
    token = create_table(db, ("Ann", "Bea", "Cat", "Dan"), "Ann", HouseRules.of(), 8, None, "").token
    db.conn.close()
    server = Served(folder / "served.sqlite", folder / "instance")
    try:
        phone = Client(server.port)
        for kind in ("evening", "circle"):  # what an import's pages first load, loaded before
            import_file(server.port, kind, b"{}")
        idle = Poll(server.port)
        time.sleep(1)
        alone = max(idle.stop())
        url, fields = ready_to_record(phone, token, 1, "Bea")
        _, record_alone = timed(lambda: phone.form(url, fields))
        url, fields = ready_to_record(phone, token, 2, "Cat")
        time.sleep(0.5)
        before, _ = server.memory_mb()
        answers: list[int] = []
        poll = Poll(server.port)
        threads = [threading.Thread(target=lambda k=kind, r=raw: answers.append(import_file(server.port, k, r)[0]))
                   for kind, raw in files]
        for thread in threads:
            thread.start()
        while not answers and any(t.is_alive() for t in threads):
            time.sleep(0.01)
        status, record = timed(lambda: phone.form(url, fields))
        for thread in threads:
            thread.join()
        worst = max(poll.stop())
        time.sleep(0.5)
        after, peak = server.memory_mb()
    finally:
        server.close()
    print(f"  over a real server: {answers.count(503)} answered 503 at once, {answers.count(422)} read and refused "
          f"(record: {status})")
    holds = [figure("slowest /healthz meanwhile", worst, "s", "the slowest on the idle server", alone,
                    f"≤ {HEALTHZ_MAX:g} s", worst <= HEALTHZ_MAX),
             figure("a deal recorded meanwhile", record, "s", "a deal recorded on the idle server", record_alone,
                    f"≤ {RECORD_MAX:g} s", status == 302 and record <= RECORD_MAX),
             figure("server's peak above before", peak - before, "MB", "the bound docs/LIMITS.md states", PEAK_MB_MAX,
                    "≤ the bound", peak - before <= PEAK_MB_MAX),
             figure("server's memory kept after", after - before, "MB", "the bound docs/LIMITS.md states", KEPT_MB_MAX,
                    "≤ the bound", after - before <= KEPT_MB_MAX)]
    return all(holds) and 200 not in answers and 302 not in answers


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
        server_holds = served(Path(folder), files)
    print(f"  in the store, in {args.at_once} threads of one process (no gate):")
    for refusal in sorted(set(refusals)):
        print(f"  refused: {refusal}")
    print(f"  time: {seconds:.1f} s ({traced_seconds:.1f} s under tracemalloc)")
    print(f"  traced peak of all at once: {peak / 1e6:.0f} MB; the bound: {bound / 1e6:.0f} MB "
          f"({args.at_once} x ({IMPORT_MEMORY_PER_BYTE + 1} x {IMPORT_BYTES_MAX / 1e6:.1f} MB + {BEYOND / 1e6:.1f} MB))")
    print(f"  resident memory: grew by {grew:.0f} MB at most, {kept:.0f} MB kept after all were refused")
    figure("traced peak of all at once", peak / 1e6, "MB", "the bound docs/LIMITS.md states", bound / 1e6, "≤ the bound",
           peak <= bound)
    return 0 if peak <= bound and "IMPORTED" not in refusals and server_holds else 1


if __name__ == "__main__":
    sys.exit(main())
