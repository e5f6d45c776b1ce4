"""The Britannica's counters (EB): the game, the consolation, sans appeler, matadors, fish.

A fish is 10 counters and a mil 10 fish. The board is fed, swept, divided
and beasted as in the hard score (see book.py); what differs is what the
players pay each other, item by item (EB, with the médiateur):

- won: each opponent pays the game, the consolation, sans appeler (sans
  prendre only), the fish extraordinary (médiateur and sans prendre) and the
  matadors; the vole is a fish more;
- remise: Hombre is beasted and pays each all of that but the game;
- codille: the opponents divide the board, Hombre is beasted and pays each
  what she would have received.

This reproduces EB's figures: médiateur 13 / 12 / 13, sans prendre 17 / 16 / 17.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import ClassVar

from .. import rules as R
from .book import Book, antes, beast, fish_for_the_king, hold_back_beasts, loss_payers, open_book, renounce_beasts, take_pool
from ..game.context import DealContext
from ..errors import Words
from ..i18n import N_, ngettext
from ..model import Contract, Deal, Pot, Reason, Result, Settlement, TableState
from ..game.outcome import own_king_rules, pays_solo_premium
from ..rules import RuleValues
from .base import ENTRY_RULES, POOL_RULES, System

# The Britannica's counters. EB states only the totals a player pays each
# opponent: médiateur won 13, lost by remise 12, by codille 13; sans prendre
# 17, 16, 17 (with the médiateur, without the favourite suit). With a fish of
# 10 counters the only split that gives all six is: the game 1, the consolation
# 2, sans appeler 4, the fish extraordinary 10; a remise pays all but the game.
COUNTER_GAME = 1
COUNTER_CONSOLATION = 2
COUNTER_SANS_APPELER = 4
COUNTERS_PER_FISH = 10
FISH_PER_MIL = 10


@dataclass(frozen=True)
class _Item:
    reason: Reason
    what: Words
    counters: int
    on_remise: bool
    """Paid on a remise too (all but the game, EB)."""
    rules: tuple[str, ...] = ()


def _items(deal: Deal, rules: RuleValues, factor: int) -> list[_Item]:
    """What each opponent pays Hombre's side for the game, item by item, in counters."""
    alone = not deal.has_real_ally
    sans_prendre = deal.contract is Contract.SOLO or (deal.is_secret_solo and pays_solo_premium(deal, rules))
    fish_extra = rules[R.FISH_EXTRAORDINARY] is R.FishExtraordinary.YES and deal.contract in (Contract.MEDIATEUR, Contract.SOLO)
    items = [
        _Item(Reason.GAME, Words(N_("the game")), COUNTER_GAME * factor, False),
        _Item(Reason.CONSOLATION, Words(N_("the consolation")), COUNTER_CONSOLATION * factor, True),
    ]
    if alone and sans_prendre:
        items.append(_Item(Reason.SANS_APPELER, Words(N_("sans appeler")), COUNTER_SANS_APPELER * factor, True, own_king_rules(deal) if deal.is_secret_solo else ()))
    if fish_extra:
        items.append(_Item(Reason.FISH_EXTRAORDINARY, Words(N_("the fish extraordinary")), COUNTERS_PER_FISH * factor, True, (R.FISH_EXTRAORDINARY,)))
    if rules[R.COUNTER_MATADORS] is R.CounterMatadors.ONE_EACH and deal.matadors:
        items.append(_Item(Reason.MATADORS, Words(N_("{n} matadors"), n=deal.matadors), deal.matadors * factor, True, (R.COUNTER_MATADORS,)))
    return items


def _vole_fish(deal: Deal, rules: RuleValues, factor: int) -> int:
    doubled_alone = rules[R.COUNTER_VOLE] is R.CounterVole.DOUBLED_ALONE and not deal.has_real_ally
    return COUNTERS_PER_FISH * factor * (2 if doubled_alone else 1)


def settle_counters(deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
    ctx = DealContext.of(deal, state, rules, deals_agreed)
    factor = ctx.paulans * ctx.favourite_factor  # EB: two fish for the King in favourite; every item doubled: the app's reading
    book = open_book(ctx)
    each = COUNTERS_PER_FISH if rules[R.COUNTER_STAKE] is R.CounterStake.FISH_EACH else 1
    antes(book, each, (R.COUNTER_STAKE,))
    stake = book.pots[Pot.POOL]
    # EB: "he gives what card he thinks proper with a fish; but must give two fish if it is in the favourite suite"
    fish_for_the_king(book, COUNTERS_PER_FISH * factor)
    items = _items(deal, rules, factor)
    if ctx.result in (Result.WON, Result.VOLE_WON, Result.VOLE_LOST):
        _game_won(book, items, _vole_fish(deal, rules, factor))
    else:
        _game_lost(book, items, stake)
    renounce_beasts(book, stake)  # EB: a renounce the play proves
    hold_back_beasts(book)
    return book.settlement(1, stake)


def _game_won(book: Book, items: list[_Item], vole: int) -> None:
    """Each opponent pays the items to Hombre's side, and the vole a fish more (or the side pays it, the vole lost)."""
    ctx = book.ctx
    fav_rules, flow = ctx.favourite_rules, ctx.flow
    vole_rules = (R.COUNTER_VOLE,) + fav_rules
    take_pool(book)
    owed = [(item, item.rules + fav_rules + flow) for item in items]  # once for the deal, not once a pair
    for member, opponent in ctx.pairs:
        for item, used in owed:
            if opponent != ctx.exempt or item.reason is Reason.MATADORS:
                book.pay(opponent, member, item.counters, item.reason, item.what, used, "EB")
        if ctx.result is Result.VOLE_WON:
            book.pay(opponent, member, vole, Reason.VOLE_BONUS, Words(N_("the vole")), vole_rules + flow, "EB")
        elif ctx.result is Result.VOLE_LOST:
            book.pay(member, opponent, vole, Reason.VOLE_PREMIUM_LOST, Words(N_("the vole undertaken and lost")), vole_rules + flow, "EB")


def _game_lost(book: Book, items: list[_Item], stake: int) -> None:
    """Hombre is beasted and pays each opponent the items: all but the game on a remise, all on a codille."""
    ctx = book.ctx
    payers, loss_rules = loss_payers(book)
    beast(book, stake, payers, loss_rules)
    extra = ctx.favourite_rules + ctx.flow + loss_rules
    owed = [(item, Words(N_("{label}, the game lost"), label=item.what), item.rules + extra)  # once for the deal, not once a pair
            for item in items if item.on_remise or ctx.result is Result.CODILLE]
    for member, opponent in ctx.pairs:
        payer = member if member in payers else ctx.deal.hombre
        for item, what, used in owed:
            if opponent != ctx.exempt or item.reason is Reason.MATADORS:
                book.pay(payer, opponent, item.counters, item.reason, what, used, "EB")


def counters_text(counters: int) -> str:
    """Counters as mils, fish and counters: 1234 -> "12 mils 3 fish 4 counters" (EB: 10 counters a fish, 10 fish a mil)."""
    sign = "−" if counters < 0 else ""
    n = abs(counters)
    mils, rest = divmod(n, COUNTERS_PER_FISH * FISH_PER_MIL)
    fish, units = divmod(rest, COUNTERS_PER_FISH)
    parts = [ngettext("{n} mil", "{n} mils", mils).format(n=mils)] if mils else []
    parts += [ngettext("{n} fish", "{n} fish", fish).format(n=fish)] if fish else []
    parts += [ngettext("{n} counter", "{n} counters", units).format(n=units)] if units or not parts else []
    return sign + " ".join(parts)



class Counters(System):
    """EB's counters: the game, the consolation, sans appeler and matadors in counters, fish and mils."""

    name: ClassVar[str] = "counters"
    units: ClassVar[str] = N_("counters")
    singular: ClassVar[str] = N_("counter")
    reads: ClassVar[frozenset[str]] = ENTRY_RULES | POOL_RULES | {
        R.COUNTER_STAKE, R.COUNTER_MATADORS, R.COUNTER_VOLE, R.FISH_EXTRAORDINARY}

    def settle(self, deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
        return settle_counters(deal, state, rules, deals_agreed)

    def balance_note(self, balance: int) -> str:
        return counters_text(balance)


COUNTERS = Counters()
