"""The table app: start a table, record its deals from phones, read its ledger.

A table is reached only through its unguessable link (``/t/<token>``), or
read-only through its spectator link (``/s/<token>``).
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from ...core.i18n import N_, _ as worded
from ...core import (
    Contract, Deal, DealError, DealTaken, ImpossibleDeal, Pot, Record, Refused, SeasonError, Settlement, Undo,
    result_label, settle, summarise,
)
from ..db import get_db
from ..i18n import gettext as _
from ..links import external_url, local_only_notice
from ..ratelimits import BudgetSpent, new_tables
from ..forms import BY_NAME, ConfirmForm, DealForm, NewTableForm, TableSettingsForm, one_time_token
from ...store import (
    CircleEvening, RulesFrozen, Table, UnreadableTable, change_settings, circle_of, create_table, run, sent_before,
    table_by_spectator_token,
)
from ...store.circles import SettledEffect, settled_effect_of
from .race import race
from ..common import CSRF_RESHOWN, Answer, contract_named, csrf_lost, deal_digest, qr_svg, read_only, table_or_abort
from ..common import action_sent, whole_number
from ..views import TableView, evening_money, phone_holder, table_view

bp = Blueprint("table", __name__)


@bp.route("/new", methods=("GET", "POST"))
def new() -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    form = NewTableForm()
    if form.is_submitted() and request.form.get("back"):  # from the dealer step: the first page again, as it was sent
        form.first_dealer.data = BY_NAME
        return render_template("table/new.html", form=form, step="names"), 200
    if form.validate_on_submit():
        if form.dealer_by_name:  # the names are known now: who deals first is tapped by name
            return render_template("table/new.html", form=form, step="dealer"), 200
        try:
            with new_tables(1):
                table = create_table(get_db(), form.players(), form.first_dealer_name(), *form.settings())
        except BudgetSpent as spent:  # the form kept as it was sent, the budget's sentence above it
            return render_template("table/new.html", form=form, step="names", refusal=spent.sentence), spent.code, spent.headers()
        flash(_("The table is ready. Share its link with the other players."))
        return redirect(url_for("table.join", token=table.token))
    return render_template("table/new.html", form=form, step="names"), (422 if form.is_submitted() else 200)


@bp.route("/t/<token>")
def play(token: str) -> str:
    table = table_or_abort(token)
    view = table_view(table)
    last = summarise(view.last, table.rules) if view.last else None
    circle = circle_of(get_db(), table)
    # after the last deal, the money first: the settle-up of a table alone (a circle's evening settles with its season)
    ending = evening_money(table, view) if view.over and not view.damage and circle is None else None
    return render_template("table/play.html", me_form=ConfirmForm(), last_summary=last, circle=circle, ending=ending,
                           pots=Pot, recorded=_recorded(view.ledger.settlements, request.args.get("recorded")),
                           **view.context())


def _recorded(settlements: tuple[Settlement, ...] | list[Settlement], number: str | None) -> str | None:
    """The message of a deal just recorded, carried in the redirect (``?recorded=12``) instead of the
    session (a flash message would re-sign the session cookie twice: once to put it, once to take it).
    Only a number is read from the URL, and only a deal of the table's ledger is worded: no text
    from the URL is ever shown."""
    n = whole_number(number, 0)
    if not 1 <= n <= len(settlements):
        return None
    shown = settlements[n - 1]
    return _("Deal %(number)s recorded: %(hombre)s's %(contract)s, %(result)s.", number=n, hombre=shown.deal.hombre,
             contract=shown.deal.contract.label, result=result_label(shown.deal, shown.result))


def _write_record(table: Table, the_deal: Deal, settlement: Settlement, once: str | None) -> Answer:
    """Record ``the_deal`` (settled as ``settlement``) through the write path; the page to go to."""
    try:
        outcome = run(get_db(), table, Record(settlement.number, the_deal, phone_holder(table), shown=settlement),
                      once=once or None)
    except DealTaken as taken:
        return _taken(table, taken.number, the_deal.contract)
    except (Refused, ImpossibleDeal, DealError) as refused:
        flash(_("Nothing was recorded: %(why)s", why=refused.message))
        return redirect(url_for("table.play", token=table.token))
    if outcome.again:  # this form was sent before (a deal undone since): answer as the first time
        _said_sent(outcome.line.number, outcome.line.by)
        return redirect(url_for("table.play", token=table.token))
    return redirect(url_for("table.play", token=table.token, recorded=settlement.number))


def _said_sent(number: int, by: str | None) -> None:
    flash(_("Deal %(number)s is recorded by %(name)s.", number=number, name=by) if by
          else _("Deal %(number)s is recorded.", number=number))


@bp.route("/t/<token>/deal/<contract>", methods=("GET", "POST"))
def deal(token: str, contract: str) -> Answer:
    table = table_or_abort(token)
    chosen = contract_named(table, contract)
    view = table_view(table)
    if (late := _sent_late(table, view, chosen)) is not None:
        return late
    if (closed := _no_deal_to_record(table, view)) is not None:
        return closed
    state = view.ledger.final
    form = DealForm(players=table.players, contract=chosen, dealer=view.dealer, state=state, rules=table.rules)
    if request.method == "GET":
        form.number.data = str(view.number)
        form.once.data = one_time_token()
        return render_template("table/deal.html", form=form, preview=None, **view.context())
    action = action_sent(N_("This phone's session ended (the browser was closed or its cookies cleared), so nothing "
                           "was recorded. Your taps are kept below: check the payments, then tap Record."))
    if not form.validate():
        return render_template("table/deal.html", form=form, preview=None, **view.context()), 422
    the_deal = form.checked or form.to_deal()
    # checked by the form's validation against this very state and these rules: settled without checking it again
    settlement: Settlement = settle(the_deal, state, table.rules, table.deals_agreed, checked=form.checked is not None)
    digest = deal_digest(table, the_deal, [(str(t.payer), str(t.payee), t.chips) for t in settlement.transfers])
    if action == "record":
        if form.previewed.data == digest:
            return _write_record(table, the_deal, settlement, form.once.data)
        flash(_("The deal changed since its preview: check the payments below, then record it."))
    form.previewed.data = digest
    return render_template("table/deal.html", form=form, preview=settlement, summary=summarise(settlement, table.rules),
                           **view.context())


def _sent_late(table: Table, view: TableView, chosen: Contract) -> Answer | None:
    """A deal form sent again (a double tap, a resent page, a retry: answered as the first time), or sent for a
    deal another phone recorded first (the two entries side by side, even when that deal ended the evening).
    None: neither (or not a form sent, or the log is damaged: :func:`_no_deal_to_record` says so)."""
    posted = request.form.get("number")
    if request.method != "POST" or view.damage or posted == str(view.number):
        return None  # the deal still to play: a form sent again for it is answered by the write path (Outcome.again)
    sent = sent_before(get_db(), table, request.form.get("once", ""))
    if sent is not None:
        _said_sent(sent.number, sent.by)
        return redirect(url_for("table.play", token=table.token))
    return _taken(table, whole_number(posted, view.number), chosen)


def _no_deal_to_record(table: Table, view: TableView) -> Response | None:
    """Where to go instead of a deal's form when no deal can be recorded: the table's log is damaged, the
    evening is over, or its circle's next evening has begun. None: a deal can be recorded."""
    if view.damage:
        return read_only(table.token)
    if view.closed:
        flash(_("Evening %(number)s ended when evening %(next)s of the circle began: correct a deal instead.",
                number=table.circle_evening, next=view.closed))
    elif view.over:
        flash(_("The evening is over: all %(agreed)s deals are played.", agreed=table.deals_agreed))
    else:
        return None
    return redirect(url_for("table.play", token=table.token))


bp.register_error_handler(CSRFError, csrf_lost)
CSRF_RESHOWN["table.deal"] = lambda: deal(**(request.view_args or {}))


def _taken(table: Table, number: int, chosen: Contract) -> Answer:
    """Another phone recorded deal ``number`` first: that deal and this phone's entry side by side, with one tap to
    keep the recorded deal and one to correct it with this entry (nothing is written here). A number of no deal
    standing (undone since, or never recorded): the table as it stands."""
    view = table_view(table)
    if view.damage or not 1 <= number <= view.played:
        flash(_("The table has moved on since this form was shown: nothing was recorded. Here it is as it stands."))
        return redirect(url_for("table.play", token=table.token))
    shown = race(table, view.book, number, chosen, request.form)
    return render_template("table/race.html", race=shown, **view.context()), 200 if shown.same else 409


@bp.route("/t/<token>/me", methods=("POST",))
def me(token: str) -> Response:
    """One tap: who holds this phone (shown with what it records and corrects)."""
    table = table_or_abort(token)
    form = ConfirmForm()
    name = request.form.get("me", "")
    if form.validate_on_submit() and (name in table.players or name == ""):
        session["me"] = name
        flash(_("This phone is %(name)s's.", name=name) if name else _("This phone is not named."))
    return redirect(url_for("table.play", token=token))


@bp.route("/t/<token>/undo", methods=("GET", "POST"))
def undo(token: str) -> str | Response:
    table = table_or_abort(token)
    view = table_view(table)
    form = ConfirmForm()
    last = view.last
    if view.damage:
        return read_only(token)
    if last is None:
        flash(_("There is no deal to undo."))
        return redirect(url_for("table.play", token=token))
    if form.validate_on_submit():
        number = whole_number(form.number.data, 0)
        try:  # the deal the form names must still be the last, and the settlements those shown: checked in the write itself
            outcome = run(get_db(), table, Undo(number, phone_holder(table)), once=form.once.data or None,
                          settled_seen=whole_number(form.settled.data, -1) if form.settled.data else None)
        except Refused as refused:
            flash(refused.message)
            return redirect(url_for("table.undo", token=token))
        flash(_("Deal %(number)s is undone.", number=outcome.line.number) if outcome.again
              else _("Deal %(number)s undone. It stays in the table's history.", number=number))
        return redirect(url_for("table.play", token=token))
    form.number.data = str(view.played)
    form.once.data = one_time_token()
    effect = _settled_effect(table, Undo(view.played))
    form.settled.data = str(effect.mark) if effect is not None else ""
    return render_template("table/undo.html", form=form, settled_effect=effect, **view.context())


def _settled_effect(table: Table, command: Undo) -> SettledEffect | None:
    """What undoing the last deal of an evening a circle's settlement covers does to what was paid (None: no such
    settlement, or the undo would be refused anyway: the write path says why)."""
    try:
        return settled_effect_of(get_db(), table, command)
    except (Refused, DealError, SeasonError):
        return None


LEDGER_PAGE = 40
"""Deals on one page of the ledger: the page costs the same however long the evening."""


def _ledger_page(table: Table, spectator: bool) -> str:
    view = table_view(table)
    pages = max(1, -(-view.played // LEDGER_PAGE))
    page = min(max(whole_number(request.args.get("page"), pages), 1), pages)  # the last page (the latest deals) by default
    first = (page - 1) * LEDGER_PAGE
    rows = view.ledger.settlements[first:first + LEDGER_PAGE]
    return render_template("table/ledger.html", spectator=spectator, rows=rows, page=page, pages=pages, **view.context())


@bp.route("/t/<token>/ledger")
def ledger_page(token: str) -> str:
    return _ledger_page(table_or_abort(token), spectator=False)


@bp.route("/s/<token>")
def spectate(token: str) -> str:
    try:
        table = table_by_spectator_token(get_db(), token)
    except UnreadableTable:  # the players' link page says more; a spectator only learns it cannot be shown
        return render_template("table/unreadable_watch.html")
    if table is None:
        abort(404)
    return _ledger_page(table, spectator=True)


@bp.route("/t/<token>/join")
def join(token: str) -> str:
    table = table_or_abort(token)
    link = external_url("table.play", token=token)  # never from the request's Host header (scorer/links.py)
    watch = external_url("table.spectate", token=table.spectator_token)
    return render_template("table/join.html", link=link, watch=watch, qr=qr_svg(link), watch_qr=qr_svg(watch),
                           local_only=[(worded(sentence.text), sentence.values) for sentence in local_only_notice(link)],
                           **table_view(table).context())


@bp.route("/t/<token>/settings", methods=("GET", "POST"))
def settings(token: str) -> Answer:
    table = table_or_abort(token)
    view = table_view(table)
    frozen = bool(view.log_size) or table.circle_id is not None  # an evening of a circle plays by its circle's settings
    form = TableSettingsForm()
    if request.method == "GET" or frozen:
        form.fill_from(table.rules, table.deals_agreed, table.chip_value_cents, table.currency)
        if frozen and request.method == "POST":
            flash(_("This evening plays by its circle's settings: they are changed for no single evening.")
                  if table.circle_id is not None else _("The house rules are frozen: the first deal has been recorded."))
            return redirect(url_for("table.settings", token=token))
        return render_template("table/settings.html", form=form, frozen=frozen, **view.context())
    if form.validate_on_submit():
        try:
            change_settings(get_db(), table, *form.settings())
        except (RulesFrozen, CircleEvening) as frozen_now:  # a deal was recorded on another phone since this page was shown
            flash(frozen_now.message)
            return redirect(url_for("table.settings", token=token))
        flash(_("House rules saved."))
        return redirect(url_for("table.play", token=token))
    return render_template("table/settings.html", form=form, frozen=False, **view.context()), 422
