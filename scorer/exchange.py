"""Export a table as quadrille-evening/1 JSON (with its log) or as CSV; import such a file as a new table."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse
from flask_wtf.file import FileField, FileRequired

from .core import IMPORT_BYTES_MAX, EveningFormatError, ScorerError
from .db import get_db
from .i18n import number
from .ratelimits import BudgetSpent, new_tables, rate_limited
from .store import (
    ImportRefused,
    UnreadableTable,
    export_evening,
    import_evening,
    raw_export,
    read_evening_file,
    table_by_token,
    transfers_csv,
)
from .table import _table, csrf_lost

bp = Blueprint("exchange", __name__)
bp.register_error_handler(CSRFError, csrf_lost)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> tuple[str, int]:
    """An upload past the server's limit: the import page again, saying which limit."""
    form = ImportForm(formdata=None)
    form.evening.errors = [_("That file is too large: an evening file may be at most %(bytes)s bytes.",
                             bytes=number(IMPORT_BYTES_MAX))]
    return render_template("exchange/import.html", form=form), 413


class ImportForm(FlaskForm):
    evening = FileField(lazy_gettext("An evening file (quadrille-evening/1 JSON)"),
                        validators=[FileRequired(lazy_gettext("Choose the file to import."))])

    def upload(self) -> bytes:
        """The file's first bytes, at most one past the limit: read once the form is valid (``FileRequired``
        has then made sure a file was sent)."""
        if self.evening.data is None:
            raise ValueError("the evening file is read before the form is validated")
        first: bytes = self.evening.data.read(IMPORT_BYTES_MAX + 1)  # FileStorage passes read() on to its stream
        return first


def _download(body: str, mimetype: str, name: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.route("/t/<token>/export.json")
def export_json(token: str) -> Response:
    try:
        table = table_by_token(get_db(), token)
    except UnreadableTable:  # settings that cannot be read: give back everything stored, so nothing is lost
        return _download(json.dumps(raw_export(get_db(), token), indent=2, ensure_ascii=False, default=str) + "\n",
                         "application/json", "scorer-raw-table.json")
    if table is None:
        abort(404)
    data = export_evening(get_db(), table, current_app.config["SECRET_KEY"])
    body = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return _download(body, "application/json", "quadrille-evening.json")


@bp.route("/t/<token>/export.csv")
def export_csv(token: str) -> Response:
    return _download(transfers_csv(get_db(), _table(token)), "text/csv", "quadrille-transfers.csv")


@bp.route("/import", methods=("GET", "POST"))
@rate_limited("LIMIT_IMPORTS")
def upload() -> BaseResponse | tuple[str, int] | tuple[str, int, dict[str, str]]:
    form = ImportForm()
    if form.validate_on_submit():
        raw = form.upload()
        try:
            with new_tables(1):
                table = import_evening(get_db(), read_evening_file(raw), current_app.config["SECRET_KEY"])
        except BudgetSpent as spent:  # a ScorerError too: answered first
            form.evening.errors.append(spent.sentence)
            return render_template("exchange/import.html", form=form), spent.code, spent.headers()
        except (EveningFormatError, ImportRefused, ScorerError) as error:
            form.evening.errors.append(str(error))
        else:
            verdict = (_("signed by this server, untouched") if table.provenance == "signed"
                       else _("imported, not verified: the file does not carry this server's signature"))
            flash(_("Imported: %(players)s (%(verdict)s). This is a new table with its own link.",
                    players=", ".join(table.players), verdict=verdict))
            return redirect(url_for("table.join", token=table.token))
    return render_template("exchange/import.html", form=form), (422 if form.is_submitted() else 200)
