"""Benchmark: the tally PDF against the floor, a one-paragraph A4 PDF in the same font.

    .venv/bin/python bench/pdf.py [--rounds 15]

In one process and one run, round after round and alternately: the reference document (one
paragraph of DejaVu Sans on an A4 page, rendered by WeasyPrint as the app renders), for scale a whole A4 page of that paragraph, the tally PDF of a 40-deal evening rendered afresh (the PDF cache cleared before
each request; the whole request through the app: the ledger, the template and the render), and the
tallies of 10, 40, 100 and 400 deals (to show that the time grows linearly with the deals), the
40-deal tally's HTML through WeasyPrint alone (without the request) and split into its steps (parse;
style and layout; draw and write the PDF), and the 40-deal tally asked again (from the PDF cache).
Prints each figure's median and its ratio to the reference's median over the same rounds. Run by
hand: it is not a test (a minute or two).

Tables are built by importing an evening file through the app (POST /import), as a club would.
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

from scorer import create_app  # noqa: E402
from scorer.core import Contract, Deal, Evening, HouseRules, Suit, TableState, settle  # noqa: E402
from scorer.core.evening_json import format_evening  # noqa: E402
from scorer.core.limits import DEALS_AGREED_MAX  # noqa: E402

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
SIZES = (10, 40, 100, DEALS_AGREED_MAX)

REFERENCE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 9mm 11mm 11mm; } body { font: 8.5pt/1.3 "DejaVu Sans"; }</style></head>
<body><p>Quadrille is a card game for four players with a forty-card deck, played in the eighteenth
century in the salons of France and England. One player, Hombre, names trumps and may call a king to
find an ally; the two play against the other two, and the deal is settled in chips.</p></body></html>"""
"""The floor: one paragraph of the tally's font on the tally's paper."""
_PARAGRAPH = REFERENCE.split("<body>")[1].split("</body>")[0]
FULL_PAGE = REFERENCE.replace(_PARAGRAPH, _PARAGRAPH * 18)
"""For scale: the same paragraph over a whole A4 page (18 of them, the most that fit on one page), nothing else."""


def evening_of(n: int, agreed: int, seed: int = 1) -> Evening:
    rng = random.Random(seed)
    rules = HouseRules.of()
    state = TableState.start(PLAYERS)
    deals = []
    for _ in range(n):
        deal = Deal(state.next_dealer or PLAYERS[0], rng.choice(PLAYERS), Contract.SOLO, Suit.HEARTS,
                    hombre_tricks=rng.randint(0, 9), matadors=rng.choice([0, 3, 4]))
        state = settle(deal, state, rules, agreed).after
        deals.append(deal)
    return Evening(PLAYERS, rules, tuple(deals), agreed)


def import_table(app: Flask, evening: Evening) -> str:
    """A new table holding ``evening``, imported through the app's own import page; its token."""
    client = app.test_client()
    page = client.get("/import").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert csrf, "no CSRF token on /import"
    body = json.dumps(format_evening(evening)).encode()
    response = client.post("/import", data={"csrf_token": csrf.group(1), "evening": (io.BytesIO(body), "evening.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)[-2000:]
    return response.headers["Location"].split("/t/")[1].split("/")[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="scorer-bench-pdf-"))
    app = create_app({"DATABASE": str(workdir / "bench.sqlite"), "INSTANCE_PATH": str(workdir / "instance")})
    from weasyprint import HTML

    from weasyprint import URLFetcher

    from scorer.web import tally as tally_module
    from scorer.web.printing import printer

    tokens = {n: import_table(app, evening_of(n, -(-n // 4) * 4)) for n in SIZES}  # n of n deals played
    client = app.test_client()

    def reference() -> bytes:
        return HTML(string=REFERENCE).write_pdf()

    def full_page() -> bytes:
        return HTML(string=FULL_PAGE).write_pdf()

    def tally(n: int) -> Callable[[], bytes]:
        def fresh() -> bytes:
            with app.app_context():
                printer().cache.clear()
            response = client.get(f"/t/{tokens[n]}/tally.pdf")
            assert response.status_code == 200 and response.data.startswith(b"%PDF")
            pdf: bytes = response.data
            return pdf
        return fresh

    seen: list[str] = []  # every HTML the app hands to WeasyPrint (a PDF from the cache adds none)
    real_render = tally_module.render_pdf

    def counted(html: str) -> bytes:
        seen.append(html)
        return real_render(html)

    tally_module.render_pdf = counted
    tally(40)()
    html_40 = seen[-1]
    steps: dict[str, list[float]] = {"parse": [], "style and layout": [], "draw and write": []}

    def weasyprint_only() -> bytes:
        started = time.perf_counter()
        document = HTML(string=html_40, url_fetcher=URLFetcher(allowed_protocols=("data",)))
        parsed = time.perf_counter()
        rendered = document.render()  # type: ignore[attr-defined]  # not in stubs/
        laid_out = time.perf_counter()
        pdf: bytes = rendered.write_pdf()
        written = time.perf_counter()
        for step, took in zip(steps, (parsed - started, laid_out - parsed, written - laid_out)):
            steps[step].append(took * 1000)
        return pdf

    def cached() -> bytes:
        renders = len(seen)
        response = client.get(f"/t/{tokens[40]}/tally.pdf")  # rendered by the case before it: from the cache
        assert response.status_code == 200 and len(seen) == renders, "not from the cache"
        pdf: bytes = response.data
        return pdf

    cases: list[tuple[str, Callable[[], bytes]]] = [("reference: one paragraph, A4, DejaVu Sans", reference),
                                                    ("a full A4 page of that paragraph, for scale", full_page),
                                                    *((f"tally PDF, {n} deals, fresh", tally(n)) for n in SIZES if n != 40),
                                                    ("40 deals, its HTML through WeasyPrint alone", weasyprint_only),
                                                    ("tally PDF, 40 deals, fresh", tally(40)),
                                                    ("tally PDF, 40 deals, again: from the cache", cached)]  # just after it
    shown = [cases[0], cases[1], *((f"tally PDF, {n} deals, fresh", tally(n)) for n in SIZES), *cases[-3:-2], cases[-1]]
    for _, run in cases:  # warm: fonts loaded, templates compiled, ledgers cached
        run()
    for step in steps.values():
        step.clear()
    times: dict[str, list[float]] = {what: [] for what, _ in cases}
    sizes: dict[str, int] = {}
    for _ in range(args.rounds):
        for what, run in cases:
            started = time.perf_counter()
            sizes[what] = len(run())
            times[what].append((time.perf_counter() - started) * 1000)

    floor = statistics.median(times[cases[0][0]])
    print(f"Tally PDF against the floor, {date.today()}, {platform.machine()} CPython {platform.python_version()}, "
          f"{args.rounds} rounds alternately in one process")
    print(f"{'what':44} {'median ms':>10} {'min ms':>8} {'× floor':>8} {'bytes':>8} {'ms/deal':>8}")
    for what, _ in shown:
        median = statistics.median(times[what])
        deals = next((n for n in SIZES if what == f"tally PDF, {n} deals, fresh"), None)
        per_deal = f"{median / deals:8.2f}" if deals else " " * 8
        print(f"{what:44} {median:10.1f} {min(times[what]):8.1f} {median / floor:8.1f} {sizes[what]:8,} {per_deal}")
    print("the 40-deal HTML in WeasyPrint's steps (median ms): "
          + ", ".join(f"{step} {statistics.median(took):.1f}" for step, took in steps.items()))
    small, large = (statistics.median(times[f"tally PDF, {n} deals, fresh"]) for n in (SIZES[0], SIZES[-1]))
    print(f"cost of a deal (from {SIZES[0]} to {SIZES[-1]}): {(large - small) / (SIZES[-1] - SIZES[0]):.2f} ms; "
          f"40 deals / floor: {statistics.median(times['tally PDF, 40 deals, fresh']) / floor:.1f} (target ≤ 5)")


if __name__ == "__main__":
    main()
