"""Disputed deals: the audit of one deal, corrections as new versions, restoring a version, the log's chain."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, session, url_for
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from .core import Deal, DealError, ImpossibleDeal
from .core.log import Amend, Line, LineKind, Refused, Restore, TableChanged
from .core.evening import differences, replay_from
from .core.rules import RULES_BY_NAME
from .db import get_db
from .forms import CorrectionForm, RestoreForm, one_time_token
from .store import Table, run, sent_before, verify
from .table import CSRF_RESHOWN, _contract, _digest, _table, _view, csrf_lost

bp = Blueprint("audit", __name__)
bp.register_error_handler(CSRFError, csrf_lost)


def _deal_view(token: str, number: int) -> dict[str, Any]:
    table = _table(token)
    view = _view(table)
    if not 1 <= number <= view["played"]:
        stored = view["book"].deals
        if view["damage"] and view["played"] < number <= len(stored):  # past the break: show it as stored
            page = render_template("audit/unsettled.html", **{**view, "number": number, "d": stored[number - 1],
                                                               "settlement": None})
            abort(Response(page, 200, mimetype="text/html"))
        if request.method == "POST":  # a correction sent after its deal was undone on another phone
            flash(f"Deal {number} no longer stands (it was undone on another phone): nothing was saved.")
            abort(redirect(url_for("table.play", token=token)))
        page = render_template("audit/gone.html", **{**view, "number": number})
        abort(Response(page, 404, mimetype="text/html"))
    view["settlement"] = view["ledger"].settlements[number - 1]
    view["versions"] = view["book"].versions_of(number)
    view["rule_book"] = RULES_BY_NAME
    return view


@bp.route("/t/<token>/audit/<int:number>")
def deal(token: str, number: int) -> str:
    return render_template("audit/deal.html", **_deal_view(token, number))


def _compare(view: dict[str, Any], number: int, deal: Deal) -> dict[str, Any]:
    """Replay the evening with ``deal`` in place of deal ``number``: the downstream difference, or the error it causes."""
    try:
        new = replay_from(view["ledger"], number, deal)
    except DealError as error:
        return {"error": f"This correction would make deal {error.number} impossible: {error.cause.message}"}
    changed, finals = differences(view["ledger"], new)
    return {"changed": changed, "finals": finals, "new": new, "error": None}


def _remember(name: str) -> None:
    session["me"] = name


@bp.route("/t/<token>/audit/<int:number>/amend/<contract>", methods=("GET", "POST"))
def amend(token: str, number: int, contract: str) -> str | Response:
    view = _deal_view(token, number)
    table = view["table"]
    settlement = view["settlement"]
    chosen = _contract(table, contract)
    if view["damage"]:
        return _read_only(token)
    if (again := _sent_again(table, number)) is not None:
        return again
    form = CorrectionForm(players=table.players, contract=chosen, dealer=settlement.deal.dealer,
                          state=settlement.before, rules=table.rules)
    context = {"form": form, "comparison": None, **view}
    if request.method == "GET":
        if chosen is settlement.deal.contract:
            form.fill_from(settlement.deal)
        form.by.data = session.get("me")
        form.log_length.data = str(view["log_size"])
        form.once.data = one_time_token()
        return render_template("audit/amend.html", **context)
    if form.log_length.data != str(view["log_size"]):
        flash("The table changed on another phone while you were correcting: here is the deal as it stands now.")
        return redirect(url_for("audit.deal", token=token, number=number))
    if not form.validate():
        return render_template("audit/amend.html", **context), 422  # type: ignore[return-value]
    corrected = form.to_deal()
    if corrected == settlement.deal:
        form.hombre.errors.append("This is the deal as it stands: change something to correct it.")
        return render_template("audit/amend.html", **context), 422  # type: ignore[return-value]
    comparison = _compare(view, number, corrected)
    context["comparison"] = comparison
    if comparison["error"]:
        return render_template("audit/amend.html", **context), 422  # type: ignore[return-value]
    digest = _digest(table, corrected)
    action = None if g.get("csrf_lost") else request.form.get("action")
    if g.get("csrf_lost"):
        flash("This phone's session ended (the browser was closed or its cookies cleared), so nothing was saved. "
              "Check the difference below, then save the correction.")
    if action == "save" and form.previewed.data == digest:
        command = Amend(number, corrected, form.by.data, (form.reason.data or "").strip() or None,
                        _as_int(form.log_length.data))
        refused = _write(table, command, form.once.data, form.hombre, "audit/amend.html", context)
        if refused is not None:
            return refused
        flash(f"Deal {number} corrected by {form.by.data}. The earlier version is kept in its history.")
        return redirect(url_for("audit.deal", token=token, number=number))
    if action == "save":
        flash("The correction changed since its preview: check the difference below, then save it.")
    form.previewed.data = digest
    return render_template("audit/amend.html", **context)


def _version(view: dict[str, Any], seq: int) -> Line:
    for version in view["versions"]:
        if version.seq == seq:
            return version  # type: ignore[no-any-return]
    abort(404)


@bp.route("/t/<token>/audit/<int:number>/restore/<int:seq>", methods=("GET", "POST"))
def restore(token: str, number: int, seq: int) -> str | Response:
    view = _deal_view(token, number)
    table = view["table"]
    if view["damage"]:
        return _read_only(token)
    if (again := _sent_again(table, number)) is not None:
        return again
    version = _version(view, seq)
    if version.deal is None or version.deal == view["settlement"].deal:
        flash("That version is the one standing now.")
        return redirect(url_for("audit.deal", token=token, number=number))
    form = RestoreForm(players=table.players)
    comparison = _compare(view, number, version.deal)
    context = {"form": form, "version": version, "comparison": comparison, **view}
    if request.method == "GET":
        form.by.data = session.get("me")
        form.log_length.data = str(view["log_size"])
        form.once.data = one_time_token()
        return render_template("audit/restore.html", **context)
    if form.log_length.data != str(view["log_size"]):
        flash("The table changed on another phone: here is the deal as it stands now.")
        return redirect(url_for("audit.deal", token=token, number=number))
    if not form.validate() or comparison["error"]:
        return render_template("audit/restore.html", **context), 422  # type: ignore[return-value]
    command = Restore(number, seq, form.by.data, (form.reason.data or "").strip() or None, _as_int(form.log_length.data))
    refused = _write(table, command, form.once.data, form.by, "audit/restore.html", context)
    if refused is not None:
        return refused
    flash(f"Deal {number} restored to version {seq} by {form.by.data}, as a new version.")
    return redirect(url_for("audit.deal", token=token, number=number))


def _write(table: Table, command: Amend | Restore, once: str | None, field: Any, template: str,
           context: dict[str, Any]) -> Response | None:
    """Write a correction or a restoration through the one write path, where the deal must still
    stand, the version exist and the log be as long as the form saw; or the answer to give instead."""
    try:
        run(get_db(), table, command, once=once or None)
    except TableChanged as changed:
        flash(changed.message)
        return redirect(url_for("audit.deal", token=table.token, number=command.number))
    except (Refused, DealError, ImpossibleDeal) as refused:
        field.errors.append(refused.message)
        return Response(render_template(template, **context), 422, mimetype="text/html")
    _remember(command.by or "")
    return None


def _sent_again(table: Table, number: int) -> Response | None:
    """The same correction form sent again (a double tap, a retry): say what the first sending did."""
    if request.method != "POST":
        return None
    sent = sent_before(get_db(), table, request.form.get("once", ""))
    if sent is None:
        return None
    done = "restored" if sent.kind is LineKind.RESTORE else "corrected"
    flash(f"Deal {sent.number} is {done}{' by ' + sent.by if sent.by else ''}: this form was already sent.")
    return redirect(url_for("audit.deal", token=table.token, number=sent.number))


def _read_only(token: str) -> Response:
    flash("This table's log is damaged: it can be read and exported, not changed. The Check page says where.")
    return redirect(url_for("audit.chain", token=token))


def _as_int(text: str | None) -> int:
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else -1


@bp.route("/t/<token>/verify")
def chain(token: str) -> str:
    table = _table(token)
    view = _view(table)
    return render_template("audit/verify.html", broken=verify(get_db(), table), checking=True, **view)


CSRF_RESHOWN["audit.amend"] = lambda: amend(**(request.view_args or {}))
