"""Uploaded files read one (or a few) at a time, so that no client can stall the server.

Reading a file is CPU-bound Python under the GIL, and a hostile 6 MiB file takes about a second and up to
``IMPORT_MEMORY_PER_BYTE`` bytes of memory for each of its bytes before it is refused (docs/LIMITS.md): eight
at once held all of the server's threads (``/healthz`` waited 15 s) and half a gigabyte. So an import reads
its file only in its turn at the :class:`Gate`: ``IMPORTS_AT_ONCE`` at a time, ``IMPORTS_WAITING_MAX`` more
waiting at most ``IMPORT_WAIT_SECONDS``; any other is answered 503 at once, with ``Retry-After``, and
nothing of its file is read. Once an import has ended, what it built is given back (:func:`give_back`): the
tree of a refused file is freed with the exceptions that point to it, and the C allocator returns the freed
pages to the system, so that the process comes back near where it was. For that, glibc's allocator is told
once (:func:`init_app`) to map every block of 128 KiB or more on its own (a memo's table, a long list) and
unmap it when freed: by default it raises that threshold after the first such block is freed, and keeps the
larger blocks that follow in each thread's arena, where ``malloc_trim`` does not reach them (measured: 40 MB
kept after one hostile file read in a server thread, none with the threshold fixed).
"""

from __future__ import annotations

import ctypes
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from flask import Flask, current_app

T = TypeVar("T")

EXTENSION = "scorer.import_gate"


class Gate:
    """At most ``at_once`` holders at a time; at most ``waiting_max`` more wait for a turn, each at most
    ``wait_seconds``; any other is refused at once."""

    def __init__(self, at_once: int, waiting_max: int, wait_seconds: float) -> None:
        self.at_once = max(1, at_once)
        self.waiting_max = max(0, waiting_max)
        self.wait_seconds = max(0.0, wait_seconds)
        self.inside = 0
        self.waiting = 0
        self._turn = threading.Condition()

    def enter(self) -> bool:
        """A turn (True, then :meth:`leave`), or False at once when ``waiting_max`` already wait, or after
        ``wait_seconds`` without one."""
        with self._turn:
            if self.inside < self.at_once:
                self.inside += 1
                return True
            if self.waiting >= self.waiting_max:
                return False
            self.waiting += 1
            try:
                if not self._turn.wait_for(lambda: self.inside < self.at_once, timeout=self.wait_seconds):
                    return False
            finally:
                self.waiting -= 1
            self.inside += 1
            return True

    def leave(self) -> None:
        with self._turn:
            self.inside -= 1
            self._turn.notify()


def init_app(app: Flask) -> None:
    """The app's gate of imports, from its settings; and the C allocator told to give large blocks back."""
    config = app.config
    app.extensions[EXTENSION] = Gate(int(config["IMPORTS_AT_ONCE"]), int(config["IMPORTS_WAITING_MAX"]),
                                     float(config["IMPORT_WAIT_SECONDS"]))
    if _LIBC is not None and hasattr(_LIBC, "mallopt"):
        _LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)


def gate() -> Gate:
    made: Gate = current_app.extensions[EXTENSION]
    return made


class Busy(Exception):
    """No turn at the gate now: the caller answers 503 with ``Retry-After``."""


def in_turn(work: Callable[[], T]) -> T:
    """``work`` run in a turn at this app's gate (raises :class:`Busy` without running it if there is none), then
    what it built given back: ``work`` holds the file and what is read of it in its own frame, gone once it returns."""
    with _turn():
        try:
            return work()
        finally:
            give_back()


@contextmanager
def _turn() -> Iterator[None]:
    entrance = gate()
    if not entrance.enter():
        raise Busy()
    try:
        yield
    finally:
        entrance.leave()


def give_back() -> None:
    """Frees what an import built and lost: the cycles of a refusal's traceback (which keep the reader's frames and
    their trees), then the pages the C allocator keeps free in each thread's arena (glibc's ``malloc_trim``; a
    no-op where the C library has none)."""
    gc.collect()
    if _LIBC is not None and hasattr(_LIBC, "malloc_trim"):
        _LIBC.malloc_trim(0)


M_MMAP_THRESHOLD = -3
"""mallopt's parameter for the size from which a block is mapped on its own (glibc's malloc.h)."""
MMAP_THRESHOLD = 128 * 1024
"""glibc's own default, kept fixed (setting it turns off its raising)."""


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(None)  # the C library the process runs on
    except OSError:
        return None


_LIBC = _libc()
