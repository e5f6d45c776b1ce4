"""Export a table as quadrille-evening/1 JSON (with its log) or as CSV; import such a file as a new table."""

from __future__ import annotations

import json

from flask import Blueprint, Response, flash, redirect, render_template, url_for
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired

from .core import EveningFormatError, ScorerError
from .db import get_db
from .store import ImportRefused, export_evening, import_evening, transfers_csv
from .table import _table

bp = Blueprint("exchange", __name__)


class ImportForm(FlaskForm):  # type: ignore[misc]
    evening = FileField("An evening file (quadrille-evening/1 JSON)", validators=[FileRequired("Choose the file to import.")])


def _download(body: str, mimetype: str, name: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.route("/t/<token>/export.json")
def export_json(token: str) -> Response:
    table = _table(token)
    body = json.dumps(export_evening(get_db(), table), indent=2, ensure_ascii=False) + "\n"
    return _download(body, "application/json", "quadrille-evening.json")


@bp.route("/t/<token>/export.csv")
def export_csv(token: str) -> Response:
    return _download(transfers_csv(get_db(), _table(token)), "text/csv", "quadrille-transfers.csv")


@bp.route("/import", methods=("GET", "POST"))
def upload() -> str | Response:
    form = ImportForm()
    if form.validate_on_submit():
        raw = form.evening.data.read()
        try:
            data = json.loads(raw.decode("utf-8"))
            table = import_evening(get_db(), data)
        except UnicodeDecodeError:
            form.evening.errors.append("That file is not text: export a quadrille-evening/1 JSON file and try again.")
        except json.JSONDecodeError as error:
            form.evening.errors.append(f"That file is not valid JSON: {error}")
        except (EveningFormatError, ImportRefused, ScorerError) as error:
            form.evening.errors.append(str(error))
        else:
            flash(f"Imported: {', '.join(table.players)}. This is a new table with its own link.")
            return redirect(url_for("table.join", token=table.token))
    return render_template("exchange/import.html", form=form), (422 if form.is_submitted() else 200)  # type: ignore[return-value]
