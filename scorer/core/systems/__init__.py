"""Settlement systems as plug-ins: one module per system, each a :class:`System`.

A profile names its system; :func:`system_named` finds it. Adding a system is a
module with a :class:`System` subclass registered here (:func:`register_system`)
and a profile that names it (:func:`scorer.core.rules.register_profile`).
"""

from __future__ import annotations

from ..errors import UnknownHouseRule
from .base import System

_SYSTEMS: dict[str, System] = {}
_LOADED: list[bool] = []


def register_system(system: System) -> System:
    """Make ``system`` available to profiles by its name."""
    _SYSTEMS[system.name] = system
    return system


def system_named(name: str) -> System:
    if not _LOADED:
        from . import chips, counters, points  # noqa: F401 - each registers itself

        _LOADED.append(True)
    try:
        return _SYSTEMS[name]
    except KeyError:
        raise UnknownHouseRule(f"there is no settlement system called {name!r}") from None


__all__ = ["System", "register_system", "system_named"]
