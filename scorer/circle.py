"""A circle: the same players, evening after evening, one running ledger each (issue 14).

``/c/new`` starts a circle; ``/c/<token>`` is its page (the season's ledger, the pool carried, a
chart, statistics, the settle-up) with the form that starts its next evening; ``/cs/<token>``
is the watch-only page. A circle's evenings are ordinary tables (``/t/<token>``); what one
leaves on the table is carried into the next (:mod:`scorer.core.season`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from .chart import balance_chart
from .core import Payment, Season, SeasonError, Statistics, statistics
from .db import get_db
from .forms import CircleForm, NextEveningForm
from .ratelimits import rate_limited
from .store import Circle, Table, circle_by_spectator_token, circle_by_token, circle_season, circle_tables, create_circle, start_evening
from .store import Refused as StoreRefused

bp = Blueprint("circle", __name__)


@dataclass(frozen=True)
class CircleView:
    """What a circle's page shows."""

    circle: Circle
    tables: list[Table]
    season: Season
    running: list[dict[str, int]]
    stats: Statistics
    chart: Markup
    settle: dict[str, int]
    payments: tuple[Payment, ...]
    spectator: bool

    def context(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _view(circle: Circle, spectator: bool) -> CircleView:
    db = get_db()
    tables = circle_tables(db, circle)
    season = circle_season(db, circle)
    running = season.running()
    series = [[0] + [r[m] for r in running] for m in circle.members]
    value = circle.chip_value_cents if circle.chip_value_cents is not None else 1
    cents, payments = season.settle_up(value)
    stats = statistics([e.replay for e in season.evenings], [e.results for e in season.evenings])
    return CircleView(circle, tables, season, running, stats, balance_chart(circle.members, series, step="evening"),
                      cents, payments, spectator)


@bp.route("/c/new", methods=("GET", "POST"))
@rate_limited("LIMIT_NEW_TABLES")
def new() -> Response | tuple[str, int]:
    form = CircleForm()
    if form.validate_on_submit():
        circle = create_circle(get_db(), (form.name.data or "").strip(), form.members(), form.house_rules(), form.deals(),
                               form.chip_value_cents(), (form.currency.data or "").strip())
        flash("The circle is ready. Keep its link: every evening of the season starts from it.")
        return redirect(url_for("circle.page", token=circle.token))
    return render_template("circle/new.html", form=form), (422 if form.is_submitted() else 200)


def _circle(token: str) -> Circle:
    circle = circle_by_token(get_db(), token)
    if circle is None:
        abort(404)
    return circle


@bp.route("/c/<token>")
def page(token: str) -> str:
    circle = _circle(token)
    form = NextEveningForm(members=circle.members)
    return render_template("circle/page.html", form=form, **_view(circle, False).context())


@bp.route("/cs/<token>")
def watch(token: str) -> str:
    circle = circle_by_spectator_token(get_db(), token)
    if circle is None:
        abort(404)
    return render_template("circle/page.html", form=None, **_view(circle, True).context())


@bp.route("/c/<token>/next", methods=("POST",))
def next_evening(token: str) -> Response | tuple[str, int]:
    circle = _circle(token)
    form = NextEveningForm(members=circle.members)
    if form.validate_on_submit():
        try:
            table = start_evening(get_db(), circle, form.seated(), form.dealer())
        except (StoreRefused, SeasonError) as refused:
            form.seat_4.errors.append(refused.message)
        else:
            flash(f"Evening {table.circle_evening} of the circle is ready: {', '.join(table.players)}.")
            return redirect(url_for("table.play", token=table.token))
    return render_template("circle/page.html", form=form, **_view(circle, False).context()), 422
