"""The tally PDF's cost, bounded: rendered PDFs kept in memory, and one render at a time.

A PDF depends only on the table (its settings), its log, the reader's language, the paper and the
place and table name typed for its title block, so it is kept under (table token, log length, settings,
language, paper, place, name): a French phone never gets the English PDF, and any record, undo, correction or restoration adds a line to the log and so asks for a new
PDF, and a repeat costs nothing. The PDFs kept are bounded
by their total bytes, least recently used out first.

Rendering is CPU-bound Python (WeasyPrint) under the GIL: two renders at once take as long as
two in a row, and each one holds a server thread. So only ``at_once`` renders run at a time; a
few requests (``waiting_max``) may wait for their turn, each at most ``wait_seconds``; any other
is refused at once (the view answers 503 with ``Retry-After``), so PDFs never hold every server
thread and a phone recording a deal is served meanwhile.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable


class PdfCache:
    """Rendered PDFs, least recently used out first, at most ``max_bytes`` in all."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._pdfs: OrderedDict[Hashable, bytes] = OrderedDict()
        self._families: dict[Hashable, Hashable] = {}
        """The family of a kept PDF, where it has one: a family keeps one PDF (see :meth:`put`)."""
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            pdf = self._pdfs.get(key)
            if pdf is not None:
                self._pdfs.move_to_end(key)
            return pdf

    def put(self, key: Hashable, pdf: bytes, family: Hashable | None = None) -> None:
        """Keeps ``pdf`` (one larger than the whole bound is not kept) and drops the least recently
        used ones beyond the bound. A PDF of a ``family`` replaces the one kept of that family: the
        tally printed with a place and a name typed by the reader keeps only its latest labels, so
        labels typed again and again cannot fill the cache."""
        if len(pdf) > self.max_bytes:
            return
        with self._lock:
            if family is not None:
                for other in [k for k, f in self._families.items() if f == family and k != key]:
                    self._drop(other)
                self._families[key] = family
            old = self._pdfs.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._pdfs[key] = pdf
            self._bytes += len(pdf)
            while self._bytes > self.max_bytes:
                dropped_key, dropped = self._pdfs.popitem(last=False)
                self._families.pop(dropped_key, None)
                self._bytes -= len(dropped)

    def _drop(self, key: Hashable) -> None:
        pdf = self._pdfs.pop(key, None)
        if pdf is not None:
            self._bytes -= len(pdf)
        self._families.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._pdfs.clear()
            self._families.clear()
            self._bytes = 0

    @property
    def bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._pdfs)


class RenderGate:
    """At most ``at_once`` renders at a time; at most ``waiting_max`` requests wait for a turn, each
    at most ``wait_seconds``, and turns are taken in order of arrival. One client (by address) holds
    at most one place, running or waiting, so that a client asking again and again cannot take every
    turn from the other tables. :meth:`enter` says whether the caller may render (then it must
    :meth:`leave`)."""

    def __init__(self, at_once: int, waiting_max: int, wait_seconds: float) -> None:
        self.at_once = max(1, at_once)
        self.waiting_max = max(0, waiting_max)
        self.wait_seconds = max(0.0, wait_seconds)
        self._running = 0
        self._queue: deque[object] = deque()
        self._holders: set[str] = set()
        self._turn = threading.Condition()

    def enter(self, who: str = "") -> bool:
        with self._turn:
            if who and who in self._holders:
                return False  # this client is rendering or waiting already
            if self._running < self.at_once and not self._queue:
                self._running += 1
                self._holders.add(who)
                return True
            if len(self._queue) >= self.waiting_max:
                return False
            ticket = object()
            self._queue.append(ticket)
            self._holders.add(who)
            try:
                if self._turn.wait_for(lambda: self._queue[0] is ticket and self._running < self.at_once,
                                       timeout=self.wait_seconds):
                    self._running += 1
                    return True
                self._holders.discard(who)
                return False
            finally:
                self._queue.remove(ticket)
                self._turn.notify_all()

    def leave(self, who: str = "") -> None:
        with self._turn:
            self._running -= 1
            self._holders.discard(who)
            self._turn.notify_all()


class Printer:
    """One app's PDF cache and render gate."""

    def __init__(self, max_bytes: int, at_once: int, waiting_max: int, wait_seconds: float) -> None:
        self.cache = PdfCache(max_bytes)
        self.gate = RenderGate(at_once, waiting_max, wait_seconds)

    def document(self, key: Hashable, who: str, render: Callable[[], bytes], family: Hashable | None = None) -> bytes | None:
        """The PDF under ``key``: from the cache, or rendered by ``render`` in its turn at the gate and
        kept; None when the gate is full (the caller answers 503)."""
        document = self.cache.get(key)
        if document is not None:
            return document
        if not self.gate.enter(who):
            return None
        try:
            document = self.cache.get(key)  # rendered while this request waited its turn?
            if document is None:
                document = render()
                self.cache.put(key, document, family)
            return document
        finally:
            self.gate.leave(who)
