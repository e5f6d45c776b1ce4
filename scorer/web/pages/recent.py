"""The tables this phone opened recently, kept in a signed cookie (no accounts), for the home page.

Each table page answered 200 (``/t/<token>``, its ledger, its tally...) puts the table's token first in
the cookie ``scorer_recent``: at most :data:`~scorer.core.limits.RECENT_TABLES_MAX` tokens, most recent
first, each with the day of the visit. The cookie is signed with the app's secret key (itsdangerous,
through Flask's own signer), so a cookie edited by hand or by another site is ignored, never trusted.
It holds only tokens: the players, the date (and, for a copy imported from a file, that it is one and
when it was made) and the deals played are read from the database each time,
and a token no longer found is dropped. The spectator link (``/s/<token>``) is not remembered: it is
another table's key in the phone's hands, and a watch-only phone has the link it was given.

It is a separate cookie from the session (which holds the CSRF secret and who holds this phone), so
forgetting a table or clearing the list never touches them.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from flask import Blueprint, Flask, current_app, redirect, request, url_for
from itsdangerous import BadData, URLSafeSerializer
from werkzeug.wrappers import Response

from ...core import RECENT_TABLES_MAX
from ..db import get_db
from ...store import Table, UnreadableTable, ledger, table_by_token

COOKIE = "scorer_recent"
COOKIE_DAYS = 90
"""How long the phone keeps the list after its last table visit."""
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")

bp = Blueprint("recent", __name__)

DAY_SECONDS = 86_400


def visit_day(now: float) -> int:
    """The day of a visit at ``now`` (a Unix time), as the cookie keeps it: that day's midnight, UTC."""
    return int(now) // DAY_SECONDS * DAY_SECONDS


def clock() -> float:
    """The time of a visit (a Unix time): the system's clock (a test puts its own fixed time here)."""
    return time.time()


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(str(current_app.config["SECRET_KEY"]), salt="scorer.recent-tables")


def visits() -> list[tuple[str, int]]:
    """The (token, day of the visit as a Unix time) pairs the cookie holds, most recent first; nothing
    when there is no cookie, or one that is tampered with, unsigned or malformed."""
    raw = request.cookies.get(COOKIE)
    if not raw or len(raw) > 4096:
        return []
    try:
        data = _signer().loads(raw)
    except BadData:
        return []
    if not isinstance(data, list):
        return []
    kept: list[tuple[str, int]] = []
    for item in data[:RECENT_TABLES_MAX]:
        if (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and _TOKEN.fullmatch(item[0])
                and isinstance(item[1], int) and not isinstance(item[1], bool)
                and item[0] not in {token for token, _ in kept}):
            kept.append((item[0], item[1]))
    return kept


def _store(response: Response, kept: list[tuple[str, int]]) -> None:
    if not kept:
        response.delete_cookie(COOKIE, path="/")
        return
    value = _signer().dumps([[token, when] for token, when in kept[:RECENT_TABLES_MAX]])
    response.set_cookie(COOKIE, value, max_age=COOKIE_DAYS * 24 * 3600, path="/", httponly=True, samesite="Lax",
                        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))


def remember(response: Response) -> Response:
    """After a table page answered 200 (an HTML page reached by a table's own link), put its token first."""
    token = (request.view_args or {}).get("token")
    if (request.method != "GET" or response.status_code != 200 or response.mimetype != "text/html"
            or not isinstance(token, str) or not request.path.startswith(f"/t/{token}") or not _TOKEN.fullmatch(token)):
        return response
    kept = visits()
    today = visit_day(clock())
    if kept and kept[0] == (token, today):
        return response  # already first, today: no new cookie
    _store(response, [(token, today), *((t, w) for t, w in kept if t != token)])
    return response


@dataclass(frozen=True)
class RecentTable:
    """One table of the list, as the home page shows it."""

    token: str
    players: tuple[str, ...]
    created_at: str
    """When the table was started, or for an imported copy when the copy was made (ISO 8601, UTC)."""
    played: int
    deals_agreed: int
    imported: bool = False
    """A copy imported from a file: the list says so, with when it was made, so that it is not taken for its
    original (both have the same players)."""


def recent_tables() -> tuple[list[RecentTable], list[tuple[str, int]]]:
    """The tables in the cookie still found in the database, most recent first, and the cookie's
    pairs without the tokens no longer found (a table that cannot be read stays, unshown)."""
    shown: list[RecentTable] = []
    kept: list[tuple[str, int]] = []
    db = get_db()
    for token, when in visits():
        try:
            table: Table | None = table_by_token(db, token)
        except UnreadableTable:
            kept.append((token, when))
            continue
        if table is None:
            continue
        kept.append((token, when))
        played = len(ledger(db, table).replay.settlements)
        shown.append(RecentTable(token, table.players, table.created_at, played, table.deals_agreed, table.imported))
    return shown, kept


def keep(response: Response, before: list[tuple[str, int]], after: list[tuple[str, int]]) -> None:
    """Write the cookie again if the list changed (tokens no longer found dropped)."""
    if before != after:
        _store(response, after)


@bp.route("/recent/forget", methods=("POST",))
def forget() -> Response:
    """Forget one table on this phone (the table itself is untouched). CSRF-checked like every form."""
    token = request.form.get("token", "")
    kept = visits()
    response = redirect(url_for("home.index"))
    remaining = [(t, w) for t, w in kept if t != token]
    if remaining != kept:
        _store(response, remaining)
    return response


def init_app(app: Flask) -> None:
    """The forget form's route, and the hook that remembers each table page answered."""
    app.register_blueprint(bp)
    app.after_request(remember)
