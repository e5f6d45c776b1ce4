"""Benchmark: the tally PDF against its reference, a one-paragraph A4 page rendered by WeasyPrint.

    .venv/bin/python bench/pdf.py [--rounds 15] [--quick]

In one process, round after round and in turn: the reference (one paragraph of DejaVu Sans on an A4 page,
bench/common.py's), for scale a whole A4 page of that paragraph, the tally PDF of tables of 10, 40, 100 and
400 deals rendered afresh (each a table not printed before, opened first as a player does: the whole request
through the app), and the 40-deal tally asked again (kept), each after ``gc.collect()``. Prints each figure's median beside the
reference's over the same rounds, and what a deal adds. Target: the 40-deal tally at most 10× the reference.
``--quick``: 2 rounds, 10 and 40 deals. Run by hand; tests/test_bench.py runs it with ``--quick``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable

from common import REFERENCE_PAGE, builder, figure, import_table, load, mixed_evening_of, workdir

from scorer.core import DEALS_AGREED_MAX

PARAGRAPH = REFERENCE_PAGE.split("<body>")[1].split("</body>")[0]
FULL_PAGE = REFERENCE_PAGE.replace(PARAGRAPH, PARAGRAPH * 18)
"""For scale: the paragraph over a whole A4 page (18 of them, the most that fit), nothing else."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    rounds, sizes = (2, (10, 40)) if args.quick else (args.rounds, (10, 40, 100, DEALS_AGREED_MAX))
    app = builder(workdir("scorer-bench-pdf-"))
    client = app.test_client()
    fonts = FontConfiguration()
    tables = {n: [import_table(app, mixed_evening_of(n, -(-n // 4) * 4, seed=r)) for r in range(rounds + 1)] for n in sizes}

    def page(html: str) -> Callable[[], int]:
        return lambda: len(HTML(string=html).write_pdf(font_config=fonts))

    def fresh(n: int) -> Callable[[], int]:
        def ask() -> int:
            token = tables[n].pop()
            assert client.get(f"/t/{token}").status_code == 200
            answer = client.get(f"/t/{token}/tally.pdf")
            assert answer.status_code == 200 and answer.data.startswith(b"%PDF"), answer.status_code
            return len(answer.data)
        return ask

    def again() -> int:
        answer = client.get(f"/t/{kept}/tally.pdf")
        assert answer.status_code == 200
        return len(answer.data)

    kept = tables[40][0]
    cases: dict[str, Callable[[], int]] = {"reference": page(REFERENCE_PAGE), "a full A4 page of it": page(FULL_PAGE),
                                           **{f"tally PDF, {n} deals, afresh": fresh(n) for n in sizes},
                                           "tally PDF, 40 deals, asked again": again}
    for run in cases.values():  # warm: fonts loaded, templates compiled (one table of each size spent)
        run()
    times: dict[str, list[float]] = {what: [] for what in cases}
    sizes_in_bytes: dict[str, int] = {}
    for _ in range(rounds):
        for what, run in cases.items():
            gc.collect()  # each starts with nothing left to collect by the one before
            started = time.perf_counter()
            sizes_in_bytes[what] = run()
            times[what].append((time.perf_counter() - started) * 1000)
    reference = statistics.median(times.pop("reference"))
    print(f"Tally PDF against one paragraph, {time.strftime('%Y-%m-%d %H:%M')}, {rounds} rounds in turn; {load()}")
    for what, took in times.items():
        is_target = what == "tally PDF, 40 deals, afresh"
        figure(f"{what} ({sizes_in_bytes[what]:,} B)", statistics.median(took), "ms", "one-paragraph A4 page",
               reference, "≤ 10×" if is_target else "", statistics.median(took) <= 10 * reference if is_target else None)
    small, large = (statistics.median(times[f"tally PDF, {n} deals, afresh"]) for n in (sizes[0], sizes[-1]))
    print(f"a deal adds {(large - small) / (sizes[-1] - sizes[0]):.2f} ms to the tally PDF ({sizes[0]} to {sizes[-1]} deals)")


if __name__ == "__main__":
    main()
