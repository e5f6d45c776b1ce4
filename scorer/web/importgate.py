"""Uploaded files read one (or a few) at a time, so that no client can stall the server.

Reading a file is CPU-bound Python under the GIL, and a hostile 6 MiB file takes about a second and up to
``IMPORT_MEMORY_PER_BYTE`` bytes of memory for each of its bytes before it is refused (docs/LIMITS.md): eight
at once held all of the server's threads (``/healthz`` waited 15 s) and half a gigabyte. So an import reads
its file only in its turn at the app's gate, a :class:`~scorer.web.pdfcache.RenderQueue` where each import
has a place of its own: ``IMPORTS_AT_ONCE`` at a time, ``IMPORTS_WAITING_MAX`` more waiting, in order of
arrival, at most ``IMPORT_WAIT_SECONDS``; any other is answered 503 at once, with ``Retry-After``, and
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
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, current_app

from ..core.errors import ScorerError, Words
from ..core.i18n import N_
from .pdfcache import RenderQueue, Turn

T = TypeVar("T")

EXTENSION = "scorer.import_gate"


def init_app(app: Flask) -> None:
    """The app's gate of imports, from its settings; and the C allocator told to give large blocks back."""
    config = app.config
    # a place refused is kept no time: another import is another place
    app.extensions[EXTENSION] = RenderQueue(int(config["IMPORTS_AT_ONCE"]), int(config["IMPORTS_WAITING_MAX"]),
                                            float(config["IMPORT_WAIT_SECONDS"]), kept_seconds=0.0)
    if hasattr(_LIBC, "mallopt"):
        _LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)


class Busy(ScorerError):
    """No turn at the gate now: the caller answers 503 with ``Retry-After``."""


def in_turn(work: Callable[[], T]) -> T:
    """``work`` run in a turn at this app's gate (raises :class:`Busy` without running it if there is none), then
    what it built given back: ``work`` holds the file and what is read of it in its own frame, gone once it returns."""
    gate: RenderQueue = current_app.extensions[EXTENSION]
    this_import = object()
    if gate.enter(this_import, this_import) is not Turn.RENDER:
        raise Busy(Words(N_("Another file is being imported")))
    try:
        return work()
    finally:
        give_back()
        gate.leave(this_import)


def give_back() -> None:
    """Frees what an import built and lost: the cycles of a refusal's traceback (which keep the reader's frames and
    their trees), then the pages the C allocator keeps free in each thread's arena (glibc's ``malloc_trim``; a
    no-op where the C library has none)."""
    gc.collect()
    if hasattr(_LIBC, "malloc_trim"):
        _LIBC.malloc_trim(0)


M_MMAP_THRESHOLD = -3
"""mallopt's parameter for the size from which a block is mapped on its own (glibc's malloc.h)."""
MMAP_THRESHOLD = 128 * 1024
"""glibc's own default, kept fixed (setting it turns off its raising)."""


_LIBC = ctypes.CDLL(None)
"""The C library the process runs on (the functions it lacks are not called)."""
