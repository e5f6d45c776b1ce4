"""The race harness every race test shares (issues 10, 14 and 22): two phones, each a thread of its own kept
for the whole test (and each with its own SQLite connection, as waitress's threads have), released together
at a barrier, in about half the trials one of them delayed by a random fraction of a request, so that across
the trials each may go first and the two overlap by every amount; a race goes on until the two really raced.

The evidence rule: at least ``least`` trials, and more, up to ``most``, until the test's own evidence is in
(both orders happened, say) and the two calls overlapped in time in a fifth of the trials or in
:data:`OVERLAPS` of them. On a quiet machine 30 trials bring it (about 60% overlap); on a loaded one the
threads overlap less often (8 to 14% with two test suites at once on 2 cores; 2 to 3% for two refusals that each take a fraction
of a millisecond), and the race goes on, up to :data:`TRIALS_MAX` trials, until they have raced enough.

And what the races through the web share: the forms two phones hold (:func:`record_form`, :func:`undo_form`,
:func:`amend_form`, each ready to send), the table checked after a race (:func:`check_table`), and a wait
for what another thread does (:func:`until`).
"""

from __future__ import annotations

import random
import re
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorer.core.ledger.log import Ledger, Line, Refused, fold
from scorer.web.db import get_db
from scorer.store import Table, ledger, read_lines, table_by_token, verify

T = TypeVar("T")
TRIALS = 30
"""Trials of a race at least, by default."""
TRIALS_MAX = 400
"""Trials of a race at most, by default: then the test's own assertions and :meth:`Race.check_overlap` judge."""
OVERLAPS = 10
"""Trials that overlapped in time: enough to show the two requests really raced, when a fifth is not reached."""
SAME_MOMENT = 0.001
"""Two calls that left within a millisecond of each other count as at once even when neither lasted that long (a
refusal read from memory takes a tenth of one; two such calls overlapped in 1.5 % of trials, too seldom to show)."""
FINAL_POST_SECONDS = 30
"""How long a phone waits at the barrier, or for the other's answer, before the test fails."""


@contextmanager
def fine_interleaving() -> Iterator[None]:
    """The interpreter hands over between threads 50 times more often: finer interleavings."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


class Race:
    """Two server threads, kept for the whole test, that send one final POST (or store call) each,
    released together at a barrier.

    One of the two, chosen at random, waits up to about the length of a call before sending, so that
    across the trials each may start first, and the two overlap by every amount. Every trial notes
    whether the two calls overlapped in time (one started before the other answered)."""

    def __init__(self, seed: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="phone")
        self.rng = random.Random(seed)
        self.durations: list[float] = []
        self.overlapped = 0
        self.trials = 0
        self.last_overlapped = False
        """Whether the last trial's two calls overlapped in time."""

    @property
    def jitter(self) -> float:
        return statistics.median(self.durations[-20:]) if self.durations else 0.005

    def __call__(self, first: Callable[[], T], second: Callable[[], T]) -> tuple[T, T]:
        barrier = threading.Barrier(2)
        late = self.rng.randrange(2)
        # every other trial on average both leave the barrier at once (on a loaded machine a delay drawn from
        # a whole call's length alone made them overlap in 5% of the trials), the rest one waits
        delay = self.rng.uniform(0, self.jitter) if self.rng.random() < 0.5 else 0.0

        def go(send: Callable[[], T], wait: float) -> tuple[T, float, float]:
            barrier.wait(timeout=FINAL_POST_SECONDS)
            if wait:
                time.sleep(wait)
            started = time.perf_counter()
            response = send()
            return response, started, time.perf_counter()

        futures = [self.pool.submit(go, send, delay if n == late else 0.0) for n, send in enumerate((first, second))]
        (a, a_start, a_end), (b, b_start, b_end) = (f.result(timeout=FINAL_POST_SECONDS) for f in futures)
        self.durations += [a_end - a_start, b_end - b_start]
        self.trials += 1
        # overlapped, or (two calls shorter than a phone's request could ever be: a refusal read from memory)
        # left within SAME_MOMENT of each other: as close as two phones' requests can come
        self.last_overlapped = a_start < b_end + SAME_MOMENT and b_start < a_end + SAME_MOMENT
        self.overlapped += self.last_overlapped
        return a, b

    def rounds(self, enough: Callable[[], bool], least: int = TRIALS, most: int = TRIALS_MAX) -> Iterator[int]:
        """Trial numbers: at least ``least``, then on until ``enough()`` holds and the threads raced enough
        (:meth:`raced`), or ``most`` trials ran (then the test's own assertions and check_overlap judge)."""
        for trial in range(most):
            yield trial
            if trial + 1 >= least and enough() and self.raced():
                return

    def raced(self) -> bool:
        """The two requests overlapped in time in a fifth of the trials, or in OVERLAPS of them."""
        return self.overlapped >= min(OVERLAPS, self.trials // 5) and self.overlapped > 0

    def check_overlap(self) -> None:
        """The threads really raced (:meth:`raced`)."""
        assert self.raced(), f"only {self.overlapped} of {self.trials} trials overlapped"

    def close(self) -> None:
        self.pool.shutdown()


def refused_or(call: Callable[[], T]) -> T | Refused:
    """What the store answers: the call's result, or the refusal it raised (anything else raises)."""
    try:
        return call()
    except Refused as refused:
        return refused


def both_orders_happened(outcomes: Counter[str], *names: str) -> None:
    """The trials really raced: each order named happened at least once."""
    assert all(outcomes[name] for name in names), outcomes


# --- the forms a race fires, and the table after it ------------------------------------------------------


HIDDEN = re.compile(r'name="(number|once|csrf_token|log_length|previewed)" type="hidden" value="([^"]*)"')


def hidden(response: TestResponse) -> dict[str, str]:
    assert response.status_code == 200, response.status_code
    return dict(HIDDEN.findall(response.get_data(as_text=True)))


def undo_form(phone: FlaskClient, token: str) -> Callable[[], TestResponse]:
    url = f"/t/{token}/undo"
    fields = hidden(phone.get(url))
    assert fields["number"] and fields["once"]
    return lambda: phone.post(url, data=fields)


def amend_form(phone: FlaskClient, token: str, number: int, taps: dict[str, str], by: str,
               reason: str) -> Callable[[], TestResponse]:
    """A correction of deal ``number`` to a solo with ``taps``, previewed: the returned call saves it."""
    url = f"/t/{token}/audit/{number}/amend/solo"
    fields = hidden(phone.get(url))
    fields.update({"contract": "solo", "matadors": "0", **taps, "by": by, "reason": reason, "action": "preview"})
    preview = phone.post(url, data=fields)
    assert preview.status_code == 200 and "What this changes" in preview.get_data(as_text=True)
    fields.update(hidden(preview))
    fields["action"] = "save"
    return lambda: phone.post(url, data=fields)


def record_form(phone: FlaskClient, token: str, taps: dict[str, str]) -> Callable[[], TestResponse]:
    url = f"/t/{token}/deal/solo"
    fields = hidden(phone.get(url))
    fields.update({"contract": "solo", "matadors": "0", **taps, "action": "preview"})
    fields.update(hidden(phone.post(url, data=fields)))
    assert fields["previewed"]
    fields["action"] = "record"
    return lambda: phone.post(url, data=fields)


def pages(table: Table, standing: int) -> list[str]:
    """Every page a player or a spectator can read of a table with ``standing`` deals."""
    t = f"/t/{table.token}"
    return [t, f"{t}/ledger", f"{t}/verify", f"{t}/tally", f"{t}/export.json", f"{t}/export.csv", f"{t}/settings",
            f"/s/{table.spectator_token}"] + [f"{t}/audit/{n}" for n in range(1, standing + 1)]


def check_table(app: Flask, reader: FlaskClient, token: str) -> tuple[Table, list[Line], Ledger]:
    """The table after a race: its log folds from scratch, without damage, into the cached ledger; its
    chain verifies; every page answers 200. Returns the table as stored, its log and its ledger."""
    with app.app_context():
        db = get_db()
        table = table_by_token(db, token)
        assert table is not None
        lines, unreadable = read_lines(db.conn, table.id)
        assert unreadable is None
        full = fold(table.evening(), lines)
        assert full.damage is None, full.damage.message
        assert ledger(db, table) == full  # the cache agrees with a replay from scratch
        assert verify(db, table) is None
        assert full.final.total == 0  # chips conserved
    for url in pages(table, len(full.deals)):
        assert reader.get(url).status_code == 200, url
    return table, lines, full


def settings_now(table: Table) -> tuple[object, ...]:
    return (table.rules.profile_name, table.deals_agreed, table.chip_value_cents, table.currency)


# --- another thread --------------------------------------------------------------------------------------


def until(condition: Callable[[], object], seconds: float = 60.0) -> None:
    """Waits until ``condition()`` holds (another thread gets there); fails after ``seconds`` (a hang, not a time limit)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the state waited for never came"
        time.sleep(0.002)
