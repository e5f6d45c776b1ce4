"""``/healthz``: is the app up and its database reachable? For a container's HEALTHCHECK and a
reverse proxy's probe.

It runs ``select 1`` on the app's SQLite connection and nothing else: it reads no table (it
answers the same on an empty database), writes nothing, sets no cookie, renders no template
and is never rate-limited (nothing marks it). A GET needs no CSRF token."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, Response

from ..db import get_db

bp = Blueprint("health", __name__)


@bp.route("/healthz", methods=["GET", "HEAD"])
def healthz() -> Response:
    """200 ``ok`` while the database answers ``select 1``; 503 when it does not."""
    try:
        get_db().conn.execute("select 1").fetchone()
    except sqlite3.Error:
        return _plain("database unavailable\n", 503)
    return _plain("ok\n", 200)


def _plain(text: str, status: int) -> Response:
    return Response(text, status=status, mimetype="text/plain", headers={"Cache-Control": "no-store"})
