"""A circle: the same players, evening after evening, one running ledger each.

``/c/new`` starts a circle; ``/c/<token>`` is its page, led by where the season stands (the settlements
standing, then what is still to pay), then the form that starts its next evening, the season's ledger, the pool
carried, a chart and statistics; ``/cs/<token>`` is the watch-only page. ``/c/<token>/settle`` records the
settle-up the page showed on a second tap (the first shows what it records); ``/c/<token>/take-back`` takes the
last settlement back, with a reason. A circle's evenings are ordinary tables (``/t/<token>``); what one
leaves on the table is carried into the next (:mod:`scorer.core.ledger.season`).

``/c/<token>/check`` is the circle's Check page: whether the circle's own log holds
(:func:`~scorer.store.verify_circle`) and, for each of its evenings, whether that table's log holds, with
the same two checks as the table's Check page (``/t/<token>/verify``, :func:`scorer.web.pages.audit.chain`): the
hash chain (:func:`~scorer.store.verify`) and every deal settled again (:func:`~scorer.store.rechecked_ledger`).
It never answers 500: a circle whose row or log cannot be read (:class:`~scorer.store.UnreadableCircle`)
gets a page that says so. A table's Check page has no watch-only counterpart, so neither has a circle's.

``/c/<token>/tally.pdf`` is the season on paper: the evenings, every member's running total, the season's
settle-up, how the season went, and a line for each member to sign, rendered as a table's tally is
(:mod:`scorer.web.pages.tally`): through the same render queue, one at a time, and kept in the same bounded
cache under the circle and what its season is made of (every evening's log length), so a record in any
evening makes a new PDF and a repeat costs nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from collections.abc import Callable

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from ..i18n import gettext as _, language
from ..common import qr_svg, whole_number
from ..links import external_url
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms import Field

from ...core import ImpossibleDeal, Payment, Season, SeasonError, SeasonEvening, Statistics, statistics
from ...core.ledger.log import Damage, Ledger, Line, LineKind
from ...store import (
    ChainBreak, Circle, CircleDamage, SeasonFold, Table, UnreadableCircle, UnreadableTable, circle_by_spectator_token,
    circle_by_token, circle_last_written, circle_tables, create_circle, ledger_cache, log_size, rechecked_ledger, season_fold,
    start_evening, verify, verify_circle,
)
from ...store import Refused as StoreRefused
from ...store.circle_log import Settlement
from ...store.circles import (
    CircleDoesNotHold, Owing, add_member, owing, record_settlement, rename_member, settle_digest, take_back_settlement,
)

from ..chart import balance_chart
from ..db import get_db
from ..forms import AddMemberForm, CircleForm, Form, NextEveningForm, RenameMemberForm, SettleForm, TakeBackForm
from ..ratelimits import BudgetSpent, new_tables
from ..printing import PAPER, page_counter, pdf_or_busy, printer, render_pdf, signature_lines, tally_css

bp = Blueprint("circle", __name__)


@bp.app_errorhandler(UnreadableCircle)
def unreadable(error: UnreadableCircle) -> tuple[str, int]:
    """A circle whose row or log cannot be read (edited by hand, written by another build), on any of its pages:
    say so, and keep everything stored for it reachable (the members' link offers its raw export)."""
    token = (request.view_args or {}).get("token", "")
    members = bool(token) and request.path.startswith("/c/")
    tables = error.fold.tables if isinstance(error, CircleDoesNotHold) else ()
    return render_template("circle/unreadable.html", token=token if members else None, why=error.message,
                           holds_not=isinstance(error, CircleDoesNotHold), tables=tables if members else ()), 200


EVENINGS_SHOWN = 3
"""Evenings the circle's page shows in full, the last ones; every evening is on ``/c/<token>/evenings``."""


@dataclass(frozen=True)
class CircleView:
    """What a circle's page shows."""

    circle: Circle
    tables: list[Table]
    season: Season
    running: list[dict[str, int]]
    stats: Statistics
    chart: Markup
    owing: Owing | None
    """What a settlement would settle now (the evenings since the last, and changes to those settled)."""
    chosen: ChosenRange | None
    """A settle-up over a range of evenings the page was asked for (``?first=a&last=b``), not recorded."""
    digest: str
    spectator: bool
    corrections: list[list[Line]]
    """For each evening, the last correction or restoration of each deal that has one (the season follows it)."""
    shown: tuple[SeasonEvening, ...] = ()
    """The evenings the page shows in full: the last :data:`EVENINGS_SHOWN` (the page costs the same however long the season)."""
    hidden: int = 0
    """How many evenings come before those shown (all of them on the season's own page, ``/c/<token>/evenings``)."""

    def context(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class ChosenRange:
    """A settle-up over evenings ``first`` to ``last``, shown on request and never recorded."""

    first: int
    last: int
    cents: dict[str, int]
    payments: tuple[Payment, ...]


def _chosen(circle: Circle, season: Season) -> ChosenRange | None:
    """The range of evenings asked for in the query string, if both ends are evenings of the season."""
    first, last = request.args.get("first", type=int), request.args.get("last", type=int)
    if first is None or last is None or not 1 <= first <= last <= len(season.evenings):
        return None
    value = circle.chip_value_cents if circle.chip_value_cents is not None else 1
    return ChosenRange(first, last, *season.settle_up(value, first, last))


def _season(circle: Circle) -> tuple[SeasonFold, Circle, Season]:
    """The circle's season as folded now, and the circle as of that fold (a member renamed or added since the
    request read it: one snapshot). A circle that does not hold is read-only, and its page says why (never a 500)."""
    fold = season_fold(get_db(), circle)
    if fold.season is None:
        raise CircleDoesNotHold(fold)
    return fold, fold.circle or circle, fold.season


def _view(circle: Circle, spectator: bool) -> CircleView:
    fold, circle, season = _season(circle)
    tables = list(fold.tables)
    # what the page makes of the fold is made once per fold (the fold is kept by everything it read, its circle too)
    running = fold.made("running", season.running)
    found = fold.made("owing", lambda: owing(circle, season))
    digest = "" if found is None else settle_digest(found.first, found.last, found.payments)
    stats = _statistics(fold, season)
    chart = fold.made(("chart", language()), lambda: balance_chart(
        circle.members, [[0] + [r[m] for r in running] for m in circle.members], step="evening"))
    corrections = fold.made("corrections", lambda: [_corrections(book) for book in fold.ledgers])
    shown = season.evenings[-EVENINGS_SHOWN:]
    return CircleView(circle, tables, season, running, stats, chart, found, _chosen(circle, season), digest, spectator,
                      corrections, shown, len(season.evenings) - len(shown))


def _statistics(fold: SeasonFold, season: Season) -> Statistics:
    evenings = season.evenings
    return fold.made("statistics", lambda: statistics([e.replay for e in evenings], [e.results for e in evenings]))


def _corrections(book: Ledger) -> list[Line]:
    """The last correction (or restoration) of each deal standing that has one."""
    return [versions[-1] for versions in book.versions if versions[-1].kind in (LineKind.AMEND, LineKind.RESTORE)]


def _page(circle: Circle, status: int = 200, form: NextEveningForm | None = None, **forms: object) -> tuple[str, int]:
    """The members' page of the circle, with its forms (those not given, empty), and its members' link and its
    watch-only link, each with its QR code, as the table's Share page gives its own."""
    view = _view(circle, False)
    circle = view.circle
    form = form if form is not None else NextEveningForm(members=circle.members)
    form.number.data = str(len(view.tables) + 1)  # the evening its button offers: a form sent later starts it, or none
    link = external_url("circle.page", token=circle.token)  # never from the request's Host header
    watch = external_url("circle.watch", token=circle.spectator_token)
    context: dict[str, object] = {
        "link": link, "link_qr": qr_svg(link), "watch": watch, "watch_qr": qr_svg(watch),
        "form": form, "member_form": AddMemberForm(formdata=None),
        "rename_form": RenameMemberForm(formdata=None, members=circle.members),
        "settle_form": SettleForm(formdata=None, lines=str(circle.lines), shown=view.digest), "settle_error": None,
        "take_back_form": _take_back_form(circle),
    }
    context.update(forms)
    return render_template("circle/page.html", **context, **view.context()), status


@bp.route("/c/new", methods=("GET", "POST"))
def new() -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    form = CircleForm()
    if form.validate_on_submit():
        try:
            with new_tables(1):  # a circle counts one against the budget, before its first evening (which counts one)
                circle = create_circle(get_db(), (form.name.data or "").strip(), form.members(), *form.settings())
        except BudgetSpent as spent:
            return render_template("circle/new.html", form=form, refusal=spent.sentence), spent.code, spent.headers()
        except ImpossibleDeal as refused:  # the store's own check of what the form let through: said beside its field
            _refused_field(form, refused.field).errors.append(refused.message)
        else:
            flash(_("The circle is ready. Keep its link, at the foot of this page with its QR code: every evening of the season starts from it."))
            return redirect(url_for("circle.page", token=circle.token))
    return render_template("circle/new.html", form=form), (422 if form.is_submitted() else 200)


def _refused_field(form: CircleForm, name: str | None) -> Field:
    """The new circle's field where the store's refusal of ``name`` (its setting's name) belongs."""
    fields: dict[str, Field] = {"name": form.name, "players": form.member_fields()[3],  # the fourth, as its own check
                                "deals_agreed": form.deals_agreed, "chip_value_cents": form.chip_value,
                                "currency": form.currency}
    return fields.get(name or "", form.name)


def _circle(token: str, spectator: bool = False) -> Circle:
    """The circle of a members' link, or of a watch-only one; 404 if there is none."""
    circle = (circle_by_spectator_token if spectator else circle_by_token)(get_db(), token)
    if circle is None:
        abort(404)
    return circle


@bp.route("/c/<token>")
def page(token: str) -> tuple[str, int]:
    return _page(_circle(token))


@bp.route("/cs/<token>")
def watch(token: str) -> str:
    return render_template("circle/page.html", form=None, member_form=None, rename_form=None, settle_form=None,
                           take_back_form=None, **_view(_circle(token, spectator=True), True).context())


@bp.route("/c/<token>/evenings", defaults={"spectator": False})
@bp.route("/cs/<token>/evenings", endpoint="watch_evenings", defaults={"spectator": True})
def evenings(token: str, spectator: bool) -> str:
    """Every evening of the season, each with every member's running total after it."""
    view = _view(_circle(token, spectator), spectator)
    return render_template("circle/evenings.html", **{**view.context(), "shown": view.season.evenings, "hidden": 0})


@bp.route("/c/<token>/next", methods=("POST",))
def next_evening(token: str) -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    circle = _circle(token)
    form = NextEveningForm(members=circle.members)
    if form.validate_on_submit():
        try:
            with new_tables(1):
                table = start_evening(get_db(), circle, form.seated(), form.dealer(), number=form.evening())
        except (StoreRefused, SeasonError) as refused:
            form.seat_4.errors.append(refused.message)
        except BudgetSpent as spent:  # the form as it was sent, the budget's sentence above it
            return (*_page(circle, spent.code, form=form, refusal=spent.sentence), spent.headers())
        else:
            flash(_("Evening %(number)s of the circle is ready: %(players)s.", number=table.circle_evening,
                    players=", ".join(table.players)))
            return redirect(url_for("table.play", token=table.token))
    return _page(circle, 422, form=form)


@bp.route("/c/<token>/member", methods=("POST",))
def new_member(token: str) -> Response | tuple[str, int]:
    circle = _circle(token)
    form = AddMemberForm()
    name = form.new_member.data or ""
    said = _("%(name)s is a member of the circle, starting at 0.", name=name)
    return _members_changed(circle, form, "member_form", form.new_member, said,
                            lambda: add_member(get_db(), circle, name))


@bp.route("/c/<token>/rename", methods=("POST",))
def rename(token: str) -> Response | tuple[str, int]:
    circle = _circle(token)
    form = RenameMemberForm(members=circle.members)
    old, new = str(form.member.data), form.new_name.data or ""
    said = _("%(old)s is %(new)s from now on; the evenings already played keep the names they were played with.",
             old=old, new=new)
    return _members_changed(circle, form, "rename_form", form.new_name, said,
                            lambda: rename_member(get_db(), circle, old, new))


def _members_changed(circle: Circle, form: Form, name: str, field: Field, said: str,  # more than 5: what differs
                     change: Callable[[], object]) -> Response | tuple[str, int]:  # between adding and renaming
    """A member added or renamed by ``form`` (the page's form ``name``): ``change`` made once the form is valid and
    ``said``; or the page again, the form's refusal or the store's beside ``field``."""
    if form.validate_on_submit():
        try:
            change()
        except (StoreRefused, ImpossibleDeal) as refused:
            field.errors = [*field.errors, refused.message]
        else:
            flash(said)
            return redirect(url_for("circle.page", token=circle.token) + "#members")
    return _page(circle, 422, None, **{name: form})


def _take_back_form(circle: Circle) -> TakeBackForm | None:
    """The form that takes back the circle's last settlement standing (None if none stands)."""
    if not circle.settlements:
        return None
    return TakeBackForm(formdata=None, settlement=str(circle.settlements[-1].seq), lines=str(circle.lines))


@bp.route("/c/<token>/settle", methods=("POST",))
def settle(token: str) -> Response | tuple[str, int]:
    """The settlement the circle's page shows: first what will be recorded (who pays whom, the evenings it covers),
    to confirm; recorded on the second tap (``confirm=yes``), against the log and the settle-up that page showed."""
    circle = _circle(token)
    form = SettleForm()
    back = redirect(url_for("circle.page", token=circle.token) + "#settle")
    if not form.validate_on_submit():
        return back
    if form.confirm.data != "yes":
        return _confirm_settlement(circle, form)
    try:  # a length that is no number is no log's: refused as a log changed since
        settled = record_settlement(get_db(), circle, whole_number(form.lines.data, -1), form.shown.data or None)
    except (StoreRefused, SeasonError) as refused:
        return _page(circle, 409, settle_error=refused.message)
    last = settled.settlements[-1]
    flash(_covering(last, _("The settlement of evening %(first)s is recorded.", first=last.first),
                    _("The settlement of evenings %(first)s to %(last)s is recorded.", first=last.first,
                      last=last.last), _("The settlement of the changes to evenings settled before is recorded.")))
    return back


def _covering(settlement: Settlement, one: str, several: str, changes: str) -> str:
    """What is said of a settlement covering one evening, several, or only changes to evenings settled before
    (its first evening after its last)."""
    return one if settlement.first == settlement.last else several if settlement.first < settlement.last else changes


def _confirm_settlement(circle: Circle, form: SettleForm) -> tuple[str, int]:
    """The page that shows what a settlement will record, with the tap that records it; or the circle's page, the
    settle-up having changed since it was shown (as the write would refuse it)."""
    view = _view(circle, False)
    if form.lines.data != str(view.circle.lines):
        return _page(circle, 409, settle_error=_("The circle changed since this page was shown (settled or added to on "
                                                 "another phone): look at the settle-up again before recording it."))
    if view.owing is None:
        return _page(circle, 409, settle_error=_("No evening has been played since the last settlement, and none settled "
                                                 "has changed: there is nothing to settle."))
    if form.shown.data and form.shown.data != view.digest:
        return _page(circle, 409, settle_error=_("The settle-up changed since this page was shown (a deal recorded or "
                                                 "corrected): look at it again before recording it."))
    form.confirm.data = "yes"
    return render_template("circle/settle.html", settle_form=form, **view.context()), 200


@bp.route("/c/<token>/take-back", methods=("POST",))
def take_back(token: str) -> Response | tuple[str, int]:
    """Take back the circle's last settlement standing, with a reason: its evenings are to settle again."""
    circle = _circle(token)
    form = TakeBackForm()
    if form.validate_on_submit():
        try:  # a line or a length that is no number is no settlement's: refused as a log changed since
            back = take_back_settlement(get_db(), circle, whole_number(form.settlement.data, -1), form.reason.data or "",
                                        whole_number(form.lines.data, -1))
        except (StoreRefused, ImpossibleDeal) as refused:
            form.reason.errors = [*form.reason.errors, refused.message]
        else:
            taken = back.taken_back[-1]
            flash(_covering(taken, _("The settlement of evening %(first)s is taken back: it is to settle again.",
                                     first=taken.first),
                            _("The settlement of evenings %(first)s to %(last)s is taken back: they are to settle "
                              "again.", first=taken.first, last=taken.last),
                            _("The settlement of the changes to evenings settled before is taken back: they are to "
                              "settle again.")))
            return redirect(url_for("circle.page", token=circle.token) + "#settle")
    return _page(circle, 422, take_back_form=form)


# The circle's Check page


@dataclass(frozen=True)
class EveningCheck:
    """One evening of the circle, checked as its table's Check page checks it."""

    number: int
    table: Table
    lines: int
    broken: ChainBreak | None
    """Where the table's hash chain first breaks, if it does."""
    damage: Damage | None
    """Where its log stops settling, if it does (the table is then read-only)."""

    @property
    def holds(self) -> bool:
        return self.broken is None and self.damage is None


@dataclass(frozen=True)
class CircleCheck:
    """What the circle's Check page shows."""

    circle: Circle
    broken: ChainBreak | None
    """Where the circle's log first breaks, if it does."""
    last_at: str | None
    """When the circle's last line was written (None for an empty log)."""
    evenings: list[EveningCheck]
    unchecked: str | None
    """Why the logs could not be checked (an evening's table, or a line of the circle's log, that cannot be read)."""
    damage: CircleDamage | None = None
    """Why the season does not hold, as its fold says (the circle is then read-only)."""


def _evening(number: int, table: Table, fold: SeasonFold) -> EveningCheck:
    db = get_db()
    book = fold.ledger_of(number)
    if book is None or fold.tables[number - 1].id != table.id or (book.damage is not None and book.seq == 0):
        damage = rechecked_ledger(db, table).damage  # not in the fold as it stands: checked on its own
    else:  # every deal checked again, as the table's Check page does, from what the fold says it began with
        damage = ledger_cache().recheck(db.conn, table, book.evening.carried_in, fold.sizes[number - 1])[0].damage
    return EveningCheck(number, table, log_size(db.conn, table.id), verify(db, table), damage)


def check_circle(circle: Circle) -> CircleCheck:
    """Check the circle's log and each of its evenings' logs."""
    db = get_db()
    last_at = circle_last_written(db, circle)
    try:
        tables = circle_tables(db, circle)
        broken = verify_circle(db, circle)
    except UnreadableTable as error:
        return CircleCheck(circle, None, last_at, [], _("an evening's table cannot be read (%(why)s)", why=error.message))
    except (AttributeError, TypeError, ValueError) as error:  # a line whose hash holds but whose data is not the store's
        return CircleCheck(circle, None, last_at, [], _("a line of the circle's log cannot be read (%(why)s)", why=str(error)))
    numbered = [(t.circle_evening if t.circle_evening is not None else i, t) for i, t in enumerate(tables, start=1)]
    fold = season_fold(db, circle)  # folded once: each evening checked from it (not a fold per evening)
    return CircleCheck(circle, broken, last_at, [_evening(n, t, fold) for n, t in numbered], None, fold.damage)


@bp.route("/c/<token>/check")
def check(token: str) -> tuple[str, int]:
    try:
        circle = circle_by_token(get_db(), token)
    except UnreadableCircle as error:
        # its row or log edited by hand or written by another build: say so, never a 500
        return render_template("circle/check.html", unreadable=error.message, circle=None, result=None), 200
    if circle is None:
        abort(404)
    return render_template("circle/check.html", unreadable=None, circle=circle, result=check_circle(circle)), 200


# The season on paper


def season_pdf_key(circle: Circle, paper: str, fold: SeasonFold | None = None) -> tuple[str, ...]:
    """What the season's PDF depends on: the circle, every evening's log (its length), the reader's language
    (a French phone gets the French PDF) and the paper. ``fold``: the season's fold the PDF is made from."""
    fold = fold or season_fold(get_db(), circle)
    sizes = [(t.token, ledger.seq) for t, ledger in zip(fold.tables, fold.ledgers)]
    made_of = hashlib.sha256(repr((circle, sizes)).encode()).hexdigest()
    return ("circle", circle.token, made_of, language(), paper)


@bp.route("/c/<token>/tally.pdf")
def season_pdf(token: str) -> Response | tuple[str, int, dict[str, str]]:
    paper = PAPER.get(request.args.get("paper", "a4").lower())
    if paper is None:
        abort(404)
    fold, circle, season = _season(_circle(token))

    def render() -> bytes:
        return render_pdf(render_template(
            "circle/tally.html", paper=paper, tally_css=tally_css(), circle=circle, season=season,
            running=fold.made("running", season.running), stats=_statistics(fold, season),
            in_money=circle.chip_value_cents is not None, owing=owing(circle, season), page_counter=page_counter(),
            signature_lines=signature_lines, last_begun=fold.tables[-1].created_at if fold.tables else None))

    key = season_pdf_key(circle, paper, fold)
    document = printer().document(("circle", circle.token), key, request.remote_addr or "", render)
    return pdf_or_busy(document, f"quadrille-season-{paper.lower()}.pdf", url_for("circle.page", token=token),
                       _("Back to the circle"))
