"""Disputed deals: the audit of one deal, corrections as new versions, restoring a version, the log's chain."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from ..i18n import gettext as _
from ...core.i18n import N_
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response
from wtforms import Field

from ...core import (
    PlayError, play_from_codes, proven_deal, referee,
    Amend, Deal, DealDifference, DealError, ImpossibleDeal, LineKind, Refused, Replay, Restore,
    SeasonError, TableChanged, differences, replay_from,
)
from ..db import get_db
from ..forms import CorrectionForm, RestoreForm, one_time_token
from ...store import Table, circle_of, rechecked_ledger, run, season_after, sent_before, verify
from ...store.circles import SettledEffect, settled_effect
from ...store import Refused as StoreRefused
from ...core.ledger.season import LaterEveningBroken
from ..common import (
    CSRF_RESHOWN, Answer, DealView, action_sent, contract_named, csrf_lost, deal_digest, deal_view, read_only,
    table_or_abort, whole_number,
)
from ..views import TableView, table_view

bp = Blueprint("audit", __name__)
bp.register_error_handler(CSRFError, csrf_lost)


@bp.route("/t/<token>/audit/<int:number>")
def deal(token: str, number: int) -> str:
    return render_template("audit/deal.html", **deal_view(token, number).context())


@dataclass(frozen=True)
class Comparison:
    """The evening replayed with a corrected deal: the deals whose payments change and the change of
    each player's final balance; or, in ``error``, why the correction cannot be made."""

    error: str | None
    changed: list[DealDifference] = field(default_factory=list)
    finals: dict[str, int] = field(default_factory=dict)
    new: Replay | None = None
    circle: CircleEffect | None = None
    """For an evening of a circle: what the correction changes in the season."""


@dataclass(frozen=True)
class LaterEvening:
    """A later evening of the circle as a correction would change it: what it carries in, and each
    seated player's figure after its close, before and after."""

    number: int
    carried_before: int
    carried_after: int
    results_before: dict[str, int]
    results_after: dict[str, int]


@dataclass(frozen=True)
class CircleEffect:
    """A correction in a circle's evening, seen from the circle: what the evening leaves on the table,
    every later evening, and each member's season total, before and after (every later evening folded
    again with it, as the write path will)."""

    name: str
    evening: int
    left_before: int
    left_after: int
    totals_before: dict[str, int]
    totals_after: dict[str, int]
    later: int
    """How many later evenings are replayed with it."""
    evenings: tuple[LaterEvening, ...] = ()
    """Every later evening, before and after."""
    settled: SettledEffect | None = None
    """For an evening a recorded settlement covers: what the correction does to what was paid."""


def _circle_effect(table: Table, number: int, deal: Deal, seen: int) -> CircleEffect | None:
    """What correcting deal ``number`` of an evening of a circle to ``deal`` changes in its season (None for
    a table of no circle). Raises as the write path would refuse it (a later evening it breaks)."""
    db = get_db()
    circle = circle_of(db, table)
    if circle is None or table.circle_evening is None:
        return None
    season, after = season_after(db.conn, table, Amend(number, deal, None, None, seen))
    evening = table.circle_evening
    later = tuple(LaterEvening(e.number, e.carried_in, a.carried_in, e.results, a.results)
                  for e, a in zip(season.evenings[evening:], after.evenings[evening:]))
    return CircleEffect(circle.name, evening, season.evenings[evening - 1].carried_out, after.evenings[evening - 1].carried_out,
                        season.totals(), after.totals(), len(season.evenings) - evening, later,
                        settled_effect(circle, season, after, evening))


def _compare(table: Table, ledger: Replay, number: int, deal: Deal, seen: int) -> Comparison:
    """Replay the evening with ``deal`` in place of deal ``number``: the downstream difference, and for a circle's
    evening what it changes in the season (``seen``: the log's length the form saw); or the error it causes."""
    try:
        new = replay_from(ledger, number, deal)
    except DealError as error:
        return Comparison(_("This correction would make deal %(number)s impossible: %(why)s", number=error.number,
                            why=error.cause.message))
    try:
        effect = _circle_effect(table, number, deal, seen)
    except (DealError, SeasonError, LaterEveningBroken) as error:  # a later evening the correction makes impossible
        return Comparison(_("This correction would break a later evening of the circle: %(why)s", why=error.message))
    except StoreRefused as refused:  # the circle does not hold, or its log moved since the form was made: as it says
        return Comparison(refused.message)
    return Comparison(None, *differences(ledger, new), new, effect)


@bp.route("/t/<token>/audit/<int:number>/amend/<contract>", methods=("GET", "POST"))
def amend(token: str, number: int, contract: str) -> Answer:
    audit = deal_view(token, number)
    view, settlement, table = audit.view, audit.settlement, audit.view.table
    chosen = contract_named(table, contract)
    if (elsewhere := _elsewhere(view, number)) is not None:
        return elsewhere
    form = CorrectionForm(players=table.players, contract=chosen, dealer=settlement.deal.dealer,
                          state=settlement.before, rules=table.rules)
    prefilled = request.method == "POST" and request.form.get("action") == PREFILL
    context: dict[str, object] = {"form": form, "comparison": None, "prefilled": prefilled, **audit.context()}
    if request.method == "GET" or prefilled:
        return _opened(audit, form, context)
    if form.log_length.data != str(view.log_size):
        flash(_("The table changed on another phone while you were correcting: here is the deal as it stands now."))
        return redirect(url_for("audit.deal", token=token, number=number))
    if not form.validate():
        return render_template("audit/amend.html", **context), 422
    corrected = form.to_deal()
    if corrected == settlement.deal:
        form.hombre.errors.append(_("This is the deal as it stands: change something to correct it."))
        return render_template("audit/amend.html", **context), 422
    comparison = _compare(table, view.ledger, number, corrected, view.log_size)
    context["comparison"] = comparison
    if comparison.error:
        return render_template("audit/amend.html", **context), 422
    seen = _settled_seen(form, comparison)
    # what was paid, as shown, is part of what is previewed: a settlement recorded since asks to look again
    digest = deal_digest(table, corrected, (comparison.finals, view.ledger.evening.carried_in, form.settled.data))
    action = action_sent(N_("This phone's session ended (the browser was closed or its cookies cleared), so nothing "
                           "was saved. Check the difference below, then save the correction."))
    if action == "save" and form.previewed.data == digest:
        command = Amend(number, corrected, form.by.data, _reason(form), whole_number(form.log_length.data, -1))
        refused = _write(table, command, form.once.data, _FormPage("audit/amend.html", context, form.hombre), seen)
        if refused is not None:
            return refused
        flash(_("Deal %(number)s corrected by %(name)s. The earlier version is kept in its history.", number=number,
                name=form.by.data))
        return redirect(url_for("audit.deal", token=token, number=number))
    if action == "save":
        flash(_("The correction changed since its preview: check the difference below, then save it."))
    form.previewed.data = digest
    return render_template("audit/amend.html", **context)


def _opened(audit: DealView, form: CorrectionForm, context: dict[str, object]) -> str:
    """The correction form as it opens: filled with the deal as it stands (or, from Check the play, with what the
    play proves) when its contract is the deal's; with the deal a phone entered when it was sent to open filled
    (:data:`PREFILL`); else empty. Who holds the phone is who corrects; the log's length and a one-time token are now's."""
    settlement, table = audit.settlement, audit.view.table
    if request.method == "GET" and form.the_contract is settlement.deal.contract:
        form.fill_from(_with_play(settlement.deal, table, request.args.get("play"), request.args.get("revealed")))
    _fresh(form, audit.view.log_size)
    return render_template("audit/amend.html", **context)


def _fresh(form: CorrectionForm | RestoreForm, log_size: int) -> None:
    """A correction's or a restoration's form as it opens: by who holds the phone, against the log as it is now,
    with a new one-time token."""
    form.by.data = session.get("me")
    form.log_length.data = str(log_size)
    form.once.data = one_time_token()


PREFILL = "prefill"
"""The action of a form that opens a correction filled with the deal it carries, as a phone entered it (the race
page's "Correct deal N with my entry", scorer/web/pages/race.py): the correction form is shown with those taps, its own
log length and one-time token, and nothing is checked or saved until *Show what this changes*."""


def _reason(form: CorrectionForm | RestoreForm) -> str | None:
    """The reason a correction or a restoration gives, if it gives one."""
    return (form.reason.data or "").strip() or None


def _with_play(deal: Deal, table: Table, codes: str | None, revealed: str | None) -> Deal:
    """The deal with what the play in ``codes`` proves (from Check the play), or as it stands; at a claim after
    six tricks whose called King was not played, ``revealed`` is who revealed herself as its holder."""
    if not codes:
        return deal
    try:
        record = play_from_codes(codes)
    except PlayError as error:
        flash(_("That play cannot be used: %(why)s.", why=error.message))
        return deal
    named = revealed if revealed in table.players else None
    return proven_deal(deal, referee(replace(deal, revealed_ally=named), table.players, record, table.rules))


@bp.route("/t/<token>/audit/<int:number>/restore/<int:seq>", methods=("GET", "POST"))
def restore(token: str, number: int, seq: int) -> Answer:
    audit = deal_view(token, number)
    view, table = audit.view, audit.view.table
    if (elsewhere := _elsewhere(view, number)) is not None:
        return elsewhere
    version = next((v for v in audit.versions if v.seq == seq), None)
    if version is None:
        abort(404)
    if version.deal is None or version.deal == audit.settlement.deal:
        flash(_("That version is the one standing now."))
        return redirect(url_for("audit.deal", token=token, number=number))
    form = RestoreForm(players=table.players)
    comparison = _compare(table, view.ledger, number, version.deal, view.log_size)
    context: dict[str, object] = {"form": form, "version": version, "comparison": comparison, **audit.context()}
    if request.method == "GET":
        _fresh(form, view.log_size)
        _settled_seen(form, comparison)
        return render_template("audit/restore.html", **context)
    if form.log_length.data != str(view.log_size):
        flash(_("The table changed on another phone: here is the deal as it stands now."))
        return redirect(url_for("audit.deal", token=token, number=number))
    seen = _settled_seen(form, comparison)
    if not form.validate() or comparison.error:
        return render_template("audit/restore.html", **context), 422
    command = Restore(number, seq, form.by.data, _reason(form), whole_number(form.log_length.data, -1))
    refused = _write(table, command, form.once.data, _FormPage("audit/restore.html", context, form.by), seen)
    if refused is not None:
        return refused
    flash(_("Deal %(number)s restored to version %(seq)s by %(name)s, as a new version.", number=number, seq=seq,
            name=form.by.data))
    return redirect(url_for("audit.deal", token=token, number=number))


@dataclass(frozen=True)
class _FormPage:
    """The page of a correction's or a restoration's form: its template, what it is drawn with, and the
    field under which a refusal of the write path is shown."""

    template: str
    context: dict[str, object]
    field: Field


def _settled_seen(form: CorrectionForm | RestoreForm, comparison: Comparison) -> int | None:
    """The settlements the form was sent against (its ``settled`` field: None if it carries none), the field then
    set to those the page now shows, so that the page drawn again confirms against what it shows."""
    sent = whole_number(form.settled.data, -1) if form.settled.data else None
    effect = comparison.circle.settled if comparison.circle is not None else None
    form.settled.data = str(effect.mark) if effect is not None else ""
    return sent


def _write(table: Table, command: Amend | Restore, once: str | None, page: _FormPage,  # more than 5: what the
           settled_seen: int | None) -> Response | None:  # write needs, and the page that answers a refusal
    """Write a correction or a restoration through the one write path, where the deal must still
    stand, the version exist, the log be as long as the form saw and the settlements those it showed; or the
    answer to give instead (``page`` again, the refusal shown)."""
    try:
        run(get_db(), table, command, once=once or None, settled_seen=settled_seen)
    except TableChanged as changed:
        flash(changed.message)
        return redirect(url_for("audit.deal", token=table.token, number=command.number))
    except (Refused, DealError, ImpossibleDeal) as refused:
        page.field.errors.append(refused.message)
        return Response(render_template(page.template, **page.context), 422, mimetype="text/html")
    session["me"] = command.by or ""  # who corrected holds this phone
    return None


def _elsewhere(view: TableView, number: int) -> Response | None:
    """Where a correction or a restoration of deal ``number`` goes instead: to the Check page of a damaged log; or,
    the same form sent again (a double tap, a retry), to the deal, saying what the first sending did."""
    table = view.table
    if view.damage:
        return read_only(table.token)
    if request.method != "POST":
        return None
    sent = sent_before(get_db(), table, request.form.get("once", ""))
    if sent is None:
        return None
    restored = sent.kind is LineKind.RESTORE
    if sent.by:
        flash(_("Deal %(number)s is restored by %(name)s: this form was already sent.", number=sent.number, name=sent.by)
              if restored else
              _("Deal %(number)s is corrected by %(name)s: this form was already sent.", number=sent.number, name=sent.by))
    else:
        flash(_("Deal %(number)s is restored: this form was already sent.", number=sent.number) if restored else
              _("Deal %(number)s is corrected: this form was already sent.", number=sent.number))
    return redirect(url_for("audit.deal", token=table.token, number=sent.number))


@bp.route("/t/<token>/verify")
def chain(token: str) -> str:
    table = table_or_abort(token)
    rechecked_ledger(get_db(), table)  # every deal checked again; one that fails turns the table read-only
    view = table_view(table)
    return render_template("audit/verify.html", broken=verify(get_db(), table), checking=True, **view.context())


CSRF_RESHOWN["audit.amend"] = lambda: amend(**(request.view_args or {}))
