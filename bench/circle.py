"""Benchmark: the largest legal circle against a one-evening circle, under waitress on loopback.

    .venv/bin/python bench/circle.py [--shapes 100x40,10x400] [--samples 20] [--quick]

A circle holds at most ``CIRCLE_DEALS_MAX`` deals agreed (scorer/core/limits.py): 100 evenings of 40 deals, or
10 of 400. For each shape (both by default; ``--quick``: 2 evenings of 8 deals) the benchmark builds that circle
and, as its reference, a circle of one evening of the same length: eight members of 30-character names, four
seated each evening in turn, deals of bench/evenings.py's mix, ``pool_at_end = carry_forward`` so that each
evening carries its pool into the next, the last evening a few deals short for the records it times. They are
written by the store's ``import_circle`` (every check an import makes).

The app is served by bench/common.py's server (waitress, the serve command's 12 threads) in its own process.
Cold: the first request for the circle after the server's process starts, its templates warmed on the
one-evening circle's page. Warm: asked again. For both circles of a shape:

- its page ``GET /c/<token>``, cold (3 restarts) and warm (median of ``--samples``);
- its season PDF, cold (the first after a restart) and warm;
- a deal recorded in its last evening through the deal form (the timed POST after a preview), warm;
- 8 requests for its page at once on a cold server, while a 9th client polls ``/healthz`` every 50 ms.

Targets: page cold ≤ 0.6 s, page warm ≤ 2× the one-evening circle's, ``/healthz`` never over 1 s. Run by hand
and by ``bench/run.py``; tests/test_bench.py runs it with ``--quick``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from common import NAME_MAX_NAMES, Server, builder, figure, load, median_ms, mixed_evening_of, ready_to_record, timed, workdir

from scorer.core import HouseRules, close_evening, format_evening, left_on_the_table, replay
from scorer.core.limits import CIRCLE_DEALS_MAX, IMPORT_BYTES_MAX, circle_evenings_max

MEMBERS = NAME_MAX_NAMES
RULES = HouseRules.of("quadrille", {"pool_at_end": "carry_forward"})
SHORT = 16
"""Deals left unplayed in a circle's last evening, for the records the benchmark times (4 with ``--quick``)."""
COLD_MAX = 0.6
"""Seconds: the largest circle's page, cold."""
WARM_RATIO_MAX = 2.0
"""The largest circle's warm page against the one-evening circle's."""


def seated(number: int) -> tuple[str, ...]:
    """The four members at evening ``number``: each evening the next four of the eight, turning by one."""
    return tuple(MEMBERS[(number + i) % len(MEMBERS)] for i in (0, 2, 4, 6))


def circle_file(evenings: int, agreed: int, seed: int, short: int) -> dict[str, Any]:
    """A quadrille-circle/1 file of ``evenings`` evenings of ``agreed`` deals, the last ``short`` deals short."""
    carried, items, log = 0, [], []
    for number in range(1, evenings + 1):
        players = seated(number)
        deals = agreed - short if number == evenings else agreed
        evening = mixed_evening_of(deals, agreed, seed * 1000 + number, players, RULES, carried)
        item = format_evening(evening)
        item.update({"first_dealer": players[0], "chip_value_cents": 5, "currency": "EUR"})
        items.append(item)
        log.append({"seq": number, "kind": "evening", "at": "2026-11-21T21:04:00+00:00", "hash": None,
                    "data": {"evening": number, "players": list(players), "first_dealer": players[0]}})
        _, closed = close_evening(replay(evening).final, RULES)
        carried = sum(chips for _, chips in left_on_the_table(closed))
    return {"format": "quadrille-circle/1", "name": f"{evenings} evenings of {agreed} deals", "members": list(MEMBERS),
            "profile": RULES.profile_name, "house_rules": RULES.changes(), "deals_agreed": agreed,
            "chip_value_cents": 5, "currency": "EUR", "log": log, "evenings": items}


@dataclass
class Built:
    what: str
    token: str
    last_evening: str
    players: tuple[str, ...]
    deals: int
    export_bytes: int


def build(app: Any, evenings: int, agreed: int, seed: int, short: int) -> Built:
    """The circle written into the benchmark's database by the store's import."""
    from scorer.store import circle_tables, import_circle
    from scorer.web.db import get_db

    started = time.perf_counter()
    data = circle_file(evenings, agreed, seed, short)
    with app.app_context():
        circle = import_circle(get_db(), data, app.config["SECRET_KEY"])
        last = circle_tables(get_db(), circle)[-1]
    exported = app.test_client().get(f"/c/{circle.token}/export.json")
    assert exported.status_code == 200, exported.status_code
    deals = sum(len(e["deals"]) for e in data["evenings"])
    print(f"# built {evenings}×{agreed} ({deals:,} deals) in {time.perf_counter() - started:.1f} s; its export "
          f"{len(exported.data) / 1e6:.2f} MB (an upload takes at most {IMPORT_BYTES_MAX / 1e6:.2f} MB)", file=sys.stderr)
    return Built(f"{evenings}×{agreed}", circle.token, last.token, seated(evenings), deals, len(exported.data))


def cold(server: Server, path: str, warm_up: str, samples: int) -> list[float]:
    """``path`` asked first after each of ``samples`` restarts, the process warmed by ``warm_up`` first."""
    times = []
    for _ in range(samples):
        server.restart()
        phone = server.phone()
        phone.request("GET", warm_up)
        times.append(timed(phone, "GET", path))
        phone.conn.close()
    return times


def warm(server: Server, paths: tuple[str, str], samples: int) -> tuple[list[float], list[float]]:
    """Both paths asked once, then in turn ``samples`` times each."""
    phone = server.phone()
    for path in paths:
        phone.request("GET", path)
    a, b = [], []
    for _ in range(samples):
        a.append(timed(phone, "GET", paths[0]))
        b.append(timed(phone, "GET", paths[1]))
    phone.conn.close()
    return a, b


def records(server: Server, big: Built, small: Built, samples: int) -> tuple[list[float], list[float]]:
    """A deal recorded in each circle's last evening, in turn, ``samples`` times each (warm)."""
    phone, rng = server.phone(), random.Random(7)
    for circle in (big, small):
        phone.request("GET", f"/c/{circle.token}")
    out: tuple[list[float], list[float]] = ([], [])
    for _ in range(samples):
        for circle, times in zip((big, small), out):
            url, fields = ready_to_record(phone, circle.last_evening, rng, circle.players)
            times.append(timed(phone, "POST", url, fields, expect=(302,)))
    phone.conn.close()
    return out


def burst(server: Server, path: str, warm_up: str) -> tuple[float, float]:
    """8 clients ask for ``path`` at once on a fresh server while a 9th polls /healthz: the slowest page and the
    longest /healthz wait (seconds)."""
    server.restart()
    phones = [server.phone() for _ in range(9)]
    for phone in phones:
        phone.request("GET", "/healthz")
    phones[0].request("GET", warm_up)
    barrier, took, waits, done = threading.Barrier(9), [], [], threading.Event()

    def ask(phone: Any) -> None:
        barrier.wait()
        took.append(timed(phone, "GET", path))

    def poll() -> None:
        barrier.wait()
        while not done.is_set():
            waits.append(timed(phones[8], "GET", "/healthz"))
            time.sleep(0.05)

    threads = [threading.Thread(target=ask, args=(phone,)) for phone in phones[:8]]
    poller = threading.Thread(target=poll)
    for thread in (*threads, poller):
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    poller.join()
    for phone in phones:
        phone.conn.close()
    return max(took), max(waits)


def measure(server: Server, big: Built, small: Built, samples: int, cold_samples: int) -> list[bool | None]:
    """Every figure of one shape, printed beside the one-evening circle's; the targets' verdicts."""
    page, small_page = f"/c/{big.token}", f"/c/{small.token}"
    print(f"\nlargest legal circle {big.what} ({big.deals:,} deals) against a circle of one evening of the same "
          f"length ({small.deals} deals); ms, medians")
    verdicts = []
    big_cold, small_cold = cold(server, page, small_page, cold_samples), cold(server, small_page, page, cold_samples)
    verdicts.append(figure(f"{big.what} page, cold (slowest of {cold_samples})", max(big_cold) * 1000, "ms",
                           "one evening's, cold", max(small_cold) * 1000, f"≤ {COLD_MAX * 1000:.0f} ms",
                           max(big_cold) <= COLD_MAX))
    big_warm, small_warm = warm(server, (page, small_page), samples)
    verdicts.append(figure(f"{big.what} page, warm", median_ms(big_warm), "ms", "one evening's, warm",
                           median_ms(small_warm), f"≤ {WARM_RATIO_MAX:g}× reference",
                           statistics.median(big_warm) <= WARM_RATIO_MAX * statistics.median(small_warm)))
    pdf_cold = cold(server, f"{page}/tally.pdf", f"{small_page}/tally.pdf", 1)
    small_pdf_cold = cold(server, f"{small_page}/tally.pdf", f"{page}/tally.pdf", 1)
    figure(f"{big.what} season PDF, cold", pdf_cold[0] * 1000, "ms", "one evening's, cold", small_pdf_cold[0] * 1000)
    pdf_warm, small_pdf_warm = warm(server, (f"{page}/tally.pdf", f"{small_page}/tally.pdf"), samples)
    figure(f"{big.what} season PDF, warm", median_ms(pdf_warm), "ms", "one evening's, warm", median_ms(small_pdf_warm))
    big_record, small_record = records(server, big, small, max(3, samples // 2))
    figure(f"{big.what} record in the last evening, warm", median_ms(big_record), "ms", "in a one-evening circle",
           median_ms(small_record))
    slowest, waited = burst(server, page, small_page)
    small_slowest, small_waited = burst(server, small_page, page)
    figure(f"{big.what} 8 pages at once, cold (slowest)", slowest * 1000, "ms", "one evening's", small_slowest * 1000)
    verdicts.append(figure(f"{big.what} /healthz meanwhile (longest)", waited * 1000, "ms", "beside one evening's",
                           small_waited * 1000, "≤ 1000 ms", max(waited, small_waited) <= 1.0))
    return verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="100x40,10x400", help="EVENINGSxDEALS, comma-separated")
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="one circle of 2 evenings of 8 deals, 3 samples")
    args = parser.parse_args()
    shapes, samples, cold_samples, short = ("2x8", 3, 1, 4) if args.quick else (args.shapes, args.samples, 3, SHORT)
    folder = workdir("scorer-bench-circle-")
    app = builder(folder)
    print(f"Circles, {time.strftime('%Y-%m-%d %H:%M')}, CIRCLE_DEALS_MAX {CIRCLE_DEALS_MAX:,}, {load()}")
    built = []
    for number, shape in enumerate(shapes.split(",")):
        evenings, agreed = (int(n) for n in shape.split("x"))
        assert evenings <= circle_evenings_max(agreed), f"{shape} is not a legal circle"
        built.append((build(app, evenings, agreed, number + 1, short), build(app, 1, agreed, number + 101, short)))
    server = Server(folder)
    try:
        verdicts = [v for big, small in built for v in measure(server, big, small, samples, cold_samples)]
    finally:
        server.close()
    print(f"\ntargets: {verdicts.count(True)} hold, {verdicts.count(False)} miss; {load()}")


if __name__ == "__main__":
    main()
