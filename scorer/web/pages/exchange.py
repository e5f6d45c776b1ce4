"""Import and export: a table as quadrille-evening/1 JSON (with its log) or as CSV, and such a file imported as a
new table; a whole circle as one quadrille-circle/1 JSON file, and such a file imported as a new circle."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from ..i18n import gettext as _, number
from flask_babel import lazy_gettext, ngettext
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse
from flask_wtf.file import FileField, FileRequired

from ...core import IMPORT_BYTES_MAX, EveningFormatError, ScorerError
from ...core.limits import CIRCLE_EVENINGS_MAX
from ..db import get_db
from ..importgate import Busy, in_turn
from ..ratelimits import BudgetSpent, new_tables
from ...store import (
    Circle, ImportRefused, Table, UnreadableTable, circle_by_token, export_circle, export_evening, import_circle, import_evening,
    raw_export, read_circle_file, read_evening_file, table_by_token, transfers_csv,
)
from ...store.circle_files import raw_circle_export
from ...store.circles import UnreadableCircle
from ..common import csrf_lost, table_or_abort, wait_page

bp = Blueprint("exchange", __name__)
Made = TypeVar("Made", Table, Circle)
Page = tuple[str, int] | tuple[str, int, dict[str, str]]
"""The import page (again: 422, or the answer to a refusal), or the page that says the gate has no turn now."""
bp.register_error_handler(CSRFError, csrf_lost)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> tuple[str, int]:
    """An upload past the server's limit: the import page again (the evening's or the circle's), saying which limit."""
    limit = number(IMPORT_BYTES_MAX)
    if request.endpoint == "exchange.circle_upload":
        circle_form = CircleImportForm(formdata=None)
        circle_form.circle.errors = [_("That file is too large: a circle file may be at most %(bytes)s bytes.",
                                       bytes=limit)]
        return render_template("circle/import.html", form=circle_form), 413
    form = ImportForm(formdata=None)
    form.evening.errors = [_("That file is too large: an evening file may be at most %(bytes)s bytes.", bytes=limit)]
    return render_template("exchange/import.html", form=form), 413


class ImportForm(FlaskForm):
    evening = FileField(lazy_gettext("An evening file (quadrille-evening/1 JSON)"),
                        validators=[FileRequired(lazy_gettext("Choose the file to import."))])


def _first_bytes(field: FileField) -> bytes:
    """The file's first bytes, at most one past the limit: read once the form is valid (``FileRequired``
    has then made sure a file was sent)."""
    if field.data is None:
        raise ValueError("the file is read before the form is validated")
    first: bytes = field.data.read(IMPORT_BYTES_MAX + 1)  # FileStorage passes read() on to its stream
    return first


def _download(body: str, mimetype: str, name: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _json(data: object, name: str) -> Response:
    """``data`` as a JSON file to download (a raw export's dates and bytes as text)."""
    return _download(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n", "application/json", name)


@bp.route("/t/<token>/export.json")
def export_json(token: str) -> Response:
    try:
        table = table_by_token(get_db(), token)
    except UnreadableTable:  # settings that cannot be read: give back everything stored, so nothing is lost
        return _json(raw_export(get_db(), token), "scorer-raw-table.json")
    if table is None:
        abort(404)
    return _json(export_evening(get_db(), table, current_app.config["SECRET_KEY"]), "quadrille-evening.json")


@bp.route("/t/<token>/export.csv")
def export_csv(token: str) -> Response:
    return _download(transfers_csv(get_db(), table_or_abort(token)), "text/csv", "quadrille-transfers.csv")


@dataclass(frozen=True)
class NotImported:
    """An import refused: the sentence shown on its form, the status and the headers of the answer."""
    sentence: str
    code: int = 422
    headers: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def of(error: Exception) -> NotImported:
        if isinstance(error, BudgetSpent):
            return NotImported(error.sentence, error.code, error.headers())
        return NotImported(str(error))


def busy(back: str) -> tuple[str, int, dict[str, str]]:
    """The 503 page of an import that has no turn now (:mod:`scorer.web.importgate`), with ``Retry-After``."""
    return wait_page(
        "IMPORT_RETRY_AFTER_SECONDS", _("Another file is being imported"),
        lambda seconds: _("This server reads one imported file at a time, and another one is being read right now. "
                          "Nothing was imported: try again in %(seconds)s seconds.", seconds=seconds),
        back, _("Back to the import page"),
    )


def _evening(form: ImportForm) -> Table | NotImported:
    """The file of ``form`` imported as a new table, or why not: run in a turn at the gate, so that the file and
    what is read of it live only in this frame (and the refusal's traceback, which ends here)."""
    try:
        data = read_evening_file(_first_bytes(form.evening))
        with new_tables(1):
            return import_evening(get_db(), data, current_app.config["SECRET_KEY"])
    except (BudgetSpent, EveningFormatError, ImportRefused, ScorerError) as error:  # a budget spent is a ScorerError too
        return NotImported.of(error)


def _import_page(form: ImportForm | CircleImportForm, field: FileField, template: str,
                 imported: Callable[[], Made | NotImported]) -> Made | Page:
    """What ``imported`` made of the file of ``form`` (read in a turn at the gate), or the page to answer instead:
    the import page (again, the refusal beside ``field``), or the page that says the gate has no turn now."""
    if not form.validate_on_submit():
        return render_template(template, form=form), (422 if form.is_submitted() else 200)
    try:
        made = in_turn(imported)
    except Busy:
        return busy(url_for(str(request.endpoint)))
    if isinstance(made, NotImported):
        field.errors.append(made.sentence)
        return render_template(template, form=form), made.code, made.headers
    return made


@bp.route("/import", methods=("GET", "POST"))
def upload() -> BaseResponse | Page:
    form = ImportForm()
    table = _import_page(form, form.evening, "exchange/import.html", lambda: _evening(form))
    if not isinstance(table, Table):
        return table
    verdict = (_("signed by this server, untouched") if table.provenance == "signed"
               else _("imported, not verified: the file does not carry this server's signature"))
    flash(_("Imported: %(players)s (%(verdict)s). This is a new table with its own link.",
            players=", ".join(table.players), verdict=verdict))
    return redirect(url_for("table.join", token=table.token))


# A whole circle

class CircleImportForm(FlaskForm):
    circle = FileField(lazy_gettext("A circle file (quadrille-circle/1 JSON)"),
                       validators=[FileRequired(lazy_gettext("Choose the file to import."))])


@bp.route("/c/<token>/export.json")
def circle_export_json(token: str) -> Response:
    try:
        circle = circle_by_token(get_db(), token)
        if circle is None:
            abort(404)
        return _json(export_circle(get_db(), circle, current_app.config["SECRET_KEY"]), "quadrille-circle.json")
    except (UnreadableCircle, UnreadableTable):  # its row, its log or an evening's table cannot be read: give back
        return _json(raw_circle_export(get_db(), token), "scorer-raw-circle.json")  # everything stored, nothing lost


def tables_in(data: object) -> int:
    """The new tables a circle file makes, as the budget counts them: the circle one, and each evening one (of at
    most CIRCLE_EVENINGS_MAX: the import itself refuses a file with more, and says why)."""
    evenings = data.get("evenings") if isinstance(data, dict) else None
    return 1 + (min(len(evenings), CIRCLE_EVENINGS_MAX) if isinstance(evenings, list) else 0)


def _circle(form: CircleImportForm) -> Circle | NotImported:
    """The file of ``form`` imported as a new circle, or why not (as :func:`_evening`)."""
    try:
        data = read_circle_file(_first_bytes(form.circle))
        with new_tables(tables_in(data)):  # the whole file, or nothing: never a part of its evenings
            return import_circle(get_db(), data, current_app.config["SECRET_KEY"], consume=True)
    except (BudgetSpent, ImportRefused, ScorerError) as error:
        return NotImported.of(error)


@bp.route("/c/import", methods=("GET", "POST"))
def circle_upload() -> BaseResponse | Page:
    form = CircleImportForm()
    circle = _import_page(form, form.circle, "circle/import.html", lambda: _circle(form))
    if not isinstance(circle, Circle):
        return circle
    flash(ngettext("Imported the circle %(name)s: %(num)d evening. This is a new circle with its own link.",
                   "Imported the circle %(name)s: %(num)d evenings. This is a new circle with its own link.",
                   circle.evenings, name=circle.name))
    return redirect(url_for("circle.page", token=circle.token))
