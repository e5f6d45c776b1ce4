"""The Record tap in-process: no server, no loopback, only the app's own work.

    .venv/bin/python bench/record_inprocess.py [--samples 500] [--synchronous FULL|NORMAL] [--quick]
    SCORER_ROOT=/path/to/another/checkout .venv/bin/python -S bench/record_inprocess.py   # an earlier commit

Each sample opens the deal-entry page, previews a deal and records it through ``app.test_client()``
as a phone would (CSRF on); ``time.perf_counter`` is read around each request. A GET of a bare Flask
route through its own test client, in the same process, is timed just before each record: the
test client's own cost, which the record's figure also carries. Beside each figure, the app's own
server-side time: from the request's arrival in the WSGI app to the last byte of its body (bench/clock.py).
Prints the medians (ms). Tables of 400 deals are started as they fill. With ``SCORER_ROOT``, run it with
``python -S`` (no .pth file read: an editable install's import hook would otherwise give this checkout's
package); the script then puts the environment's site-packages after that checkout. ``--quick``: 5 samples.
Run by hand; tests/test_bench.py runs it with ``--quick``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("SCORER_ROOT") or str(Path(__file__).resolve().parent.parent))
if sys.flags.no_site:  # python -S: the environment's packages (beside its python), without its .pth files
    sys.path += [str(p) for p in Path(sys.executable).parent.parent.glob("lib/python3*/site-packages")]

from flask import Flask  # noqa: E402

import scorer  # noqa: E402
from clock import ServerClock  # noqa: E402  (bench/clock.py, beside this script: no scorer import)
from scorer import create_app  # noqa: E402
from scorer.core import HouseRules  # noqa: E402
from scorer.store import create_table  # noqa: E402
from scorer.web.db import get_db  # noqa: E402

HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')
PLAYERS = ("Ann", "Bea", "Cat", "Dan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--synchronous", default="FULL")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.samples = 5
    work = Path(tempfile.mkdtemp(prefix="scorer-record-"))
    app = create_app({"DATABASE": str(work / "bench.sqlite"), "INSTANCE_PATH": str(work / "instance"),
                      "SYNCHRONOUS": args.synchronous})
    bare = Flask("bare")
    bare.add_url_rule("/", "bare", lambda: "ok")
    app_clock, bare_clock = ServerClock(app.wsgi_app), ServerClock(bare.wsgi_app)
    app.wsgi_app, bare.wsgi_app = app_clock, bare_clock  # type: ignore[method-assign]
    bare_client, phone = bare.test_client(), app.test_client()
    rng = random.Random(7)

    def new_table() -> str:
        with app.app_context():
            return create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), 400, None, "").token

    times: dict[str, list[float]] = {"bare Flask route": [], "deal-entry page": [], "preview a deal": [],
                                     "record a deal": []}
    server: dict[str, list[float]] = {what: [] for what in times}
    token, played = new_table(), 0
    for _ in range(args.samples):
        if played == 396:
            token, played = new_table(), 0
        url = f"/t/{token}/deal/solo"
        started = time.perf_counter()
        page = phone.get(url).get_data(as_text=True)
        times["deal-entry page"].append(time.perf_counter() - started)
        server["deal-entry page"].append(app_clock.last)
        fields = dict(HIDDEN.findall(page))
        fields.update({"contract": "solo", "hombre": rng.choice(PLAYERS), "trumps": "hearts",
                       "hombre_tricks": str(rng.randint(0, 9)), "matadors": "0", "action": "preview"})
        started = time.perf_counter()
        preview = phone.post(url, data=fields).get_data(as_text=True)
        times["preview a deal"].append(time.perf_counter() - started)
        server["preview a deal"].append(app_clock.last)
        fields.update(HIDDEN.findall(preview))
        fields["action"] = "record"
        started = time.perf_counter()
        bare_client.get("/")
        times["bare Flask route"].append(time.perf_counter() - started)
        server["bare Flask route"].append(bare_clock.last)
        started = time.perf_counter()
        answer = phone.post(url, data=fields)
        times["record a deal"].append(time.perf_counter() - started)
        server["record a deal"].append(app_clock.last)
        assert answer.status_code == 302 and "/deal/" not in answer.headers["Location"], answer.headers.get("Location")
        played += 1
    bare_ms = statistics.median(times["bare Flask route"]) * 1000
    print(f"in-process, {time.strftime('%Y-%m-%d %H:%M')}, {scorer.__file__}, synchronous={args.synchronous}, "
          f"medians of {args.samples}, load average {os.getloadavg()[0]:.2f}")
    for what, samples in list(times.items())[1:]:
        ms, app_ms = statistics.median(samples) * 1000, statistics.median(server[what]) * 1000
        print(f"{what:44} {ms:9.3f} ms    | reference bare Flask route, test client       {bare_ms:9.3f} ms    | "
              f"{ms / bare_ms:6.2f}× | the app's own time {app_ms:.3f} ms")

if __name__ == "__main__":
    main()
