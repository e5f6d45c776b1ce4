"""The tables and circles this phone opened recently, kept in a signed cookie (no accounts), for the home page.

Each table page answered 200 (``/t/<token>``, its ledger, its tally...) puts the table's token first in
the cookie ``scorer_recent``, and each circle page answered 200 (``/c/<token>``, its evenings, its check)
the circle's: at most :data:`~scorer.core.limits.RECENT_TABLES_MAX` of them in all, most recent first, each
with the day of the visit (``[token, day]`` for a table, ``[token, day, "c"]`` for a circle). The cookie is
signed with the app's secret key (itsdangerous, through Flask's own signer), so a cookie edited by hand or by
another site is ignored, never trusted. It holds only tokens: the players, the date (and, for a copy imported
from a file, that it is one and when it was made), the deals played and a table's circle are read from the
database each time, and a token no longer found is dropped. The home page shows a circle as one entry, with
the evenings of it this phone opened under it. The watch-only links (``/s/<token>``, ``/cs/<token>``) are
not remembered: each is another key in the phone's hands, and a watch-only phone has the link it was given.

It is a separate cookie from the session (which holds the CSRF secret and who holds this phone), so
forgetting a table or clearing the list never touches them.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import ClassVar, Literal

import sqlite_utils
from flask import Blueprint, Flask, current_app, redirect, request, url_for
from itsdangerous import BadData, URLSafeSerializer
from werkzeug.wrappers import Response

from ...core import RECENT_TABLES_MAX
from ..db import get_db
from ..i18n import local_day
from ...store import Circle, Table, UnreadableCircle, UnreadableTable, circle_by_token, circle_of, ledger, table_by_token

COOKIE = "scorer_recent"
COOKIE_DAYS = 90
"""How long the phone keeps the list after its last table visit."""
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")

bp = Blueprint("recent", __name__)

DAY_SECONDS = 86_400

Kind = Literal["t", "c"]
"""What a token of the cookie opens: a table (``t``) or a circle (``c``)."""
Visit = tuple[str, int, Kind]
"""One entry of the cookie: the token, the day of the last visit (a Unix time), and what it opens."""


def visit_day(now: float) -> int:
    """The day of a visit at ``now`` (a Unix time), as the cookie keeps it: that day's midnight, UTC."""
    return int(now) // DAY_SECONDS * DAY_SECONDS


def clock() -> float:
    """The time of a visit (a Unix time): the system's clock (a test puts its own fixed time here)."""
    return time.time()


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(str(current_app.config["SECRET_KEY"]), salt="scorer.recent-tables")


def _visit(item: object) -> Visit | None:
    """An entry of the cookie, if it has one of its two shapes."""
    if not isinstance(item, list) or len(item) not in (2, 3):
        return None
    token, when, *kind = item
    if (not isinstance(token, str) or not _TOKEN.fullmatch(token) or not isinstance(when, int) or isinstance(when, bool)
            or kind not in ([], ["c"])):
        return None
    return (token, when, "c" if kind else "t")


def visits() -> list[Visit]:
    """The (token, day of the visit as a Unix time, kind) entries the cookie holds, most recent first; nothing
    when there is no cookie, or one that is tampered with, unsigned or malformed."""
    raw = request.cookies.get(COOKIE)
    if not raw or len(raw) > 4096:
        return []
    try:
        data = _signer().loads(raw)
    except BadData:
        return []
    kept: dict[tuple[str, Kind], Visit] = {}  # the first entry of each token, in the cookie's order
    for item in data[:RECENT_TABLES_MAX] if isinstance(data, list) else ():
        visit = _visit(item)
        if visit is not None:
            kept.setdefault((visit[0], visit[2]), visit)
    return list(kept.values())


def _store(response: Response, kept: list[Visit]) -> None:
    if not kept:
        response.delete_cookie(COOKIE, path="/")
        return
    value = _signer().dumps([[token, when] if kind == "t" else [token, when, kind]
                             for token, when, kind in kept[:RECENT_TABLES_MAX]])
    response.set_cookie(COOKIE, value, max_age=COOKIE_DAYS * 24 * 3600, path="/", httponly=True, samesite="Lax",
                        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))


def remember(response: Response) -> Response:
    """After a table's or a circle's page answered 200 (an HTML page reached by its own members' link), put its
    token first."""
    token = (request.view_args or {}).get("token")
    if (request.method != "GET" or response.status_code != 200 or response.mimetype != "text/html"
            or not isinstance(token, str) or not _TOKEN.fullmatch(token)
            or not request.path.startswith((f"/t/{token}", f"/c/{token}"))):
        return response
    kind: Kind = "t" if request.path.startswith("/t/") else "c"
    kept = visits()
    today = visit_day(clock())
    if not kept or kept[0] != (token, today, kind):  # a new cookie, unless it is first already, today
        _store(response, [(token, today, kind), *(v for v in kept if (v[0], v[2]) != (token, kind))])
    return response


@dataclass(frozen=True)
class RecentTable:
    """One table of the list, or one evening of a circle's entry, as the home page shows it."""

    kind: ClassVar[str] = "table"
    token: str
    players: tuple[str, ...]
    created_at: str
    """When the table was started, or for an imported copy when the copy was made (ISO 8601, UTC)."""
    played: int
    deals_agreed: int
    imported: bool = False
    """A copy imported from a file: the list says so, with when it was made, so that it is not taken for its
    original (both have the same players)."""
    evening: int | None = None
    """Which evening of its circle it is, when it is shown under its circle."""
    with_time: bool = False
    """Its start is shown with the time of day: another table of the list has the same players and began the
    same day."""


@dataclass
class RecentCircle:
    """One circle of the list: its name and members, and the evenings of it this phone opened (the latest first)."""

    kind: ClassVar[str] = "circle"
    circle: Circle
    remembered: bool = False
    """Its own page was opened on this phone (its token is in the cookie), not only its evenings."""
    evenings: list[RecentTable] = field(default_factory=list)


Recent = RecentTable | RecentCircle


def _table(db: sqlite_utils.Database, table: Table) -> RecentTable:
    played = len(ledger(db, table).replay.settlements)
    return RecentTable(table.token, table.players, table.created_at, played, table.deals_agreed, table.imported)


def recent_tables() -> tuple[list[Recent], list[Visit]]:
    """The tables and circles in the cookie still found in the database, most recent first (an evening of a
    circle under its circle, which comes where the first of them came), and the cookie's entries without the
    tokens no longer found (a table or circle that cannot be read stays, unshown; an evening whose circle
    cannot be read is shown alone)."""
    shown: list[Recent] = []
    kept: list[Visit] = []
    circles: dict[int, RecentCircle] = {}
    read: dict[int, Circle | None] = {}
    db = get_db()

    def group(circle: Circle) -> RecentCircle:
        if circle.id not in circles:
            circles[circle.id] = RecentCircle(circle)
            shown.append(circles[circle.id])
        return circles[circle.id]

    for visit in visits():
        try:
            found = circle_by_token(db, visit[0]) if visit[2] == "c" else table_by_token(db, visit[0])
        except (UnreadableCircle, UnreadableTable):  # kept, unshown
            kept.append(visit)
            continue
        if found is None:  # no longer found: dropped
            continue
        kept.append(visit)
        if isinstance(found, Circle):
            group(found).remembered = True
        elif (circle := _circle_of(db, found, read)) is not None:
            group(circle).evenings.append(replace(_table(db, found), evening=found.circle_evening))
        else:
            shown.append(_table(db, found))
    for entry in circles.values():
        entry.evenings.sort(key=lambda t: -(t.evening or 0))
    return _told_apart(shown), kept


def _circle_of(db: sqlite_utils.Database, table: Table, read: dict[int, Circle | None]) -> Circle | None:
    """The circle a table is an evening of, read once for all its evenings in the list (none when it cannot be
    read: the evening is listed alone, its own link still opens it)."""
    if table.circle_id is None:
        return None
    if table.circle_id not in read:
        try:
            read[table.circle_id] = circle_of(db, table)
        except UnreadableCircle:
            read[table.circle_id] = None
    return read[table.circle_id]


def _told_apart(shown: list[Recent]) -> list[Recent]:
    """The tables listed alone, with the time they began where two of them have the same players and began the
    same day (the evenings of a circle are told apart by their numbers)."""
    def key(t: RecentTable) -> tuple[tuple[str, ...], str]:
        return t.players, local_day(t.created_at)
    counts = Counter(key(e) for e in shown if isinstance(e, RecentTable))
    return [replace(e, with_time=True) if isinstance(e, RecentTable) and counts[key(e)] > 1 else e for e in shown]


def keep(response: Response, before: list[Visit], after: list[Visit]) -> None:
    """Write the cookie again if the list changed (tokens no longer found dropped)."""
    if before != after:
        _store(response, after)


@bp.route("/recent/forget", methods=("POST",))
def forget() -> Response:
    """Forget tables or a circle on this phone (``token``: a table's, ``circle``: a circle's, each as often as
    needed: a circle's entry sends its own and its evenings'); the tables and circles themselves are untouched.
    CSRF-checked like every form."""
    tables, circles = set(request.form.getlist("token")), set(request.form.getlist("circle"))
    kept = visits()
    response = redirect(url_for("home.index"))
    keep(response, kept, [v for v in kept if v[0] not in (tables if v[2] == "t" else circles)])
    return response


def init_app(app: Flask) -> None:
    """The forget form's route, and the hook that remembers each table or circle page answered."""
    app.register_blueprint(bp)
    app.after_request(remember)
