"""What the benchmarks share: tables and evenings built as a club would, a server in its own process, a
phone's taps, and one way to print a figure beside its reference and its target.

Only public names of ``scorer`` are used (its package tops where they export what is needed), so that the
benchmarks keep measuring whatever the app keeps in memory without knowing how it keeps it: a cold request
is the first one after the server's process starts (its templates warmed on another table or circle), never
one after emptying a cache by name. ``python bench/common.py --serve DATABASE INSTANCE`` is that server.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

from phone import Phone  # noqa: E402  (bench/phone.py: no import of scorer)
from scorer.core import NAME_MAX  # noqa: E402

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
NAME_MAX_NAMES = tuple((name * NAME_MAX)[:NAME_MAX].rstrip().ljust(NAME_MAX, "a") for name in (
    "Wilhelmina ", "Maximiliane ", "Bartholomew ", "Gwendolyn ", "Theodosia ", "Florentine ", "Cornelius ", "Ermengarde "))
"""Eight names of the longest allowed length (the costliest pages and PDFs)."""
HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')
REFERENCE_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 9mm 11mm 11mm; } body { font: 8.5pt/1.3 "DejaVu Sans"; }</style></head>
<body><p>Quadrille is a card game for four players with a forty-card deck, played in the eighteenth
century in the salons of France and England. One player, Hombre, names trumps and may call a king to
find an ally; the two play against the other two, and the deal is settled in chips.</p></body></html>"""
"""The PDF's reference: one paragraph of the tally's font on the tally's paper."""
THREADS = 12
"""The serve command's threads (scorer/serve.py's THREADS; bench/ imports no scorer module at its top)."""


def load() -> str:
    """The machine's load average over 1, 5 and 15 minutes, and its cores."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"


def median_ms(samples: Sequence[float]) -> float:
    return statistics.median(samples) * 1000


def figure(what: str, value: float, unit: str, reference: str, ref_value: float, target: str = "",
           holds: bool | None = None, ratio: float | None = None) -> bool | None:
    """One figure on one line: its value, its reference's, their ratio, and the target with whether it holds.
    tests/test_bench.py reads these lines (the ``|`` between the columns)."""
    ratio = value / ref_value if ratio is None and ref_value else ratio
    verdict = "" if holds is None else ("holds" if holds else "MISSES")
    print(f"{what:44} {value:9.2f} {unit:5} | reference {reference:38} {ref_value:9.2f} {unit:5} | "
          f"{ratio if ratio is not None else float('nan'):6.2f}× | {target} {verdict}".rstrip(), flush=True)
    return holds


def alternately(first: Callable[[], float], second: Callable[[], float], samples: int) -> tuple[list[float], list[float]]:
    """``first`` and ``second`` timed in turn, ``samples`` times each: a shared machine's speed drifts within a
    minute, so a figure and its reference are taken at the same moments."""
    a, b = [], []
    for _ in range(samples):
        a.append(first())
        b.append(second())
    return a, b


# --- evenings and tables ----------------------------------------------------------------------------------


def mixed_evening_of(deals: int, agreed: int, seed: int = 1, players: tuple[str, ...] = PLAYERS,
                     rules: Any = None, carried: int = 0) -> Any:
    """An Evening of ``deals`` deals of bench/evenings.py's mix, each drawn again until it could have happened."""
    from evenings import mixed_deal

    from scorer.core import Evening, HouseRules, ImpossibleDeal, settle

    rules = rules or HouseRules.of()
    rng = random.Random(seed)
    state = Evening(players, rules, (), agreed, carried_in=carried).start()
    made: list[Any] = []
    while len(made) < deals:
        deal = mixed_deal(rng, state.next_dealer or players[0], players)
        try:
            state = settle(deal, state, rules, agreed).after
        except ImpossibleDeal:
            continue
        made.append(deal)
    return Evening(players, rules, tuple(made), agreed, carried_in=carried)


def builder(workdir: Path) -> Any:
    """The app in this process, on the benchmark's database, to build tables (rate limits off: a club does not
    import dozens of evenings an hour)."""
    from scorer import create_app

    return create_app({"DATABASE": str(workdir / "bench.sqlite"), "INSTANCE_PATH": str(workdir / "instance"),
                       "RATELIMIT_ENABLED": False})


def import_table(app: Any, evening: Any) -> str:
    """A new table holding ``evening``, imported through the app's own import page; its token."""
    from scorer.core import format_evening

    client = app.test_client()
    page = client.get("/import").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert csrf, "no CSRF token on /import"
    body = json.dumps(format_evening(evening)).encode()
    answer = client.post("/import", data={"csrf_token": csrf.group(1), "evening": (io.BytesIO(body), "evening.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 302, answer.get_data(as_text=True)[-2000:]
    return str(answer.headers["Location"].split("/t/")[1].split("/")[0])


# --- the server -------------------------------------------------------------------------------------------


def bare_app(folder: str) -> Any:
    """The reference: a bare Flask app with a GET that answers ``ok`` and a POST that inserts its form into a
    SQLite file in WAL mode with ``synchronous = FULL`` (one fsync'd commit, as a record makes) and redirects."""
    from flask import Flask, redirect, request

    bare = Flask("bare")
    local = threading.local()

    def db() -> sqlite3.Connection:
        if not hasattr(local, "conn"):
            local.conn = sqlite3.connect(os.path.join(folder, "bare.sqlite"), isolation_level=None)
            local.conn.execute("PRAGMA journal_mode = WAL")
            local.conn.execute("PRAGMA synchronous = FULL")
            local.conn.execute("create table if not exists posts (body text)")
        return local.conn

    @bare.get("/")
    def ok() -> str:
        return "ok"

    @bare.post("/insert")
    def insert() -> Any:
        conn = db()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("insert into posts values (?)", (json.dumps(request.form.to_dict()),))
        conn.execute("COMMIT")
        return redirect("/bare/")

    return bare


def serve(database: str, instance: str) -> None:
    """The app at ``/`` and the bare app at ``/bare``, one waitress server of the serve command's threads on a free
    port of 127.0.0.1; prints the port and serves until killed."""
    import logging

    from waitress.server import create_server
    from werkzeug.middleware.dispatcher import DispatcherMiddleware

    from scorer import create_app

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth": a burst's point
    app = create_app({"DATABASE": database, "INSTANCE_PATH": instance})
    server = create_server(DispatcherMiddleware(app, {"/bare": bare_app(os.path.dirname(database))}),
                           host="127.0.0.1", port=0, threads=THREADS)
    print(server.effective_port, flush=True)  # type: ignore[union-attr]
    server.run()


class Server:
    """bench/common.py --serve in a child process, on the benchmark's database: :meth:`restart` gives a process
    that holds nothing in memory."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.process: subprocess.Popen[str] | None = None
        self.port = 0
        self.restart()

    def restart(self) -> None:
        self.close()
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", str(self.workdir / "bench.sqlite"),
                                         str(self.workdir / "instance")], stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.port = int(self.process.stdout.readline())

    def phone(self, timeout: float = 120) -> Phone:
        return Phone(self.port, timeout)

    def close(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait()
            self.process = None


def timed(phone: Phone, method: str, path: str, fields: dict[str, str] | None = None,
          expect: tuple[int, ...] = (200,)) -> float:
    started = time.perf_counter()
    status, body, _ = phone.request(method, path, fields)
    took = time.perf_counter() - started
    assert status in expect, (method, path, status, body[-800:])
    return took


def ready_to_record(phone: Phone, token: str, rng: random.Random, players: Sequence[str] = PLAYERS) -> tuple[str, dict[str, str]]:
    """The deal-entry page opened, a solo tapped in and previewed (not timed): the form whose POST records it."""
    url = f"/t/{token}/deal/solo"
    status, page, _ = phone.request("GET", url)
    assert status == 200, (url, status)
    fields = dict(HIDDEN.findall(page.decode()))
    fields.update({"contract": "solo", "hombre": rng.choice(list(players)), "trumps": "hearts",
                   "hombre_tricks": str(rng.randint(0, 9)), "matadors": "0", "action": "preview"})
    status, preview, _ = phone.request("POST", url, fields)
    assert status == 200, (url, status, preview[-800:])
    fields.update(HIDDEN.findall(preview.decode()))
    fields["action"] = "record"
    return url, fields


def workdir(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix))


if __name__ == "__main__" and sys.argv[1:2] == ["--serve"]:
    serve(sys.argv[2], sys.argv[3])
