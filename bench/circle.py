"""Benchmark: the largest legal circle against a one-evening circle, under waitress on loopback (issue 22, point 4).

    .venv/bin/python bench/circle.py [--shapes 100x40,10x400] [--samples 20] [--no-profile]

A circle holds at most ``CIRCLE_DEALS_MAX`` deals agreed (scorer/core/limits.py): 100 evenings of 40 deals, or
10 of 400. For each shape asked (both by default) the benchmark builds, in a temporary database, that circle
(eight members of 30-character names, four seated each evening in turn; seeded random quadrille deals:
alliances, solos, forced spadilles, voles announced, won, remises and codilles; ``pool_at_end =
carry_forward`` so that each evening carries its pool into the next) and a circle of one evening of the same
length: its reference. Its last evening is left a few deals short, for the records the benchmark times. The
circles are written by the store's ``import_circle`` (a quadrille-circle/1 file made with the core, every
check an import makes, not posted through the form); the size of the app's own export of it
(``/c/<token>/export.json``, as a member downloads it) is printed beside the largest upload an import takes.

The app is served by waitress on 127.0.0.1 with the serve command's 8 threads, in this process, so that the
benchmark can empty the app's caches (the ledgers, the seasons, the PDFs, the tables built from their rows,
the drawn pieces and the deal previews) before a "cold" request. A WSGI middleware takes, for every request,
its wall time in the app (arrival to the last byte of its body) and the CPU time of the server thread that
served it (``time.thread_time``): the CPU is what shows a request that folds the season more than once.
Measured for both circles of a shape:

- its page ``GET /c/<token>``, cold (caches emptied before each of 3) and warm (median and p95 of ``--samples``);
- its season PDF ``GET /c/<token>/tally.pdf``, cold (3) and warm (from the PDF cache);
- a deal recorded in its last evening through the deal form (preview, then the timed POST that records it, as
  bench/run.py does), cold (3) and warm (``--samples // 2``);
- 8 requests for its page at once (cold, then warm) while a 9th client polls ``/healthz`` every 50 ms: the
  slowest page, the server CPU of the 8, and the longest ``/healthz`` wait;
- one fold of its season in the benchmark's process (``fold_circle`` with the caches emptied: the floor of a
  cold request).

Each figure is printed beside the one-evening circle's, with the issue's targets marked met or not met: page
warm ≤ 2× the one-evening circle's, page cold ≤ 1 s, ``/healthz`` ≤ 1 s. For each target not met (unless
``--no-profile``), the request is run once more in the process under cProfile (the test client, the same cold
or warm state) and the functions it spends its time in are printed, with their share. Run by hand: it is not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import os
import platform
import pstats
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from waitress.server import create_server  # noqa: E402

from clock import ServerClock  # noqa: E402  (bench/clock.py, beside this script)
from phone import Phone as BasePhone  # noqa: E402  (bench/phone.py, beside this script)
from evenings import mixed_deal  # noqa: E402  (bench/evenings.py, beside this script)
from scorer import create_app  # noqa: E402
from scorer.core import Evening, HouseRules, replay  # noqa: E402
from scorer.core.errors import ImpossibleDeal  # noqa: E402
from scorer.core.evening_json import format_evening  # noqa: E402
from scorer.core.limits import CIRCLE_DEALS_MAX, IMPORT_BYTES_MAX, NAME_MAX, circle_evenings_max  # noqa: E402
from scorer.core.season import season_evening  # noqa: E402
from scorer.core.settle import settle  # noqa: E402

MEMBERS = tuple((name * NAME_MAX)[:NAME_MAX].rstrip().ljust(NAME_MAX, "a") for name in (
    "Wilhelmina ", "Maximiliane ", "Bartholomew ", "Gwendolyn ", "Theodosia ", "Florentine ", "Cornelius ", "Ermengarde "))
"""Eight members, names of the longest allowed length (the costliest page and PDF)."""
RULES = HouseRules.of("quadrille", {"pool_at_end": "carry_forward"})
SHORT = 16
"""Deals left unplayed in a circle's last evening, for the records the benchmark times."""
POLL = 0.05
"""Seconds between two /healthz requests of the poller."""


# --- the circles -------------------------------------------------------------------------------------------


def seated(number: int) -> tuple[str, ...]:
    """The four members at evening ``number``: each evening the next four of the eight, turning by one."""
    return tuple(MEMBERS[(number + i) % len(MEMBERS)] for i in (0, 2, 4, 6))


def played(players: tuple[str, ...], agreed: int, deals: int, carried: int, rng: random.Random) -> Evening:
    """An evening of ``deals`` seeded random quadrille deals, begun with ``carried`` chips (each deal drawn
    again until it could have happened at that state)."""
    evening = Evening(players, RULES, (), agreed, carried_in=carried)
    state = evening.start()
    made: list[Any] = []
    while len(made) < deals:
        deal = mixed_deal(rng, state.next_dealer or players[0], players)
        try:
            state = settle(deal, state, RULES, agreed).after
        except ImpossibleDeal:
            continue
        made.append(deal)
    return Evening(players, RULES, tuple(made), agreed, carried_in=carried)


def circle_file(evenings: int, agreed: int, seed: int) -> tuple[dict[str, Any], int, int]:
    """A quadrille-circle/1 file of ``evenings`` evenings of ``agreed`` deals (the last one :data:`SHORT` deals
    short), each carrying its pool into the next; with the chips carried in all and the deals remise or codille."""
    rng = random.Random(seed)
    carried, items, log, carried_total, lost = 0, [], [], 0, 0
    for number in range(1, evenings + 1):
        players = seated(number)
        deals = agreed - SHORT if number == evenings else agreed
        evening = played(players, agreed, deals, carried, rng)
        replayed = replay(evening)
        lost += sum(1 for s in replayed.settlements if s.result.value in ("remise", "codille"))
        item = format_evening(evening)
        item.update({"first_dealer": players[0], "chip_value_cents": 5, "currency": "EUR"})
        items.append(item)
        log.append({"seq": number, "kind": "evening", "at": "2026-11-21T21:04:00+00:00", "hash": None,
                    "data": {"evening": number, "players": list(players), "first_dealer": players[0]}})
        carried = season_evening(MEMBERS, number, replayed).carried_out
        carried_total += carried
    data = {"format": "quadrille-circle/1", "name": f"The {evenings}-evening circle of {agreed}-deal evenings",
            "members": list(MEMBERS), "profile": RULES.profile_name, "house_rules": RULES.changes(),
            "deals_agreed": agreed, "chip_value_cents": 5, "currency": "EUR", "log": log, "evenings": items}
    return data, carried_total, lost


@dataclass
class Built:
    what: str
    token: str
    last_evening: str
    circle_id: int
    deals: int
    file_bytes: int
    seconds: float
    export_bytes: int


def build(app: Flask, evenings: int, agreed: int, seed: int) -> Built:
    """The circle written into the app's database by the store's import (every check an import makes)."""
    from scorer.web.db import get_db
    from scorer.store import circle_tables, import_circle

    started = time.perf_counter()
    data, carried, lost = circle_file(evenings, agreed, seed)
    size = len(json.dumps(data, ensure_ascii=False).encode())
    with app.app_context():
        circle = import_circle(get_db(), data, app.config["SECRET_KEY"])
        last = circle_tables(get_db(), circle)[-1]
    deals = sum(len(e["deals"]) for e in data["evenings"])
    took = time.perf_counter() - started
    exported = app.test_client().get(f"/c/{circle.token}/export.json")  # the app's own export, as a member downloads it
    assert exported.status_code == 200, exported.status_code
    print(f"# built {evenings} evenings of {agreed} deals ({deals:,} deals, {lost:,} remises and codilles, "
          f"{carried:,} chips carried in all) in {took:.1f} s; the file it was built from is {size / 1e6:.2f} MB, "
          f"the app's export of it {len(exported.data) / 1e6:.2f} MB (an upload takes at most "
          f"{IMPORT_BYTES_MAX / 1e6:.2f} MB)", file=sys.stderr)
    return Built(f"{evenings}×{agreed}", circle.token, last.token, circle.id, deals, size, took, len(exported.data))


# --- the server and its clock ----------------------------------------------------------------------------


def empty_caches(app: Flask) -> None:
    """Every cache the app keeps in its process, emptied (the ledgers, the season folds, the PDFs, the drawn
    pieces): what a request finds after a restart."""
    from scorer.store import LEDGERS, SEASONS
    from scorer.web import app_caches

    LEDGERS.clear()
    SEASONS.clear()
    app.extensions.pop("scorer.printer", None)
    app_caches(app).clear()


class Phone(BasePhone):
    """A phone that times what it asks."""

    def timed(self, method: str, path: str, fields: dict[str, str] | None = None, expect: Iterable[int] = (200,)) -> tuple[float, int]:
        started = time.perf_counter()
        status, body, _ = self.request(method, path, fields)
        took = time.perf_counter() - started
        assert status in tuple(expect), (method, path, status, body[-500:])
        return took, len(body)

    def close(self) -> None:
        self.conn.close()


HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')


def record_form(phone: Phone, evening: str, players: tuple[str, ...], rng: random.Random) -> tuple[str, dict[str, str]]:
    """The deal-entry page of the evening opened, a solo tapped in and previewed (not timed): the form to record."""
    url = f"/t/{evening}/deal/solo"
    status, page, _ = phone.request("GET", url)
    assert status == 200, (url, status)
    fields = dict(HIDDEN.findall(page.decode()))
    fields.update({"contract": "solo", "hombre": rng.choice(players), "trumps": "hearts",
                   "hombre_tricks": str(rng.randint(0, 9)), "matadors": "0", "action": "preview"})
    status, preview, _ = phone.request("POST", url, fields)
    assert status == 200, (url, status, preview[-800:])
    fields.update(HIDDEN.findall(preview.decode()))
    fields["action"] = "record"
    return url, fields


# --- the figures -----------------------------------------------------------------------------------------


@dataclass
class Figure:
    """One request's samples: end to end over loopback, the app's wall time and its thread's CPU (seconds)."""

    times: list[float] = field(default_factory=list)
    app: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    size: int = 0
    note: str = ""

    def add(self, took: float, app_cpu: tuple[float, float]) -> None:
        self.times.append(took)
        self.app.append(app_cpu[0])
        self.cpu.append(app_cpu[1])

    @property
    def median(self) -> float:
        return statistics.median(self.times) * 1000

    @property
    def p95(self) -> float:
        ordered = sorted(self.times)
        return ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000 if len(ordered) >= 10 else ordered[-1] * 1000

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu) * 1000

    def cell(self) -> str:
        return f"{self.median:9.1f} {self.p95:9.1f} {self.cpu_median:9.1f}"


@dataclass
class Burst:
    """8 requests at once for a circle's page while /healthz is polled."""

    slowest: float
    median: float
    cpu: float
    health_max: float
    health_polls: int

    def cell(self) -> str:
        return f"{self.median * 1000:9.1f} {self.slowest * 1000:9.1f} {self.cpu * 1000:9.1f}"


class Bench:
    def __init__(self, app: Flask, clock: ServerClock, port: int, samples: int) -> None:
        self.app, self.clock, self.port, self.samples = app, clock, port, samples
        self.phone = Phone(port, timeout=600)
        self.rng = random.Random(7)

    def get(self, path: str, cold: bool, samples: int) -> Figure:
        figure = Figure()
        if not cold:
            self.phone.request("GET", path)  # warm: the request a phone made before
        for _ in range(samples):
            if cold:
                empty_caches(self.app)
            took, figure.size = self.phone.timed("GET", path)
            figure.add(took, self.clock.latest(path))
        return figure

    def record(self, circle: Built, cold: bool, samples: int) -> Figure:
        figure = Figure()
        players = seated(_evenings_of(circle))
        for _ in range(samples):
            url, fields = record_form(self.phone, circle.last_evening, players, self.rng)
            if cold:
                empty_caches(self.app)
            took, _size = self.phone.timed("POST", url, fields, expect=(302,))
            figure.add(took, self.clock.latest(url))
        return figure

    def burst(self, path: str, cold: bool) -> Burst:
        """8 clients ask for ``path`` at once (each on its own connection) while a 9th polls /healthz."""
        phones = [Phone(self.port) for _ in range(8)]
        poller = Phone(self.port)
        poller.request("GET", "/healthz")
        for phone in phones:
            phone.request("GET", "/healthz")  # connected before the clock starts
        if cold:
            empty_caches(self.app)
        else:
            self.phone.request("GET", path)
        barrier = threading.Barrier(9)
        took: list[float] = []
        lock = threading.Lock()
        done = threading.Event()
        waits: list[float] = []

        def ask(phone: Phone) -> None:
            barrier.wait()
            started = time.perf_counter()
            status, _, _ = phone.request("GET", path)
            assert status == 200, (path, status)
            with lock:
                took.append(time.perf_counter() - started)

        def poll() -> None:
            while not done.is_set():
                started = time.perf_counter()
                status, _, _ = poller.request("GET", "/healthz")
                waits.append(time.perf_counter() - started)
                assert status == 200, status
                time.sleep(POLL)

        askers = [threading.Thread(target=ask, args=(phone,)) for phone in phones]
        polling = threading.Thread(target=poll)
        mark = len(self.clock.seen)
        for thread in askers:
            thread.start()
        polling.start()
        barrier.wait()
        for thread in askers:
            thread.join()
        time.sleep(POLL * 2)
        done.set()
        polling.join()
        for phone in (*phones, poller):
            phone.close()
        served = self.clock.since(mark, path)
        return Burst(max(took), statistics.median(took), sum(cpu for _, cpu in served), max(waits), len(waits))


def _evenings_of(circle: Built) -> int:
    return int(circle.what.split("×")[0])


def one_fold(app: Flask, circle: Built, rounds: int = 3) -> Figure:
    """One fold of the circle's season in this process, the caches emptied before each: the floor of a cold request."""
    from scorer.web.db import get_db
    from scorer.store import fold_circle

    figure = Figure()
    with app.app_context():
        conn = get_db().conn
        for _ in range(rounds):
            empty_caches(app)
            started, cpu = time.perf_counter(), time.thread_time()
            folded = fold_circle(conn, circle.circle_id)
            wall, used = time.perf_counter() - started, time.thread_time() - cpu
            assert folded is not None and folded[1].season is not None, "the circle does not hold"
            figure.add(wall, (wall, used))
    return figure


# --- cProfile of a slow request --------------------------------------------------------------------------


def profile(app: Flask, what: str, path: str, cold: bool, top: int = 14) -> None:
    """``path`` asked once more through the test client under cProfile (caches emptied first when ``cold``):
    where its time goes, by function (within it and what it calls, for the app's own functions; own time, for
    any), each as a share of the request's CPU time under the profiler (timed by ``time.thread_time``)."""
    client = app.test_client()
    if not cold:
        client.get(path)
    else:
        empty_caches(app)
    profiler = cProfile.Profile(time.thread_time)  # CPU time: what other processes on the machine take is not counted
    started = time.thread_time()
    profiler.enable()
    response = client.get(path)
    profiler.disable()
    took = time.thread_time() - started
    assert response.status_code == 200, response.status_code
    rows = list(pstats.Stats(profiler).stats.items())  # type: ignore[attr-defined]

    def name(key: tuple[str, int, str]) -> str:
        file, line, function = key
        short = file.split("/scorer/", 1)[-1] if "/scorer/" in file else file.rsplit("/", 2)[-1] if "/" in file else file
        return f"{function} ({short}:{line})"

    print(f"\ncProfile of {what}: {took * 1000:.0f} ms of CPU under the profiler")
    print(f"  {'within':>8} {'share':>6}  the app's functions, with all they call (calls)")
    ours = [(key, entry) for key, entry in rows if "/scorer/" in key[0]]
    for key, entry in sorted(ours, key=lambda item: -item[1][3])[:top]:
        print(f"  {entry[3] * 1000:8.0f} {entry[3] / took:6.0%}  {name(key)} ({entry[1]:,})")
    print(f"  {'own':>8} {'share':>6}  any function's own time (calls)")
    for key, entry in sorted(rows, key=lambda item: -item[1][2])[:top]:
        print(f"  {entry[2] * 1000:8.0f} {entry[2] / took:6.0%}  {name(key)} ({entry[1]:,})")


# --- the run ---------------------------------------------------------------------------------------------


def mark(met: bool) -> str:
    return "met" if met else "NOT MET"


def measure(bench: Bench, big: Built, small: Built, samples: int) -> list[tuple[str, Any, Any, str, bool | None]]:
    """Every figure of a shape, for its circle and its one-evening circle, with the target each meets."""
    rows: list[tuple[str, Any, Any, str, bool | None]] = []
    figures: dict[str, tuple[Any, Any]] = {}
    steps: list[tuple[str, Callable[[Built], Any]]] = [
        ("one fold of the season (in-process, cold)", lambda c: one_fold(bench.app, c)),
        ("page, cold", lambda c: bench.get(f"/c/{c.token}", True, 3)),
        ("page, warm", lambda c: bench.get(f"/c/{c.token}", False, samples)),
        ("season PDF, cold", lambda c: bench.get(f"/c/{c.token}/tally.pdf", True, 3)),
        ("season PDF, warm (PDF cache)", lambda c: bench.get(f"/c/{c.token}/tally.pdf", False, samples)),
        ("record in the last evening, cold", lambda c: bench.record(c, True, 3)),
        ("record in the last evening, warm", lambda c: bench.record(c, False, max(5, samples // 2))),
        ("8 pages at once, cold", lambda c: bench.burst(f"/c/{c.token}", True)),
        ("8 pages at once, warm", lambda c: bench.burst(f"/c/{c.token}", False)),
    ]
    for what, step in steps:
        figures[what] = (step(big), step(small))
        print(f"# {big.what}: {what} done", file=sys.stderr)
    for what, (b, s) in figures.items():
        target, met = "", None
        if what == "page, cold":
            target, met = "≤ 1000 ms", max(b.times) <= 1.0
            if not met:  # on a loaded machine: would the server's CPU alone have met it?
                target += f" (its CPU alone: {mark(max(b.cpu) <= 1.0)})"
        elif what == "page, warm":
            target, met = f"≤ 2 × {s.median:.1f} ms", b.median <= 2 * s.median
            if not met:
                target += f" (its CPU alone, ≤ 2 × {s.cpu_median:.1f} ms: {mark(b.cpu_median <= 2 * s.cpu_median)})"
        elif what.startswith("8 pages"):
            target, met = "/healthz ≤ 1000 ms", b.health_max <= 1.0 and s.health_max <= 1.0
        rows.append((what, b, s, target, met))
    return rows


def report(shape: Built, small: Built, rows: list[tuple[str, Any, Any, str, bool | None]]) -> None:
    print(f"\nlargest legal circle {shape.what} ({shape.deals:,} deals; the app's export of it {shape.export_bytes / 1e6:.2f} MB, "
          f"{'within' if shape.export_bytes <= IMPORT_BYTES_MAX else 'OVER'} the {IMPORT_BYTES_MAX / 1e6:.2f} MB an upload takes) beside a "
          f"circle of one evening of the same length ({small.deals:,} deals); ms: median, p95 (of 3 when cold: max), "
          f"server CPU median")
    print(f"{'what':42} {'median':>9} {'p95':>9} {'cpu':>9} | {'one-eve.':>9} {'p95':>9} {'cpu':>9} | {'×':>5} {'cpu ×':>6}  target")
    for what, b, s, target, met in rows:
        if isinstance(b, Burst):
            print(f"{what:42} {b.cell()} | {s.cell()} | {b.median / s.median:5.1f} {b.cpu / s.cpu:6.1f}  {target} {mark(bool(met))}")
            print(f"{'':42} (median, slowest of the 8, CPU of the 8; /healthz longest wait {b.health_max * 1000:.0f} ms "
                  f"over {b.health_polls} polls, one-evening {s.health_max * 1000:.0f} ms over {s.health_polls})")
            continue
        ratio = b.median / s.median if s.median else float("nan")
        size = f"  ({b.size:,} / {s.size:,} bytes)" if b.size else ""
        print(f"{what:42} {b.cell()} | {s.cell()} | {ratio:5.1f} {b.cpu_median / s.cpu_median:6.1f}  "
              f"{target}{' ' + mark(bool(met)) if met is not None else ''}{size}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="100x40,10x400",
                        help="circles to measure, EVENINGSxDEALS, comma-separated (each within CIRCLE_DEALS_MAX)")
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--no-profile", action="store_true", help="no cProfile of a request whose target is not met")
    args = parser.parse_args()
    shapes = [tuple(int(n) for n in shape.split("x")) for shape in args.shapes.split(",")]
    for evenings, agreed in shapes:
        assert evenings <= circle_evenings_max(agreed), f"{evenings} evenings of {agreed} deals is not a legal circle"
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth is 1": the bursts' point
    load_before = os.getloadavg()[0]
    workdir = Path(tempfile.mkdtemp(prefix="scorer-bench-circle-"))
    app = create_app({"DATABASE": str(workdir / "bench.sqlite"), "INSTANCE_PATH": str(workdir / "instance")})
    clock = ServerClock(app.wsgi_app)
    app.wsgi_app = clock  # type: ignore[method-assign]
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    port = server.effective_port  # type: ignore[union-attr]
    threading.Thread(target=_run_until_closed, args=(server,), daemon=True).start()
    bench = Bench(app, clock, port, args.samples)
    began = time.perf_counter()
    results = []
    for number, (evenings, agreed) in enumerate(shapes):
        big = build(app, evenings, agreed, seed=number + 1)
        small = build(app, 1, agreed, seed=number + 101)
        results.append((big, small, measure(bench, big, small, args.samples)))

    print(f"\nBenchmark of a circle's season (issue 22), {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()} "
          f"{platform.python_implementation()} {platform.python_version()}, waitress on loopback, 8 threads, "
          f"CIRCLE_DEALS_MAX {CIRCLE_DEALS_MAX:,}, {os.cpu_count()} cores, load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")
    print("ms end to end over loopback; cpu: CPU time of the server thread that served the request (time.thread_time), "
          "for '8 at once' the CPU of the 8; cold: the app's caches emptied before each")
    for big, small, rows in results:
        report(big, small, rows)
    unmet = [(big, what) for big, _small, rows in results for what, _b, _s, _t, met in rows if met is False]
    print(f"\ntargets: {sum(1 for *_, rows in results for row in rows if row[4])} met, {len(unmet)} not met "
          f"({', '.join(f'{big.what} {what}' for big, what in unmet) or 'none'}); run took {time.perf_counter() - began:.0f} s")
    if not args.no_profile:
        slow = {(big.what, f"/c/{big.token}", "cold" in what): big for big, what in unmet}
        for big, _small, rows in results:  # the costliest request of all, with no target of its own: profiled when over 1 s
            pdf_cold = next(b for what, b, *_ in rows if what == "season PDF, cold")
            if pdf_cold.median > 1000:
                slow[(big.what, f"/c/{big.token}/tally.pdf", True)] = big
        for (shape, path, cold) in slow:
            what = "season PDF" if path.endswith(".pdf") else "page"
            profile(app, f"{shape} {what}, {'cold' if cold else 'warm'} (in-process, test client)", path, cold)
    bench.phone.close()
    time.sleep(0.2)
    server.close()


def _run_until_closed(server: Any) -> None:
    try:
        server.run()
    except OSError:
        pass


if __name__ == "__main__":
    main()
