"""Every cache of the scorer is one kind, :class:`Cache`, declared here once with its scope and its bound (issue
23, point 4), and one call empties them all.

A cache keeps values only to save work: emptied, it fills again on use and answers as before (that is what
makes it a cache). Each is bounded by entries, or by a weight of its own (the deals a ledger holds, a PDF's
bytes), the least recently used out first, and safe to share between threads. Each is declared where it is
used, by name (``scorer.store.ledgers.LEDGERS``), in one of two scopes:

- **per app** (:func:`per_app`): a cache of an app's data (its tables' ledgers and seasons, previews, drawn
  pieces of its pages, its PDFs). Each app keeps its own (:class:`AppCaches`, on the app: ``app.extensions``),
  made on first use and gone with the app, so two apps in one process never share an entry; the web layer
  says which app's caches the request it serves uses (:func:`serve`, and :func:`find_app_caches_with` for an
  app's context outside a request). Work done outside any app (the command line, a test of the store) has
  caches of its own (:data:`OUTSIDE_APPS`).
- **per process** (:func:`memo`, or :func:`process_wide` for a cache used otherwise than as a function's memo):
  a memo of a pure function keyed by immutable values that are no app's data (a character's Latin look-alike,
  a font's widths, this machine's addresses), one for the whole process.

:func:`declared` lists them all (docs/DESIGN.md's table of caches is checked against it), and :func:`clear_all`
empties every cache of the process and of every app: the test suite calls it before each test
(tests/conftest.py). tests/test_caches.py fails on any module-level state of the package that is neither one
of these nor named as no cache.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any, Generic, Literal, ParamSpec, TypeVar, cast, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")
P = ParamSpec("P")
R = TypeVar("R")

Scope = Literal["app", "process"]
Unit = Literal["entries", "deals", "bytes"]


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
        lock = self._lock
        lock.acquire()  # rather than ``with``: a page looks up some fifty values, and this costs half as much
        try:
            kept = self._kept
            value = kept.get(key, _MISSING)
            if value is _MISSING:
                return default
            kept.move_to_end(key)
            return value
        finally:
            lock.release()

    def put(self, key: K, value: V, unless: Callable[[V], bool] | None = None) -> None:
        """Keep ``value`` under ``key`` (it replaces what was kept there), then let the least recently used go
        until the cache is within its bound. ``unless``: a test of the value kept under ``key`` now, if any,
        which keeps that one instead when it passes (a newer ledger than ``value``); it runs under the lock."""
        weight = self._weight_of(value)
        if weight > self.bound:
            return
        lock = self._lock
        lock.acquire()
        try:
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
        finally:
            lock.release()

    def made(self, key: K, make: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``make()``'s, kept (made outside the lock: two threads may both
        make it, and the last one made is kept; if ``make`` raises, nothing is kept)."""
        found = self.get(key, _MISSING)
        if not isinstance(found, _Missing):
            return found
        value = make()
        self.put(key, value)
        return value

    @overload
    def pop(self, key: K) -> V | None: ...
    @overload
    def pop(self, key: K, default: D) -> V | D: ...

    def pop(self, key: K, default: object = None) -> object:
        """The value kept under ``key``, no longer kept; else ``default``."""
        with self._lock:
            value = self._kept.pop(key, _MISSING)
            if isinstance(value, _Missing):
                return default
            self._weight -= self._weight_of(value)
            return value

    def drop_where(self, drop: Callable[[K, V], bool]) -> None:
        """Let go every entry for which ``drop(key, value)`` is true (it runs under the lock)."""
        with self._lock:
            for key in [k for k, v in self._kept.items() if drop(k, v)]:
                self._weight -= self._weight_of(self._kept.pop(key))

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._weight = 0

    def keys(self) -> list[K]:
        """The keys kept now, the least recently used first."""
        with self._lock:
            return list(self._kept)

    def items(self) -> list[tuple[K, V]]:
        """The entries kept now, the least recently used first (none made the most recent)."""
        with self._lock:
            return list(self._kept.items())

    @property
    def weight(self) -> int:
        """What the entries kept weigh together (their number, for a cache bounded by entries)."""
        return self._weight

    def __len__(self) -> int:
        return len(self._kept)

    def __iter__(self) -> Iterator[K]:
        """The keys kept now (as :meth:`keys`)."""
        return iter(self.keys())

    def _weight_of(self, value: V) -> int:
        return 1 if self._weigh is None else self._weigh(value)


@dataclass(frozen=True)
class Declared:
    """A cache as it is declared: what docs/DESIGN.md's table of caches says of it."""

    name: str
    """Where the code holds it: ``module.attribute``."""
    scope: Scope
    bound: int
    """Its bound, in :attr:`unit`: of each app's (``setting``, if given, bounds an app's instead), or the process's."""
    unit: Unit
    holds: str
    """What it keeps, in a few words."""
    setting: str = ""
    """The app's setting that bounds an app's, if one does (its default is :attr:`bound`)."""
    weigh: Callable[[Any], int] | None = None


_DECLARED: dict[str, Declared] = {}
_PROCESS_WIDE: dict[str, Cache[Any, Any]] = {}


def _declare(declared: Declared) -> None:
    # Declaring a name again (a module imported afresh) replaces it.
    _DECLARED[declared.name] = declared


class AppCaches:
    """One app's caches, each made on its first use (bounded as declared, or by the app's setting that names
    its bound, read then). Kept on the app (``app.extensions``): it goes with the app."""

    def __init__(self, settings: Mapping[str, object] | None = None) -> None:
        self._settings: Mapping[str, object] = settings if settings is not None else {}
        self.made_here: dict[str, Cache[Any, Any]] = {}
        """The caches made so far, by name (read as they are made: :meth:`made` gives a copy)."""
        self._lock = threading.Lock()
        _EVERY_APP.add(self)

    def cache(self, declared: Declared) -> Cache[Any, Any]:
        found = self.made_here.get(declared.name)
        if found is None:
            with self._lock:
                found = self.made_here.get(declared.name)
                if found is None:
                    found = self.made_here[declared.name] = Cache(self.bound(declared), declared.weigh)
        return found

    def bound(self, declared: Declared) -> int:
        """``declared``'s bound for this app: its setting's value, if the app sets it."""
        if declared.setting and declared.setting in self._settings:
            return int(cast(Any, self._settings[declared.setting]))
        return declared.bound

    def made(self) -> dict[str, Cache[Any, Any]]:
        """The caches made so far, by name."""
        with self._lock:
            return dict(self.made_here)

    def clear(self) -> None:
        for cache in self.made().values():
            cache.clear()


_EVERY_APP: weakref.WeakSet[AppCaches] = weakref.WeakSet()
"""Every app's caches while the app lives (held weakly: an app's go with it), for :func:`clear_all`."""

OUTSIDE_APPS = AppCaches()
"""The per-app caches of work done outside any app: the command line, a test of the store or the core."""

_serving: ContextVar[AppCaches | None] = ContextVar("scorer_app_caches", default=None)


def _no_app() -> AppCaches | None:
    return None


_find_app: Callable[[], AppCaches | None] = _no_app


def serve(app_caches: AppCaches) -> Token[AppCaches | None]:
    """The caches of the app whose request this context serves, until :func:`served`: the web layer wraps each
    request of an app in the two."""
    return _serving.set(app_caches)


def served(token: Token[AppCaches | None]) -> None:
    """The request :func:`serve` began is served: the caches this context used before it again."""
    _serving.reset(token)


def find_app_caches_with(find: Callable[[], AppCaches | None]) -> None:
    """How to find the caches of the app whose context is current, outside a request the web layer serves (a
    test's or a command's app context): the web layer installs it once."""
    global _find_app
    _find_app = find


def here() -> AppCaches:
    """The caches of the app being served (or whose context is current), else those of work outside any app."""
    found = _serving.get()
    if found is None:
        found = _find_app() or OUTSIDE_APPS
    return found


class PerApp(Generic[K, V]):
    """A cache each app keeps its own of (:func:`per_app`)."""

    __slots__ = ("declared",)

    def __init__(self, declared: Declared) -> None:
        self.declared = declared

    def here(self) -> Cache[K, V]:
        """The app's own (see :func:`here`)."""
        app_caches = _serving.get() or _find_app() or OUTSIDE_APPS
        found = app_caches.made_here.get(self.declared.name)  # made once: this is all a lookup costs then
        return found if found is not None else app_caches.cache(self.declared)

    def of(self, app_caches: AppCaches) -> Cache[K, V]:
        return app_caches.cache(self.declared)

    def clear(self) -> None:
        """Every app's emptied, and that of work outside any app (a database replaced under them all)."""
        for app_caches in list(_EVERY_APP):
            made = app_caches.made().get(self.declared.name)
            if made is not None:
                made.clear()


def per_app(name: str, bound: int, holds: str, unit: Unit = "entries",  # more than 5: the table of caches' columns, and how to weigh
            weigh: Callable[[V], int] | None = None, setting: str = "") -> PerApp[Any, V]:
    """Declare the cache ``name`` (``module.attribute``, where it is held) that each app keeps its own of, of
    at most ``bound`` ``unit`` (each value weighing what ``weigh`` says; an app's ``setting``, if given,
    bounds that app's instead), holding what ``holds`` says."""
    declared = Declared(name, "app", bound, unit, holds, setting, weigh)
    _declare(declared)
    return PerApp(declared)


class Memo(Generic[P, R]):
    """A function whose results are kept in a process-wide :class:`Cache`, under its arguments (:func:`memo`).
    A call that raises keeps nothing."""

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
    """Declare ``name`` (``module.function``) a memo of at most ``bound`` results kept for the whole process:
    a pure function of immutable arguments that are no app's data (a character, a language's code, an
    address), holding what ``holds`` says."""

    def decorate(function: Callable[P, R]) -> Memo[P, R]:
        cache: Cache[Hashable, R] = Cache(bound)
        _declare(Declared(name, "process", bound, "entries", holds))
        _PROCESS_WIDE[name] = cache
        return Memo(function, cache)

    return decorate


def process_wide(name: str, bound: int, holds: str, unit: Unit = "entries",
                 weigh: Callable[[V], int] | None = None) -> Cache[Any, V]:
    """Declare ``name`` (``module.attribute``, where it is held) a cache kept for the whole process, of at most
    ``bound`` ``unit`` (each value weighing what ``weigh`` says), holding what ``holds`` says: keyed, as a
    :func:`memo`, by immutable values that are no app's data."""
    cache: Cache[Any, V] = Cache(bound, weigh)
    _declare(Declared(name, "process", bound, unit, holds, "", weigh))
    _PROCESS_WIDE[name] = cache
    return cache


def declared() -> tuple[Declared, ...]:
    """Every cache declared, by name."""
    return tuple(_DECLARED[name] for name in sorted(_DECLARED))


def registered() -> tuple[str, ...]:
    """The names of every cache declared, sorted."""
    return tuple(sorted(_DECLARED))


def process_caches() -> dict[str, Cache[Any, Any]]:
    """The process-wide caches (the memos), by name."""
    return dict(_PROCESS_WIDE)


def every_app() -> Iterable[AppCaches]:
    """The caches of every app alive, and those of work outside any app."""
    return list(_EVERY_APP)


def clear_all() -> None:
    """Empty every cache: the process's and every app's."""
    for cache in list(_PROCESS_WIDE.values()):
        cache.clear()
    for app_caches in list(_EVERY_APP):
        app_caches.clear()
