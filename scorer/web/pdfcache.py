"""The tally PDF's cost, bounded: rendered PDFs kept in memory, and one render at a time, in fair turns.

A PDF depends only on the table (its settings), its log, the reader's language, the paper and the
place and table name typed for its title block, so it is kept under (table token, log length, settings,
language, paper, place, name): a French phone never gets the English PDF, and any record, undo, correction or restoration adds a line to the log and so asks for a new
PDF, and a repeat costs nothing. The PDFs kept are bounded
by their total bytes, least recently used out first.

Rendering is CPU-bound Python (WeasyPrint) under the GIL: two renders at once take as long as
two in a row, and each one holds a server thread. So only ``at_once`` renders run at a time, and
turns are given by :class:`RenderQueue`, fairly between tables (see there): a table's own phone gets
its PDF after at most a few renders, however many addresses ask for other tables' PDFs meanwhile,
and PDFs never hold more than ``at_once + waiting_max`` server threads, so a phone recording a deal
is served meanwhile. A request that cannot wait is answered 503 with ``Retry-After`` at once, and
its table keeps its place in the queue for when it asks again.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from ..core.caches import Cache


class _Pdf(NamedTuple):
    pdf: bytes
    family: Hashable | None


PLACES_MAX = 64
"""Tables with a place in the queue at one time (a place is a few hundred bytes)."""

PLACE_KEPT_SECONDS = 30.0
"""How long a table's place is kept for a phone answered 503 (told to come back in ``Retry-After`` seconds)."""


class Turn(Enum):
    """What :meth:`RenderQueue.enter` gives a request."""

    RENDER = "render"
    """Its turn: render the PDF, then :meth:`RenderQueue.leave`."""
    LOOK = "look"
    """The PDF it asked for was just rendered for another request of its table: take it from the cache."""
    BUSY = "busy"
    """No turn now (answer 503): its table keeps its place for when it asks again."""


@dataclass(eq=False)
class _Waiter:
    """A request holding a server thread until its turn."""

    key: Hashable
    done: bool = False
    """A render of its key ended while it waited (:attr:`Turn.LOOK`)."""
    bumped: bool = False
    """Its seat was given to a request of an older place (:attr:`Turn.BUSY`)."""


@dataclass(eq=False)
class _Place:
    """A table's place in the queue: its number, the address that took it, the requests waiting on it."""

    number: int
    holder: str
    waiters: list[_Waiter] = field(default_factory=list)
    rendering: Hashable | None = None
    """The key being rendered for this table, if one is."""
    kept_until: float = 0.0


class RenderQueue:
    """Turns at the renderer, fair between tables.

    - A table (a circle's season too) has at most one place in the queue, whoever asks; its requests
      wait on that place in order of arrival, and a table renders one PDF at a time. A request for the
      PDF being rendered for its table waits for that render and takes its result (:attr:`Turn.LOOK`)
      instead of rendering again.
    - An address takes at most one place: asking for another table's PDF while its place is held is
      answered 503 (asking for its table's again joins the place).
    - Places are served oldest first, ``at_once`` at a time; a place whose render starts, and again
      when it ends, goes to the back of the queue (with a new number), so its table's next PDF comes
      after every table that asked meanwhile. A place nobody waits on now does not hold the others back.
    - At most ``waiting_max`` requests wait (each holds a server thread), each at most ``wait_seconds``.
      When all seats are taken, a request of an older place takes the seat of the request of the
      youngest place, which is answered 503 (its place kept); otherwise the newcomer is answered 503,
      its place kept. A place nobody waits on lapses after ``kept_seconds``; at most ``places_max`` are
      held (a table that finds none free is answered 503 without one).

    So a table's phone, asking again after each 503, renders after at most the places older than its own
    (one for each other table asked for when it first asked: none is added before it, and each goes behind
    it once it has rendered) and the render in progress.

    The gate of imports (:mod:`scorer.web.importgate`) is one too: each import has a place of its own, for no
    address, kept no time once refused, so imports are read ``at_once`` at a time in order of arrival.
    """

    def __init__(self, at_once: int, waiting_max: int, wait_seconds: float, places_max: int = PLACES_MAX,
                 kept_seconds: float = PLACE_KEPT_SECONDS) -> None:
        self.at_once = max(1, at_once)
        self.waiting_max = max(0, waiting_max)
        self.wait_seconds = max(0.0, wait_seconds)
        self.places_max = max(1, places_max)
        self.kept_seconds = kept_seconds
        self._places: OrderedDict[Hashable, _Place] = OrderedDict()
        """Every place by its table, oldest first (a place given a new number moves to the end)."""
        self.rendering = 0
        """Renders under way."""
        self._numbers = itertools.count(1)
        self._turn = threading.Condition()

    def enter(self, table: Hashable, key: Hashable, who: str = "") -> Turn:
        """A turn for the request of ``who`` for the PDF ``key`` of ``table``: waits for it (at most
        ``wait_seconds``) if it holds a seat."""
        with self._turn:
            self._lapse(time.monotonic())
            place = self._place(table, who)
            if place is None:
                return Turn.BUSY
            waiter = _Waiter(key)
            place.waiters.append(waiter)
            try:
                if self._may_render(place, waiter) or self._seat(place, waiter):  # a turn now needs no seat
                    self._turn.wait_for(lambda: waiter.done or waiter.bumped or self._may_render(place, waiter),
                                        timeout=self.wait_seconds)
                if waiter.done:
                    return Turn.LOOK
                if waiter.bumped or not self._may_render(place, waiter):  # no seat, or no turn in its while
                    place.kept_until = time.monotonic() + self.kept_seconds
                    return Turn.BUSY
                self.rendering += 1
                place.rendering = key
                self._to_the_back(table, place)  # its table's next PDF comes after every table that asked meanwhile
                return Turn.RENDER
            finally:
                if waiter in place.waiters:
                    place.waiters.remove(waiter)
                self._turn.notify_all()

    def leave(self, table: Hashable) -> None:
        """The render that :meth:`enter` gave ``table`` has ended (or failed): the requests waiting for the
        same key look in the cache; the place is kept for the others, at the back, or dropped."""
        with self._turn:
            self.rendering -= 1
            place = self._places[table]  # a place rendering never lapses
            for waiter in place.waiters:
                waiter.done = waiter.done or waiter.key == place.rendering
            place.rendering = None
            if all(w.done for w in place.waiters):
                del self._places[table]
            else:
                self._to_the_back(table, place)  # behind the tables that asked while it rendered
            self._turn.notify_all()

    def waiting(self, table: Hashable | None = None) -> int:
        """Requests waiting (for ``table``, or for any)."""
        with self._turn:
            places = self._places.values() if table is None else [p for t, p in self._places.items() if t == table]
            return sum(len(p.waiters) for p in places)

    def _place(self, table: Hashable, who: str) -> _Place | None:
        """The table's place, taken now if it has none and ``who`` may take one."""
        if table not in self._places:
            if (who and any(p.holder == who for p in self._places.values())) or len(self._places) >= self.places_max:
                return None  # the address holds another table's place, or no place is free
            self._places[table] = _Place(next(self._numbers), who)
        return self._places[table]

    def _seat(self, place: _Place, newcomer: _Waiter) -> bool:
        """A seat for ``newcomer``, a request of ``place``: a free one, or the one of the youngest place's last
        request if that place is younger than ``place`` (that request is answered 503)."""
        seated = [(p, w) for p in self._places.values() for w in p.waiters if w is not newcomer]
        if len(seated) < self.waiting_max:
            return True
        younger = [(p, w) for p, w in seated if p.number > place.number and not w.done]
        if not younger:
            return False
        youngest, waiter = max(younger, key=lambda pw: pw[0].number)
        youngest.waiters.remove(waiter)
        youngest.kept_until = time.monotonic() + self.kept_seconds  # kept from now, before its request wakes
        waiter.bumped = True
        self._turn.notify_all()
        return True

    def _may_render(self, place: _Place, waiter: _Waiter) -> bool:
        """Whether ``waiter`` renders now: the first request of the oldest place that has any and is not rendering."""
        if self.rendering >= self.at_once or place.rendering is not None or place.waiters[0] is not waiter:
            return False
        first = next(p for p in self._places.values() if p.waiters and p.rendering is None)
        return first is place

    def _to_the_back(self, table: Hashable, place: _Place) -> None:
        place.number = next(self._numbers)
        self._places.move_to_end(table)

    def _lapse(self, now: float) -> None:
        """Drops the places nobody waits on and nothing renders for, kept past their time."""
        for table in [t for t, p in self._places.items() if not p.waiters and p.rendering is None and p.kept_until < now]:
            del self._places[table]


class Printer:
    """One app's PDF cache, a :class:`~scorer.core.caches.Cache` of at most ``max_bytes`` (least recently used out
    first), and render queue."""

    def __init__(self, max_bytes: int, at_once: int, waiting_max: int, wait_seconds: float) -> None:
        self.cache: Cache[Hashable, _Pdf] = Cache(max_bytes, lambda kept: len(kept.pdf))
        self.queue = RenderQueue(at_once, waiting_max, wait_seconds)

    def kept(self, key: Hashable) -> bytes | None:
        kept = self.cache.get(key)
        return kept.pdf if kept is not None else None

    def keep(self, key: Hashable, pdf: bytes, family: Hashable | None = None) -> None:
        """Keeps ``pdf`` (one larger than the whole bound is not kept) and drops the least recently
        used ones beyond the bound. A PDF of a ``family`` replaces the one kept of that family: the
        tally printed with a place and a name typed by the reader keeps only its latest labels, so
        labels typed again and again cannot fill the cache."""
        if family is not None:
            self.cache.drop_where(lambda other, kept: kept.family == family and other != key)
        self.cache.put(key, _Pdf(pdf, family))

    def document(self, table: Hashable, key: Hashable, who: str, render: Callable[[], bytes],
                 family: Hashable | None = None) -> bytes | None:
        """The PDF under ``key`` of ``table``: from the cache, or rendered by ``render`` in its table's turn
        and kept; None when it has no turn now (the caller answers 503)."""
        for _ in range(3):  # a render of this key ended while this request waited: it is in the cache
            document = self.kept(key)
            if document is not None:
                return document
            turn = self.queue.enter(table, key, who)
            if turn is Turn.BUSY:
                return None
            if turn is Turn.RENDER:
                try:
                    document = self.kept(key)  # rendered while this request waited its turn?
                    if document is None:
                        document = render()
                        self.keep(key, document, family)
                    return document
                finally:
                    self.queue.leave(table)
        return self.kept(key)
