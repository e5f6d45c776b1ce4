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
from ..book import Book, antes, beast, doubled, loss_payers, pairs, release_reserve, take_pool
from ..model import Contract, Deal, Pot, Reason, Result, Settlement, TableState
from ..outcome import in_favourite, result_of
from ..rules import HouseRules
from . import register_system
from .base import System

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
    what: str
    counters: int
    on_remise: bool
    """Paid on a remise too (all but the game, EB)."""
    rules: tuple[str, ...] = ()


def _items(deal: Deal, rules: HouseRules, factor: int) -> list[_Item]:
    """What each opponent pays Hombre's side for the game, item by item, in counters."""
    alone = not deal.has_real_ally
    sans_prendre = deal.contract is Contract.SOLO or (deal.is_secret_solo and rules[R.OWN_KING] is R.OwnKing.SECRET_SOLO)
    fish_extra = rules[R.FISH_EXTRAORDINARY] is R.FishExtraordinary.YES and deal.contract in (Contract.MEDIATEUR, Contract.SOLO)
    items = [
        _Item(Reason.GAME, "the game", COUNTER_GAME * factor, False),
        _Item(Reason.CONSOLATION, "the consolation", COUNTER_CONSOLATION * factor, True),
    ]
    if alone and sans_prendre:
        items.append(_Item(Reason.SANS_APPELER, "sans appeler", COUNTER_SANS_APPELER * factor, True, (R.OWN_KING,) if deal.is_secret_solo else ()))
    if fish_extra:
        items.append(_Item(Reason.FISH_EXTRAORDINARY, "the fish extraordinary", COUNTERS_PER_FISH * factor, True, (R.FISH_EXTRAORDINARY,)))
    if rules[R.COUNTER_MATADORS] is R.CounterMatadors.ONE_EACH and deal.matadors:
        items.append(_Item(Reason.MATADORS, f"{deal.matadors} matadors", deal.matadors * factor, True, (R.COUNTER_MATADORS,)))
    return items


def _vole_fish(deal: Deal, rules: HouseRules, factor: int) -> int:
    doubled_alone = rules[R.COUNTER_VOLE] is R.CounterVole.DOUBLED_ALONE and not deal.has_real_ally
    return COUNTERS_PER_FISH * factor * (2 if doubled_alone else 1)


def settle_counters(deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int) -> Settlement:
    number = state.deals_played + 1
    paulans = 2 if doubled(number, deals_agreed, rules) else 1
    favourite = in_favourite(deal, rules)
    factor = paulans * (2 if favourite else 1)  # EB: the favourite suit pays double
    fav_rules = (R.FAVOURITE_SUIT,) if favourite else ()
    book = Book(state)
    notes: list[str] = []
    release_reserve(book, deal, state)
    each = COUNTERS_PER_FISH if rules[R.COUNTER_STAKE] is R.CounterStake.FISH_EACH else 1
    antes(book, deal, state, rules, each, paulans, (R.COUNTER_STAKE,))
    stake = book.pots[Pot.POOL]
    result = result_of(deal, rules)

    if deal.kind.takes_king and deal.giver is not None and rules[R.MEDIATEUR_KING] is R.MediateurKing.GIVER_PAID_A_FISH:
        # EB: "he gives what card he thinks proper with a fish; but must give two fish if it is in the favourite suite"
        book.pay(deal.hombre, deal.giver, COUNTERS_PER_FISH * factor, Reason.MEDIATEUR_KING, "a fish for the médiateur King",
                 (R.MEDIATEUR_KING,) + fav_rules, "EB")

    side = deal.side
    opponents = tuple(p for p in state.order_from(state.right_of(deal.hombre)) if p not in side)
    flow = (R.BONUS_FLOW,) if len(side) == 2 else ()
    items = _items(deal, rules, factor)
    exempt = deal.giver if deal.kind.takes_king and rules[R.MEDIATEUR_KING] is R.MediateurKing.GIVER_EXEMPT else None
    vole = _vole_fish(deal, rules, factor)
    vole_rules = (R.COUNTER_VOLE,) + fav_rules

    if result in (Result.WON, Result.VOLE_WON, Result.VOLE_LOST):
        take_pool(book, deal, side, rules)
        for member, opponent in pairs(side, opponents, rules):
            for item in items:
                if opponent != exempt or item.reason is Reason.MATADORS:
                    book.pay(opponent, member, item.counters, item.reason, item.what, item.rules + fav_rules + flow, "EB")
            if result is Result.VOLE_WON:
                book.pay(opponent, member, vole, Reason.VOLE_BONUS, "the vole", vole_rules + flow, "EB")
            elif result is Result.VOLE_LOST:
                book.pay(member, opponent, vole, Reason.VOLE_PREMIUM_LOST, "the vole undertaken and lost", vole_rules + flow, "EB")
    else:
        payers, loss_rules = loss_payers(deal, side, rules, notes)
        everything = favourite and rules[R.FAVOURITE_DOUBLES] is R.FavouriteDoubles.EVERYTHING
        beast(book, deal, result, stake, payers, opponents, rules, notes,
              (R.FAVOURITE_SUIT, R.FAVOURITE_DOUBLES) if everything else (), loss_rules)
        for member, opponent in pairs(side, opponents, rules):
            payer = member if member in payers else deal.hombre
            for item in items:
                if (item.on_remise or result is Result.CODILLE) and (opponent != exempt or item.reason is Reason.MATADORS):
                    book.pay(payer, opponent, item.counters, item.reason, f"{item.what}, the game lost",
                             item.rules + fav_rules + flow + loss_rules, "EB")
    return book.settlement(number, deal, result, state, 1, stake, notes)


def counters_text(counters: int) -> str:
    """Counters as mils, fish and counters: 1234 -> "12 mils 3 fish 4 counters" (EB: 10 counters a fish, 10 fish a mil)."""
    sign = "−" if counters < 0 else ""
    n = abs(counters)
    mils, rest = divmod(n, COUNTERS_PER_FISH * FISH_PER_MIL)
    fish, units = divmod(rest, COUNTERS_PER_FISH)
    parts = [f"{mils} mil{'s' if mils != 1 else ''}"] if mils else []
    parts += [f"{fish} fish"] if fish else []
    parts += [f"{units} counter{'s' if units != 1 else ''}"] if units or not parts else []
    return sign + " ".join(parts)



class Counters(System):
    """EB's counters: the game, the consolation, sans appeler and matadors in counters, fish and mils."""

    name: ClassVar[str] = "counters"
    units: ClassVar[str] = "counters"

    def settle(self, deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int) -> Settlement:
        return settle_counters(deal, state, rules, deals_agreed)

    def balance_note(self, balance: int) -> str:
        return counters_text(balance)


COUNTERS = register_system(Counters())
