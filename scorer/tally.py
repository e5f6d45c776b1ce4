"""The end of the evening: the tally page, the same page as a PDF, and the settle-up."""

from __future__ import annotations

import os
from typing import Any

from flask import Blueprint, Response, abort, render_template, request

from .chart import balance_chart
from .core.rules import RULES_BY_NAME
from .core.settleup import settle_up
from .table import _table, _view

bp = Blueprint("tally", __name__)

PAPER = {"a4": "A4", "letter": "letter"}


def money(cents: int, currency: str) -> str:
    sign = "−" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}{' ' + currency if currency else ''}"


def _tally(token: str) -> dict[str, Any]:
    table = _table(token)
    view = _view(table)
    result = view["ledger"]
    value = table.chip_value_cents
    view["settle"] = settle_up(result, value if value is not None else 1)
    view["has_money"] = value is not None
    view["money"] = lambda cents: money(cents, table.currency) if value is not None else f"{cents} {view['units']}"
    series = [[0] + [s.after.balance(p) for s in result.settlements] for p in table.players]
    view["chart"] = balance_chart(table.players, series)
    view["rule_book"] = RULES_BY_NAME
    return view


def _tally_css() -> str:
    """The print stylesheet, inlined into the PDF's HTML (WeasyPrint then fetches nothing)."""
    from flask import current_app

    path = os.path.join(current_app.static_folder or "", "tally.css")
    with open(path, encoding="utf-8") as css:
        return css.read()


@bp.route("/t/<token>/tally")
def page(token: str) -> str:
    return render_template("tally/tally.html", paper="A4", printing=False, **_tally(token))


@bp.route("/t/<token>/tally.pdf")
def pdf(token: str) -> Response:
    paper = PAPER.get(request.args.get("paper", "a4").lower())
    if paper is None:
        abort(404)
    from weasyprint import HTML

    html = render_template("tally/tally.html", paper=paper, printing=True, tally_css=_tally_css(), **_tally(token))
    document = HTML(string=html, base_url=request.url_root).write_pdf()
    return Response(document, mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="quadrille-tally-{paper.lower()}.pdf"'})
