"""A whole circle as one quadrille-circle/1 JSON file: export it, or import such a file as a new circle (issue 14)."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_babel import ngettext
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFError
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from .core import IMPORT_BYTES_MAX, ScorerError
from .core.limits import CIRCLE_EVENINGS_MAX
from .db import get_db
from .i18n import number
from .ratelimits import BudgetSpent, new_tables, rate_limited
from .store import ImportRefused, circle_by_token, export_circle, import_circle, read_circle_file
from .store.circle_files import raw_circle_export
from .store.circles import UnreadableCircle
from .table import csrf_lost

bp = Blueprint("circle_exchange", __name__)
bp.register_error_handler(CSRFError, csrf_lost)


class CircleImportForm(FlaskForm):
    circle = FileField(lazy_gettext("A circle file (quadrille-circle/1 JSON)"),
                       validators=[FileRequired(lazy_gettext("Choose the file to import."))])

    def upload(self) -> bytes:
        """The file's first bytes, at most one past the limit (read once the form is valid)."""
        if self.circle.data is None:
            raise ValueError("the circle file is read before the form is validated")
        first: bytes = self.circle.data.read(IMPORT_BYTES_MAX + 1)
        return first


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> tuple[str, int]:
    """An upload past the server's limit: the import page again, saying which limit."""
    form = CircleImportForm(formdata=None)
    form.circle.errors = [_("That file is too large: a circle file may be at most %(bytes)s bytes.",
                            bytes=number(IMPORT_BYTES_MAX))]
    return render_template("circle/import.html", form=form), 413


@bp.route("/c/<token>/export.json")
def export_json(token: str) -> Response:
    try:
        circle = circle_by_token(get_db(), token)
    except UnreadableCircle:  # a row or log that cannot be read: give back everything stored, so nothing is lost
        body = json.dumps(raw_circle_export(get_db(), token), indent=2, ensure_ascii=False, default=str) + "\n"
        return Response(body, mimetype="application/json",
                        headers={"Content-Disposition": 'attachment; filename="scorer-raw-circle.json"'})
    if circle is None:
        abort(404)
    data = export_circle(get_db(), circle, current_app.config["SECRET_KEY"])
    body = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="quadrille-circle.json"'})


def tables_in(data: object) -> int:
    """The new tables a circle file makes, as the budget counts them: the circle one, and each evening one (of at
    most CIRCLE_EVENINGS_MAX: the import itself refuses a file with more, and says why)."""
    evenings = data.get("evenings") if isinstance(data, dict) else None
    return 1 + (min(len(evenings), CIRCLE_EVENINGS_MAX) if isinstance(evenings, list) else 0)


@bp.route("/c/import", methods=("GET", "POST"))
@rate_limited("LIMIT_IMPORTS")
def upload() -> BaseResponse | tuple[str, int] | tuple[str, int, dict[str, str]]:
    form = CircleImportForm()
    if form.validate_on_submit():
        try:
            data = read_circle_file(form.upload())
            with new_tables(tables_in(data)):  # the whole file, or nothing: never a part of its evenings
                circle = import_circle(get_db(), data, current_app.config["SECRET_KEY"], consume=True)
        except BudgetSpent as spent:  # a ScorerError too: answered first
            form.circle.errors.append(spent.sentence)
            return render_template("circle/import.html", form=form), spent.code, spent.headers()
        except (ImportRefused, ScorerError) as error:
            form.circle.errors.append(str(error))
        else:
            flash(ngettext("Imported the circle %(name)s: %(num)d evening. This is a new circle with its own link.",
                           "Imported the circle %(name)s: %(num)d evenings. This is a new circle with its own link.",
                           circle.evenings, name=circle.name))
            return redirect(url_for("circle.page", token=circle.token))
    return render_template("circle/import.html", form=form), (422 if form.is_submitted() else 200)
