"""Benchmark: the app under waitress on loopback, against a bare Flask route on the same server.

    .venv/bin/python bench/run.py [--samples 60]

Prints, for each request it measures (record a deal, preview it, the deal-entry page, the table
page, the ledger page, the tally PDF from the cache), the median and p95 end to end (milliseconds,
over loopback) and as a ratio to the bare route's median, the bare route timed alternately with
each figure; beside it the app's own server-side time, from the request's arrival in the WSGI app
to the last byte of its response body (a middleware the benchmark wraps around the app, in the
server's process), and the time of the COMMIT statements the request ran (the disk sync under
``synchronous = FULL``), so that the app's own work is shown apart from the disk's. A reference
line times the commit of one small row on the same disk with ``synchronous`` FULL, NORMAL and OFF.
All this for a table of 40 deals and
one near the longest allowed evening (DEALS_AGREED_MAX, 400 deals); the tally PDF of a 40-deal
evening (warm, from the cache), and rendered afresh against a one-paragraph A4 PDF in the same
font (the floor, alternately in one process); a fresh tally PDF of the longest allowed evening, and 8 PDF
requests at once on it while a phone records a deal at another table; replay speed over 100,000
deals (solos in hearts, and a realistic mixed evening of bench/evenings.py); and what a phone downloads
for the deal-entry page. Run by hand: it is not a test.

Tables are built by importing an evening file through the app (POST /import), as a club would.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
import io
import json
from collections.abc import Callable
from typing import Any

import platform
import random
import re
import sqlite3
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

from clock import COMMITS, ServerClock  # noqa: E402  (bench/clock.py, beside this script)
from evenings import mixed_evening  # noqa: E402  (bench/evenings.py, beside this script)
from phone import Phone as BasePhone  # noqa: E402  (bench/phone.py, beside this script)
from scorer import create_app  # noqa: E402
from scorer.core import Contract, Deal, Evening, HouseRules, Suit, TableState, settle  # noqa: E402
from scorer.core import log  # noqa: E402
from scorer.core.log import Line, LineKind, fold  # noqa: E402
from scorer.core.evening_json import format_evening  # noqa: E402
from scorer.core.limits import DEALS_AGREED_MAX, NAME_MAX  # noqa: E402

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
LONG_NAMES = tuple((name * NAME_MAX)[:NAME_MAX].rstrip().ljust(NAME_MAX, "a") for name in ("Wilhelmina ", "Maximiliane ", "Bartholomew ", "Gwendolyn "))
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


class Phone(BasePhone):
    """A phone that times what it asks."""

    def timed(self, method: str, path: str, fields: dict[str, str] | None = None) -> float:
        start = time.perf_counter()
        status, _, _ = self.request(method, path, fields)
        elapsed = time.perf_counter() - start
        assert status in (200, 302), (method, path, status)
        return elapsed


HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')


def previewed(phone: Phone, token: str, rng: random.Random) -> tuple[str, dict[str, str]]:
    """The deal-entry page opened and a deal tapped in (not sent): the form ready to preview."""
    url = f"/t/{token}/deal/solo"
    _, page, _ = phone.request("GET", url)
    fields = dict(HIDDEN.findall(page.decode()))
    fields.update({"contract": "solo", "hombre": rng.choice(PLAYERS), "trumps": "hearts",
                   "hombre_tricks": str(rng.randint(0, 9)), "matadors": "0", "action": "preview"})
    return url, fields


def preview_once(phone: Phone, token: str, rng: random.Random) -> float:
    """Open the deal-entry page (not timed), then time the tap that previews a deal."""
    url, fields = previewed(phone, token, rng)
    return phone.timed("POST", url, fields)


def record_once(phone: Phone, token: str, rng: random.Random) -> float:
    """Preview a deal (not timed), then time the tap that records it (POST to redirect)."""
    url, fields = previewed(phone, token, rng)
    _, preview, _ = phone.request("POST", url, fields)
    fields.update(HIDDEN.findall(preview.decode()))
    fields["action"] = "record"
    return phone.timed("POST", url, fields)


_commits = COMMITS


class TimedConnection(sqlite3.Connection):
    """A connection that adds the time of every COMMIT (and of ``commit()``) to its thread's account:
    under ``synchronous = FULL`` in WAL mode that is the write of the WAL frames and the disk sync."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if sql.strip().upper() in ("COMMIT", "END", "COMMIT TRANSACTION"):
            started = time.perf_counter()
            try:
                return super().execute(sql, *args)
            finally:
                _commits.seconds = getattr(_commits, "seconds", 0.0) + time.perf_counter() - started
        return super().execute(sql, *args)

    def commit(self) -> None:
        started = time.perf_counter()
        try:
            super().commit()
        finally:
            _commits.seconds = getattr(_commits, "seconds", 0.0) + time.perf_counter() - started


_connect = sqlite3.connect


def _timed_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    kwargs.setdefault("factory", TimedConnection)
    return _connect(*args, **kwargs)


sqlite3.connect = _timed_connect  # type: ignore[assignment]
"""The app's connections are TimedConnections: scorer.web.db calls sqlite3.connect when a thread first asks."""


def disk_sync_reference(directory: Path, commits: int = 200) -> dict[str, float]:
    """The median time of committing one small row in WAL mode on this disk, per ``synchronous`` level."""
    result = {}
    for level in ("FULL", "NORMAL", "OFF"):
        conn = _connect(directory / f"sync-{level}.sqlite", isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {level}")
        conn.execute("create table t (x text)")
        times = []
        for n in range(commits):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("insert into t values (?)", (f"row {n}" * 20,))
            started = time.perf_counter()
            conn.execute("COMMIT")
            times.append(time.perf_counter() - started)
        conn.close()
        result[level] = statistics.median(times) * 1000
    return result


class Row:
    """One request's figures, in seconds: end to end, the bare route's at the same moments, the app's
    own time in the server and the COMMIT time within it."""

    def __init__(self, what: str, times: list[float], bare: list[float], server: list[float],
                 commits: list[float]) -> None:
        self.what, self.times, self.bare, self.server, self.commits = what, times, bare, server, commits
        self.own = [inside - committing for inside, committing in zip(server, commits)]

    @staticmethod
    def median(samples: list[float]) -> float:
        return statistics.median(samples) * 1000

    def line(self) -> str:
        median, p95 = summary(self.times)
        bare = self.median(self.bare)
        inside, inside_p95 = summary(self.server)
        return (f"{self.what:38} {median:10.2f} {p95:6.2f} {bare:5.2f} {median / bare:6.1f} {inside:6.2f} "
                f"{inside_p95:6.2f} {self.median(self.commits):6.2f} {self.median(self.own):12.2f}")


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
    app_clock, bare_clock = ServerClock(app.wsgi_app), ServerClock(bare)
    app.wsgi_app = app_clock  # type: ignore[method-assign]
    server = create_server(DispatcherMiddleware(app, {"/bare": bare_clock}), host="127.0.0.1", port=0, threads=4)
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
    rows: list[Row] = []

    def bare_request() -> tuple[float, float, float]:
        took = phone.timed("GET", "/bare/")
        return took, *bare_clock.last

    def paired(what: str, measure: Callable[[], float], samples: int) -> None:
        """Time ``measure`` and the bare route one after the other, ``samples`` times: the ratio
        compares them under the same load (this machine's speed drifts by a third over a minute).
        The app's own time and its commits are those of the request ``measure`` timed (its last)."""
        times, server, commits, bare_times = [], [], [], []
        for _ in range(samples):
            bare_times.append(bare_request()[0])
            times.append(measure())
            inside, committing = app_clock.last
            server.append(inside)
            commits.append(committing)
        rows.append(Row(what, times, bare_times, server, commits))

    bare_rows = [bare_request() for _ in range(args.samples)]
    rows.append(Row("bare Flask route", [t for t, _, _ in bare_rows], [t for t, _, _ in bare_rows],
                    [s for _, s, _ in bare_rows], [c for _, _, c in bare_rows]))
    for size, token in tokens.items():
        phone.request("GET", f"/t/{token}")  # warm the ledger cache, as the first phone to open the table does
        paired(f"record a deal ({size} deals)", lambda: record_once(phone, token, rng), args.samples)
        paired(f"preview a deal ({size} deals)", lambda: preview_once(phone, token, rng), args.samples)
        paired(f"deal-entry page ({size} deals)", lambda: phone.timed("GET", f"/t/{token}/deal/solo"), args.samples)
        paired(f"table page ({size} deals)", lambda: phone.timed("GET", f"/t/{token}"), args.samples)
        paired(f"ledger page ({size} deals)", lambda: phone.timed("GET", f"/t/{token}/ledger"), args.samples)
    small = tokens[40]
    phone.request("GET", f"/t/{small}/tally.pdf")  # warm
    paired("tally PDF, 40 deals (from the cache)", lambda: phone.timed("GET", f"/t/{small}/tally.pdf"), max(5, args.samples // 3))
    sync = disk_sync_reference(workdir)

    print(f"Benchmark of the Quadrille scorer, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{platform.python_implementation()} {platform.python_version()}, waitress on loopback")
    print("end to end: over loopback, as a phone's browser sees it; app: in the server's process, request in to "
          "response out; commit: the COMMITs within it (disk sync); all in ms, median (and p95)")
    print(f"{'what':38} {'end to end':>10} {'p95':>6} {'bare':>5} {'× bare':>6} {'app':>6} {'p95':>6} "
          f"{'commit':>6} {'app − commit':>12}")
    for row in rows:
        print(row.line())
    print(f"disk sync reference, one small row committed in WAL mode on the same disk: synchronous FULL "
          f"{sync['FULL']:.2f} ms, NORMAL {sync['NORMAL']:.2f} ms, OFF {sync['OFF']:.2f} ms (medians of 200)")
    by_name = {row.what: row for row in rows}
    for size in tokens:
        record, preview, entry = (by_name[f"{what} ({size} deals)"] for what in ("record a deal", "preview a deal",
                                                                                 "deal-entry page"))
        print(f"targets at {size} deals: record, app − commit {record.median(record.own):.2f} ms (≤ 1.0); end to end "
              f"{record.median(record.times):.2f} ≤ bare {record.median(record.bare):.2f} + commit "
              f"{record.median(record.commits):.2f} + 1 = "
              f"{record.median(record.bare) + record.median(record.commits) + 1:.2f} ms; preview, app "
              f"{preview.median(preview.server):.2f} ms (≤ 1.5); deal-entry page, app {entry.median(entry.server):.2f} ms "
              f"(≤ 1.5)")

    long_record, short_record = by_name[f"record a deal ({long_size} deals)"], by_name["record a deal (40 deals)"]
    print(f"record at {long_size} deals / at 40 deals: end to end "
          f"{long_record.median(long_record.times) / short_record.median(short_record.times):.2f}, app − commit "
          f"{long_record.median(long_record.own) / short_record.median(short_record.own):.2f} (target ≤ 1.25)")

    pdf_under_load(app, largest, tokens[40], rng)
    pdf_against_floor(app, import_table(app, evening_of(40, 40)))  # a table of 40 deals: the others grew

    started = time.perf_counter()
    long_evening = evening_of(args.replay_deals, args.replay_deals + 4 - args.replay_deals % 4)
    build = time.perf_counter() - started
    lines = [Line(n, LineKind.RECORD, n, deal) for n, deal in enumerate(long_evening.deals, 1)]
    log.LOG_LINES_MAX = len(lines)  # a table's log is limited to 2,000 lines; lifted here, to time a long replay
    empty = replace(long_evening, deals=())
    stored = min(_time_fold(empty, lines, check=False) for _ in range(3))
    checked = min(_time_fold(empty, lines, check=True) for _ in range(3))
    mixed_lines = [Line(n, LineKind.RECORD, n, deal) for n, deal in enumerate(mixed_evening(args.replay_deals), 1)]
    mixed = min(_time_fold(empty, mixed_lines, check=False) for _ in range(3))
    print(f"replay over {args.replay_deals:,} deals (best of 3): a stored log read back (cold load) "
          f"{stored / args.replay_deals * 1e6:.1f} µs per deal (target ≤ 20), every deal checked (an import) "
          f"{checked / args.replay_deals * 1e6:.1f} µs; a realistic mixed evening's stored log (bench/evenings.py) "
          f"{mixed / args.replay_deals * 1e6:.1f} µs (target ≤ 25) (building the evening took {build:.1f} s; "
          f"bench/replay.py sets them beside an earlier commit's and gives the memory)")

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


def pdf_against_floor(app: Flask, token: str, rounds: int = 15) -> None:
    """The 40-deal tally PDF rendered afresh (the whole request, in-process), against the floor: a
    one-paragraph A4 PDF in the same font, rendered as the app renders (bench/pdf.py's reference),
    alternately in this process and run (bench/pdf.py gives the steps and the other lengths)."""
    from pdf import REFERENCE  # bench/pdf.py, beside this script
    from weasyprint import HTML

    client = app.test_client()
    cache = app.extensions["scorer.printer"].cache
    floor, tally = [], []
    for round_ in range(rounds + 2):  # the first two warm up
        started = time.perf_counter()
        HTML(string=REFERENCE).write_pdf()
        reference = time.perf_counter() - started
        cache.clear()
        started = time.perf_counter()
        response = client.get(f"/t/{token}/tally.pdf")
        took = time.perf_counter() - started
        assert response.status_code == 200 and response.data.startswith(b"%PDF")
        if round_ >= 2:
            floor.append(reference)
            tally.append(took)
    ratio = statistics.median(tally) / statistics.median(floor)
    print(f"tally PDF, 40 deals, fresh (in-process): median {statistics.median(tally) * 1000:.1f} ms against "
          f"{statistics.median(floor) * 1000:.1f} ms for a one-paragraph A4 PDF in DejaVu Sans: {ratio:.1f}× "
          f"(target ≤ 5; {rounds} rounds alternately)")


def _run_until_closed(server: Any) -> None:
    try:
        server.run()
    except OSError:  # closed under its select() at the end
        pass


def _time_fold(evening: Evening, lines: list[Line], check: bool) -> float:
    started = time.perf_counter()
    ledger = fold(evening, lines, check=check)
    took = time.perf_counter() - started
    assert ledger.damage is None and len(ledger.settlements) == len(lines)
    return took


if __name__ == "__main__":
    main()
