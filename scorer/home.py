"""The home page and the house rules page."""

from __future__ import annotations

from flask import Blueprint, render_template

from .core import HOUSE_RULES, PROFILES

bp = Blueprint("home", __name__)


@bp.route("/")
def index() -> str:
    return render_template("home/index.html", profiles=PROFILES.values())


@bp.route("/rules")
def rules() -> str:
    return render_template("home/rules.html", rules=HOUSE_RULES, profiles=PROFILES.values())
