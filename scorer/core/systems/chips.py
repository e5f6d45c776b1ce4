"""Quadrille's hard score (P), also Médiateur with Quanti's table: chips, a pool, beasts and a vole pool.

Chips move in the order they move at a real table: odd chips reserved for
Spadille, antes, the vole stake, then the pool and the payments of the result.
Every movement is a :class:`Transfer` naming its reason and the house rules
that decided it. The numbers of P's and Quanti's table live here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from .. import rules as R
from .book import (Book, antes, beast, fish_for_the_king, hold_back_beasts, loss_payers, open_book, renounce_beasts,
                    take_pool)
from ..game.context import DealContext
from ..errors import Later, Words
from ..i18n import N_
from ..model import Contract, Deal, Pot, Reason, Result, Settlement, TableState, Vole
from ..game.outcome import game_won, own_king_rules, pays_solo_premium, premium_only
from ..rules import RuleValues
from .base import ENTRY_RULES, POOL_RULES, System

@dataclass(frozen=True)
class Rate:
    """A figure of Quanti's table, in units: not in favourite, and in favourite (None: none given)."""

    plain: int
    favourite: int | None

    def of(self, in_favourite: bool) -> int:
        return self.favourite if in_favourite and self.favourite is not None else self.plain


# Quanti's table of payments, as P gives it (units; "f" = in favourite).
QUANTI_GAMES: Mapping[Contract, Rate] = {
    Contract.FORCED_SPADILLE: Rate(0, 1),
    Contract.ALLIANCE: Rate(0, 1),
    Contract.MEDIATEUR: Rate(1, 2),
    Contract.CASCO: Rate(2, 4),
    Contract.SOLO: Rate(2, 4),
    Contract.GRANDISSIMO: Rate(8, None),
    Contract.NEMO: Rate(16, None),
}
QUANTI_VOLES_UNDERTAKEN: Mapping[Contract, Rate] = {
    Contract.FORCED_SPADILLE: Rate(3, 6),  # not in the table: forced spadille takes the alliance's figure
    Contract.ALLIANCE: Rate(3, 6),
    Contract.MEDIATEUR: Rate(3, 6),
    Contract.CASCO: Rate(6, 12),
    Contract.SOLO: Rate(6, 12),
    Contract.GRANDISSIMO: Rate(24, None),
}
QUANTI_VOLES_ANNOUNCED: Mapping[Contract, Rate] = {
    Contract.MEDIATEUR: Rate(5, 10),  # "theoretically 4½ and 9"
    Contract.SOLO: Rate(9, 18),
    Contract.VOLE: Rate(9, 18),  # the basic game's vole bid is a solo with the vole announced
    Contract.GRANDISSIMO: Rate(36, None),
}
QUANTI_VOLES_REVEALED: Mapping[Contract, Rate] = {
    Contract.MEDIATEUR: Rate(6, 12),
    Contract.SOLO: Rate(12, 24),
    Contract.GRANDISSIMO: Rate(48, None),
}


VOLE_STAKE_CHIPS = 3
"""P: every player pays three chips into the vole pool (12 in all)."""
VOLE_BONUS_UNITS = 2
"""P's list and PG: the vole is worth 2 units from each opponent."""
PREMIERS_UNITS = 1
ANTE_CHIPS = 1
"""P: each player stakes one chip, or the dealer four."""


# --- settlement -------------------------------------------------------------

# Enum members read for every deal settled, read once here: Python 3.11 reads an attribute of an Enum class
# (``Pot.POOL``) through the hook of EnumType.__getattr__, several times slower than a module's global.
_POOL, _NO_VOLE = Pot.POOL, Vole.NONE
_VOLE_WON, _VOLE_LOST, _REMISE, _CODILLE = Result.VOLE_WON, Result.VOLE_LOST, Result.REMISE, Result.CODILLE
_GAME_WON = (Result.WON, Result.VOLE_WON)
"""The results where Hombre's side takes the pool (and, with the vole lost after premiers, :func:`_game_won` too)."""
_GAME_PREMIUM, _MATADORS = Reason.GAME_PREMIUM, Reason.MATADORS
# The words of the payments most deals make, made once and shared by every transfer that says them.
_PREMIERS, _SECRET_SOLO = Words(N_("premiers")), Words(N_("solo premium (her own King called: a secret solo)"), label=Contract.SOLO.words)
_PREMIUMS = {contract: Words(N_("{label} premium"), label=contract.words) for contract in Contract}
_THREE, _DOUBLE = Words(N_("three matadors"), label=Words(N_("matadors"))), Words(N_("double matadors"))


@dataclass(frozen=True, slots=True)
class _Worth:
    """What a deal is worth in units, with the words and house rules of its payments. The unit is apart: it
    follows the stake."""

    premium: int
    matadors: int
    premiers: int
    vole_bonus: int
    """Units each opponent pays for a vole won (0 where the vole is paid by its pool alone)."""
    vole_premium: int
    """Units Hombre's side pays each opponent for a vole lost, where a house rule asks it."""
    premium_rules: tuple[str, ...]
    matador_rules: tuple[str, ...]
    bonus_rules: tuple[str, ...]
    unit_rules: tuple[str, ...]
    """The rules that set the unit (unit, unit_rounding, and paulans when it doubles the deal)."""
    premium_label: Words
    matadors_label: Words
    flow: tuple[str, ...]
    """The context's flow (bonus_flow for an alliance), in the rules of what the side and the opponents pay each other."""
    owed: tuple[tuple[int, Reason, Words, tuple[str, ...]], ...]
    """What each opponent pays each member of a side that won its game, besides the premium and the vole: matadors
    and premiers (units, reason, words, rules), those worth something."""


def _quarter(stake: int, rounding: R.UnitRounding) -> int:
    """A quarter of the stake, rounded as house rule unit_rounding says, at least one chip."""
    if rounding is R.UnitRounding.UP:
        quarter = -(-stake // 4)
    elif rounding is R.UnitRounding.NEAREST:
        quarter = (stake + 2) // 4
    else:
        quarter = stake // 4
    return max(1, quarter)


def _premium_units(deal: Deal, rules: RuleValues, favourite: bool) -> tuple[int, tuple[str, ...]]:
    """Units of game premium: the solo's per house rule, the others from Quanti's table."""
    solo = {R.SoloPremium.FOUR_UNITS: 4, R.SoloPremium.TWO_UNITS: 2, R.SoloPremium.NONE: 0}[rules[R.SOLO_PREMIUM]]
    solo *= 2 if favourite else 1
    if deal.contract in (Contract.SOLO, Contract.VOLE):
        return solo, (R.SOLO_PREMIUM,)
    if deal.is_secret_solo:
        # P: a secret solo wins or loses as a solo; EB: but sans appeler is not paid, and house rule
        # own_king_forced may leave it out of a forced spadille: then the contract's own figure (Quanti's table).
        if pays_solo_premium(deal, rules):
            return solo, own_king_rules(deal) + (R.SOLO_PREMIUM,)
        return QUANTI_GAMES[deal.contract].of(favourite), own_king_rules(deal)
    # Quanti's table: forced spadille and alliance 0 (1 in favourite), médiateur 1/2,
    # casco 2/4, grandissimo 8, nemo 16.
    return QUANTI_GAMES[deal.contract].of(favourite), ()


def _paid_as_three(deal: Deal, rules: RuleValues) -> bool:
    """A run of four or more in black trumps where double matadors need Punto (house rule
    double_matadors_suits, P: "of course possible only when a red suit was trump"): it is held,
    but pays as three matadors."""
    return (deal.matadors >= 4 and deal.trumps is not None and not deal.trumps.is_red
            and rules[R.DOUBLE_MATADORS_SUITS] is R.DoubleMatadorsSuits.RED_ONLY)


def _matador_units(deal: Deal, rules: RuleValues) -> tuple[int, tuple[str, ...]]:
    m = deal.matadors
    if m < 3:
        return 0, ()
    if m == 3:
        return 1, (R.MATADORS_PAID,)
    if _paid_as_three(deal, rules):
        return 1, (R.MATADORS_PAID, R.DOUBLE_MATADORS_SUITS)
    used: tuple[str, ...] = (R.MATADORS_PAID, R.DOUBLE_MATADORS_SUITS, R.DOUBLE_MATADORS_PAY)
    units = 2 if rules[R.DOUBLE_MATADORS_PAY] is R.DoubleMatadorsPay.INSTEAD else 3
    if m > 4:
        used += (R.LONG_MATADORS,)
        if rules[R.LONG_MATADORS] is R.LongMatadors.ONE_MORE_EACH:
            units += m - 4
    return units, used


def _vole_stake(ctx: DealContext, unit: int) -> int:
    """Chips each player pays into the vole pool when a vole is announced or undertaken."""
    deal, favourite = ctx.deal, ctx.favourite
    if deal.vole is _NO_VOLE and not deal.kind.vole_announced:
        return 0
    payment = ctx.rules[R.VOLE_PAYMENT]
    if payment in (R.VolePayment.POOL_AND_BONUS, R.VolePayment.POOL_ONLY):
        return VOLE_STAKE_CHIPS * ctx.paulans * ctx.favourite_factor
    if payment is R.VolePayment.QUANTI_TABLE:
        if deal.vole is Vole.REVEALED:
            table = QUANTI_VOLES_REVEALED
        elif deal.vole_in_the_bid:
            table = QUANTI_VOLES_ANNOUNCED
        else:
            table = QUANTI_VOLES_UNDERTAKEN
        return table[deal.contract].of(favourite) * unit
    return 0


def _worth(ctx: DealContext) -> _Worth:
    """What the deal is worth in units (:class:`_Worth`)."""
    deal, rules, favourite = ctx.deal, ctx.rules, ctx.favourite
    fav = ctx.favourite_factor
    unit_rules = (R.UNIT,) + ((R.UNIT_ROUNDING,) if rules[R.UNIT] is R.Unit.QUARTER_OF_STAKE else ()) + ctx.doubling
    premium, premium_rules = _premium_units(deal, rules, favourite)
    matadors, matador_rules = _matador_units(deal, rules)
    if deal.kind.takes_king:
        premium_rules += (R.MEDIATEUR_KING,)
    premium_rules += ctx.favourite_rules + unit_rules
    matador_rules += ctx.favourite_rules + unit_rules
    bonus_rules = ctx.favourite_rules + unit_rules
    flow, matadors_label, premiers = ctx.flow, _matadors_label(deal, rules), (PREMIERS_UNITS if deal.premiers else 0) * fav
    bonus = rules[R.VOLE_PAYMENT] in (R.VolePayment.POOL_AND_BONUS, R.VolePayment.BONUS_ONLY)
    owed = ((matadors * fav, Reason.MATADORS, matadors_label, matador_rules + flow),
            (premiers, Reason.PREMIERS, _PREMIERS, bonus_rules + flow))
    return _Worth(premium=premium, matadors=matadors * fav, premiers=premiers,
                  vole_bonus=VOLE_BONUS_UNITS * fav if bonus else 0, vole_premium=VOLE_BONUS_UNITS * fav,
                  premium_rules=premium_rules, matador_rules=matador_rules, bonus_rules=bonus_rules,
                  unit_rules=unit_rules, premium_label=_premium_label(deal, rules), matadors_label=matadors_label,
                  flow=flow,
                  owed=tuple(payment for payment in owed if payment[0] > 0))


def settle_chips(deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
    """The hard score of P: chips, a pool, beasts and a vole pool (Quadrille and Médiateur), every deal movement by
    movement (:class:`~scorer.core.systems.book.Book`)."""
    ctx = DealContext.of(deal, state, rules, deals_agreed)
    book = open_book(ctx)
    # The stake a unit is a quarter of: the pool in play, every chip in it when the deal is played (what it held
    # after the last deal, a pool an earlier evening carried in, a waiting beast that joins: open_book) and this
    # deal's antes, single ones on a deal paulans doubles (none where house rule antes skips them). P: "A unit means
    # one quarter of the stake. The stake may be greater than four chips, as it is carried forward when a game is
    # lost"; that a pool carried in or a beast that joins counts as any other chip of the pool is the app's reading.
    stake_for_the_unit = book.pots[_POOL] + antes(book, ANTE_CHIPS)
    stake = book.pots[_POOL]
    worth = _worth(ctx)
    quarter = rules[R.UNIT] is R.Unit.QUARTER_OF_STAKE
    unit = (_quarter(stake_for_the_unit, rules[R.UNIT_ROUNDING]) if quarter else 1) * ctx.paulans

    vole_stake = _vole_stake(ctx, unit)
    if vole_stake:
        what = Words(N_("stake for the vole"))
        for player in state.order_from(deal.hombre):
            book.pay(player, Pot.VOLE_POOL, vole_stake, Reason.VOLE_STAKE, what,
                     (R.VOLE_PAYMENT,) + ctx.favourite_rules + ctx.doubling)
    # EB, H47: a fish (two in favourite) in units of the deal.
    fish_for_the_king(book, ctx.favourite_factor * unit, worth.unit_rules)

    result = ctx.result
    if result is _VOLE_LOST and deal.vole_in_the_bid:
        # P: "Hombre neither wins the game stake nor doubles it": a lost game under either value of grandissimo_nemo.
        _announced_vole_lost(book, worth, unit, stake)
    elif premium_only(deal, rules):
        _premium_alone(book, worth, unit, stake)
    elif result in _GAME_WON or result is _VOLE_LOST:
        _game_won(book, worth, unit)
    else:
        _game_lost(book, worth, unit, stake)
    if vole_stake:
        _share_vole_pool(book)
    renounce_beasts(book, stake)  # EB: a renounce the play proves
    hold_back_beasts(book)
    return book.settlement(unit, stake)


def _announced_vole_lost(book: Book, worth: _Worth, unit: int, stake: int) -> None:
    """P: a vole announced and lost with six tricks: the pool is neither won nor doubled."""
    ctx = book.ctx
    book.notes.append(Words(N_("the pool of {stake} stays for the next deal: a vole announced and lost neither wins nor doubles it (P)"),
                            stake=stake))
    if ctx.rules[R.ANNOUNCED_VOLE_PREMIUM] is R.AnnouncedVolePremium.VOLE_BONUS:
        for opponent in ctx.opponents:
            book.pay(ctx.deal.hombre, opponent, worth.vole_premium * unit, Reason.VOLE_PREMIUM_LOST,
                     Words(N_("premium of the vole announced and lost")), (R.ANNOUNCED_VOLE_PREMIUM,) + worth.bonus_rules)


def _share_vole_pool(book: Book) -> None:
    """The vole pool goes to the side that won or lost the vole, in equal shares (P)."""
    ctx = book.ctx
    won = ctx.result is Result.VOLE_WON
    winners = ctx.side if won else ctx.opponents
    share = book.pots[Pot.VOLE_POOL] // len(winners)
    what = Words(N_("the vole won") if won else N_("the vole lost by Hombre's side"))
    reason = Reason.VOLE_POOL_WON if won else Reason.VOLE_POOL_LOST
    for player in winners:
        book.pay(Pot.VOLE_POOL, player, share, reason, what, (R.VOLE_PAYMENT,))
    if book.pots[Pot.VOLE_POOL]:
        book.notes.append(Words(N_("{chips} chips of the vole pool do not divide: they stay for the next vole"),
                                chips=book.pots[Pot.VOLE_POOL]))


def _premium_alone(book: Book, worth: _Worth, unit: int, stake: int) -> None:
    """Grandissimo and nemo paid by their premium only (house rule grandissimo_nemo): the pool stays."""
    deal = book.ctx.deal
    rule = Words(N_("“{title}”"), title=Later(R.house_rule(R.GRANDISSIMO_NEMO), "title"))
    book.notes.append(Words(N_("the pool of {stake} stays: {contract} is paid by its premium only (house rule {rule})"),
                            stake=stake, contract=deal.contract.words, rule=rule))
    won = game_won(deal, book.ctx.result)  # a vole announced and lost never comes here (settle_chips)
    for opponent in book.ctx.opponents:
        payer, payee = (opponent, deal.hombre) if won else (deal.hombre, opponent)
        book.pay(payer, payee, worth.premium * unit, Reason.GAME_PREMIUM,
                 worth.premium_label if won else _lost(worth.premium_label), worth.premium_rules + (R.GRANDISSIMO_NEMO,))
        if won:
            book.pay(opponent, deal.hombre, worth.premiers * unit, Reason.PREMIERS, _PREMIERS, worth.bonus_rules)


def _game_won(book: Book, worth: _Worth, unit: int) -> None:
    ctx = book.ctx
    result, flow = ctx.result, worth.flow
    take_pool(book)
    # What each opponent pays each member, worked out once for the deal (not once a pair); nothing where it is 0.
    premium, premium_rules = worth.premium * unit, worth.premium_rules + flow
    owed = [(units * unit, reason, what, used) for units, reason, what, used in worth.owed]
    if result is _VOLE_WON and worth.vole_bonus:
        owed.append((worth.vole_bonus * unit, Reason.VOLE_BONUS, Words(N_("the vole")), (R.VOLE_PAYMENT,) + worth.bonus_rules + flow))
    vole_lost = result is _VOLE_LOST and ctx.rules[R.VOLE_LOST_PAYS] is R.VoleLostPays.VOLE_BONUS
    pay, exempt = book.pay, ctx.exempt
    for member, opponent in ctx.pairs:
        if premium > 0 and opponent != exempt:
            pay(opponent, member, premium, _GAME_PREMIUM, worth.premium_label, premium_rules)
        for chips, reason, what, used in owed:
            pay(opponent, member, chips, reason, what, used)
        if vole_lost:
            pay(member, opponent, worth.vole_premium * unit, Reason.VOLE_PREMIUM_LOST, Words(N_("the vole undertaken and lost")),
                (R.VOLE_LOST_PAYS,) + worth.bonus_rules + flow, "PG")


def _lost(label: Words) -> Words:
    return Words(N_("{label}, the game lost"), label=label)


def _premium_label(deal: Deal, rules: RuleValues) -> Words:
    return _SECRET_SOLO if deal.is_secret_solo and pays_solo_premium(deal, rules) else _PREMIUMS[deal.contract]


def _matadors_label(deal: Deal, rules: RuleValues) -> Words:
    if deal.matadors == 3:
        return _THREE
    if _paid_as_three(deal, rules):
        return Words(N_("{label}: double matadors need Punto, a red trump (P)"),
                     label=Words(N_("{n} matadors in black, paid as three"), n=deal.matadors))
    return _DOUBLE if deal.matadors == 4 else Words(N_("{n} matadors"), n=deal.matadors)


def _game_lost(book: Book, worth: _Worth, unit: int, stake: int) -> None:
    """Remise or codille: the beast, then (on a remise, or a codille where the house rule says so)
    what Hombre's side would have received."""
    ctx = book.ctx
    deal, rules, result, flow = ctx.deal, ctx.rules, ctx.result, worth.flow
    payers, loss_rules = loss_payers(book)
    beast(book, stake, payers, loss_rules)

    pays_game = result is _REMISE or rules[R.CODILLE_PAYMENTS] is R.CodillePayments.WHAT_SHE_WOULD_HAVE_RECEIVED
    if not pays_game:
        return
    extra = (R.CODILLE_PAYMENTS,) if result is _CODILLE else ()
    # What each member (or Hombre for her) pays each opponent, worked out once for the deal; nothing where it is 0.
    premium, premium_rules = worth.premium * unit, worth.premium_rules + flow + loss_rules + extra
    owed = []
    if worth.matadors:
        owed.append((worth.matadors * unit, _MATADORS, _lost(worth.matadors_label),
                     worth.matador_rules + flow + loss_rules + extra))
    if deal.vole_in_the_bid and rules[R.ANNOUNCED_VOLE_PREMIUM] is R.AnnouncedVolePremium.VOLE_BONUS:
        owed.append((worth.vole_premium * unit, Reason.VOLE_PREMIUM_LOST, Words(N_("premium of the vole announced and lost")),
                     (R.ANNOUNCED_VOLE_PREMIUM, R.ANNOUNCED_VOLE_SHORT) + worth.bonus_rules + extra))
    pay, exempt, hombre, premium_lost = book.pay, ctx.exempt, deal.hombre, _lost(worth.premium_label)
    for member, opponent in ctx.pairs:
        payer = member if member in payers else hombre
        if premium > 0 and opponent != exempt:
            pay(payer, opponent, premium, _GAME_PREMIUM, premium_lost, premium_rules)
        for chips, reason, what, used in owed:
            pay(payer, opponent, chips, reason, what, used)


class HardScore(System):
    """P's hard score in chips (Quadrille, and Médiateur with Quanti's table)."""

    name: ClassVar[str] = "chips"
    units: ClassVar[str] = N_("chips")
    singular: ClassVar[str] = N_("chip")
    reads: ClassVar[frozenset[str]] = ENTRY_RULES | POOL_RULES | {
        R.SOLO_PREMIUM, R.UNIT, R.UNIT_ROUNDING, R.DOUBLE_MATADORS_SUITS, R.DOUBLE_MATADORS_PAY, R.LONG_MATADORS,
        R.CODILLE_PAYMENTS, R.VOLE_PAYMENT, R.VOLE_LOST_PAYS, R.ANNOUNCED_VOLE_PREMIUM, R.ANNOUNCED_VOLE_SHORT}

    def settle(self, deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
        return settle_chips(deal, state, rules, deals_agreed)


HARD_SCORE = HardScore()
