"""Benchmark: the app under waitress on loopback, against a bare Flask route on the same server.

    .venv/bin/python bench/run.py [--samples 60]

Prints each figure as median and p95 (milliseconds) and as a ratio to the bare
route's median, the bare route timed alternately with each figure, for tables of 40, 1,000 and 10,000 deals; the tally PDF of a
40-deal evening (warm); replay speed over 100,000 deals; and what a phone
downloads for the deal-entry page. Run by hand: it is not a test.
"""

from __future__ import annotations

import argparse
import http.client
from collections.abc import Callable

import platform
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from waitress.server import create_server  # noqa: E402
from werkzeug.middleware.dispatcher import DispatcherMiddleware  # noqa: E402

from scorer import create_app  # noqa: E402
from scorer.core import Contract, Deal, Evening, HouseRules, Suit, TableState, replay, settle  # noqa: E402
from scorer.core.evening_json import format_evening  # noqa: E402
from scorer.db import get_db  # noqa: E402
from scorer.store import import_evening  # noqa: E402

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


def evening_of(n: int, agreed: int, seed: int = 1) -> Evening:
    rng = random.Random(seed)
    rules = HouseRules.of()
    state = TableState.start(PLAYERS)
    deals = []
    for _ in range(n):
        tricks = rng.randint(0, 9)
        deal = Deal(state.next_dealer or "Ann", rng.choice(PLAYERS), Contract.SOLO, Suit.HEARTS, hombre_tricks=tricks,
                    matadors=rng.choice([0, 3, 4]))
        state = settle(deal, state, rules, agreed).after
        deals.append(deal)
    return Evening(PLAYERS, rules, tuple(deals), agreed)


class Phone:
    """One keep-alive HTTP connection with a cookie, like a phone's browser."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie = ""

    def request(self, method: str, path: str, fields: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if fields is not None:
            from urllib.parse import urlencode

            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data, dict(response.getheaders())

    def timed(self, method: str, path: str, fields: dict[str, str] | None = None) -> float:
        start = time.perf_counter()
        status, _, _ = self.request(method, path, fields)
        elapsed = time.perf_counter() - start
        assert status in (200, 302), (method, path, status)
        return elapsed


HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')


def record_once(phone: Phone, token: str, rng: random.Random) -> float:
    """Preview a deal (not timed), then time the tap that records it (POST to redirect)."""
    url = f"/t/{token}/deal/solo"
    _, page, _ = phone.request("GET", url)
    fields = dict(HIDDEN.findall(page.decode()))
    fields.update({"contract": "solo", "hombre": rng.choice(PLAYERS), "trumps": "hearts",
                   "hombre_tricks": str(rng.randint(0, 9)), "matadors": "0", "action": "preview"})
    _, preview, _ = phone.request("POST", url, fields)
    fields.update(HIDDEN.findall(preview.decode()))
    fields["action"] = "record"
    return phone.timed("POST", url, fields)


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--replay-deals", type=int, default=100_000)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="scorer-bench-"))
    app = create_app({"DATABASE": str(workdir / "bench.sqlite"), "INSTANCE_PATH": str(workdir / "instance")})
    bare = Flask("bare")
    bare.add_url_rule("/", "bare", lambda: "ok")
    server = create_server(DispatcherMiddleware(app, {"/bare": bare}), host="127.0.0.1", port=0, threads=4)
    port = server.effective_port  # type: ignore[union-attr]
    threading.Thread(target=server.run, daemon=True).start()

    tokens = {}
    with app.app_context():
        for size in (40, 1000, 10_000):
            started = time.perf_counter()
            data = format_evening(evening_of(size, size + 4 * args.samples + 40))
            tokens[size] = import_evening(get_db(), data).token
            print(f"# built a table of {size} deals in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    phone = Phone(port)
    rng = random.Random(7)
    rows: list[tuple[str, float, float, float]] = []
    bare = lambda: phone.timed("GET", "/bare/")  # noqa: E731

    def paired(what: str, measure: Callable[[], float], samples: int) -> None:
        """Time ``measure`` and the bare route one after the other, ``samples`` times: the ratio
        compares them under the same load (this machine's speed drifts by a third over a minute)."""
        times, bare_times = [], []
        for _ in range(samples):
            bare_times.append(bare())
            times.append(measure())
        median, p95 = summary(times)
        rows.append((what, median, p95, median / summary(bare_times)[0]))

    paired("bare Flask route", bare, args.samples)
    for size, token in tokens.items():
        phone.request("GET", f"/t/{token}")  # warm the ledger cache, as the first phone to open the table does
        paired(f"record a deal ({size} deals)", lambda: record_once(phone, token, rng), args.samples)
        paired(f"deal-entry page ({size} deals)", lambda: phone.timed("GET", f"/t/{token}/deal/solo"), args.samples)
        paired(f"ledger page ({size} deals)", lambda: phone.timed("GET", f"/t/{token}/ledger"), args.samples)
    small = tokens[40]
    phone.request("GET", f"/t/{small}/tally.pdf")  # warm
    paired("tally PDF, 40 deals (warm)", lambda: phone.timed("GET", f"/t/{small}/tally.pdf"), max(5, args.samples // 3))

    print(f"Benchmark of the Quadrille scorer, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{platform.python_implementation()} {platform.python_version()}, waitress on loopback")
    print(f"{'what':38} {'median ms':>10} {'p95 ms':>9} {'× bare':>8}")
    for what, median, p95, ratio in rows:
        print(f"{what:38} {median:10.2f} {p95:9.2f} {ratio:8.1f}")

    record = {size: m for what, m, _, _ in rows for size in tokens if what == f"record a deal ({size} deals)"}
    print(f"record at 10,000 deals / at 40 deals: {record[10_000] / record[40]:.2f} (target ≤ 1.25)")

    started = time.perf_counter()
    long_evening = evening_of(args.replay_deals, args.replay_deals + 4 - args.replay_deals % 4)
    build = time.perf_counter() - started
    best = min(_time_replay(long_evening) for _ in range(3))
    print(f"replay: {best / args.replay_deals * 1e6:.1f} µs per deal over {args.replay_deals:,} deals "
          f"(best of 3; building the evening took {build:.1f} s)")

    status, page, headers = phone.request("GET", f"/t/{tokens[40]}/deal/solo")
    assets = re.findall(r'(?:href|src)="([^"]+\.(?:css|js|png|svg|woff2?))"', page.decode())
    external = [a for a in re.findall(r'(?:href|src)="(https?://[^"]+)"', page.decode())]
    total, requests = len(page), 1
    for asset in assets:
        _, body, _ = phone.request("GET", asset)
        total += len(body)
        requests += 1
    print(f"deal-entry page: {total:,} bytes in {requests} requests ({len(page):,} HTML + {total - len(page):,} assets), "
          f"{len(external)} to other hosts (target under 30 KB, none elsewhere)")
    server.close()


def _time_replay(evening: Evening) -> float:
    started = time.perf_counter()
    replay(evening)
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
