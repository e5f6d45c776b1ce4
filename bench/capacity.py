"""Capacity: how many deals a second the scorer records while the table's pages are read, on one
process and on several processes sharing one SQLite file.

    .venv/bin/python bench/capacity.py [--seconds 10] [--layouts 1x4,1x8,2x4,3x4,4x4,2x4s,4x4s] [--quick]

Each layout ``PxT`` is P waitress processes of T threads, each serving the same app on its own port
behind the same database file (what gunicorn's workers or several ``python -m scorer.serve`` behind a
proxy would be). ``PxTs`` is the same with a database file of its own for each process: P shards, each
table on one of them (what sharding tables by link across instances gives, here on one machine). This process is the club: as many client threads as the servers have threads, in
all, times two, each playing one table after another in a closed loop (no pause), one deal at a time:

- the phone that records opens the deal-entry page, previews the deal, records it and follows the
  redirect to the table page (four requests, as a phone does);
- the other three phones at the table then read its pages: the table page twice and the ledger
  once (three requests).

A thread keeps one keep-alive connection to each server process and takes, for each deal, the server
of its table (``table id mod P``: sharding by link), or with ``--spread`` any server at random (a
front that knows nothing of tables, as gunicorn's shared socket is). After a warm-up second it counts
the deals recorded (302 answers to the record POST, checked against the log afterwards) and the pages
read over ``--seconds``, and the server processes' CPU time (from /proc) over the same span.

A deal every two minutes per table (a brisk Quadrille table) turns deals a second into tables served
at once: tables = deals/s x 120. Each layout's rate is printed beside the first layout's (one process), the
reference. ``--quick``: one layout of one process of 2 threads for 1 s. Run by hand; tests/test_bench.py runs
it with ``--quick``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import figure  # noqa: E402  (bench/common.py, beside this script)
from phone import Phone as BasePhone  # noqa: E402  (bench/phone.py, beside this script)

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')
SECONDS_PER_DEAL = 120
"""A deal every two minutes at each table."""
DEALS_PER_TABLE = 360
"""Each table is played to at most this many deals (under DEALS_AGREED_MAX), then the thread takes another."""


def serve(database: str, instance: str, port: int, threads: int) -> None:
    """One server process (run as ``capacity.py --serve``)."""
    from waitress import serve as waitress_serve

    from scorer import create_app

    import logging

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth is 3": saturated, as meant
    app = create_app({"DATABASE": database, "INSTANCE_PATH": instance, "SECRET_KEY": "capacity"})
    print("ready", flush=True)
    logging.getLogger("waitress").setLevel(logging.ERROR)
    waitress_serve(app, host="127.0.0.1", port=port, threads=threads, ident="scorer")


def make_tables(database: str, instance: str, count: int) -> list[tuple[int, str]]:
    """``count`` new tables of 400 agreed deals, straight through the store: (id, token) each."""
    from scorer import create_app
    from scorer.core import DEALS_AGREED_MAX, HouseRules
    from scorer.web.db import get_db
    from scorer.store import create_table

    app = create_app({"DATABASE": database, "INSTANCE_PATH": instance, "SECRET_KEY": "capacity"})
    with app.app_context():
        made = [create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), DEALS_AGREED_MAX, None, "") for _ in range(count)]
    return [(table.id, table.token) for table in made]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Phone(BasePhone):
    """A phone that reads pages as text."""

    def text(self, method: str, path: str, fields: dict[str, str] | None = None) -> tuple[int, str]:
        status, data, _ = self.request(method, path, fields)
        return status, data.decode()


class Club:
    """The client threads of one layout, and what they counted."""

    def __init__(self, ports: list[int], tables: list[tuple[int, str]], spread: bool) -> None:
        """``tables``: (the index of its server, its token) each; with ``spread`` any server will do."""
        self.ports, self.tables, self.spread = ports, tables, spread
        self.lock = threading.Lock()
        self.next_table = 0
        self.counting = False
        self.stop = False
        self.deals = 0
        self.pages = 0
        self.record_times: list[float] = []
        self.errors: list[str] = []

    def take_table(self) -> tuple[int, str]:
        with self.lock:
            table = self.tables[self.next_table]
            self.next_table += 1
            return table

    def player(self, seed: int) -> None:
        rng = random.Random(seed)
        phones = {port: Phone(port) for port in self.ports}
        table_id, token = self.take_table()
        played = 0
        try:
            while not self.stop:
                if played >= DEALS_PER_TABLE:
                    (table_id, token), played = self.take_table(), 0
                port = rng.choice(self.ports) if self.spread else self.ports[table_id]
                phone = phones[port]
                url = f"/t/{token}/deal/solo"
                status, page = phone.text("GET", url)
                fields = dict(HIDDEN.findall(page))
                fields.update({"contract": "solo", "hombre": rng.choice(PLAYERS), "trumps": "hearts",
                               "hombre_tricks": str(rng.randint(0, 9)), "matadors": "0", "action": "preview"})
                status, preview = phone.text("POST", url, fields)
                fields.update(HIDDEN.findall(preview))
                fields["action"] = "record"
                started = time.perf_counter()
                status, _ = phone.text("POST", url, fields)
                took = time.perf_counter() - started
                if status != 302:
                    self.errors.append(f"record answered {status}")
                    return
                played += 1
                reads = [f"/t/{token}", f"/t/{token}", f"/t/{token}/ledger", f"/t/{token}"]
                for path in reads:
                    if phone.text("GET", path)[0] != 200:
                        self.errors.append(f"{path} did not answer 200")
                        return
                if self.counting:
                    with self.lock:
                        self.deals += 1
                        self.pages += len(reads) + 1  # the deal-entry page besides the four reads
                        self.record_times.append(took)
        except Exception as error:  # pragma: no cover - reported
            self.errors.append(repr(error))


def run_layout(workdir: Path, processes: int, threads: int, seconds: float, spread: bool, sharded: bool,
               warm_up: float = 1.5) -> dict[str, float]:
    name = f"{processes}x{threads}{'s' if sharded else ''}"
    databases = [str(workdir / f"cap-{name}-{n if sharded else 0}.sqlite") for n in range(processes)]
    instance = str(workdir / "instance")
    clients = min(2 * processes * threads, 48)
    # enough tables for every client thread to move on several times; table n on server n mod P (by link)
    tables = []
    for n in range(processes if sharded else 1):
        tables += [(server, token) for server, (_, token) in
                   zip(range(n, 10**6, processes) if sharded else range(10**6), make_tables(databases[n], instance,
                                                                                         clients * 4 // (processes if sharded else 1) + 1))]
    tables = [(server % processes, token) for server, token in tables]
    random.Random(5).shuffle(tables)
    ports = [free_port() for _ in range(processes)]
    servers = [subprocess.Popen([sys.executable, __file__, "--serve", databases[n], instance, str(port), str(threads)],
                                stdout=subprocess.PIPE, text=True) for n, port in enumerate(ports)]
    try:
        for server in servers:
            assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        club = Club(ports, tables, spread and not sharded)
        players = [threading.Thread(target=club.player, args=(n,), daemon=True) for n in range(clients)]
        for player in players:
            player.start()
        time.sleep(warm_up)  # each table opened once, the connections open
        cpu_before = sum(cpu_seconds(s.pid) for s in servers)
        client_before = time.process_time()
        with club.lock:
            club.counting, started = True, time.perf_counter()
        time.sleep(seconds)
        with club.lock:
            club.counting, elapsed = False, time.perf_counter() - started
        cpu = sum(cpu_seconds(s.pid) for s in servers) - cpu_before
        client_cpu = time.process_time() - client_before
        club.stop = True
        for player in players:
            player.join(timeout=30)
        assert not club.errors, club.errors[:5]
    finally:
        for server in servers:
            server.terminate()
            server.wait()
    written = 0
    for database in set(databases):
        conn = sqlite3.connect(database)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        written += conn.execute("select count(*) from events where kind = 'record'").fetchone()[0]
        conn.close()
    assert written >= club.deals, (written, club.deals)
    ordered = sorted(club.record_times)
    return {"name": name, "processes": processes, "threads": threads, "sharded": sharded, "clients": clients, "deals_per_s": club.deals / elapsed,
            "pages_per_s": club.pages / elapsed, "server_cpu_ms_per_deal": cpu / club.deals * 1000,
            "server_cores": cpu / elapsed, "client_cores": client_cpu / elapsed,
            "record_median_ms": statistics.median(ordered) * 1000,
            "record_p95_ms": ordered[int(len(ordered) * 0.95) - 1] * 1000}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--layouts", default="1x4,1x8,2x4,3x4,4x4,2x4s,4x4s")
    parser.add_argument("--spread", action="store_true", help="each deal to any server process, not its table's")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.layouts = 1, "1x2"
    workdir = Path(tempfile.mkdtemp(prefix="scorer-capacity-"))
    rows = []
    for layout in args.layouts.split(","):
        processes, threads = (int(n) for n in layout.rstrip("s").split("x"))
        rows.append(run_layout(workdir, processes, threads, args.seconds, args.spread, layout.endswith("s"),
                               0.3 if args.quick else 1.5))
        print(f"# {layout}: {rows[-1]['deals_per_s']:.0f} deals/s", file=sys.stderr)
    load = os.getloadavg()
    print(f"Capacity of the Quadrille scorer, {time.strftime('%Y-%m-%d')}, {platform.machine()} "
          f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores "
          f"(load average before the last layout ended: {load[0]:.1f}), waitress on loopback "
          f"(synchronous as the app sets it); {'any server per deal' if args.spread else 'each table to one server'}; "
          f"'files': SQLite files (1: every process on the same file; more: a shard each)")
    print("a deal = deal-entry page, preview, record, table page; then 3 page reads by the other phones")
    print(f"{'servers':>10} {'files':>5} {'clients':>7} {'deals/s':>8} {'pages/s':>8} {'record ms':>10} {'p95':>6} "
          f"{'server CPU':>10} {'ms CPU':>7} {'client':>7} {'tables at once':>15}")
    for row in rows:
        print(f"{row['processes']:>3} x {row['threads']:<4} {row['processes'] if row['sharded'] else 1:>5} {row['clients']:>7} {row['deals_per_s']:8.0f} "
              f"{row['pages_per_s']:8.0f} {row['record_median_ms']:10.1f} {row['record_p95_ms']:6.1f} "
              f"{row['server_cores']:9.2f}c {row['server_cpu_ms_per_deal']:7.1f} {row['client_cores']:6.2f}c "
              f"{row['deals_per_s'] * SECONDS_PER_DEAL:15,.0f}")
    print(f"(tables at once: a deal every {SECONDS_PER_DEAL} s per table; 'ms CPU': the server processes' CPU "
          f"per deal, its 8 requests; 'c': cores busy)")
    first = rows[0]
    for row in rows:
        figure(f"{row['name']}: deals a second", row["deals_per_s"], "/s", f"{first['name']}'s", first["deals_per_s"])


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        main()
