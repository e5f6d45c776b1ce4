"""The pages that draw the deal form (its radio groups: the ``segmented`` macro of templates/_macros.html).

    .venv/bin/python bench/drawn.py [--samples 400] [--quick]
    SCORER_ROOT=/path/to/another/checkout .venv/bin/python bench/drawn.py   # another checkout's pages
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/drawn.py --repeat deal 100

The pages: the deal-entry page and a preview, of a solo (5 radio groups) and of an alliance (8), and the table's
page (where the evening stands, the last deal's payments), through ``app.test_client()``, after a warm-up. For
each, the CPU time of the thread that served it (``time.thread_time``: on a machine shared with other work, the
wall time says more about the others than about the page), median of the samples, beside its reference from the
same run: the app's bare route (``/healthz``: the whole request through the app, no template). Run it against an
earlier checkout (``SCORER_ROOT``) in turns, on the same machine at the same time. ``--quick``: one sample.

``--repeat KIND COUNT`` asks for one page only (the deal-entry page, a preview or the table's page, of a solo),
COUNT times after a warm-up: run under valgrind's callgrind with two counts, the difference of the instructions it
reports, divided by the difference of the counts, is what one page costs, whatever else the machine runs.
Run by hand: it is not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.environ.get("SCORER_ROOT") or str(Path(__file__).resolve().parent.parent))

import scorer  # noqa: E402
from clock import ServerClock  # noqa: E402  (bench/clock.py, beside this script: no scorer import)
from common import figure  # noqa: E402  (bench/common.py, beside this script)
from scorer import create_app  # noqa: E402
from scorer.core import HouseRules  # noqa: E402
from scorer.store import create_table  # noqa: E402
from scorer.web.db import get_db  # noqa: E402

HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')
PLAYERS = ("Ann", "Bea", "Cat", "Dan")
DEALS = {"solo": {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0", "vole": "none"},
         "alliance": {"hombre": "Bea", "trumps": "hearts", "called": "KS", "ally": "Cat", "hombre_tricks": "4",
                      "ally_tricks": "2", "matadors": "0", "vole": "none"}}

def pages(app: Any, clock: ServerClock, samples: int) -> None:
    phone = app.test_client()

    def new_table() -> str:
        with app.app_context():
            return str(create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), 400, None, "").token)

    token = new_table()
    for n in range(3):  # a few deals played: the table's page shows the last one's payments and the pool
        url = f"/t/{token}/deal/solo"
        sent = {**dict(HIDDEN.findall(phone.get(url).get_data(as_text=True))), **DEALS["solo"], "action": "preview"}
        sent.update(HIDDEN.findall(phone.post(url, data=sent).get_data(as_text=True)))
        assert phone.post(url, data={**sent, "action": "record"}).status_code == 302
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}

    def timed(what: str, answer: Any) -> str:
        assert answer.status_code == 200, what
        page = str(answer.get_data(as_text=True))
        path = answer.request.path
        seen_wall, seen_cpu = clock.latest(path)
        cpu.setdefault(what, []).append(seen_cpu)
        wall.setdefault(what, []).append(seen_wall)
        return page

    warm_up = min(50, samples)
    for sample in range(samples + warm_up):
        if sample == warm_up:
            cpu.clear()
            wall.clear()
        timed("bare route", phone.get("/healthz"))
        for contract, taps in DEALS.items():
            url = f"/t/{token}/deal/{contract}"
            page = timed(f"deal-entry page, {contract}", phone.get(url))
            sent = {**dict(HIDDEN.findall(page)), **taps, "action": "preview"}
            timed(f"preview a deal, {contract}", phone.post(url, data=sent))
        timed("the table's page", phone.get(f"/t/{token}"))
    print(f"pages, {time.strftime('%Y-%m-%d %H:%M')}, {scorer.__file__}, medians of {samples}, "
          f"load average {os.getloadavg()[0]:.2f}")
    bare = statistics.median(cpu.pop("bare route")) * 1000
    for what in cpu:
        figure(f"{what}, CPU", statistics.median(cpu[what]) * 1000, "ms", "the bare route, CPU", bare)


def repeat(app: Any, kind: str, count: int) -> None:
    """Only ``kind`` (``deal``, ``preview`` or ``table``, of a solo), ``count`` times after a warm-up: under
    valgrind's callgrind, the difference between two counts' instructions is the page's own."""
    phone = app.test_client()
    with app.app_context():
        token = create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), 400, None, "").token
    url = f"/t/{token}/deal/solo"
    sent = {**dict(HIDDEN.findall(phone.get(url).get_data(as_text=True))), **DEALS["solo"], "action": "preview"}
    sent.update(HIDDEN.findall(phone.post(url, data=sent).get_data(as_text=True)))
    assert phone.post(url, data={**sent, "action": "record"}).status_code == 302
    sent = {**dict(HIDDEN.findall(phone.get(url).get_data(as_text=True))), **DEALS["solo"], "action": "preview"}
    ask = {"deal": lambda: phone.get(url), "preview": lambda: phone.post(url, data=sent),
           "table": lambda: phone.get(f"/t/{token}")}[kind]
    for _ in range(20 + count):
        assert ask().status_code == 200


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--quick", action="store_true", help="one sample")
    parser.add_argument("--repeat", nargs=2, metavar=("KIND", "COUNT"), help="deal, preview or table; how many")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scorer-drawn-"))
    app = create_app({"DATABASE": str(work / "bench.sqlite"), "INSTANCE_PATH": str(work / "instance")})
    clock = ServerClock(app.wsgi_app)
    app.wsgi_app = clock  # type: ignore[method-assign]
    if args.repeat:
        repeat(app, args.repeat[0], int(args.repeat[1]))
        return
    pages(app, clock, 1 if args.quick else args.samples)


if __name__ == "__main__":
    main()
