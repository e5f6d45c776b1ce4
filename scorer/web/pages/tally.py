"""The end of the evening: the tally page, the same page as a PDF, and the settle-up."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass

from flask import Blueprint, Response, abort, render_template, request, url_for
from ..i18n import gettext as _, language
from markupsafe import Markup

from ..chart import PRINT, SCREEN, ChartSize, balance_chart
from ...core import (
    TALLY_LABEL_MAX, Deal, HouseRule, HouseRules, Line, LineKind, Pot, Replay, SettleUp, System, result_label, statistics,
)
from ..db import get_db
from ..print_columns import GAP_EM, columns, metrics, wrap
from ..printing import PAPER, page_counter, pdf_or_busy, printer, render_pdf, signature_lines, tally_css
from ...store import Table, circle_of
from ..common import table_or_abort
from ..views import TableView, evening_money, table_view

bp = Blueprint("tally", __name__)


def _signed(n: int) -> str:
    """An amount with its sign: a typographic minus before a negative one (not a hyphen)."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


NAME_WIDTH = 12
"""Characters of a name the printed sheet always shows whole (longer ones are cut with … only for lack of room)."""
NAMES_WHOLE_PT = 7.5
"""Points under which the printed sheet does not go to show its names whole: it cuts them instead (its smallest
size is then the one :data:`NAME_WIDTH` characters give)."""
SHEET_LINES_A_ROW = 8
"""Lines of the printed score sheet in one row of its table (two rounds of four deals): a page breaks
only between rows, and each row is two elements WeasyPrint styles and lays out (eight times fewer
than a row a line; a row a round cost a 400-deal tally about a tenth more)."""
SHEET_ONE_BLOCK_MAX = 48
"""Deals of a sheet printed as one block of lines (it ends on the first page; no table to style and
lay out); a longer sheet is a table whose header repeats at the top of each page, a round a row."""
SHEET_WIDTH_EM = 62.0
"""Ems of 8.5 pt that fit across A4 (and Letter) within the tally's margins (188 mm, 533 pt)."""
RULES_WIDTH_EM = 74.0
"""Ems of the house rules' 7 pt across the same width, less a little for the font's rounding."""


@dataclass(frozen=True)
class Sheet:
    """Every deal as the lines of a printed score sheet, its columns lined up in DejaVu Sans
    (scorer/print_columns.py), and the font size (pt) that fits them across the page.

    The PDF prints lines of text instead of the screen's HTML table: WeasyPrint lays out a table of
    a few hundred cells in about a second, a block of preformatted lines in a few milliseconds."""

    header: str
    deals: list[str]
    total: str
    size: float

    @property
    def one_block(self) -> bool:
        """Whether the sheet is short enough to print as one block of lines (no table)."""
        return len(self.deals) <= SHEET_ONE_BLOCK_MAX

    def rows(self) -> list[str]:
        """The deals, two rounds of four lines to a row of the printed table (the total apart)."""
        return ["\n".join(self.deals[i:i + SHEET_LINES_A_ROW]) for i in range(0, len(self.deals), SHEET_LINES_A_ROW)]


CORRECTED_MARK = "†"
"""The mark of a corrected deal after its number on the printed sheet, told under the sheet (:func:`corrected_lines`)."""


@dataclass(frozen=True)
class Corrected:
    """A deal changed since it was recorded (corrected, or an earlier version put back): the tally counts the
    version in force, the last of its versions, and says which."""

    number: int
    versions: int
    """How many versions the deal has: the one in force is the last (the audit page lists them in order)."""
    last: Line
    """The line that gave the version in force: a correction or a restoration, by whom."""

    @property
    def said(self) -> str:
        """"corrected: version 2 of 2" (or "restored: ..."), in the reader's language."""
        if self.last.kind is LineKind.RESTORE:
            return _("restored: version %(version)s of %(versions)s", version=self.versions, versions=self.versions)
        return _("corrected: version %(version)s of %(versions)s", version=self.versions, versions=self.versions)

    @property
    def told(self) -> str:
        """The deal, its version in force and who gave it: "deal 7, corrected: version 2 of 2, by Bea"."""
        said = _("deal %(number)s, %(what)s", number=self.number, what=self.said)
        return _("%(what)s, by %(name)s", what=said, name=self.last.by) if self.last.by else said


def deals_sheet(players: tuple[str, ...], result: Replay, system: System, corrected: Collection[int] = ()) -> Sheet:
    """Every deal as a line of the printed score sheet: number, contract, Hombre, ally, result,
    each player's change and the system's last column (the pool); numbers right-aligned, a ``corrected``
    deal's number followed by :data:`CORRECTED_MARK` (the other numbers by a space as wide, so that the
    figures line up). Names are whole unless that would print the sheet under :data:`NAMES_WHOLE_PT`: then each
    is cut to the most characters that keep it there (never fewer than :data:`NAME_WIDTH`)."""
    pad = metrics().gap(metrics().width(CORRECTED_MARK)) if corrected else ""
    # the suits by their names in the reader's language ("hearts" / "cœur"), looked up once a sheet, not once a deal
    suits = {"spades": _("spades"), "clubs": _("clubs"), "diamonds": _("diamonds"), "hearts": _("hearts")}
    own_king = _("own King")

    def laid_out(width: int) -> tuple[list[str], float]:
        """The sheet's lines, names cut at ``width`` characters, and the size in points they fit across the page."""
        header = ["#" + pad, _("Contract"), _("Hombre"), _("Ally"), _("Result"), *(_cut(p, width) for p in players),
                  system.column_title]
        rows = [[str(s.number) + (CORRECTED_MARK if s.number in corrected else pad),
                 s.deal.contract.label + (" " + suits[s.deal.trumps.value] if s.deal.trumps else ""),
                 _cut(s.deal.hombre, width), _ally(s.deal, width, own_king), str(result_label(s.deal, s.result)),
                 *(_signed(s.change(p)) for p in players), system.column(s)] for s in result.settlements]
        total = ["", _("Total"), "", "", "", *(_signed(result.final.balance(p)) for p in players),
                 system.final_column(result.final)]
        lines = columns([header, *rows, total], frozenset({0, *range(5, len(header))}))  # numbers align right
        widest = max(metrics().em(line) for line in lines)
        return lines, min(8.5, math.floor(100 * 8.5 * SHEET_WIDTH_EM / max(widest, 1)) / 100)

    shortest, longest = NAME_WIDTH, max([NAME_WIDTH, *(len(p) for p in players)])
    lines, size = laid_out(longest)
    if size < NAMES_WHOLE_PT:  # the most characters that keep the sheet at NAMES_WHOLE_PT, found by halving
        while longest - shortest > 1:
            middle = (shortest + longest) // 2
            shortest, longest = (middle, longest) if laid_out(middle)[1] >= NAMES_WHOLE_PT else (shortest, middle)
        lines, size = laid_out(shortest)
    return Sheet(lines[0], lines[1:-1], lines[-1], size)


HALF_WIDTH_EM = 30.0
"""Ems of 8.5 pt across one half of the PDF's top (the balances and the settle-up beside the chart)."""


def corrected_lines(tally: TallyView) -> list[str]:
    """Under the printed sheet, what its mark says, and each corrected deal with its version in force, in lines
    of the sheet's width (none where no deal was corrected)."""
    found = tally.corrected
    if not found:
        return []
    told = _("; ").join(c.told for c in found.values())
    return wrap(_("%(mark)s corrected after it was recorded: the sheet counts the version in force (%(deals)s).",
                  mark=CORRECTED_MARK, deals=told), SHEET_WIDTH_EM * 8.5 / 7)


def finals_lines(tally: TallyView) -> list[str]:
    """The final balances of the PDF as lines lined up in columns: a player, the balance, after the
    pool (when the pool is shared out at the end), and the money (or what there is to settle; neither for an
    evening of a circle, which settles with its season). A name
    too long for the half page goes on over a second line; the system's note on a balance ("1 mil 2
    counters") on a line of its own under the player's."""
    view = tally.view
    system, players = view.system, view.table.players
    header, figures = _finals_columns(tally)
    font = metrics()
    others = sum(max(font.em(row[i]) for row in [header[1:], *figures.values()]) + GAP_EM for i in range(len(header) - 1))
    room = max(HALF_WIDTH_EM - others, font.em(header[0]), 6.0)
    rows = [header]
    under: dict[int, str] = {}  # a balance's note, under the row it follows
    for p in players:
        name = wrap(p, room)
        rows.append([name[0], *figures[p]])
        rows.extend([more] for more in name[1:])
        if system.balance_note(0):
            under[len(rows) - 1] = font.gap(font.upem) + "(" + system.balance_note(view.ledger.balances[p]) + ")"
    lines = columns(rows, frozenset(range(1, len(header))))
    return [line for i, said in enumerate(lines) for line in ([said, under[i]] if i in under else [said])]


def _ally(deal: Deal, width: int, own_king: str) -> str:
    """The sheet's ally column: the ally's name, "own King" for a secret solo, else nothing."""
    return _cut(deal.ally, width) if deal.has_real_ally and deal.ally else own_king if deal.is_secret_solo else ""


def _finals_columns(tally: TallyView) -> tuple[list[str], dict[str, list[str]]]:
    """The final balances' column heads, and each player's figures under them. An evening of a circle settles with
    its season: its balances alone (the season's page says the money)."""
    view, settle, players = tally.view, tally.settle, tally.view.table.players
    if view.table.circle_id is not None:
        return [_("Player"), _("Balance")], {p: [_signed(view.ledger.balances[p])] for p in players}
    heads = [_("Player"), _("Balance"), *([_("After the pool")] if settle.closing else []),
             _("Money") if tally.has_money else _("To settle")]
    return heads, {p: [_signed(view.ledger.balances[p]), *([_signed(settle.units[p])] if settle.closing else []),
                       tally.money(settle.cents[p])] for p in players}


def payment_lines(tally: TallyView) -> list[str]:
    """The settle-up's payments, numbered, a line each (a long one goes on, indented, on the next)."""
    font = metrics()
    lines = []
    for number, pay in enumerate(tally.settle.payments, 1):
        mark = f"{number}. "
        said = wrap(_("%(payer)s pays %(payee)s %(amount)s", payer=pay.payer, payee=pay.payee, amount=tally.money(pay.cents)),
                    HALF_WIDTH_EM - font.em(mark))
        lines.append(mark + said[0])
        lines.extend(font.gap(font.width(mark)) + more for more in said[1:])
    return lines


@dataclass(frozen=True)
class TallyView:
    """The tally: the table's view, the settle-up, amounts as money (or in units) and the chart."""

    view: TableView
    settle: SettleUp
    has_money: bool
    """Whether a chip has a money value at this table."""
    money: Callable[[int], str]
    """An amount in cents as money, or in the table's units when a chip has no money value."""
    series: list[list[int]]
    """Each player's balance before the first deal (0) and after each deal, for the chart."""
    place: str = ""
    """Where the evening was played, as typed on the print form (optional, never stored)."""
    name: str = ""
    """The table's name, as typed on the print form (optional, never stored)."""

    @property
    def corrected(self) -> dict[int, Corrected]:
        """The deals corrected since they were recorded (the deals settled that have more than one version), by
        number: the tally marks them with their version in force."""
        return {number: Corrected(number, len(versions), versions[-1])
                for number, versions in enumerate(self.view.book.versions[:self.view.played], 1) if len(versions) > 1}

    def chart(self, size: ChartSize = SCREEN) -> Markup:
        """Each player's balance after each deal, as inline SVG with its key (drawn for the page, or the PDF's ``PRINT``)."""
        return balance_chart(self.view.table.players, self.series, size=size)

    def context(self) -> dict[str, object]:
        """The table view's fields and the tally's, by name, for ``render_template``: with who played Hombre, what,
        and how it went (``stats``, shown on the page, not printed: the tally stays one page), and the circle the
        evening belongs to, if any (it settles with the season, not alone)."""
        shown = rules_shown(self.view.table.rules)
        return {**self.view.context(), "settle": self.settle, "has_money": self.has_money, "money": self.money,
                "chart": self.chart(), "rules_shown": shown, "changed_count": sum(1 for *_, changed in shown if changed),
                "label_place": self.place, "label_name": self.name, "label_max": TALLY_LABEL_MAX,
                "stats": statistics([self.view.ledger]), "corrected": self.corrected, "page_counter": page_counter(),
                "circle": circle_of(get_db(), self.view.table), "pots": Pot}


def rules_shown(rules: HouseRules) -> list[tuple[HouseRule, str, bool]]:
    """The house rules that apply to the table's profile (the core's ``Profile.applies``), each with its
    value and whether the table changed it from the profile's default."""
    profile = rules.profile
    return [(rule, rules.value_of(rule.name), rules.value_of(rule.name) != profile.default(rule.name))
            for rule in profile.applicable_rules()]


def rules_lines(shown: list[tuple[HouseRule, str, bool]]) -> list[str]:
    """The house rules as one run of plain text ("rule: value (changed); ..."), broken here into the
    lines of the PDF's 7 pt across the page, so that WeasyPrint has no line to break."""
    said = [_("%(rule)s: %(value)s", rule=r.title, value=r.choice(value).label) + (" " + _("(changed)") if changed else "")
            for r, value, changed in shown]
    return wrap(_("; ").join(said) + ("." if said else ""), RULES_WIDTH_EM)


def label(text: str | None) -> str:
    """A place or table name for the title block: one line, no control characters, at most
    :data:`TALLY_LABEL_MAX` characters (the template escapes it)."""
    cleaned = "".join(ch if ch.isprintable() else " " for ch in (text or ""))
    return " ".join(cleaned.split())[:TALLY_LABEL_MAX]


def _tally_of(table: Table, view: TableView, place: str = "", name: str = "") -> TallyView:
    result = view.ledger
    owed = evening_money(table, view)  # as the table's page says it after the last deal
    series = [[0] + [s.after.balance(p) for s in result.settlements] for p in table.players]
    return TallyView(view, owed.settle, owed.has_money, owed.money, series, place, name)


@bp.route("/t/<token>/tally")
def page(token: str) -> str:
    table = table_or_abort(token)
    return render_template("tally/tally.html", paper="A4", **_tally_of(table, table_view(table)).context())



def pdf_key(table: Table, log_size: int, paper: str, place: str = "", name: str = "") -> tuple[str, int, str, str, str, str, str]:
    """What a tally PDF depends on: the table, its log (every change adds a line), its settings
    (which change with an empty log), the reader's language (a French phone gets the French PDF),
    the paper, and the place and name typed for its title block."""
    settings = hashlib.sha256(repr(table).encode()).hexdigest()
    return table.token, log_size, settings, language(), paper, place, name


@bp.route("/t/<token>/tally.pdf")
def pdf(token: str) -> Response | tuple[str, int, dict[str, str]]:
    paper = PAPER.get(request.args.get("paper", "a4").lower())
    if paper is None:
        abort(404)
    place, name = label(request.args.get("place")), label(request.args.get("name"))
    table = table_or_abort(token)
    view = table_view(table)
    key = pdf_key(table, view.log_size, paper, place, name) + (view.ledger.evening.carried_in,)  # a circle's carried pool

    def render() -> bytes:
        tally = _tally_of(table, view, place, name)
        context = tally.context()
        # Up to SHEET_ONE_BLOCK_MAX deals the sheet is one block of lines; longer, its header repeats at the top
        # of each page of the sheet (thead) and its deals are rows of two rounds of four lines each.
        return render_pdf(render_template("tally/print.html", paper=paper, tally_css=tally_css(),
                                          sheet=deals_sheet(table.players, view.ledger, view.system, tally.corrected),
                                          corrected_lines=corrected_lines(tally),
                                          finals_lines=finals_lines(tally), payment_lines=payment_lines(tally),
                                          signature_lines=signature_lines,
                                          rules_lines=rules_lines(context["rules_shown"]),  # type: ignore[arg-type]
                                          **{**context, "chart": tally.chart(PRINT)}))

    document = printer().document(table.token, key, request.remote_addr or "", render,
                                  family=key[:5] + ("labelled",) if place or name else None)
    return pdf_or_busy(document, f"quadrille-tally-{paper.lower()}.pdf", url_for("tally.page", token=token),
                       _("Back to the tally"))
