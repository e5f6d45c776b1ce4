"""A cache: values kept only to save work, bounded, the least recently used out first, safe to share between
threads. Emptied, it fills again on use and answers as before.

The store keeps each table's ledger and each circle's season fold in one (:mod:`scorer.store.ledgers`,
:mod:`scorer.store.seasons`), the web each app's rendered PDFs (:mod:`scorer.web.pdfcache`); docs/DESIGN.md
says what each saves.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Cache(Generic[K, V]):
    """Values kept under keys, at most ``bound`` in weight, the least recently used out first; safe to share
    between threads (one lock). Each entry weighs 1 (the bound counts entries) unless ``weigh`` says what a
    value weighs (its deals, its bytes: the same each time it is asked). An entry heavier than the whole bound
    is not kept."""

    __slots__ = ("bound", "_weigh", "_kept", "_weight", "_lock")

    def __init__(self, bound: int, weigh: Callable[[V], int] | None = None) -> None:
        self.bound = bound
        self._weigh = weigh
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept under ``key`` (now the most recently used), else None."""
        with self._lock:
            if key not in self._kept:
                return None
            self._kept.move_to_end(key)
            return self._kept[key]

    def put(self, key: K, value: V, unless: Callable[[V], bool] | None = None) -> None:
        """Keep ``value`` under ``key`` (it replaces what was kept there), then let the least recently used go
        until the cache is within its bound. ``unless``: a test of the value kept under ``key`` now, if any,
        which keeps that one instead when it passes (a newer ledger than ``value``); it runs under the lock."""
        weight = self._weight_of(value)
        if weight > self.bound:
            return
        with self._lock:
            kept = self._kept
            if key in kept:
                if unless is not None and unless(kept[key]):
                    return
                self._weight -= self._weight_of(kept[key])
            kept[key] = value
            kept.move_to_end(key)
            self._weight += weight
            while self._weight > self.bound:
                _key, dropped = kept.popitem(last=False)
                self._weight -= self._weight_of(dropped)

    def drop_where(self, drop: Callable[[K, V], bool]) -> None:
        """Let go every entry for which ``drop(key, value)`` is true (it runs under the lock)."""
        with self._lock:
            for key in [k for k, v in self._kept.items() if drop(k, v)]:
                self._weight -= self._weight_of(self._kept.pop(key))

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._weight = 0

    @property
    def weight(self) -> int:
        """What the entries kept weigh together (their number, for a cache bounded by entries)."""
        return self._weight

    def __len__(self) -> int:
        return len(self._kept)

    def _weight_of(self, value: V) -> int:
        return 1 if self._weigh is None else self._weigh(value)
