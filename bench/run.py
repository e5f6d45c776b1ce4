"""The benchmark: every speed target of the app, each figure beside its reference, measured in one run.

    .venv/bin/python bench/run.py [--samples 60] [--quick]

(a) A record end to end: the deal form's POST that records a deal (after its preview, as a phone does it),
    over loopback to waitress, against a bare Flask POST that makes one SQLite insert in WAL mode with
    ``synchronous = FULL`` (one fsync'd commit) and redirects, on the same server, timed in turn.
    Target: at most 2× the bare POST.
(b) Every page of a table flat in its history: each page of a table of 1 deal against the same page of a table
    of 400 (``DEALS_AGREED_MAX``), warm, in turn. Target: at most 1.25× (a page that lists every deal by
    design, the printable tally, is shown without a target).
(c) The largest legal circle's page (100 evenings of 40 deals, ``CIRCLE_DEALS_MAX``) cold (the first request
    after the server's process starts) and warm, against a one-evening circle's (bench/circle.py).
    Targets: cold at most 0.6 s; warm at most 2× the one-evening circle's.
(d) Replay of realistic mixed evenings (bench/evenings.py) as a stored log is read back, against the code the one
    settlement path replaced (bench/replay.py). Target: at most 40 µs a deal.
(e) The 40-deal tally PDF of a table of four short names, rendered afresh (a table not printed before), against a
    one-paragraph A4 page rendered by WeasyPrint in this process, in turn, each after ``gc.collect()``. Target: at
    most 10×.

Then bench/drawn.py (the deal form's radio groups). The server is bench/common.py's (the serve command's 8
threads, in its own process); tables are imported through the app's import page. ``--quick``: the smallest
sizes, for tests/test_bench.py (under a minute; its figures mean nothing).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from common import (
    BENCH, REFERENCE_PAGE, Server, builder, figure, import_table, load, median_ms, mixed_evening_of,
    ready_to_record, timed, workdir,
)

import circle
import replay
from scorer.core import DEALS_AGREED_MAX



def record(server: Server, app: Any, samples: int) -> bool | None:
    """(a) The record's POST and the bare POST, in turn."""
    token, played, rng = import_table(app, mixed_evening_of(4, DEALS_AGREED_MAX)), 4, random.Random(7)
    phone = server.phone()
    phone.request("GET", f"/t/{token}")
    app_times, bare_times = [], []
    for _ in range(samples + 3):  # the first 3 warm up
        if played == DEALS_AGREED_MAX:
            token, played = import_table(app, mixed_evening_of(4, DEALS_AGREED_MAX)), 4
        url, fields = ready_to_record(phone, token, rng)
        bare_times.append(timed(phone, "POST", "/bare/insert", fields, expect=(302,)))
        app_times.append(timed(phone, "POST", url, fields, expect=(302,)))
        played += 1
    app_ms, bare_ms = median_ms(app_times[3:]), median_ms(bare_times[3:])
    phone.conn.close()
    return figure("(a) record a deal, end to end", app_ms, "ms", "bare POST, one fsync'd insert", bare_ms, "≤ 2×",
                  app_ms <= 2 * bare_ms)


PAGES = (("table page", "", 1), ("deal-entry page", "/deal/solo", 1), ("ledger page", "/ledger", 40),
         ("undo page", "/undo", 1), ("audit of the last deal", "/audit/{last}", 1), ("tally page", "/tally", 1))
"""Each page, and the table it is set beside: one of 1 deal, or for the ledger one of 40 (a full page of its rows)."""
LISTS_EVERY_DEAL = {"tally page"}
"""Pages that show every deal of the evening by design: timed, without the flatness target."""
FLAT = 1.25


def pages(server: Server, app: Any, samples: int, long: int) -> list[bool | None]:
    """(b) Each page of a ``long``-deal table (``long`` - 1 where it answers only while deals are left to play)
    beside the same page of a 1-deal (or 40-deal) table, warm, in turn."""
    sizes = sorted({1, 40, long - 1, long})
    tables = {deals: import_table(app, mixed_evening_of(deals, DEALS_AGREED_MAX, seed=deals)) for deals in sizes}
    phone, verdicts = server.phone(), []
    for what, suffix, short in PAGES:
        paths = {deals: f"/t/{token}{suffix.format(last=deals)}" for deals, token in tables.items()}
        answered = [deals for deals in sizes if phone.request("GET", paths[deals])[0] == 200]  # and warm
        longest = max(answered)
        short_times, long_times = [], []
        for _ in range(samples):
            short_times.append(timed(phone, "GET", paths[short]))
            long_times.append(timed(phone, "GET", paths[longest]))
        flat = what not in LISTS_EVERY_DEAL
        verdicts.append(figure(f"(b) {what}, {longest} deals, warm", median_ms(long_times), "ms", f"the same, {short} deal(s)",
                               median_ms(short_times), f"≤ {FLAT:g}×" if flat else "(lists every deal)",
                               statistics.median(long_times) <= FLAT * statistics.median(short_times) if flat else None))
    phone.conn.close()
    return verdicts


def circles(server: Server, app: Any, samples: int, quick: bool) -> list[bool | None]:
    """(c) The largest legal circle's page, cold and warm, against a one-evening circle's."""
    evenings, agreed, short, cold_samples = (2, 8, 4, 1) if quick else (100, 40, circle.SHORT, 3)
    big = circle.build(app, evenings, agreed, 1, short)
    small = circle.build(app, 1, agreed, 101, short)
    page, small_page = f"/c/{big.token}", f"/c/{small.token}"
    big_cold = circle.cold(server, page, small_page, cold_samples)
    small_cold = circle.cold(server, small_page, page, cold_samples)
    verdicts = [figure(f"(c) circle {big.what} page, cold (slowest of {cold_samples})", max(big_cold) * 1000, "ms",
                       "one evening's, cold", max(small_cold) * 1000, f"≤ {circle.COLD_MAX * 1000:.0f} ms",
                       max(big_cold) <= circle.COLD_MAX)]
    big_warm, small_warm = circle.warm(server, (page, small_page), samples)
    verdicts.append(figure(f"(c) circle {big.what} page, warm", median_ms(big_warm), "ms", "one evening's, warm",
                           median_ms(small_warm), f"≤ {circle.WARM_RATIO_MAX:g}×",
                           statistics.median(big_warm) <= circle.WARM_RATIO_MAX * statistics.median(small_warm)))
    return verdicts


def replays(quick: bool) -> bool | None:
    """(d) Stored logs of mixed evenings folded, against the earlier commit's fast path."""
    evenings, deals, rounds = (1, 40, 1) if quick else (25, DEALS_AGREED_MAX, 3)
    sides = replay.compare(evenings, deals, rounds)
    now, then = (statistics.median(run[0] for run in runs) for runs in sides.values())
    return figure(f"(d) replay, {evenings} mixed evenings of {deals}", now, "µs", f"{replay.BEFORE}'s one pass (a deal)",
                  then, f"≤ {replay.TARGET:g} µs", now <= replay.TARGET)


def pdf(app: Any, rounds: int) -> bool | None:
    """(e) The tally PDF of a 40-deal table not printed before, against the one-paragraph page, in turn."""
    from weasyprint import HTML

    client = app.test_client()
    tokens = [import_table(app, mixed_evening_of(40, 40, seed=n)) for n in range(rounds + 2)]

    def reference() -> float:
        gc.collect()  # each starts with nothing left to collect by the one before
        started = time.perf_counter()
        HTML(string=REFERENCE_PAGE).write_pdf()  # as the app renders: WeasyPrint's default font configuration
        return time.perf_counter() - started

    def tally() -> float:
        token = tokens.pop()
        assert client.get(f"/t/{token}").status_code == 200  # the table opened before it is printed
        gc.collect()
        started = time.perf_counter()
        answer = client.get(f"/t/{token}/tally.pdf")
        took = time.perf_counter() - started
        assert answer.status_code == 200 and answer.data.startswith(b"%PDF"), answer.status_code
        return took

    tallies, references = [], []
    for n in range(rounds + 2):  # the first two warm up
        references.append(reference())
        tallies.append(tally())
    tally_ms, reference_ms = median_ms(tallies[2:]), median_ms(references[2:])
    return figure("(e) tally PDF, 40 deals, rendered afresh", tally_ms, "ms", "one-paragraph A4 page", reference_ms,
                  "≤ 10×", tally_ms <= 10 * reference_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--quick", action="store_true", help="the smallest sizes (a test that it runs)")
    args = parser.parse_args()
    samples = 3 if args.quick else args.samples
    began = time.perf_counter()
    print(f"Benchmark of the Quadrille scorer, {time.strftime('%Y-%m-%d %H:%M %Z')}, CPython "
          f"{sys.version.split()[0]}, waitress on loopback; {load()}")
    print(f"{'figure (median)':44} {'':15} | {'its reference, in the same run':58} | ratio  | target")
    folder = workdir("scorer-bench-")
    app = builder(folder)
    server = Server(folder)
    verdicts: list[bool | None] = []
    try:
        verdicts.append(record(server, app, samples))
        verdicts += pages(server, app, samples, 40 if args.quick else DEALS_AGREED_MAX)
        verdicts += circles(server, app, samples, args.quick)
    finally:
        server.close()
    verdicts.append(replays(args.quick))
    verdicts.append(pdf(app, 3 if args.quick else 15))
    held = [v for v in verdicts if v is not None]
    print(f"targets: {held.count(True)} of {len(held)} hold; run took {time.perf_counter() - began:.0f} s; {load()}")
    print("\nbench/drawn.py (the pages that draw the deal form's radio groups, a Jinja macro):", flush=True)
    subprocess.run([sys.executable, str(BENCH / "drawn.py"), *(["--quick"] if args.quick else [])], check=True)


if __name__ == "__main__":
    main()
