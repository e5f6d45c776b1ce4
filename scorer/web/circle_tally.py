"""A circle's season on paper (issue 14): the evenings, every member's running total, the season's
settle-up, how the season went, and a line for each member to sign, as a PDF through WeasyPrint.

Rendered as a table's tally is (scorer/tally.py): through the same render queue, one at a time, and
kept in the same bounded cache under the circle and what its season is made of (every evening's log
length), so a record in any evening makes a new PDF and a repeat costs nothing.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from .core import Season, statistics
from .db import get_db
from .store import Circle, SeasonFold, circle_by_token, season_fold
from .store.circles import CircleDoesNotHold, owing
from .i18n import language
from .tally import PAPER, _tally_css, busy, page_counter, printer, render_pdf, signature_lines

bp = Blueprint("circle_tally", __name__)


def _season_context(circle: Circle, fold: SeasonFold, season: Season) -> dict[str, Any]:
    value = circle.chip_value_cents if circle.chip_value_cents is not None else 1
    cents, payments = season.settle_up(value)
    stats = fold.made("statistics", lambda: statistics([e.replay for e in season.evenings], [e.results for e in season.evenings]))
    return {"circle": circle, "season": season, "running": fold.made("running", season.running), "settle": cents,
            "payments": payments, "stats": stats, "in_money": circle.chip_value_cents is not None,
            "owing": owing(circle, season), "page_counter": page_counter(),
            "signature_lines": signature_lines}


def _key(circle: Circle, paper: str, fold: SeasonFold | None = None) -> tuple[str, ...]:
    """What the season's PDF depends on: the circle, every evening's log (its length), the reader's language
    (a French phone gets the French PDF) and the paper. ``fold``: the season's fold the PDF is made from."""
    fold = fold or season_fold(get_db(), circle)
    sizes = [(t.token, ledger.seq) for t, ledger in zip(fold.tables, fold.ledgers)]
    made_of = hashlib.sha256(repr((circle, sizes)).encode()).hexdigest()
    return ("circle", circle.token, made_of, language(), paper)


@bp.route("/c/<token>/tally.pdf")
def pdf(token: str) -> Response | tuple[str, int, dict[str, str]]:
    paper = PAPER.get(request.args.get("paper", "a4").lower())
    if paper is None:
        abort(404)
    circle = circle_by_token(get_db(), token)
    if circle is None:
        abort(404)
    fold = season_fold(get_db(), circle)
    if fold.season is None:  # a circle that does not hold: its page says why
        raise CircleDoesNotHold(fold)
    circle, season = fold.circle or circle, fold.season  # one snapshot: never a circle read before a rename, a season after
    key = _key(circle, paper, fold)
    document = printer().document(("circle", circle.token), key, request.remote_addr or "", lambda: render_pdf(render_template(
        "circle/tally.html", paper=paper, tally_css=_tally_css(), **_season_context(circle, fold, season))))
    if document is None:
        return busy(url_for("circle.page", token=token), _("Back to the circle"))
    return Response(document, mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="quadrille-season-{paper.lower()}.pdf"'})
