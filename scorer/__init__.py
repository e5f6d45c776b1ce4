"""scorer: keeps the score and settles the payments of Quadrille at a real table.

Three layers, each importing only the one below: :mod:`scorer.core` (the rules and the settlement,
pure Python), :mod:`scorer.store` (SQLite, no Flask), :mod:`scorer.web` (the Flask app), with the
command line (:mod:`scorer.cli`, :mod:`scorer.serve`) on top. ``flask --app scorer`` finds
:func:`create_app` here; importing ``scorer`` (or its core, or its store) loads no web framework."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory (:func:`scorer.web.create_app`), imported only when called."""
    from .web import create_app as web_app

    return web_app(test_config)
