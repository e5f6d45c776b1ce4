"""The render queue is fair between tables (issue 22, point 6): a table's own phone gets its tally PDF after
a few renders, however many addresses ask for other tables' PDFs meanwhile.

Deterministic: the renders are held by the test (a renderer that waits for the test's permission, or a turn
the test holds), and the test waits for states of the queue (requests seated, renders started), never for a
time to pass.
"""

from __future__ import annotations

import queue
import threading
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.racing import until
from helpers.web import start_table

from scorer.web.pages import tally
from scorer.web.pdfcache import RenderQueue, Turn


class Asking(threading.Thread):
    """One request to the queue, in its own thread (as a server thread would wait)."""

    def __init__(self, q: RenderQueue, table: str, key: str, who: str, turns: list[str] | None = None) -> None:
        super().__init__(daemon=True)
        self.q, self.table, self.key, self.who, self.turns = q, table, key, who, turns
        self.turn: Turn | None = None
        self.start()

    def run(self) -> None:
        self.turn = self.q.enter(self.table, self.key, self.who)
        if self.turn is Turn.RENDER:
            if self.turns is not None:
                self.turns.append(self.key)
            self.q.leave(self.table)

    def answer(self) -> Turn | None:
        self.join(60)
        return self.turn


# --- the queue alone -------------------------------------------------------------------------------------


def test_tables_take_turns_oldest_place_first_and_a_table_served_goes_to_the_back() -> None:
    q = RenderQueue(at_once=1, waiting_max=3, wait_seconds=60)
    turns: list[str] = []
    assert q.enter("A", "a1", "10.0.0.1") is Turn.RENDER  # A renders
    b = Asking(q, "B", "b1", "10.0.0.2", turns)
    until(lambda: q.waiting("B") == 1)
    c = Asking(q, "C", "c1", "10.0.0.3", turns)
    until(lambda: q.waiting("C") == 1)
    a = Asking(q, "A", "a2", "10.0.0.1", turns)  # A's phone asks for another PDF while A renders: after B and C
    until(lambda: q.waiting("A") == 1)
    q.leave("A")
    assert [b.answer(), c.answer(), a.answer()] == [Turn.RENDER] * 3
    assert turns == ["b1", "c1", "a2"]
    assert q.waiting() == 0 and q.rendering == 0


def test_the_same_pdf_asked_while_it_renders_is_rendered_once() -> None:
    q = RenderQueue(at_once=1, waiting_max=3, wait_seconds=60)
    assert q.enter("A", "a4", "10.0.0.1") is Turn.RENDER
    phones = [Asking(q, "A", "a4", f"10.0.1.{n}") for n in range(2)]  # the table's other phones, other addresses
    letter = Asking(q, "A", "letter", "10.0.1.9")  # another paper: a render of its own, after this one
    until(lambda: q.waiting("A") == 3)
    q.leave("A")
    assert [p.answer() for p in phones] == [Turn.LOOK, Turn.LOOK]  # take the PDF just rendered from the cache
    assert letter.answer() is Turn.RENDER


def test_an_address_takes_one_place() -> None:
    q = RenderQueue(at_once=1, waiting_max=4, wait_seconds=60)
    assert q.enter("A", "a", "10.0.0.1") is Turn.RENDER
    b = Asking(q, "B", "b", "10.0.0.9")
    until(lambda: q.waiting("B") == 1)
    assert q.enter("C", "c", "10.0.0.9") is Turn.BUSY  # its place is B's: no second table from this address
    again = Asking(q, "B", "b-letter", "10.0.0.9")  # its own table again: joins B's place
    until(lambda: q.waiting("B") == 2)
    q.leave("A")
    assert b.answer() is Turn.RENDER and again.answer() is Turn.RENDER
    assert q.enter("C", "c", "10.0.0.9") is Turn.RENDER  # B served: the address may take another place


def test_an_older_place_takes_the_seat_of_the_youngest_and_a_refused_table_keeps_its_place() -> None:
    q = RenderQueue(at_once=1, waiting_max=1, wait_seconds=60)
    turns: list[str] = []
    assert q.enter("A", "a", "10.0.0.1") is Turn.RENDER
    b = Asking(q, "B", "b", "10.0.0.2", turns)
    until(lambda: q.waiting() == 1)
    assert q.enter("C", "c", "10.0.0.3") is Turn.BUSY  # no seat: C keeps its place (after B's)
    q.leave("A")
    until(lambda: turns == ["b"])  # B rendered, and went to the back
    assert b.answer() is Turn.RENDER
    assert q.enter("D", "d", "10.0.0.4") is Turn.RENDER  # nothing waits: D renders at once
    d2 = Asking(q, "D", "d2", "10.0.0.4", turns)  # a place younger than C's takes the free seat
    until(lambda: q.waiting("D") == 1)
    c = Asking(q, "C", "c", "10.0.0.3", turns)  # C asks again: its place is older, it takes D's seat
    assert d2.answer() is Turn.BUSY
    until(lambda: q.waiting("C") == 1)
    q.leave("D")
    assert c.answer() is Turn.RENDER and turns == ["b", "c"]


def test_a_place_nobody_comes_back_to_lapses_and_the_places_are_bounded() -> None:
    q = RenderQueue(at_once=1, waiting_max=0, wait_seconds=0, places_max=2, kept_seconds=3600)
    assert q.enter("A", "a", "10.0.0.1") is Turn.RENDER
    assert q.enter("B", "b", "10.0.0.2") is Turn.BUSY  # no seat: B's place kept, and the places are full
    assert q.enter("C", "c", "10.0.0.3") is Turn.BUSY  # no place for C
    q.leave("A")
    assert q.enter("C", "c", "10.0.0.3") is Turn.RENDER  # A's place free: C takes it; B, not here, holds nobody back
    assert q.enter("D", "d", "10.0.0.2") is Turn.BUSY  # B's place is still this address's
    q.leave("C")
    assert q.enter("B", "b", "10.0.0.2") is Turn.RENDER
    q.leave("B")
    lapsing = RenderQueue(at_once=1, waiting_max=0, wait_seconds=0, kept_seconds=-1)  # every place kept no time
    assert lapsing.enter("A", "a", "10.0.0.1") is Turn.RENDER
    assert lapsing.enter("B", "b", "10.0.0.2") is Turn.BUSY
    lapsing.leave("A")
    assert lapsing.enter("C", "c", "10.0.0.2") is Turn.RENDER  # B's place lapsed: the address may take another


def test_a_waiter_gives_up_after_wait_seconds_and_its_table_keeps_its_place() -> None:
    q = RenderQueue(at_once=1, waiting_max=1, wait_seconds=0.01)
    assert q.enter("A", "a", "10.0.0.1") is Turn.RENDER
    assert q.enter("B", "b", "10.0.0.2") is Turn.BUSY  # waited its while, and A still renders
    assert q.waiting() == 0
    assert q.enter("C", "c", "10.0.0.2") is Turn.BUSY  # the address's place is B's, kept
    q.leave("A")
    assert q.enter("B", "b", "10.0.0.2") is Turn.RENDER


# --- through the app: several addresses at once ----------------------------------------------------------


def phone(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


class HeldRenderer:
    """The tally's renderer, each render held until the test lets it end; says which table it rendered."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, own_name: str) -> None:
        self.started: queue.Queue[bool] = queue.Queue()
        """One item a render started: whether it is the own table's."""
        self.permits = threading.Semaphore(0)
        self.free = threading.Event()
        self.own_name = own_name
        monkeypatch.setattr(tally, "render_pdf", self.render)

    def render(self, html: str) -> bytes:
        own = self.own_name in html
        self.started.put(own)
        if not self.free.is_set():
            assert self.permits.acquire(timeout=60)
        return b"%PDF-own" if own else b"%PDF-other"

    def let_all_end(self) -> None:
        self.free.set()
        for _ in range(64):
            self.permits.release()


def test_a_table_s_own_phone_gets_its_tally_while_ten_addresses_hammer_other_tables(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: requesters from many addresses kept every turn, and a phone asking for its own tally
    got 503 on all its tries. Eight other tables are asked for by ten addresses (two share a table), each
    request with a new place typed (never from the cache), flat out; the phone asks again after each 503,
    before the render in progress ends. Every table asked for before the phone's has a place older than
    its own and renders at most once before the phone's; each 503 the phone gets is owed to one of those
    (its seat taken by an older place, or no seat free but theirs): so the phone's PDF comes within twice
    the other tables plus two renders, and usually within the other tables plus two."""
    app.config.update(PDF_RENDERS_AT_ONCE=1, PDF_WAITING_MAX=2, PDF_WAIT_SECONDS=60)
    own = start_table(client, ["Vera", "Walt", "Xan", "Yves"])
    others = [start_table(client) for _ in range(8)]
    renderer = HeldRenderer(monkeypatch, "Vera")
    with app.app_context():
        rq = tally.printer().queue
    stop = threading.Event()

    def hammer(n: int) -> None:
        other_phone, table, asked = phone(app, f"198.51.100.{n}"), others[n % len(others)], 0
        while not stop.is_set():
            asked += 1
            assert other_phone.get(f"/t/{table}/tally.pdf?place=p{n}-{asked}").status_code in (200, 503)
            time.sleep(0.001)  # another request at once, the GIL shared with the phone

    hammering = [threading.Thread(target=hammer, args=(n,), daemon=True) for n in range(10)]
    for thread in hammering:
        thread.start()
    answers: list[int] = []
    try:
        until(lambda: rq.rendering == 1 and rq.waiting() == 2)  # the renderer and both seats taken by the others
        own_phone = phone(app, "203.0.113.7")

        def ask() -> threading.Thread:
            """The phone asks, in a thread of its own; back when it has its answer, waits, or renders."""
            asked = len(answers) + 1
            asking = threading.Thread(target=lambda: answers.append(own_phone.get(f"/t/{own}/tally.pdf").status_code))
            asking.start()
            until(lambda: len(answers) == asked or rq.waiting(own) > 0 or not renderer.started.empty())
            return asking

        asking, renders = ask(), 0
        while True:
            renders += 1
            assert renders <= 2 * len(others) + 2, f"the phone's tally not printed after {renders - 1} renders: {answers}"
            own_render = renderer.started.get(timeout=60)  # a render in progress, held
            if not asking.is_alive() and answers[-1] == 503:
                asking = ask()  # the phone asks again before the render ends
            renderer.permits.release()
            if own_render:
                break
        asking.join(60)
    finally:
        stop.set()
        renderer.let_all_end()
        for thread in hammering:
            thread.join(60)
    assert answers[-1] == 200 and answers.count(200) == 1
    assert not any(thread.is_alive() for thread in hammering)
    assert rq.waiting() == 0 and rq.rendering == 0


def test_the_table_s_phones_at_several_addresses_share_one_render(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config.update(PDF_RENDERS_AT_ONCE=1, PDF_WAITING_MAX=3, PDF_WAIT_SECONDS=60)
    own = start_table(client, ["Vera", "Walt", "Xan", "Yves"])
    renderer = HeldRenderer(monkeypatch, "Vera")
    with app.app_context():
        rq = tally.printer().queue
    answers: list[tuple[int, bytes]] = []

    def ask(n: int) -> None:
        response = phone(app, f"203.0.113.{n}").get(f"/t/{own}/tally.pdf")
        answers.append((response.status_code, response.data))

    phones = [threading.Thread(target=ask, args=(n,)) for n in range(4)]
    phones[0].start()
    assert renderer.started.get(timeout=60)  # the first phone's render, held
    for thread in phones[1:]:
        thread.start()
    until(lambda: rq.waiting(own) == 3)  # the three others wait for it
    renderer.permits.release()
    for thread in phones:
        thread.join(60)
    assert answers == [(200, b"%PDF-own")] * 4
    assert renderer.started.empty()  # one render for the four


def test_a_circle_s_season_pdf_takes_a_place_of_its_own(app: Flask, client: FlaskClient) -> None:
    from helpers.web import start_circle

    app.config.update(PDF_RENDERS_AT_ONCE=1, PDF_WAITING_MAX=1, PDF_WAIT_SECONDS=60)
    circle = start_circle(client)
    with app.app_context():
        rq = tally.printer().queue
    assert rq.enter("a table", "its pdf", "192.0.2.99") is Turn.RENDER
    answers: list[int] = []
    asking = threading.Thread(target=lambda: answers.append(phone(app, "203.0.113.7").get(f"/c/{circle}/tally.pdf").status_code))
    asking.start()
    until(lambda: rq.waiting(("circle", circle)) == 1)
    rq.leave("a table")
    asking.join(60)
    assert answers == [200]
