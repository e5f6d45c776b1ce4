"""Every cache the process keeps, in one registry, and one function that empties them all.

A cache here is state shared by the whole process and kept only to save work: a module-level dict, an
``lru_cache``'d function, the ledger cache. Emptied, each fills again on use and answers as before (that is
what makes it a cache). Each module registers its own where it defines them, with the name it has there
(``scorer.core.book._KEPT_TRANSFERS``): the core here, the store and the web layer from their own modules, which
import this one as they import the rest of the core (a layer never imports the layer above it).

:func:`clear_all` empties every cache registered: the test suite calls it before each test (tests/conftest.py),
so that no test sees what an earlier one on the same worker left, and a test that checks a cache is used fills it
itself. What an app keeps in ``app.extensions`` dies with the app and is not here; nor are the registries of
what the process offers (the settlement systems, the profiles), which are not caches: emptied, nothing fills them.
A test (tests/test_caches.py) finds every module-level dict, list, set, cache object (an instance of a class that
keeps a container) and ``lru_cache`` of the package, and fails on any that is neither registered here nor named
as no cache.
"""

from __future__ import annotations

from collections.abc import Callable

_CLEARS: dict[str, Callable[[], object]] = {}
"""Each cache's qualified name and the function that empties it."""


def register(name: str, clear: Callable[[], object]) -> None:
    """Register the cache called ``name`` (``module.attribute``), emptied by ``clear()`` (its dict's
    ``clear``, its ``lru_cache``'s ``cache_clear``, or a function of the module's own). Registering a
    name again (a module imported afresh) replaces its entry."""
    _CLEARS[name] = clear


def registered() -> tuple[str, ...]:
    """The names of the caches registered, sorted."""
    return tuple(sorted(_CLEARS))


def clear_all() -> None:
    """Empty every cache registered."""
    for clear in list(_CLEARS.values()):
        clear()
