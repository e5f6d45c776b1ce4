"""No client can stall the server: eight hostile imports posted at once to the app served by waitress (the serve
command's 8 threads, in a process of its own on loopback) while ``/healthz`` is polled and a phone records a deal.

Imports read their file one at a time at a gate (scorer/web/importgate.py): one more waits its turn, the others are
answered 503 at once with ``Retry-After``, so the server's other threads stay free. docs/LIMITS.md states what the
server holds meanwhile and afterwards; this test measures it (``VmHWM`` and ``VmRSS`` of the server's process).
Every loop here is bounded: the poll stops when the imports are answered, or after two minutes.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.docs import read, section
from helpers.hostile_files import hostile
from helpers.largest_circle import largest_circle_file
from helpers.served import Client, Poll, Served, import_file, ready_to_record, timed

from scorer.core import HouseRules
from scorer.store import create_table, import_circle
from scorer.store.database import connect, migrate

HEALTHZ_MAX = 1.0
"""Seconds: ``/healthz`` answers within this while the imports are under way (the Containerfile's check allows 5)."""
RECORD_MAX = 2.0
"""Seconds: a phone's record of a deal meanwhile."""
SHAPE = "numbers all different"
"""The costliest hostile shape to read (about a second each: tests/helpers/hostile_files.py)."""


def stated_bounds() -> tuple[int, int]:
    """docs/LIMITS.md's bounds on what the server holds above what it held before: while eight hostile files are
    imported at once, and once they are all answered."""
    text = " ".join(section(read("docs/LIMITS.md"), "## What imports at once hold").split())
    found = re.search(r"holds at most (\d+) MB more than before, and (\d+) MB more once they are all answered", text)
    assert found, text[:400]
    return int(found.group(1)), int(found.group(2))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    """The app served on a database holding one table of 8 deals; its token."""
    folder = tmp_path_factory.mktemp("stall")
    db = connect(str(folder / "scorer.sqlite"))
    migrate(db)
    table = create_table(db, ("Ann", "Bea", "Cat", "Dan"), "Ann", HouseRules.of(), 8, None, "")
    db.conn.close()
    server = Served(folder / "scorer.sqlite", folder / "instance")
    yield server, table.token
    server.close()


def refused_alike(served: Served) -> None:
    """A small refused import of each kind, so that what the pages of an import first load is loaded before."""
    for kind in ("evening", "circle"):
        assert import_file(served.port, kind, b"{}")[0] == 422


def test_eight_hostile_imports_at_once_leave_the_server_answering(served: tuple[Served, str]) -> None:
    server, token = served
    refused_alike(server)
    phone = Client(server.port)
    url, fields = ready_to_record(phone, token, 1, "Bea")
    time.sleep(0.5)  # what the first pages left to free is freed
    before, _ = server.memory_mb()
    files = [hostile(kind, SHAPE) for kind in ("evening", "circle") * 4]
    answers: list[tuple[int, bytes, dict[str, str], float]] = []
    poll = Poll(server.port)
    clients = [threading.Thread(target=lambda raw=raw, kind=kind: answers.append(import_file(server.port, kind, raw)))
               for kind, raw in zip(("evening", "circle") * 4, files)]
    for client in clients:
        client.start()
    while not answers:  # the gate is taken: at least one import was answered 503 at once
        time.sleep(0.01)
    status, recorded_in = timed(lambda: phone.form(url, fields))
    for client in clients:
        client.join(120)
    healthz = poll.stop()
    time.sleep(0.5)
    after, peak = server.memory_mb()
    peak_max, kept_max = stated_bounds()

    assert status == 302 and recorded_in <= RECORD_MAX, (status, recorded_in)
    assert healthz and max(healthz) <= HEALTHZ_MAX and not poll.failed, (max(healthz), poll.failed)
    busy = [a for a in answers if a[0] == 503]
    refused = [a for a in answers if a[0] == 422]
    assert len(busy) + len(refused) == 8 and len(refused) >= 1, [a[0] for a in answers]
    assert busy  # at most two at the gate (one read, one waiting): those that came while both seats were taken
    for _, page, headers, _ in busy:
        assert headers["Retry-After"] == "5"
        assert b"reads one imported file at a time" in page and b"Nothing was imported" in page
    for _, page, _, _ in refused:
        assert b"more values than a file of its size can hold" in page or b"reading it took more than 5 seconds of the server" in page
    assert peak - before <= peak_max, (before, peak)
    assert after - before <= kept_max, (before, after)
    assert tables(server) == 1  # nothing was imported


def tables(server: Served) -> int:
    database = re.search(r"\S+scorer\.sqlite", " ".join(server.process.args)).group(0)  # type: ignore[arg-type, union-attr]
    with sqlite3.connect(database) as conn:
        return int(conn.execute("select count(*) from tables").fetchone()[0])


def test_a_busy_import_is_answered_in_french(served: tuple[Served, str]) -> None:
    """The 503 page in the reader's language: six French phones post a hostile file at once (the gate seats two)."""
    server, _ = served
    raw = hostile("evening", SHAPE)
    answers: list[tuple[int, bytes, dict[str, str], float]] = []

    def french() -> None:
        client = Client(server.port)
        client.cookies["lang"] = "fr"
        answers.append(import_file_as(client, raw))

    phones = [threading.Thread(target=french) for _ in range(6)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join(120)
    busy = [(page, headers) for status, page, headers, _ in answers if status == 503]
    assert busy, [a[0] for a in answers]
    for page, headers in busy:
        assert headers["Retry-After"] == "5"
        assert "Ce serveur lit un seul fichier importé à la fois" in page.decode()


def import_file_as(client: Client, raw: bytes) -> tuple[int, bytes, dict[str, str], float]:
    from helpers.served import csrf, upload

    token = csrf(client, "/import")
    started = time.perf_counter()
    status, body, headers = upload(client, "/import", "evening", raw, token)
    return status, body, headers, time.perf_counter() - started


def test_the_limits_document_states_the_gate(served: tuple[Served, str]) -> None:
    text = " ".join(section(read("docs/LIMITS.md"), "## What imports at once hold").split())
    assert "`IMPORTS_AT_ONCE`" in text and "503" in text and "`Retry-After`" in text and "`bench/imports.py`" in text
    assert Path(__file__).name in text


def test_a_fresh_server_under_eight_clients_on_the_largest_circle_keeps_answering(tmp_path: Path) -> None:
    """A freshly started process (no season folded yet) asked for the largest legal circle's page by eight phones at
    once: every phone gets the page, and ``/healthz`` keeps answering within a second meanwhile."""
    db = connect(str(tmp_path / "scorer.sqlite"))
    migrate(db)
    circle = import_circle(db, largest_circle_file(), "not the server's key: imported as unverified")
    db.conn.close()
    server = Served(tmp_path / "scorer.sqlite", tmp_path / "instance")
    try:
        phones = [Client(server.port) for _ in range(8)]
        for phone in phones:
            assert phone.request("GET", "/healthz")[0] == 200  # connected and served once: only the circle is cold
        barrier, answers = threading.Barrier(8), []

        def ask(phone: Client) -> None:
            barrier.wait()
            answers.append(timed(lambda: phone.request("GET", f"/c/{circle.token}")))

        poll = Poll(server.port)
        asking = [threading.Thread(target=ask, args=(phone,)) for phone in phones]
        for thread in asking:
            thread.start()
        for thread in asking:
            thread.join(120)
        healthz = poll.stop()
    finally:
        server.close()
    assert [status for status, _ in answers] == [200] * 8
    assert healthz and max(healthz) <= HEALTHZ_MAX and not poll.failed, (max(healthz), poll.failed)
