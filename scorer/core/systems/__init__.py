"""Settlement systems as plug-ins: one module per system, each a :class:`System`.

A system declares the house rules it reads (:attr:`System.reads`); a profile holds its system
(:class:`scorer.core.profiles.Profile`), and the built-in profiles name the built-in systems
(:data:`scorer.core.profiles.PROFILES`). Adding a system is a module with a :class:`System` subclass and a
profile that holds an instance of it, offered to tables with :func:`scorer.core.profiles.register_profile`.
"""

from __future__ import annotations

from .base import System

__all__ = ["System"]
