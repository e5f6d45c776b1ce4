"""Check the play of a disputed deal on a phone: the tricks tapped card by card on a 40-card grid.

No JavaScript and no writes: the cards entered so far travel in the page's address (``c``, the
cards' codes one after the other, ``AS2SKS3S...``), so each tap is a plain link and the back
button takes a card back. A card that proves an earlier renounce (she plays a card of the suit
she did not follow) is held until the table says it was played (``k``: the cards confirmed so
far) or takes it back. At the end the engine (:mod:`scorer.core.game.play`) says what the play proves
against what was recorded, and *Use this play* opens the deal's correction with it, through the
usual "what this changes" preview and a new version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from flask import Blueprint, redirect, render_template, request, url_for
from ..i18n import gettext as _
from werkzeug.wrappers import Response

from ..common import deal_view
from ...core import (
    PLAY_NOTATION_MAX, PACK, PREMIERS_TRICKS, PLAY_TRICKS, AllyShown, Card, Deal, HouseRules, PlayReport, Progress,
    Renounce, Suit, follow, own_king_allowed, parse_tricks, referee, why_not,
)

bp = Blueprint("playcheck", __name__)

_CODE = re.compile(r"(?:10|[AKQJ2-9T])[SCDH]", re.IGNORECASE)
_CONFIRMED = re.compile(r"[0-9]{1,2}")


def face(card: Card) -> str:
    """A card as a player reads it: "6♥" (the core's :attr:`Card.face`, the one way every page shows a card)."""
    return card.face


@dataclass(frozen=True)
class Entry:
    """The cards entered so far, read from the address, and what was wrong with it, if anything."""

    cards: tuple[Card, ...]
    confirmed: int
    problem: str | None = None


def read_entry(text: str, confirmed: str) -> Entry:
    """The cards of ``c`` (codes one after the other), up to the first that cannot be (said in ``problem``)."""
    cards: list[Card] = []
    problem = None
    text = text[: 2 * len(PACK) + 2]
    for i in range(0, len(text) - len(text) % 2, 2):
        try:
            card = Card.parse(text[i:i + 2])
        except ValueError:
            problem = _("%(code)s is not a card of the pack: the cards after it were left out", code=repr(text[i:i + 2]))
            break
        if card in cards:
            problem = _("%(card)s was played already: the cards after it were left out", card=face(card))
            break
        cards.append(card)
    if len(text) % 2 and problem is None:
        problem = _("half a card was left out")
    # the page's own links write k in ASCII digits; "²" and "٣" are digits to str.isdigit, and int() refuses "²"
    count = int(confirmed) if _CONFIRMED.fullmatch(confirmed) else 0
    return Entry(tuple(cards), min(count, len(cards)), problem)


@bp.route("/t/<token>/audit/<int:number>/play")
def check(token: str, number: int) -> str | Response:
    audit = deal_view(token, number)
    view, settlement = audit.view, audit.settlement
    deal = settlement.deal
    pasted = request.args.get("notation")
    if pasted is not None:
        codes = _CODE.findall(pasted[:PLAY_NOTATION_MAX].replace("♠", "S").replace("♣", "C").replace("♦", "D").replace("♥", "H"))
        return redirect(url_for("playcheck.check", token=token, number=number, c="".join(codes).upper()))
    entry = read_entry(request.args.get("c", ""), request.args.get("k", ""))
    progress = follow(deal, view.table.players, entry.cards)
    pending = progress.new and entry.confirmed < len(entry.cards)
    revealed = revealed_ally(request.args.get("r"), view.table.players)
    report = _report(deal, view.table.players, progress, view.table.rules, revealed)
    return render_template(
        "audit/play.html", **audit.context(), deal=deal, entry=entry, progress=progress,
        pending=[_renounce_question(deal, progress, r) for r in progress.new] if pending else [],
        report=report, revealed=report.derived.ally if report and report.derived.ally_shown is AllyShown.CLAIM else None,
        own_king=own_king_allowed(deal.contract, view.table.rules), face=face, pack=PACK, suits=list(Suit),
        code="".join(c.code for c in entry.cards),
        gone=frozenset(entry.cards), notation_max=PLAY_NOTATION_MAX, field_name=field_name, shown_value=shown_value,
    )


def revealed_ally(name: str | None, players: tuple[str, ...]) -> str | None:
    """Who revealed herself as the ally at a claim after six tricks (``r`` in the page's address, the name
    tapped), if she is one of the table's players."""
    return name if name in players else None


def _renounce_question(deal: Deal, progress: Progress, renounce: Renounce) -> str:
    """ "Dan plays 6♥ now, so he held it in trick 3, when A♣ was led and he played 6♠: he must follow trumps." """
    trick = progress.tricks[renounce.trick - 1]
    before = [pc.card for pc in trick.cards[: [pc.player for pc in trick.cards].index(renounce.player)]]
    held = [pc.card for t in progress.tricks[renounce.trick - 1:] for pc in t.cards if pc.player == renounce.player]
    held += [pc.card for pc in progress.current if pc.player == renounce.player]
    why = why_not(held, before, deal.trumps, renounce.played) or _("must follow")
    return _("%(player)s plays %(held)s now, so %(player)s held it in trick %(trick)s, when %(led)s was led and "
             "%(player)s played %(played)s: %(player)s %(why)s. Was %(held)s really played now?",
             player=renounce.player, held=face(renounce.held), trick=renounce.trick, led=face(renounce.led),
             played=face(renounce.played), why=why)


def field_name(name: str) -> str:
    """An input the play disagrees with, as the reader names it (the deal's JSON name, in English)."""
    names = {"ally": _("ally"), "tricks": _("tricks"), "premiers": _("premiers"), "vole": _("vole"),
             "matadors": _("matadors")}
    return names.get(name, name)


def shown_value(name: str, value: object) -> str:
    """A recorded or proven value as the page shows it (a vole's value, yes/no, a name or a number)."""
    if isinstance(value, bool):
        return _("True") if value else _("False")
    if value is None:
        return "None"
    words = {"none": _("none"), "undertaken": _("undertaken"), "announced": _("announced"), "revealed": _("revealed")}
    return words.get(value, value) if name == "vole" and isinstance(value, str) else str(value)


def _report(deal: Deal, players: tuple[str, ...], progress: Progress, rules: HouseRules,
            revealed: str | None) -> PlayReport | None:
    """What the play proves, once it is complete (10 tricks, or 6 and premiers claimed there); at a claim
    that does not show the ally (the called King unplayed), with ``revealed`` as the ally who revealed herself
    (P), if the table said who."""
    if progress.current or len(progress.tricks) not in (PREMIERS_TRICKS, PLAY_TRICKS):
        return None
    tricks = parse_tricks([[pc.card.code for pc in t.cards] for t in progress.tricks])
    report = referee(replace(deal, revealed_ally=None), players, tricks, rules)
    if len(report.tricks) == PREMIERS_TRICKS and not report.derived.premiers:
        return None  # six tricks are a record only where the side took them all and claimed premiers
    if report.derived.ally_unknown and revealed is not None:
        return referee(replace(deal, revealed_ally=revealed), players, tricks, rules)
    return report
