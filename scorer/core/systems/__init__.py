"""Settlement systems as plug-ins: one module per system, each a :class:`System` (:mod:`.chips`: P's hard score and
Quanti's table; :mod:`.points`: PG's point score; :mod:`.counters`: EB's counters), the book of chip movements
they share (:mod:`.book`), and the rule profiles that hold them (:mod:`.profiles`).

A system declares the house rules it reads (:attr:`System.reads`); a profile holds its system
(:class:`scorer.core.systems.profiles.Profile`), and the built-in profiles name the built-in systems
(:data:`scorer.core.systems.profiles.PROFILES`). Adding a system is a module with a :class:`System` subclass and a
profile that holds an instance of it, offered to tables with :func:`scorer.core.systems.profiles.register_profile`.
"""

from __future__ import annotations

from .base import System

__all__ = ["System"]
