"""The home page (with the tables this phone opened recently), the house rules page, and the template
helpers every page uses: times in the app's zone (``local_time``) and a deal told as a sentence (``describe``)."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Blueprint, current_app, make_response, render_template
from werkzeug.wrappers import Response

from .core import HOUSE_RULES, PROFILES, RECENT_TABLES_MAX, describe
from .recent import keep, recent_tables, visits

bp = Blueprint("home", __name__)

DEFAULT_TIMEZONE = "Europe/London"
"""Where times are shown when the app's ``TIMEZONE`` setting names no zone (the game is English)."""


@lru_cache(maxsize=16)
def _zone(name: str) -> ZoneInfo | timezone:
    """The IANA zone called ``name`` (UTC when the name is unknown: a time is never a 500)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return timezone.utc


def local_time(stamp: object, zone_name: str | None = None) -> str:
    """An ISO 8601 time as the table reads it, in the app's zone: "Sat 21 Nov, 23:43" (the year added
    when it is not this year's). A time with no zone is UTC, as the app writes them; text that is not
    a time is shown as it is."""
    if not isinstance(stamp, str) or not stamp:
        return ""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    zone = _zone(zone_name or str(current_app.config.get("TIMEZONE") or DEFAULT_TIMEZONE))
    here = when.astimezone(zone)
    year = f" {here.year}" if here.year != datetime.now(zone).year else ""
    return f"{here:%a} {here.day} {here:%b}{year}, {here:%H:%M}"


def local_day(stamp: object) -> str:
    """The day of an ISO 8601 time, in the app's zone: "Sat 21 Nov" (with the year when not this year's)."""
    shown = local_time(stamp)
    return shown.rsplit(",", 1)[0] if "," in shown else shown


bp.add_app_template_filter(local_time, "local_time")
bp.add_app_template_filter(local_day, "local_day")
bp.add_app_template_global(describe, "describe")


@bp.route("/")
def index() -> Response:
    before = visits()
    tables, after = recent_tables()
    response = make_response(render_template("home/index.html", profiles=PROFILES.values(), recent=tables,
                                             recent_max=RECENT_TABLES_MAX))
    keep(response, before, after)
    return response


@bp.route("/rules")
def rules() -> str:
    return render_template("home/rules.html", rules=HOUSE_RULES, profiles=PROFILES.values())
