"""A cache: values kept only to save work, bounded, the least recently used out first, safe to share between
threads. Emptied, it fills again on use and answers as before.

The store keeps each table's ledger and each circle's season fold in one (:mod:`scorer.store.ledgers`,
:mod:`scorer.store.seasons`), the web each app's rendered PDFs (:mod:`scorer.web.pdfcache`); docs/DESIGN.md
says what each saves. :func:`memo` and :func:`per_app` serve the pieces the web still draws in Python.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, ParamSpec, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")
P = ParamSpec("P")
R = TypeVar("R")


class _Missing:
    """Nothing kept under a key (a kept value may be ``None``)."""


_MISSING = _Missing()


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

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: D) -> V | D: ...

    def get(self, key: K, default: object = None) -> object:
        """The value kept under ``key`` (now the most recently used), else ``default``."""
        with self._lock:
            value = self._kept.get(key, _MISSING)
            if value is _MISSING:
                return default
            self._kept.move_to_end(key)
            return value

    def put(self, key: K, value: V, unless: Callable[[V], bool] | None = None) -> None:
        """Keep ``value`` under ``key`` (it replaces what was kept there), then let the least recently used go
        until the cache is within its bound. ``unless``: a test of the value kept under ``key`` now, if any,
        which keeps that one instead when it passes (a newer ledger than ``value``); it runs under the lock."""
        weight = self._weight_of(value)
        if weight > self.bound:
            return
        with self._lock:
            kept = self._kept
            old = kept.get(key, _MISSING)
            if not isinstance(old, _Missing):
                if unless is not None and unless(old):
                    return
                self._weight -= self._weight_of(old)
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


class AppCaches:
    """One app's caches, by name, each made on its first use. Kept on the app (``app.extensions``): it goes with the app."""

    def __init__(self) -> None:
        self.made_here: dict[str, Cache[Any, Any]] = {}
        self._lock = threading.Lock()

    def cache(self, name: str, bound: int) -> Cache[Any, Any]:
        with self._lock:
            return self.made_here.setdefault(name, Cache(bound))

    def clear(self) -> None:
        for cache in list(self.made_here.values()):
            cache.clear()


OUTSIDE_APPS = AppCaches()
"""The caches of work done outside any app."""


def _no_app() -> AppCaches | None:
    return None


_find_app: Callable[[], AppCaches | None] = _no_app


def find_app_caches_with(find: Callable[[], AppCaches | None]) -> None:
    """How to find the caches of the app whose context is current: the web layer installs it once."""
    global _find_app
    _find_app = find


class PerApp(Generic[K, V]):
    """A cache each app keeps its own of (:func:`per_app`)."""

    __slots__ = ("name", "bound")

    def __init__(self, name: str, bound: int) -> None:
        self.name, self.bound = name, bound

    def here(self) -> Cache[K, V]:
        """The current app's own (that of work outside any app, outside one)."""
        return self.of(_find_app() or OUTSIDE_APPS)

    def of(self, app_caches: AppCaches) -> Cache[K, V]:
        found = app_caches.made_here.get(self.name)
        return found if found is not None else app_caches.cache(self.name, self.bound)


def per_app(name: str, bound: int, holds: str) -> PerApp[Any, Any]:
    """A cache ``name`` (``module.attribute``, where it is held) of at most ``bound`` entries that each app keeps its
    own of, holding what ``holds`` says."""
    return PerApp(name, bound)


class Memo(Generic[P, R]):
    """A function whose results are kept in a :class:`Cache`, under its arguments (:func:`memo`). A call that
    raises keeps nothing."""

    def __init__(self, function: Callable[P, R], cache: Cache[Hashable, R]) -> None:
        self.function = function
        self.cache = cache
        functools.update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = args if not kwargs else (args, tuple(sorted(kwargs.items())))
        found = self.cache.get(key, _MISSING)
        if not isinstance(found, _Missing):
            return found
        value = self.function(*args, **kwargs)
        self.cache.put(key, value)
        return value


def memo(name: str, bound: int, holds: str) -> Callable[[Callable[P, R]], Memo[P, R]]:
    """``name`` (``module.function``) a memo of at most ``bound`` results kept for the whole process: a pure
    function of immutable arguments that are no app's data, holding what ``holds`` says."""

    def decorate(function: Callable[P, R]) -> Memo[P, R]:
        return Memo(function, Cache(bound))

    return decorate
