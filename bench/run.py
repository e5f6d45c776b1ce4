"""Benchmark: the app under waitress on loopback, against a bare Flask route on the same server.

    .venv/bin/python bench/run.py [--samples 60]

Prints each figure as median and p95 (milliseconds) and as a ratio to the bare
route's median, the bare route timed alternately with each figure, for a table of 40 deals and
one near the longest allowed evening (DEALS_AGREED_MAX, 400 deals); the tally PDF of a 40-deal
evening (warm, from the cache); a fresh tally PDF of the longest allowed evening, and 8 PDF
requests at once on it while a phone records a deal at another table; replay speed over 100,000
deals; and what a phone downloads for the deal-entry page. Run by hand: it is not a test.

Tables are built by importing an evening file through the app (POST /import), as a club would.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
from collections.abc import Callable
from typing import Any

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
from scorer.core.limits import DEALS_AGREED_MAX, NAME_MAX  # noqa: E402

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
LONG_NAMES = tuple((name * NAME_MAX)[:NAME_MAX] for name in ("Wilhelmina ", "Maximiliane ", "Bartholomew ", "Gwendolyn "))
"""Four names of the longest allowed length, for the costliest printed tally."""


def evening_of(n: int, agreed: int, seed: int = 1, players: tuple[str, ...] = PLAYERS) -> Evening:
    rng = random.Random(seed)
    rules = HouseRules.of()
    state = TableState.start(players)
    deals = []
    for _ in range(n):
        tricks = rng.randint(0, 9)
        deal = Deal(state.next_dealer or players[0], rng.choice(players), Contract.SOLO, Suit.HEARTS,
                    hombre_tricks=tricks, matadors=rng.choice([0, 3, 4]))
        state = settle(deal, state, rules, agreed).after
        deals.append(deal)
    return Evening(players, rules, tuple(deals), agreed)


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
    threading.Thread(target=_run_until_closed, args=(server,), daemon=True).start()

    tokens = {}
    # the longer table leaves room for the deals the benchmark records (a sample each, and a few more)
    long_size = (DEALS_AGREED_MAX - args.samples - 20) // 4 * 4
    assert long_size > 40, "--samples leaves no room for a long table under DEALS_AGREED_MAX"
    for size in (40, long_size):
        started = time.perf_counter()
        tokens[size] = import_table(app, evening_of(size, DEALS_AGREED_MAX))
        print(f"# built a table of {size} deals in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    started = time.perf_counter()
    largest = import_table(app, evening_of(DEALS_AGREED_MAX, DEALS_AGREED_MAX, players=LONG_NAMES))
    print(f"# built the largest allowed table ({DEALS_AGREED_MAX} deals, names of {NAME_MAX} characters) "
          f"in {time.perf_counter() - started:.1f} s", file=sys.stderr)

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
    paired("tally PDF, 40 deals (from the cache)", lambda: phone.timed("GET", f"/t/{small}/tally.pdf"), max(5, args.samples // 3))

    print(f"Benchmark of the Quadrille scorer, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{platform.python_implementation()} {platform.python_version()}, waitress on loopback")
    print(f"{'what':38} {'median ms':>10} {'p95 ms':>9} {'× bare':>8}")
    for what, median, p95, ratio in rows:
        print(f"{what:38} {median:10.2f} {p95:9.2f} {ratio:8.1f}")

    record = {size: m for what, m, _, _ in rows for size in tokens if what == f"record a deal ({size} deals)"}
    print(f"record at {long_size} deals / at 40 deals: {record[long_size] / record[40]:.2f} (target ≤ 1.25)")

    pdf_under_load(app, largest, tokens[40], rng)

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
    phone.conn.close()
    time.sleep(0.2)  # let waitress finish with the closed connection
    server.close()


def pdf_under_load(app: Flask, largest: str, playing: str, rng: random.Random) -> None:
    """The tally PDF of the largest allowed evening: fresh (the cache cleared before each), then
    8 phones asking for it at once while a phone at another table records deals, on a server with
    the serve command's 8 threads."""
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    port = server.effective_port  # type: ignore[union-attr]
    threading.Thread(target=_run_until_closed, args=(server,), daemon=True).start()
    cache = lambda: app.extensions["scorer.printer"].cache  # noqa: E731
    phone = Phone(port)
    phone.request("GET", f"/t/{largest}")  # the replay is cached, as once any phone has opened the table
    phone.request("GET", f"/t/{largest}/tally.pdf")
    fresh = []
    for paper in ["a4", "letter"] * 3:
        cache().clear()
        fresh.append(phone.timed("GET", f"/t/{largest}/tally.pdf?paper={paper}"))
    size = len(phone.request("GET", f"/t/{largest}/tally.pdf")[1])
    started = time.perf_counter()
    phone.request("GET", f"/t/{largest}/tally.pdf")
    cached = time.perf_counter() - started
    print(f"tally PDF, {DEALS_AGREED_MAX} deals, names of {NAME_MAX} characters, fresh: median "
          f"{statistics.median(fresh) * 1000:.0f} ms, max {max(fresh) * 1000:.0f} ms ({len(fresh)} renders, "
          f"{size:,} bytes); from the cache: {cached * 1000:.1f} ms")

    recorder = Phone(port)
    recorder.request("GET", f"/t/{playing}")
    cache().clear()
    barrier = threading.Barrier(9)
    answers: list[tuple[int, float, str, int, float]] = []
    lock = threading.Lock()

    def ask(paper: str) -> None:
        """One phone asking for the PDF; on a 503 it tries again after Retry-After, as a player would."""
        asking = Phone(port)
        barrier.wait()
        begun = time.perf_counter()
        status, _, headers = asking.request("GET", f"/t/{largest}/tally.pdf?paper={paper}")
        first, first_time, retry = status, time.perf_counter() - begun, headers.get("Retry-After", "")
        for _ in range(5):
            if status != 503:
                break
            time.sleep(float(headers.get("Retry-After", "5")))
            status, _, headers = asking.request("GET", f"/t/{largest}/tally.pdf?paper={paper}")
        asking.conn.close()
        with lock:
            answers.append((first, first_time, retry, status, time.perf_counter() - begun))

    askers = [threading.Thread(target=ask, args=(paper,)) for paper in ["a4", "letter"] * 4]
    for thread in askers:
        thread.start()
    barrier.wait()
    time.sleep(0.05)  # the 8 requests are in
    records = []
    while (len(answers) < 8 or not records) and len(records) < 200:  # until each of the 8 phones has its PDF
        records.append(record_once(recorder, playing, rng))
        time.sleep(0.1)  # quick thumbs, not a loop
    for thread in askers:
        thread.join()
    served = sorted(t for status, t, *_ in answers if status == 200)
    refused = [(t, retry) for status, t, retry, *_ in answers if status == 503]
    print(f"8 tally PDFs at once ({DEALS_AGREED_MAX} deals, A4 and Letter, cache cleared) on 8 threads, while a phone "
          f"records at another table: {len(served)} PDFs served in {', '.join(f'{t:.2f}' for t in served)} s; "
          f"{len(refused)} answered 503 (Retry-After {refused[0][1] if refused else '-'} s) in at most "
          f"{max((t for t, _ in refused), default=0) * 1000:.0f} ms; retrying after Retry-After, "
          f"{sum(1 for *_, final, _ in answers if final == 200)} of 8 had their PDF within "
          f"{max(total for *_, total in answers):.1f} s")
    print(f"  records meanwhile: {len(records)}, median {statistics.median(records) * 1000:.0f} ms, "
          f"max {max(records) * 1000:.0f} ms (target: under 1 s)")
    for client in (phone, recorder):
        client.conn.close()
    time.sleep(0.2)  # let waitress finish with the closed connections
    server.close()


def _run_until_closed(server: Any) -> None:
    try:
        server.run()
    except OSError:  # closed under its select() at the end
        pass


def _time_replay(evening: Evening) -> float:
    started = time.perf_counter()
    replay(evening)
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
