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

from .. import caches
from .. import rules as R
from ..book import (
    _ALONE_FOR_HER_ALLY,
    _DOES_NOT_DIVIDE,
    _HALF_EACH,
    _KEPT_TRANSFERS,
    _ODD_CHIPS_STAY,
    KEPT_TRANSFERS_MAX,
    Book,
    _codille_beast,
    _new_transfer,
    antes,
    beast,
    fish_for_the_king,
    hold_back_beasts,
    loss_payers,
    open_book,
    renounce_beasts,
    take_pool,
)
from ..context import DealContext, doubled_by, pairs
from ..i18n import N_, _
from ..model import (
    CONTRACT_KINDS,
    NOTHING_CARRIED,
    TRICKS,
    Account,
    Contract,
    ContractKind,
    Deal,
    Pot,
    Reason,
    Result,
    Settlement,
    Suit,
    TableState,
    Transfer,
    Vole,
)
from ..outcome import premium_only
from ..rules import HouseRules
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
QUANTI_MATADORS = {3: Rate(1, 2), 4: Rate(2, 4)}
QUANTI_PREMIERS = Rate(1, 2)
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


@dataclass(frozen=True)
class _Terms:
    """What this deal is worth, worked out once from the deal and the house rules."""

    unit: int
    favourite: bool
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


def _stake_for_the_unit(joined: int, single_antes: int) -> int:
    """The stake a unit is a quarter of: the pool in play, every chip in it when the deal is played (what it
    held after the last deal, a pool an earlier evening carried in, a waiting beast that joins) and this
    deal's antes, single ones on a deal paulans doubles (none where house rule antes skips them).

    P: "A unit means one quarter of the stake. The stake may be greater than four chips, as it is carried
    forward when a game is lost"; that a pool carried in from an earlier evening or a beast that joins
    counts as any other chip of the pool is the app's reading. ``joined`` is the pool once everything that
    joins it before the antes has joined (the general path's and the one pass's alike)."""
    return joined + single_antes


def _unit(stake: int, rules: HouseRules) -> int:
    if rules[R.UNIT] is R.Unit.ONE_CHIP:
        return 1
    return _quarter(stake, rules[R.UNIT_ROUNDING])


def _quarter(stake: int, rounding: R.UnitRounding) -> int:
    """A quarter of the stake, rounded as house rule unit_rounding says, at least one chip."""
    if rounding is R.UnitRounding.UP:
        quarter = -(-stake // 4)
    elif rounding is R.UnitRounding.NEAREST:
        quarter = (stake + 2) // 4
    else:
        quarter = stake // 4
    return max(1, quarter)


def _premium_units(deal: Deal, rules: HouseRules, favourite: bool) -> tuple[int, tuple[str, ...]]:
    """Units of game premium: the solo's per house rule, the others from Quanti's table."""
    solo = {R.SoloPremium.FOUR_UNITS: 4, R.SoloPremium.TWO_UNITS: 2, R.SoloPremium.NONE: 0}[rules[R.SOLO_PREMIUM]]
    solo *= 2 if favourite else 1
    if deal.contract in (Contract.SOLO, Contract.VOLE):
        return solo, (R.SOLO_PREMIUM,)
    if deal.is_secret_solo:
        # P: a secret solo wins or loses as a solo; EB: but sans appeler is not paid.
        return (solo if rules[R.OWN_KING] is R.OwnKing.SECRET_SOLO else 0), (R.OWN_KING, R.SOLO_PREMIUM)
    # Quanti's table: forced spadille and alliance 0 (1 in favourite), médiateur 1/2,
    # casco 2/4, grandissimo 8, nemo 16.
    return QUANTI_GAMES[deal.contract].of(favourite), ()


def _paid_as_three(deal: Deal, rules: HouseRules) -> bool:
    """A run of four or more in black trumps where double matadors need Punto (house rule
    double_matadors_suits, P: "of course possible only when a red suit was trump"): it is held,
    but pays as three matadors."""
    return (deal.matadors >= 4 and deal.trumps is not None and not deal.trumps.is_red
            and rules[R.DOUBLE_MATADORS_SUITS] is R.DoubleMatadorsSuits.RED_ONLY)


def _matador_units(deal: Deal, rules: HouseRules) -> tuple[int, tuple[str, ...]]:
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
    payment = ctx.rules[R.VOLE_PAYMENT]
    if deal.vole is Vole.NONE and not deal.kind.vole_announced:
        return 0
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


def _terms(ctx: DealContext, stake: int) -> _Terms:
    """What the deal is worth, from the stake the unit is reckoned on (:func:`_stake_for_the_unit`)."""
    deal, rules, favourite = ctx.deal, ctx.rules, ctx.favourite
    fav = ctx.favourite_factor
    unit = _unit(stake, rules) * ctx.paulans
    unit_rules = (R.UNIT,) + ((R.UNIT_ROUNDING,) if rules[R.UNIT] is R.Unit.QUARTER_OF_STAKE else ()) + ctx.doubling
    premium, premium_rules = _premium_units(deal, rules, favourite)
    matadors, matador_rules = _matador_units(deal, rules)
    if deal.kind.takes_king:
        premium_rules += (R.MEDIATEUR_KING,)
    return _Terms(
        unit=unit,
        favourite=favourite,
        premium=premium,
        matadors=matadors * fav,
        premiers=(PREMIERS_UNITS if deal.premiers else 0) * fav,
        vole_bonus=(VOLE_BONUS_UNITS * fav if rules[R.VOLE_PAYMENT] in (R.VolePayment.POOL_AND_BONUS, R.VolePayment.BONUS_ONLY) else 0),
        vole_premium=VOLE_BONUS_UNITS * fav,
        premium_rules=premium_rules + ctx.favourite_rules + unit_rules,
        matador_rules=matador_rules + ctx.favourite_rules + unit_rules,
        bonus_rules=ctx.favourite_rules + unit_rules,
        unit_rules=unit_rules,
    )


def settle_chips(deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int) -> Settlement:
    """The hard score of P: chips, a pool, beasts and a vole pool (Quadrille and Médiateur). A plain deal is settled
    in one pass (:func:`_settle_plain`), any other by the general path (:func:`settle_chips_general`)."""
    settled = _settle_plain(_plan_of(rules), deal, state, deals_agreed)
    return settle_chips_general(deal, state, rules, deals_agreed) if settled is None else settled


def settle_chips_general(deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int) -> Settlement:
    """The hard score of any deal, movement by movement (:class:`~scorer.core.book.Book`)."""
    ctx = DealContext.of(deal, state, rules, deals_agreed)
    book = open_book(ctx)
    joined = book.pots[Pot.POOL]  # a pool carried in and a waiting beast have joined it (open_book)
    single_antes = antes(book, ANTE_CHIPS)
    stake = book.pots[Pot.POOL]
    terms = _terms(ctx, _stake_for_the_unit(joined, single_antes))

    vole_stake = _vole_stake(ctx, terms.unit)
    if vole_stake:
        for player in state.order_from(deal.hombre):
            book.pay(player, Pot.VOLE_POOL, vole_stake, Reason.VOLE_STAKE, N_("stake for the vole"),
                     (R.VOLE_PAYMENT,) + ctx.favourite_rules + ctx.doubling)
    # EB, H47: a fish (two in favourite) in units of the deal.
    fish_for_the_king(book, ctx.favourite_factor * terms.unit, terms.unit_rules)

    result = ctx.result
    if premium_only(deal, rules):
        _premium_alone(book, terms, stake)
    elif result in (Result.WON, Result.VOLE_WON) or (result is Result.VOLE_LOST and not deal.vole_in_the_bid):
        _game_won(book, terms)
    elif result is Result.VOLE_LOST:
        _announced_vole_lost(book, terms, stake)
    else:
        _game_lost(book, terms, stake)
    if vole_stake:
        _share_vole_pool(book)
    renounce_beasts(book, stake)  # EB: a renounce the play proves
    hold_back_beasts(book)
    return book.settlement(terms.unit, stake)


def _announced_vole_lost(book: Book, terms: _Terms, stake: int) -> None:
    """P: a vole announced and lost with six tricks: the pool is neither won nor doubled."""
    ctx = book.ctx
    book.notes.append(f"the pool of {stake} stays for the next deal: a vole announced and lost neither wins nor doubles it (P)")
    if ctx.rules[R.ANNOUNCED_VOLE_PREMIUM] is R.AnnouncedVolePremium.VOLE_BONUS:
        for opponent in ctx.opponents:
            book.pay(ctx.deal.hombre, opponent, terms.vole_premium * terms.unit, Reason.VOLE_PREMIUM_LOST,
                     N_("premium of the vole announced and lost"), (R.ANNOUNCED_VOLE_PREMIUM,) + terms.bonus_rules)


def _share_vole_pool(book: Book) -> None:
    """The vole pool goes to the side that won or lost the vole, in equal shares (P)."""
    ctx = book.ctx
    won = ctx.result is Result.VOLE_WON
    winners = ctx.side if won else ctx.opponents
    share = book.pots[Pot.VOLE_POOL] // len(winners)
    what = N_("the vole won") if won else N_("the vole lost by Hombre's side")
    reason = Reason.VOLE_POOL_WON if won else Reason.VOLE_POOL_LOST
    for player in winners:
        book.pay(Pot.VOLE_POOL, player, share, reason, what, (R.VOLE_PAYMENT,))
    if book.pots[Pot.VOLE_POOL]:
        book.notes.append(f"{book.pots[Pot.VOLE_POOL]} chips of the vole pool do not divide: they stay for the next vole")


def _premium_alone(book: Book, terms: _Terms, stake: int) -> None:
    """Grandissimo and nemo paid by their premium only (house rule grandissimo_nemo): the pool stays."""
    deal = book.ctx.deal
    book.notes.append(f"the pool of {stake} stays: {deal.contract.english_label} is paid by its premium only (house rule {R.GRANDISSIMO_NEMO})")
    u = terms.unit
    won = book.ctx.result in (Result.WON, Result.VOLE_WON, Result.VOLE_LOST)
    for opponent in book.ctx.opponents:
        payer, payee = (opponent, deal.hombre) if won else (deal.hombre, opponent)
        book.pay(payer, payee, terms.premium * u, Reason.GAME_PREMIUM,
                 _premium_label(deal) + ("" if won else ", the game lost"), terms.premium_rules + (R.GRANDISSIMO_NEMO,))
        if won:
            book.pay(opponent, deal.hombre, terms.premiers * u, Reason.PREMIERS, N_("premiers"), terms.bonus_rules)


def _game_won(book: Book, terms: _Terms) -> None:
    ctx = book.ctx
    deal, rules, result, flow = ctx.deal, ctx.rules, ctx.result, ctx.flow
    take_pool(book)
    u = terms.unit
    # What each opponent pays each member, worked out once for the deal (not once a pair).
    premium = (terms.premium * u, Reason.GAME_PREMIUM, _premium_label(deal), terms.premium_rules + flow)
    owed = [(terms.matadors * u, Reason.MATADORS, _matadors_label(deal, rules), terms.matador_rules + flow),
            (terms.premiers * u, Reason.PREMIERS, N_("premiers"), terms.bonus_rules + flow)]
    if result is Result.VOLE_WON:
        owed.append((terms.vole_bonus * u, Reason.VOLE_BONUS, N_("the vole"), (R.VOLE_PAYMENT,) + terms.bonus_rules + flow))
    vole_lost = result is Result.VOLE_LOST and rules[R.VOLE_LOST_PAYS] is R.VoleLostPays.VOLE_BONUS
    vole_rules = (R.VOLE_LOST_PAYS,) + terms.bonus_rules + flow
    pay = book.pay
    for member, opponent in ctx.pairs:
        if opponent != ctx.exempt:
            pay(opponent, member, *premium)
        for chips, reason, what, used in owed:
            pay(opponent, member, chips, reason, what, used)
        if vole_lost:
            pay(member, opponent, terms.vole_premium * u, Reason.VOLE_PREMIUM_LOST, N_("the vole undertaken and lost"),
                vole_rules, "PG")


def _premium_label(deal: Deal) -> str:
    if deal.is_secret_solo:
        return N_("solo premium (her own King called: a secret solo)")
    return f"{deal.contract.english_label} premium"


def _matadors_label(deal: Deal, rules: HouseRules) -> str:
    if deal.matadors == 3:
        return N_("three matadors")
    if _paid_as_three(deal, rules):
        return f"{deal.matadors} matadors in black, paid as three: double matadors need Punto, a red trump (P)"
    if deal.matadors == 4:
        return N_("double matadors")
    return f"{deal.matadors} matadors"


def _game_lost(book: Book, terms: _Terms, stake: int) -> None:
    """Remise or codille: the beast, then (on a remise, or a codille where the house rule says so)
    what Hombre's side would have received."""
    ctx = book.ctx
    deal, rules, result, flow = ctx.deal, ctx.rules, ctx.result, ctx.flow
    payers, loss_rules = loss_payers(book)
    beast(book, stake, payers, loss_rules)

    pays_game = result is Result.REMISE or rules[R.CODILLE_PAYMENTS] is R.CodillePayments.WHAT_SHE_WOULD_HAVE_RECEIVED
    if not pays_game:
        return
    extra = (R.CODILLE_PAYMENTS,) if result is Result.CODILLE else ()
    u = terms.unit
    # What each member (or Hombre for her) pays each opponent, worked out once for the deal.
    premium = (terms.premium * u, Reason.GAME_PREMIUM, f"{_premium_label(deal)}, the game lost",
               terms.premium_rules + flow + loss_rules + extra)
    owed = [(terms.matadors * u, Reason.MATADORS, f"{_matadors_label(deal, rules)}, the game lost",
             terms.matador_rules + flow + loss_rules + extra)]
    if deal.vole_in_the_bid and rules[R.ANNOUNCED_VOLE_PREMIUM] is R.AnnouncedVolePremium.VOLE_BONUS:
        owed.append((terms.vole_premium * u, Reason.VOLE_PREMIUM_LOST, N_("premium of the vole announced and lost"),
                     (R.ANNOUNCED_VOLE_PREMIUM, R.ANNOUNCED_VOLE_SHORT) + terms.bonus_rules + extra))
    pay = book.pay
    for member, opponent in ctx.pairs:
        payer = member if member in payers else deal.hombre
        if opponent != ctx.exempt:
            pay(payer, opponent, *premium)
        for chips, reason, what, used in owed:
            pay(payer, opponent, chips, reason, what, used)


# --- a plain deal, settled in one pass (issue 16, point 2) -------------------------------------
#
# Most deals of an evening are plain: no vole, no play recorded card by card, nothing waiting on the
# table but the pool (and a vole pool left over). settle_chips settles such a deal here, in one pass
# over locals, with what repeats worked out once: the house rules a deal reads (_Plan, once per
# HouseRules), the seats, the antes' order and every possible side's opponents and pairs (_Seating,
# once per table), and what a deal is worth in units (_Worth, once per kind of deal). Every other
# deal, and any deal whose names are not the table's, goes through the general path above (Book and
# DealContext), which this one must match transfer for transfer, state for state and word for word
# (tests/test_replay_fast.py compares them over random deals of every profile).

_Side = tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, str, int, int], ...], tuple[str, ...], tuple[int, ...],
              tuple[int, ...]]
"""A contracting side at one table: (side, opponents, pairs as (member, opponent, member's seat,
opponent's seat), the rules of the flow, the side's seats, the opponents' seats)."""


class _Seating:
    """One table under one set of house rules: the seats, each dealer's antes, each side's opponents and pairs."""

    __slots__ = ("players", "seat", "sides", "antes", "plan")

    def __init__(self, players: tuple[str, ...], plan: _Plan) -> None:
        self.players = players
        self.plan = plan
        self.seat = {player: i for i, player in enumerate(players)}
        n = len(players)
        self.sides = [[self._side(h, a) for a in range(n + 1)] for h in range(n)]
        """``sides[h][a]``: Hombre in seat h, her ally in seat a (``a == n``: no ally; ``a == h`` is never read)."""
        self.antes: dict[tuple[int, int], tuple[Transfer, ...]] = {}
        """The antes' transfers by the dealer's seat and paulans' factor."""

    def _side(self, h: int, a: int) -> _Side:
        players, seat = self.players, self.seat
        hombre = players[h]
        side = (hombre,) if a >= len(players) or a == h else (hombre, players[a])
        after = h + 1  # from Hombre's right, as DealContext.of
        opponents = tuple(p for p in players[after:] + players[:after] if p not in side)
        paired = tuple((m, o, seat[m], seat[o]) for m, o in pairs(side, opponents, self.plan.rules))
        return (side, opponents, paired, (R.BONUS_FLOW,) if len(side) == 2 else (), tuple(seat[p] for p in side),
                tuple(seat[p] for p in opponents))

    def antes_of(self, dealer: int, factor: int) -> tuple[Transfer, ...]:
        """The antes (book.antes) from the dealer in seat ``dealer``, made once."""
        made = self.antes.get((dealer, factor))
        if made is None:
            players, plan = self.players, self.plan
            used = (R.ANTE_BY, R.ANTES) + ((R.PAULANS,) if factor == 2 else ())
            if plan.ante_by_dealer:
                made = (Transfer(players[dealer], Pot.POOL, 4 * ANTE_CHIPS * factor, Reason.ANTE, N_("the dealer's ante"), used),)
            else:
                eldest = dealer + 1
                made = tuple(Transfer(p, Pot.POOL, ANTE_CHIPS * factor, Reason.ANTE, N_("ante"), used)
                             for p in players[eldest:] + players[:eldest])
            self.antes[(dealer, factor)] = made
        return made


@dataclass(frozen=True, slots=True)
class _Worth:
    """What a kind of deal is worth (the general path's _Terms but the unit), with its words, made once."""

    premium: int
    premium_rules: tuple[str, ...]
    matadors: int
    matador_rules: tuple[str, ...]
    premiers: int
    bonus_rules: tuple[str, ...]
    premium_label: str
    matadors_label: str
    fish: int
    """Units of the fish for the médiateur King (two in favourite)."""
    fish_rules: tuple[str, ...]
    beast_doubled_by: tuple[str, ...]


class _Plan:
    """The house rules a plain deal reads, looked up once per :class:`HouseRules`."""

    __slots__ = ("rules", "plain", "renounces_beasted", "antes_every_deal", "ante_by_dealer", "paulans", "favourite_none",
                 "favourite_each_deal", "favourite_suit", "quarter", "rounding", "premium_only", "giver_paid",
                 "codille_whole", "codille_odd_stays", "codille_beast", "codille_pays", "odd_chip_to_hombre",
                 "alliance_loss_needed", "alliance_loss_note", "worths", "seatings")

    def __init__(self, rules: HouseRules) -> None:
        self.rules = rules
        self.plain = rules[R.CODILLE_INDIVISIBLE] is not R.CodilleIndivisible.ODD_TO_SPADILLE
        """Odd chips set aside for Spadille make the next deal another kind: the general path settles them."""
        self.renounces_beasted = rules[R.RENOUNCE_BEAST] is not R.RenounceBeast.NONE
        self.antes_every_deal = rules[R.ANTES] is R.Antes.EVERY_DEAL
        self.ante_by_dealer = rules[R.ANTE_BY] is R.AnteBy.DEALER
        self.paulans = rules[R.PAULANS]
        favourite = rules[R.FAVOURITE_SUIT]
        self.favourite_none = favourite is R.FavouriteSuit.NONE
        self.favourite_each_deal = favourite is R.FavouriteSuit.EACH_DEAL
        self.favourite_suit = None if self.favourite_none or self.favourite_each_deal else Suit(favourite.value)
        self.quarter = rules[R.UNIT] is R.Unit.QUARTER_OF_STAKE
        self.rounding = rules[R.UNIT_ROUNDING]
        self.premium_only = rules[R.GRANDISSIMO_NEMO] is R.GrandissimoNemo.PREMIUM_ONLY
        self.giver_paid = rules[R.MEDIATEUR_KING] is R.MediateurKing.GIVER_PAID_A_FISH
        indivisible = rules[R.CODILLE_INDIVISIBLE]
        self.codille_whole = indivisible is R.CodilleIndivisible.CARRY_WHOLE
        self.codille_odd_stays = indivisible is R.CodilleIndivisible.SPLIT_CARRY_ODD
        self.codille_beast = rules[R.CODILLE_BEAST]
        self.codille_pays = rules[R.CODILLE_PAYMENTS] is R.CodillePayments.WHAT_SHE_WOULD_HAVE_RECEIVED
        self.odd_chip_to_hombre = rules[R.ALLIANCE_ODD_CHIP] is R.AllianceOddChip.TO_HOMBRE
        loss = rules[R.ALLIANCE_LOSS]
        self.alliance_loss_needed = {R.AllianceLoss.SHARED_UNLESS_UNDER_3: 3, R.AllianceLoss.SHARED_UNLESS_UNDER_4: 4,
                                     R.AllianceLoss.HOMBRE_ALONE: TRICKS + 1}[loss]
        self.alliance_loss_note = loss is not R.AllianceLoss.HOMBRE_ALONE
        self.worths: dict[tuple[object, ...], _Worth] = {}
        self.seatings: dict[tuple[str, ...], _Seating] = {}

    def unit(self, stake: int) -> int:
        """_unit, from the values read once."""
        return _quarter(stake, self.rounding) if self.quarter else 1

    def favourite(self, deal: Deal) -> bool:
        """outcome.in_favourite, from the values read once."""
        if self.favourite_none or deal.trumps is None:
            return False
        return deal.trumps is (deal.favourite if self.favourite_each_deal else self.favourite_suit)

    def seating(self, players: tuple[str, ...]) -> _Seating:
        seating = self.seatings.get(players)
        if seating is None:
            if len(self.seatings) >= _SEATINGS_MAX:
                self.seatings.clear()
            seating = self.seatings[players] = _Seating(players, self)
        return seating

    def worth(self, deal: Deal, state: TableState, deals_agreed: int, key: tuple[object, ...]) -> _Worth:
        """What the deal is worth, worked out by the general path's own functions the first time a kind of deal comes."""
        worth = self.worths.get(key)
        if worth is None:
            if len(self.worths) >= _WORTHS_MAX:
                self.worths.clear()
            ctx = DealContext.of(deal, state, self.rules, deals_agreed)
            terms = _terms(ctx, 0)
            worth = self.worths[key] = _Worth(
                terms.premium, terms.premium_rules, terms.matadors, terms.matador_rules, terms.premiers, terms.bonus_rules,
                _premium_label(deal), _matadors_label(deal, self.rules), ctx.favourite_factor,
                (R.MEDIATEUR_KING,) + ctx.favourite_rules + terms.unit_rules, ctx.beast_doubled_by)
        return worth


_PLANS: dict[int, tuple[HouseRules, _Plan]] = {}
"""Plans by the id of the house rules asked for, with those rules (held, so that an id is not reused while it is kept):
a replay asks with the same rules every deal, and an id is found faster than the rules' own hash."""
_PLANS_BY_RULES: dict[HouseRules, _Plan] = {}
"""Plans by equal house rules: a request that builds its table's rules afresh finds the plan already made."""
_PLANS_MAX = 16
"""Distinct house rules planned at once (both lookups emptied together, so no more plans are alive)."""
_SEATINGS_MAX = 128
"""Tables (their four names in order) a plan keeps, about 18 kB each."""
_WORTHS_MAX = 512
"""Kinds of deal a plan keeps, under 1 kB each. At most about 16 × (128 × 18 + 512 × 0.75) kB, 43 MB, in all."""


def _forget_plans() -> None:
    """Both lookups emptied at once (a plan dropped from one must not live on in the other)."""
    _PLANS.clear()
    _PLANS_BY_RULES.clear()


caches.register(f"{__name__}._PLANS", _forget_plans)
caches.register(f"{__name__}._PLANS_BY_RULES", _forget_plans)


def _plan_of(rules: HouseRules) -> _Plan:
    found = _PLANS.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    if len(_PLANS) >= _PLANS_MAX or len(_PLANS_BY_RULES) >= _PLANS_MAX:
        _forget_plans()
    plan = _PLANS_BY_RULES.get(rules)
    if plan is None:
        plan = _PLANS_BY_RULES[rules] = _Plan(rules)
    _PLANS[id(rules)] = (rules, plan)
    return plan


def _is_plain(plan: _Plan, deal: Deal, state: TableState, kind: ContractKind) -> bool:
    """A deal the one-pass settlement covers: no vole, no beast from the play, no premium alone, and nothing on
    the table but the pool and a vole pool (no odd chips for Spadille, no beast waiting, no circle pool)."""
    if not plan.plain or state.spadille_reserve or state.beasts_waiting or state.circle_pool:
        return False
    if state.carried is not NOTHING_CARRIED or deal.vole is not Vole.NONE or kind.vole_announced:
        return False
    if deal.play is not None and plan.renounces_beasted:
        return False
    return not (plan.premium_only and deal.contract in (Contract.GRANDISSIMO, Contract.NEMO))


class _Pass:
    """One plain deal being settled: what it reads (plan, deal, unit, stake, the King's exempt giver) and what it
    changes (the balances by seat, the pool, the transfers and the notes)."""

    __slots__ = ("plan", "deal", "hombre", "h", "unit", "stake", "exempt", "balances", "pool", "transfers", "notes")

    def __init__(self, plan: _Plan, deal: Deal, h: int, balances: list[int], pool: int) -> None:
        self.plan = plan
        self.deal = deal
        self.hombre = deal.hombre
        self.h = h
        """Hombre's seat."""
        self.unit = 1
        self.stake = pool
        """The pool after the antes."""
        self.exempt: str | None = None
        self.balances = balances
        self.pool = pool
        self.transfers: list[Transfer] = []
        self.notes: list[str] = []


def _kept(t: tuple[Account, Account, int, Reason, str, tuple[str, ...], str]) -> Transfer:
    """A transfer (Book.pay's), kept once."""
    transfer = _new_transfer(Transfer, t)
    return _KEPT_TRANSFERS.setdefault(transfer, transfer)


def _settle_plain(plan: _Plan, deal: Deal, state: TableState, deals_agreed: int) -> Settlement | None:
    """A plain deal settled in one pass (the general path's result, transfer for transfer), or None for any other."""
    kind = CONTRACT_KINDS[deal.contract]
    if not _is_plain(plan, deal, state, kind):
        return None
    seating = plan.seating(state.players)
    seat = seating.seat
    seats = _seats_of(seat, deal, kind)
    if seats is None:
        return None  # a name not at the table: the general path says what it says
    h, d, a = seats
    if len(_KEPT_TRANSFERS) >= KEPT_TRANSFERS_MAX:
        _KEPT_TRANSFERS.clear()
    number = state.deals_played + 1
    doubled = doubled_by(number, deals_agreed, plan.paulans)
    factor = 2 if doubled else 1
    one = _Pass(plan, deal, h, list(state.balances), state.pool)
    joined = one.pool  # nothing joins a plain deal's pool before the antes (no beast waiting, no circle pool)
    single = _antes(one, seating, d, factor)
    worth = plan.worth(deal, state, deals_agreed, (deal.contract, deal.ally == deal.hombre, plan.favourite(deal), doubled,
                                                   deal.matadors, deal.premiers, deal.trumps))
    one.unit = plan.unit(_stake_for_the_unit(joined, single)) * factor
    if kind.takes_king and deal.giver is not None:
        _the_kings_giver(one, seat, worth)
    side = seating.sides[h][a]
    result = _plain_result(deal, kind, a != len(seat))
    if result is Result.WON:
        _won_plain(one, side, worth)
    else:
        _lost_plain(one, side, worth, kind, result)
    return _plain_settlement(one, number, result, state)


def _seats_of(seat: dict[str, int], deal: Deal, kind: ContractKind) -> tuple[int, int, int] | None:
    """The seats of Hombre, the dealer and her ally (``len(seat)``: no ally, as in a secret solo), or None
    if any of them, or the médiateur King's giver, is not at the table."""
    h, d = seat.get(deal.hombre), seat.get(deal.dealer)
    ally = deal.ally
    a = len(seat) if ally is None or ally == deal.hombre else seat.get(ally)
    if h is None or d is None or a is None or (kind.takes_king and deal.giver is not None and deal.giver not in seat):
        return None
    return h, d, a


def _antes(one: _Pass, seating: _Seating, dealer: int, factor: int) -> int:
    """book.antes: the antes from the dealer's right, or the dealer's; return the single stake put in (0: none)."""
    plan = one.plan
    if not (plan.antes_every_deal or one.pool == 0):
        return 0
    one.transfers.extend(seating.antes_of(dealer, factor))
    if plan.ante_by_dealer:
        one.balances[dealer] -= 4 * ANTE_CHIPS * factor
        one.pool += 4 * ANTE_CHIPS * factor
    else:
        one.balances = [b - ANTE_CHIPS * factor for b in one.balances]
        one.pool += len(one.balances) * ANTE_CHIPS * factor
    one.stake = one.pool
    return 4 * ANTE_CHIPS


def _plain_result(deal: Deal, kind: ContractKind, allied: bool) -> Result:
    """outcome.result_of for a plain deal (no vole, no premium alone)."""
    tricks = deal.hombre_tricks + ((deal.ally_tricks or 0) if allied else 0)
    if kind.nemo:
        return Result.WON if tricks == 0 else Result.REMISE
    if tricks >= 6:
        return Result.WON
    return Result.REMISE if tricks == 5 else Result.CODILLE


def _the_kings_giver(one: _Pass, seat: dict[str, int], worth: _Worth) -> None:
    """Who gave the médiateur King (house rule mediateur_king): paid a fish by Hombre (book.fish_for_the_king),
    or exempt from its premium."""
    giver = one.deal.giver
    assert giver is not None
    if not one.plan.giver_paid:
        one.exempt = giver
        return
    chips = worth.fish * one.unit
    if chips > 0:
        one.transfers.append(_kept((one.hombre, giver, chips, Reason.MEDIATEUR_KING, N_("a fish for the médiateur King"),
                                    worth.fish_rules, "EB")))
        one.balances[one.h] -= chips
        one.balances[seat[giver]] += chips


def _won_plain(one: _Pass, side: _Side, worth: _Worth) -> None:
    """_game_won for a plain deal: the pool taken (book.take_pool), then each opponent pays each member."""
    members, _opponents, paired, flow, seats, _opponent_seats = side
    balances, append, unit, exempt = one.balances, one.transfers.append, one.unit, one.exempt
    if len(members) == 1:
        pool = one.pool
        if pool > 0:
            append(_kept((Pot.POOL, one.hombre, pool, Reason.POOL_SWEPT, N_("the game won, Hombre sweeps the pool"), (), "P")))
            balances[one.h] += pool
            one.pool = 0
    else:
        _share_pool(one, members[1], seats[1])
    premium, matadors, premiers = worth.premium * unit, worth.matadors * unit, worth.premiers * unit
    premium_rules, matador_rules, bonus_rules = worth.premium_rules + flow, worth.matador_rules + flow, worth.bonus_rules + flow
    for member, opponent, m, o in paired:
        if opponent != exempt and premium > 0:
            append(_kept((opponent, member, premium, Reason.GAME_PREMIUM, worth.premium_label, premium_rules, "P")))
            balances[o] -= premium
            balances[m] += premium
        if matadors > 0:
            append(_kept((opponent, member, matadors, Reason.MATADORS, worth.matadors_label, matador_rules, "P")))
            balances[o] -= matadors
            balances[m] += matadors
        if premiers > 0:
            append(_kept((opponent, member, premiers, Reason.PREMIERS, N_("premiers"), bonus_rules, "P")))
            balances[o] -= premiers
            balances[m] += premiers


def _share_pool(one: _Pass, ally: str, a: int) -> None:
    """book.take_pool for an alliance: Hombre and her ally divide the pool."""
    pool = one.pool
    half = pool // 2
    odd = pool - 2 * half
    odd_rules = (R.ALLIANCE_ODD_CHIP,) if odd else ()
    to_hombre = half + (odd if one.plan.odd_chip_to_hombre else 0)
    if to_hombre > 0:
        one.transfers.append(_kept((Pot.POOL, one.hombre, to_hombre, Reason.POOL_SHARED,
                                    N_("her half of the pool, the game won"), odd_rules, "P")))
        one.balances[one.h] += to_hombre
        one.pool -= to_hombre
    if half > 0:
        one.transfers.append(_kept((Pot.POOL, ally, half, Reason.POOL_SHARED, N_("the ally's half of the pool, the game won"),
                                    odd_rules, "P")))
        one.balances[a] += half
        one.pool -= half


def _plain_payers(one: _Pass, side: _Side, kind: ContractKind) -> tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]:
    """book.loss_payers: who pays a lost game (names and seats), and the house rules that said so."""
    members, seats = side[0], side[4]
    if len(members) < 2 or kind.loss != "three_trick_rule":
        return members, seats, ()
    tricks = one.deal.hombre_tricks
    if tricks >= one.plan.alliance_loss_needed:
        return members, seats, (R.ALLIANCE_LOSS,)
    if one.plan.alliance_loss_note:
        one.notes.append(_ALONE_FOR_HER_ALLY.format(n=tricks))
    return (one.hombre,), (one.h,), (R.ALLIANCE_LOSS,)


def _lost_plain(one: _Pass, side: _Side, worth: _Worth, kind: ContractKind, result: Result) -> None:
    """_game_lost for a plain deal: the beast (book.beast), then what Hombre's side would have received."""
    payers, payer_seats, loss_rules = _plain_payers(one, side, kind)
    if result is Result.REMISE:
        chips, reason, what, source = one.stake, Reason.REMISE_BEAST, N_("remise: the pool doubled"), "P"
        used: tuple[str, ...] = (R.REMISE_BEAST,)
        one.notes.append(N_("remise: the pool is doubled and carried forward"))
    else:
        taken = _plain_codille_sweep(one, side)
        chips, source = _codille_beast(one.plan.codille_beast, one.stake, taken, one.notes)
        reason, what, used = Reason.CODILLE_BEAST, N_("codille beast"), (R.CODILLE_BEAST,)
    if worth.beast_doubled_by:
        chips *= 2
        used += worth.beast_doubled_by
    _plain_beast(one, (payers, payer_seats), chips, (reason, what, used + loss_rules, source))
    if result is Result.CODILLE and not one.plan.codille_pays:
        return
    extra = (R.CODILLE_PAYMENTS,) if result is Result.CODILLE else ()
    paired, flow = side[2], side[3]
    unit, exempt, balances, append, hombre, h = one.unit, one.exempt, one.balances, one.transfers.append, one.hombre, one.h
    premium, matadors = worth.premium * unit, worth.matadors * unit
    premium_what, matadors_what = f"{worth.premium_label}, the game lost", f"{worth.matadors_label}, the game lost"
    premium_rules = worth.premium_rules + flow + loss_rules + extra
    matador_rules = worth.matador_rules + flow + loss_rules + extra
    for member, opponent, m, o in paired:
        payer, p = (member, m) if member in payers else (hombre, h)
        if opponent != exempt and premium > 0:
            append(_kept((payer, opponent, premium, Reason.GAME_PREMIUM, premium_what, premium_rules, "P")))
            balances[p] -= premium
            balances[o] += premium
        if matadors > 0:
            append(_kept((payer, opponent, matadors, Reason.MATADORS, matadors_what, matador_rules, "P")))
            balances[p] -= matadors
            balances[o] += matadors


def _plain_codille_sweep(one: _Pass, side: _Side) -> int:
    """book.codille_sweep (odd chips never set aside for Spadille here): the opponents divide the pool."""
    opponents, seats = side[1], side[5]
    stake, plan = one.stake, one.plan
    n = len(opponents)
    each = stake // n
    odd = stake - each * n
    if odd and plan.codille_whole:
        one.notes.append(_DOES_NOT_DIVIDE.format(stake=stake, n=n))
        return 0
    if each > 0:
        used = (R.CODILLE_INDIVISIBLE,) if odd else ()
        for opponent, o in zip(opponents, seats):
            one.transfers.append(_kept((Pot.POOL, opponent, each, Reason.CODILLE_SHARE,
                                        N_("codille: the opponents divide the pool"), used, "P")))
            one.balances[o] += each
        one.pool -= each * n
    if odd and plan.codille_odd_stays:
        one.notes.append(_ODD_CHIPS_STAY.format(odd=odd))
    return each * n


def _plain_beast(one: _Pass, payers: tuple[tuple[str, ...], tuple[int, ...]], chips: int,
                 entry: tuple[Reason, str, tuple[str, ...], str]) -> None:
    """book.share: the beast paid into the pool by the payers, half each (Hombre pays an odd chip)."""
    names, seats = payers
    reason, what, used, source = entry
    if len(names) == 1:
        if chips > 0:
            one.transfers.append(_kept((names[0], Pot.POOL, chips, reason, what, used, source)))
            one.balances[seats[0]] -= chips
            one.pool += chips
        return
    half = chips // 2
    what = _HALF_EACH.format(what=what)
    for payer, p in zip(names, seats):
        paid = chips - half if payer == one.hombre else half
        if paid > 0:
            one.transfers.append(_kept((payer, Pot.POOL, paid, reason, what, used, source)))
            one.balances[p] -= paid
            one.pool += paid


def _plain_settlement(one: _Pass, number: int, result: Result, before: TableState) -> Settlement:
    """Book.settlement for a plain deal: chips conserved (only the balances and the pool moved)."""
    balances, pool = one.balances, one.pool
    if sum(balances) + pool != sum(before.balances) + before.pool:  # pragma: no cover - a bug, not bad input
        raise AssertionError(f"chips not conserved in deal {number}: {before.total} before, "
                             f"{sum(balances) + pool + before.vole_pool} after")
    deal = one.deal
    after = TableState(players=before.players, balances=tuple(balances), pool=pool, vole_pool=before.vole_pool,
                       spadille_reserve=0, spadille_takers=(), beasts_waiting=(), circle_pool=0, deals_played=number,
                       last_dealer=deal.dealer)
    return Settlement(number, deal, result, tuple(one.transfers), before, after, one.unit, one.stake, tuple(one.notes))


class HardScore(System):
    """P's hard score in chips (Quadrille, and Médiateur with Quanti's table)."""

    name: ClassVar[str] = "chips"
    units: ClassVar[str] = N_("chips")
    singular: ClassVar[str] = N_("chip")
    reads: ClassVar[frozenset[str]] = ENTRY_RULES | POOL_RULES | {
        R.SOLO_PREMIUM, R.UNIT, R.UNIT_ROUNDING, R.DOUBLE_MATADORS_SUITS, R.DOUBLE_MATADORS_PAY, R.LONG_MATADORS,
        R.CODILLE_PAYMENTS, R.VOLE_PAYMENT, R.VOLE_LOST_PAYS, R.ANNOUNCED_VOLE_PREMIUM, R.ANNOUNCED_VOLE_SHORT}

    def settle(self, deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int) -> Settlement:
        return settle_chips(deal, state, rules, deals_agreed)


HARD_SCORE = HardScore()
