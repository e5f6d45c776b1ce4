"""What the pages of a table show, as a typed value: the table view every page of a table starts from.

A page passes a view's fields to its template by name (:meth:`TableView.context`): the templates
read ``ledger``, ``played``, ``dealer``... as before. The audit and tally pages add their own
fields in their own views (``DealView`` in :mod:`scorer.audit`, ``TallyView`` in :mod:`scorer.tally`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from flask import Flask, has_request_context, request, session, url_for
from markupsafe import Markup, escape

from ..core import Contract, Damage, Ledger, Replay, Settlement, System, caches
from ..core.i18n import N_
from ..core.summary import DealSummary, RuleRef
from .i18n import request_language, shown_text
from .db import get_db
from ..store import Table, evening_closed, ledger_and_log_size


@dataclass(frozen=True)
class TableView:
    """What every page of a table shows: the replayed ledger and whose deal is next."""

    system: System
    """The profile's settlement system: the pages ask it what to show (its units, its last column...)."""
    units: str
    """What the balances count, as a plural noun ("chips", "points", "counters")."""
    standing: tuple[tuple[str, str], ...]
    """What the table carries into the next deal, as the system tells it: (label, value) pairs."""
    multipliers: Mapping[str, int]
    """Each player's multiplier if she is Hombre next, where the system keeps one per player; else empty."""
    table: Table
    ledger: Replay
    """The deals settled, and the table's state after the last."""
    book: Ledger
    """The table's log folded: the deals standing and their versions, and any damage."""
    damage: Damage | None
    log_size: int
    """Lines in the table's log (0 until the first deal is recorded: the house rules are not frozen)."""
    played: int
    number: int
    """The next deal's number."""
    dealer: str
    """Who deals next."""
    eldest: str
    """Who is eldest hand next (on the dealer's right)."""
    over: bool
    """Whether all the deals agreed are played."""
    closed: int | None
    """For an evening of a circle whose next evening has begun, that evening's number: it takes no new deal (issue 22)."""
    contracts: tuple[Contract, ...]
    """The contracts the table's profile plays."""
    last: Settlement | None
    me: str | None
    """Who holds this phone, as the phone said."""

    def context(self) -> dict[str, object]:
        """The fields by name, for ``render_template``."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def table_view(table: Table) -> TableView:
    """The view of ``table`` as it stands: its log replayed (from the cache) and whose deal is next."""
    book, size = ledger_and_log_size(get_db(), table)
    result = book.replay
    played = len(result.settlements)
    dealer = result.next_dealer or table.first_dealer
    system = table.rules.profile.system
    eldest = result.final.eldest(dealer)
    return TableView(
        system=system,
        units=system.units_text,  # for a sentence, in the reader's language
        standing=system.standing(result.final, table.rules, eldest),
        multipliers=system.multipliers(result.final, table.rules),
        table=table,
        ledger=result,
        book=book,
        damage=book.damage,
        log_size=size,
        played=played,
        number=played + 1,
        dealer=dealer,
        eldest=eldest,
        over=played >= table.deals_agreed,
        closed=evening_closed(get_db(), table),
        contracts=table.rules.profile.contracts,
        last=result.settlements[-1] if result.settlements else None,
        me=phone_holder(table),
    )


def phone_holder(table: Table) -> str | None:
    """Who holds this phone, as the phone said (kept in its session)."""
    me = session.get("me")
    return me if me in table.players else None


def init_app(app: Flask) -> None:
    """The templates' ``url_for`` keeping its links, and the drawers of a table's pages as template globals."""
    app.jinja_env.globals["url_for"] = remembered_url_for(app)
    app.add_template_global(summary_nets, "summary_nets")
    app.add_template_global(summary_payments, "summary_payments")
    app.add_template_global(rule_links, "rule_links")
    app.add_template_global(table_nav, "table_nav")
    app.add_template_global(table_state, "table_state")
    app.add_template_global(contracts_nav, "contracts_nav")


# --- a table's links, drawn once per table, language and script root --------------------------------------------

PIECES_KEPT = 4096
"""Pieces of a table's pages kept per app (its links, a few per table and language)."""
PIECES: caches.PerApp[tuple[object, ...], Markup] = caches.per_app(
    f"{__name__}.PIECES", PIECES_KEPT, "a table's bar and row of contracts drawn, by table, language and script root")
"""Per app, as its words (its catalogue) and its links are its own (kept for the whole process, an app with other
translations showed the words of the first app to draw them)."""


def _kept(key: tuple[object, ...], draw: Callable[[], Markup]) -> Markup:
    """``draw()``, kept under ``key`` with the request's language and script root, by the app (drawn afresh
    outside a request whose language was looked up)."""
    language = request_language()
    if language is None:
        return draw()
    return PIECES.here().made((*key, language, request.script_root), draw)


TABLE_NAV = (("table.play", N_("Deal")), ("table.ledger_page", N_("Ledger")), ("table.join", N_("Share")),
             ("tally.page", N_("Tally")))
"""A table's pages, as its pages' bar links them (templates/table/_nav.html)."""


def table_nav(table: Table) -> Markup:
    """The links of a table's bar: its deal, ledger, share and tally pages (templates/table/_nav.html)."""
    token = table.token
    return _kept(("nav", token), lambda: Markup("\n".join(
        f'<a href="{escape(url_for(endpoint, token=token))}">{shown_text(label)}</a>' for endpoint, label in TABLE_NAV)))


_CURRENT = ' aria-current="page"'


def table_state(number: int, over: bool, played: int, agreed: int, dealer: str, eldest: str,
                standing: tuple[tuple[str, str], ...]) -> Markup:  # more than 5: a view's fields, as _state.html read them
    """Where the evening stands: the deal (of the deals agreed), the dealer, eldest hand and what the table carries
    (templates/table/_state.html)."""
    carried = "".join(f"<div><dt>{escape(label)}</dt><dd>{escape(value)}</dd></div>" for label, value in standing)
    # the messages outside the f-string, where the catalogue's extraction finds them
    deal, of, by, eldest_hand = (shown_text(N_("Deal")), shown_text(N_("of %(agreed)s"), agreed=agreed),
                                 shown_text(N_("Dealer")), shown_text(N_("Eldest")))
    return Markup(f'<dl class="state">\n  <div><dt>{deal}</dt><dd>{escape(played if over else number)} <small>{of}</small>'
                  f'</dd></div>\n  <div><dt>{by}</dt><dd>{escape(dealer)}</dd></div>\n'
                  f'  <div><dt>{eldest_hand}</dt><dd>{escape(eldest)}</dd></div>\n  {carried}\n</dl>')


def contracts_nav(table: Table, contracts: tuple[Contract, ...], current: Contract | None) -> Markup:
    """A button for each contract the table plays, ``current`` marked (the deal page's row of contracts)."""
    token = table.token

    def draw() -> Markup:
        return Markup("".join(
            f'<a class="button{" current" if c == current else ""}" '
            f'href="{escape(url_for("table.deal", token=token, contract=c.value))}"'
            f'{_CURRENT if c == current else ""}>{escape(str(c.label).capitalize())}</a>' for c in contracts))
    return _kept(("contracts", token, contracts, current), draw)


URLS_KEPT = 8192
"""Links a template built, kept per app (a few dozen a table)."""
URLS: caches.PerApp[tuple[object, ...], str] = caches.per_app(
    f"{__name__}.URLS", URLS_KEPT, "each link a template built, by script root, endpoint and values")
URL_KEPT_CHARS = 512
"""A longer link is built every time, never kept: the language switch's link carries the page's own path and
query (``next=``), as long as a client makes it (a server takes some 256 KB of headers; 8,192 such links and
their keys would be gigabytes). A table's links are under 100 characters."""


def remembered_url_for(app: Flask) -> Callable[..., str]:
    """The templates' ``url_for``: Flask's, each link kept once built. A link is a function of the app's routes,
    the request's script root, the endpoint and its values (no URL defaults or value preprocessors are
    registered); a deal page builds about twenty (its nav, contracts, assets, rule links), mostly the same ones
    again. A relative endpoint (``.page``), an option (``_external``, ``_anchor``...) or a call outside a
    request goes to Flask every time."""
    url_for = app.url_for

    def template_url_for(endpoint: str, /, **values: Any) -> str:
        if endpoint[:1] == "." or not has_request_context() or any(name[:1] == "_" for name in values):
            return url_for(endpoint, **values)
        key = (request.script_root, endpoint, *values.items())
        built = URLS.here()
        try:
            found = built.get(key)
        except TypeError:  # a value that cannot be a key (a list)
            return url_for(endpoint, **values)
        if found is None:
            found = url_for(endpoint, **values)
            if len(found) > URL_KEPT_CHARS:  # its key is in it (the script root, the values)
                return found
            built.put(key, found)
        return found

    return template_url_for


# --- a deal's settlement at a glance (templates/table/_summary.html's macros call these) --------------------------


def summary_nets(summary: DealSummary) -> Markup:
    """Each player's change for the deal in one line, then what the table carries after it (``nets``). Each
    separator ends the line it is on, never starts the next."""
    last = len(summary.nets) - 1
    carried = summary.carried
    nets = "".join(f'<span class="net">{escape(n.player)} <strong class="{_trend(n.change)}">{escape(n.signed)}</strong>'
                   f'{" ·" if i < last or carried else ""}</span> ' for i, n in enumerate(summary.nets))
    after = ""
    if carried:
        after = '<span class="after">' + ", ".join(f"{escape(label)} <strong>{escape(value)}</strong>"
                                                   for label, value in carried) + "</span>"
    hidden = shown_text(N_("Each player's change for this deal: "))
    return Markup(f'<p class="nets" id="nets"><span class="visually-hidden">{hidden}</span>{nets}{after}</p>\n')


def _trend(change: int) -> str:
    return "up" if change > 0 else "down" if change < 0 else "even"


def rule_links(refs: tuple[RuleRef, ...], page: str | None = None) -> Markup:
    """House rules by their titles, each a link to its entry on the rules page (``page``, its link once escaped)."""
    if not refs:
        return Markup("")
    page = page or escape(url_for("home.rules"))
    return Markup(" · ".join(f'<a href="{page}#{escape(r.name)}">{escape(r.title)}</a>' for r in refs))


def _by(refs: tuple[RuleRef, ...], page: str) -> str:
    """The rules behind a line, after it (none: nothing)."""
    return f' <small class="by">{rule_links(refs, page)}</small>' if refs else ""


def summary_payments(summary: DealSummary, heading: object = None, level: object = 2) -> Markup:
    """The stake and the unit once, the transfers grouped (who pays whom, in all), the notes, under a heading of
    that level (``payments``)."""
    page = escape(url_for("home.rules"))
    unit = f'<p class="unit">{escape(summary.unit_sentence)}{_by(summary.unit_rules, page)}</p>' if summary.unit_sentence else ""
    groups = "".join(f"<li>{escape(g.sentence)}{_by(g.rules, page)}</li>\n" for g in summary.groups)
    notes = ""
    if summary.notes:
        notes = '<ul class="notes">' + "".join(f"<li>{escape(n)}</li>" for n in summary.notes) + "</ul>"
    title = escape(heading or shown_text(N_("Who pays whom")))
    h = escape(level)
    return Markup(f'\n<div class="payments">\n<h{h} class="groups-title">{title}</h{h}>\n{unit}\n<ul class="groups">\n'
                  f'{groups}</ul>\n{notes}\n</div>\n')
