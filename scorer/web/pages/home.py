"""The home page (with the tables this phone opened recently), the house rules page, and the template
helper every page uses: a deal told as a sentence (``describe``). Times, numbers and money in the reader's
language are :mod:`scorer.i18n`'s filters."""

from __future__ import annotations

from flask import Blueprint, make_response, render_template
from werkzeug.wrappers import Response

from ...core import HOUSE_RULES, PROFILES, READINGS, RECENT_TABLES_MAX, SOURCES, SOURCES_INTRO, describe
from ...core.rules import RULES_BY_NAME
from .recent import keep, recent_tables, visits

bp = Blueprint("home", __name__)

bp.add_app_template_global(describe, "describe")
bp.add_app_template_global(RULES_BY_NAME.get, "house_rule")


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
    return render_template("home/rules.html", rules=HOUSE_RULES, profiles=PROFILES.values(), sources=SOURCES,
                           sources_intro=SOURCES_INTRO, readings=READINGS)
