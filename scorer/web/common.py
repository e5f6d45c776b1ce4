"""What the blueprints share, public and in one place: a table found by its link (or the page that says
it cannot be read), a contract named in a URL, a whole number typed in a form, the digest a preview is
recorded by, a deal under audit with its versions, a card's name, and the answer to a form sent with a
lost CSRF token. Blueprints never import one another: they share through this module and the support
modules (db, forms, views, i18n, links, ratelimits, recent, chart, printing)."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass

import segno
from flask import abort, current_app, flash, g, redirect, render_template, request, url_for
from .i18n import gettext as _
from flask_wtf.csrf import CSRFError
from markupsafe import Markup
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from ..core import Card, Contract, Deal, Line, PlayReport, Settlement, format_deal, referee
from ..core.rules import RULES_BY_NAME
from ..store import Table, UnreadableTable, table_by_token
from .db import get_db
from .views import TableView, table_view

Answer = str | Response | tuple[str, int]
"""What a page with a form answers: the page, a redirect, or the page again with its status (422: not accepted)."""


def contract_named(table: Table, name: str) -> Contract:
    """The contract named in a URL, if the table's profile plays it; 404 otherwise."""
    try:
        chosen = Contract(name)
    except ValueError:
        abort(404)
    if chosen not in table.rules.profile.contracts:
        abort(404)
    return chosen


def table_or_abort(token: str) -> Table:
    try:
        table = table_by_token(get_db(), token)
    except UnreadableTable as error:
        # A row edited by hand or written by another build: say so, and keep the raw export reachable.
        abort(Response(render_template("table/unreadable.html", token=token, why=error.message), 200, mimetype="text/html"))
    if table is None:
        abort(404)
    return table


def deal_digest(table: Table, deal: Deal, payments: object = None) -> str:
    """What a preview showed: the deal, the settings it was settled under and (``payments``) what it
    moved. Recording needs the same digest back, so a deal changed, house rules changed on another
    phone, or a pool changed under it (a circle's earlier evening corrected) since the preview is
    previewed again before it can be recorded."""
    shown = {"deal": format_deal(deal), "profile": table.rules.profile_name, "rules": table.rules.changes(),
             "deals_agreed": table.deals_agreed, "payments": payments}
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:16]


def csrf_lost(error: CSRFError) -> Answer | HTTPException:
    """A form sent with an expired or missing CSRF token (a page left open, a session lost).

    A deal form or a correction is shown again with every tap kept and nothing
    written (the views see ``g.csrf_lost`` and only preview); any other form
    gets a page that says nothing was saved and links back to it."""
    if request.method == "POST" and request.endpoint in CSRF_RESHOWN:
        g.csrf_lost = True  # the view writes nothing; the form is shown with a fresh token
        try:
            shown = CSRF_RESHOWN[request.endpoint]()
        except HTTPException as answer:  # no such table or contract: the view's own 404
            return answer
        if isinstance(shown, Response):
            return shown  # a redirect: the deal was recorded meanwhile, or the table moved on
        return (shown[0] if isinstance(shown, tuple) else shown), 400  # not accepted: shown again
    return render_template("stale.html", back=request.path), 400


CSRF_RESHOWN: dict[str, Callable[[], Answer]] = {}
"""The forms shown again after a lost CSRF token (endpoint -> view call), each put here by its blueprint:
see :func:`csrf_lost`."""


def action_sent(lost: str) -> str | None:
    """The button a deal's or a correction's form was sent with; none when the phone's session ended (its CSRF
    token lost): then nothing is written, and ``lost`` (a message marked with ``N_``) says so on the form shown
    again, its taps kept."""
    if g.get("csrf_lost"):
        flash(_(lost))
        return None
    return request.form.get("action")


def read_only(token: str) -> Response:
    """Where a change to a table whose log is damaged goes instead: its Check page, saying why."""
    flash(_("This table's log is damaged: it can be read and exported, not changed. The Check page says where."))
    return redirect(url_for("audit.chain", token=token))


def whole_number(text: str | None, default: int) -> int:
    """A whole number typed into a URL or a hidden field; ``default`` if it is not one (or absurdly long)."""
    text = (text or "").strip()
    if not text or len(text) > 9:
        return default
    try:
        return int(text)
    except ValueError:
        return default



def card_name(card: Card) -> str:
    """A card by its name, in the reader's language: "King of hearts"."""
    ranks = {"K": _("King"), "Q": _("Queen"), "J": _("Knave"), "A": _("Ace")}
    suits = {"spades": _("spades"), "clubs": _("clubs"), "diamonds": _("diamonds"), "hearts": _("hearts")}
    return _("%(rank)s of %(suit)s", rank=ranks.get(card.rank, card.rank), suit=suits.get(card.suit.value, card.suit.value))


@dataclass(frozen=True)
class DealView:
    """The audit of one deal standing: the table's view, the deal's settlement and its versions."""

    view: TableView
    settlement: Settlement
    versions: tuple[Line, ...]
    """The lines that gave the deal a version since it was last recorded, oldest first."""

    def context(self) -> dict[str, object]:
        """The table view's fields and the deal's, by name, for ``render_template``."""
        return {**self.view.context(), "settlement": self.settlement, "versions": self.versions,
                "rule_book": RULES_BY_NAME, "play_report": self.play_report, "card_name": card_name}

    @property
    def play_report(self) -> PlayReport | None:
        """What the engine says of the deal's play, where the version standing keeps one."""
        deal, table = self.settlement.deal, self.view.table
        return referee(deal, table.players, deal.play, table.rules) if deal.play is not None else None


def deal_view(token: str, number: int) -> DealView:
    table = table_or_abort(token)
    view = table_view(table)
    if not 1 <= number <= view.played:
        stored = view.book.deals
        if view.damage and view.played < number <= len(stored):  # past the break: show it as stored
            page = render_template("audit/unsettled.html", **{**view.context(), "number": number, "d": stored[number - 1],
                                                               "settlement": None, "card_name": card_name})
            abort(Response(page, 200, mimetype="text/html"))
        if request.method == "POST":  # a correction sent after its deal was undone on another phone
            flash(_("Deal %(number)s no longer stands (it was undone on another phone): nothing was saved.", number=number))
            abort(redirect(url_for("table.play", token=token)))
        page = render_template("audit/gone.html", **{**view.context(), "number": number})
        abort(Response(page, 404, mimetype="text/html"))
    return DealView(view, view.ledger.settlements[number - 1], view.book.versions_of(number))


def qr_svg(url: str) -> Markup:
    """The link as a QR code, drawn on the server as inline SVG (no JavaScript, no other host): a table's links on its
    Share page, a circle's watch-only link on its page."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False, svgns=True,
                                    svgclass="qr", title=_("QR code of the link"))
    return Markup(out.getvalue().decode())


def wait_page(retry_setting: str, title: str, message: Callable[[int], str], back: str,
              back_label: str) -> tuple[str, int, dict[str, str]]:
    """The 503 page of work that has no turn now (a PDF to render, a file to import): ``message`` of the seconds
    to wait (the app's setting ``retry_setting``), said in ``Retry-After`` too, and a way ``back``."""
    seconds = max(1, round(float(current_app.config[retry_setting])))
    page = render_template("wait.html", title=title, message=message(seconds), back=back, back_label=back_label)
    return page, 503, {"Retry-After": str(seconds)}
