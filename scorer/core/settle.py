"""Settling one deal of Quadrille: every chip transfer, explained.

``settle(deal, state, rules)`` checks the deal, then moves chips in the
order they move at a real table: odd chips reserved for Spadille, antes,
the vole stake, then the pool and the payments of the result. Every
movement is a :class:`Transfer` naming its reason and the house rules
that decided it. Nothing is settled from a deal that fails its checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import rules as R
from .checks import check_deal, spadille_holder
from .outcome import premium_only, result_of
from .points import settle_points
from .model import (
    TRICKS,
    Account,
    Contract,
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
from .rules import (
    QUANTI_GAMES,
    QUANTI_VOLES_ANNOUNCED,
    QUANTI_VOLES_REVEALED,
    QUANTI_VOLES_UNDERTAKEN,
    HouseRules,
)

VOLE_STAKE_CHIPS = 3
"""P: every player pays three chips into the vole pool (12 in all)."""
VOLE_BONUS_UNITS = 2
"""P's list and PG: the vole is worth 2 units from each opponent."""
PREMIERS_UNITS = 1
ANTE_CHIPS = 1
"""P: each player stakes one chip, or the dealer four."""


# --- settlement -------------------------------------------------------------


def _label(account: Account) -> str:
    return account.label if isinstance(account, Pot) else account


def _sentence(payer: Account, payee: Account, chips: int, what: str) -> str:
    if isinstance(payer, Pot) and isinstance(payee, Pot):
        return f"{chips} go from {_label(payer)} to {_label(payee)} — {what}"
    if isinstance(payer, Pot):
        return f"{_label(payee)} takes {chips} from {_label(payer)} — {what}"
    if isinstance(payee, Pot):
        return f"{_label(payer)} puts {chips} into {_label(payee)} — {what}"
    return f"{payer} pays {payee} {chips} — {what}"


class _Book:
    """Moves chips between accounts and keeps the transfers in order."""

    def __init__(self, state: TableState) -> None:
        self.balances = dict(zip(state.players, state.balances))
        self.pots = {Pot.POOL: state.pool, Pot.VOLE_POOL: state.vole_pool, Pot.SPADILLE_RESERVE: state.spadille_reserve}
        self.transfers: list[Transfer] = []

    def pay(
        self, payer: Account, payee: Account, chips: int, reason: Reason, what: str, rules: tuple[str, ...] = (), source: str = "P"
    ) -> None:
        if chips <= 0:
            return
        for account, sign in ((payer, -1), (payee, +1)):
            if isinstance(account, Pot):
                self.pots[account] += sign * chips
            else:
                self.balances[account] += sign * chips
        self.transfers.append(Transfer(payer, payee, chips, reason, _sentence(payer, payee, chips, what), rules, source))


@dataclass(frozen=True)
class _Terms:
    """What this deal is worth, worked out once from the deal and the house rules."""

    unit: int
    favourite: bool
    premium: int
    matadors: int
    premiers: int
    vole_bonus: int
    vole_stake: int
    """Chips each player pays into the vole pool (0: no vole pool)."""
    premium_rules: tuple[str, ...]
    matador_rules: tuple[str, ...]
    bonus_rules: tuple[str, ...]


def _unit(stake: int, rules: HouseRules) -> int:
    if rules[R.UNIT] == "one_chip":
        return 1
    rounding = rules[R.UNIT_ROUNDING]
    if rounding == "up":
        quarter = -(-stake // 4)
    elif rounding == "nearest":
        quarter = (stake + 2) // 4
    else:
        quarter = stake // 4
    return max(1, quarter)


def in_favourite(deal: Deal, rules: HouseRules) -> bool:
    """Trumps are the favourite suit of the evening, or of this deal (P, Médiateur)."""
    favourite = rules[R.FAVOURITE_SUIT]
    if favourite == "none" or deal.trumps is None:
        return False
    suit = deal.favourite if favourite == "each_deal" else Suit(favourite)
    return deal.trumps is suit


def _premium_units(deal: Deal, rules: HouseRules, favourite: bool) -> tuple[int, tuple[str, ...]]:
    """Units of game premium: the solo's per house rule, the others from Quanti's table."""
    solo = {"four_units": 4, "two_units": 2, "none": 0}[rules[R.SOLO_PREMIUM]] * (2 if favourite else 1)
    if deal.contract in (Contract.SOLO, Contract.VOLE):
        return solo, (R.SOLO_PREMIUM,)
    if deal.is_secret_solo:
        # P: a secret solo wins or loses as a solo; EB: but sans appeler is not paid.
        return (solo if rules[R.OWN_KING] == "secret_solo" else 0), (R.OWN_KING, R.SOLO_PREMIUM)
    # Quanti's table: forced spadille and alliance 0 (1 in favourite), médiateur 1/2,
    # casco 2/4, grandissimo 8, nemo 16.
    return QUANTI_GAMES[deal.contract].of(favourite), ()


def _matador_units(deal: Deal, rules: HouseRules) -> tuple[int, tuple[str, ...]]:
    m = deal.matadors
    if m < 3:
        return 0, ()
    if m == 3:
        return 1, (R.MATADORS_PAID,)
    used: tuple[str, ...] = (R.MATADORS_PAID, R.DOUBLE_MATADORS_SUITS, R.DOUBLE_MATADORS_PAY)
    units = 2 if rules[R.DOUBLE_MATADORS_PAY] == "instead" else 3
    if m > 4:
        used += (R.LONG_MATADORS,)
        if rules[R.LONG_MATADORS] == "one_more_each":
            units += m - 4
    return units, used


def _vole_stake(deal: Deal, rules: HouseRules, unit: int, favourite: bool, factor: int) -> int:
    """Chips each player pays into the vole pool when a vole is announced or undertaken."""
    payment = rules[R.VOLE_PAYMENT]
    if deal.vole is Vole.NONE and not deal.kind.vole_announced:
        return 0
    if payment in ("pool_and_bonus", "pool_only"):
        return VOLE_STAKE_CHIPS * factor * (2 if favourite else 1)
    if payment == "quanti_table":
        if deal.vole is Vole.REVEALED:
            table = QUANTI_VOLES_REVEALED
        elif deal.vole_in_the_bid:
            table = QUANTI_VOLES_ANNOUNCED
        else:
            table = QUANTI_VOLES_UNDERTAKEN
        return table[deal.contract].of(favourite) * unit
    return 0


def _doubled(number: int, deals_agreed: int, rules: HouseRules) -> bool:
    paulans = rules[R.PAULANS]
    if paulans == "last_deal":
        return number == deals_agreed
    if paulans == "last_round":
        return deals_agreed - 4 < number <= deals_agreed
    return False


def settle(deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int = 40) -> Settlement:
    """Settle one deal: check it, then return its transfers and the table's state after.

    ``deals_agreed`` is the length of the evening, needed only for paulans.
    Raises :class:`ImpossibleDeal` (and settles nothing) for a deal that could
    not have happened or that the house rules forbid.
    """
    check_deal(deal, state, rules)
    return SYSTEMS[rules.profile.system](deal, state, rules, deals_agreed)


def settle_chips(deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int) -> Settlement:
    """The hard score of P: chips, a pool, beasts and a vole pool (Quadrille and Médiateur)."""
    number = state.deals_played + 1
    factor = 2 if _doubled(number, deals_agreed, rules) else 1
    doubling: tuple[str, ...] = (R.PAULANS,) if factor == 2 else ()
    book = _Book(state)
    notes: list[str] = []

    # EB: odd chips of the last codille belong to whoever holds Spadille now.
    holder = spadille_holder(deal)
    if holder is not None:
        book.pay(Pot.SPADILLE_RESERVE, holder, state.spadille_reserve, Reason.ODD_CHIPS_TO_SPADILLE,
                 "odd chips of the last codille, for holding Spadille", (R.CODILLE_INDIVISIBLE,), "EB")

    # Antes (P: each stakes one chip before each deal, or the dealer four).
    ante_rules = (R.ANTE_BY, R.ANTES) + doubling
    single_antes = 0
    if rules[R.ANTES] == "every_deal" or state.pool == 0:
        single_antes = 4 * ANTE_CHIPS
        if rules[R.ANTE_BY] == "dealer":
            book.pay(deal.dealer, Pot.POOL, single_antes * factor, Reason.ANTE, "the dealer's ante", ante_rules)
        else:
            for player in state.order_from(state.eldest(deal.dealer)):
                book.pay(player, Pot.POOL, ANTE_CHIPS * factor, Reason.ANTE, "ante", ante_rules)
    stake = book.pots[Pot.POOL]
    unit = _unit(state.pool + single_antes, rules) * factor
    unit_rules = (R.UNIT,) + ((R.UNIT_ROUNDING,) if rules[R.UNIT] == "quarter_of_stake" else ()) + doubling

    favourite = in_favourite(deal, rules)
    fav = 2 if favourite else 1
    fav_rules = (R.FAVOURITE_SUIT,) if favourite else ()
    result = result_of(deal, rules)

    vole_stake = _vole_stake(deal, rules, unit, favourite, factor)
    if vole_stake:
        for player in state.order_from(deal.hombre):
            book.pay(player, Pot.VOLE_POOL, vole_stake, Reason.VOLE_STAKE, "stake for the vole",
                     (R.VOLE_PAYMENT,) + fav_rules + doubling)

    if deal.kind.takes_king and rules[R.MEDIATEUR_KING] == "giver_paid_a_fish" and deal.giver is not None:
        # EB, H47: Hombre gives a fish with the card she returns for the King (two in favourite).
        book.pay(deal.hombre, deal.giver, fav * unit, Reason.MEDIATEUR_KING, "a fish for the médiateur King",
                 (R.MEDIATEUR_KING,) + fav_rules + unit_rules, "EB")

    premium, premium_rules = _premium_units(deal, rules, favourite)
    matadors, matador_rules = _matador_units(deal, rules)
    if deal.kind.takes_king:
        premium_rules += (R.MEDIATEUR_KING,)
    terms = _Terms(
        unit=unit,
        favourite=favourite,
        premium=premium,
        matadors=matadors * fav,
        premiers=(PREMIERS_UNITS if deal.premiers else 0) * fav,
        vole_bonus=(VOLE_BONUS_UNITS * fav if rules[R.VOLE_PAYMENT] in ("pool_and_bonus", "bonus_only") else 0),
        vole_stake=vole_stake,
        premium_rules=premium_rules + fav_rules + unit_rules,
        matador_rules=matador_rules + fav_rules + unit_rules,
        bonus_rules=fav_rules + unit_rules,
    )

    side = deal.side
    opponents = tuple(p for p in state.order_from(state.right_of(deal.hombre)) if p not in side)
    flow = (R.BONUS_FLOW,) if len(side) == 2 else ()

    if premium_only(deal, rules):
        _premium_alone(deal, book, result, terms, opponents, notes, stake)
    elif result in (Result.WON, Result.VOLE_WON) or (result is Result.VOLE_LOST and not deal.vole_in_the_bid):
        _game_won(deal, book, result, terms, side, opponents, rules, flow)
    elif result is Result.VOLE_LOST:
        # P: a vole announced and lost with six tricks: the pool is neither won nor doubled.
        notes.append(f"the pool of {stake} stays for the next deal: a vole announced and lost neither wins nor doubles it (P)")
        if rules[R.ANNOUNCED_VOLE_PREMIUM] == "vole_bonus":
            for opponent in opponents:
                book.pay(deal.hombre, opponent, VOLE_BONUS_UNITS * fav * unit, Reason.VOLE_PREMIUM_LOST,
                         "premium of the vole announced and lost", (R.ANNOUNCED_VOLE_PREMIUM,) + terms.bonus_rules)
    else:
        _game_lost(deal, book, result, terms, side, opponents, rules, flow, notes, stake)

    # The vole pool goes to the side that won or lost the vole, in equal shares (P).
    if vole_stake:
        winners = side if result is Result.VOLE_WON else opponents
        share = book.pots[Pot.VOLE_POOL] // len(winners)
        what = "the vole won" if result is Result.VOLE_WON else "the vole lost by Hombre's side"
        reason = Reason.VOLE_POOL_WON if result is Result.VOLE_WON else Reason.VOLE_POOL_LOST
        for player in winners:
            book.pay(Pot.VOLE_POOL, player, share, reason, what, (R.VOLE_PAYMENT,))
        if book.pots[Pot.VOLE_POOL]:
            notes.append(f"{book.pots[Pot.VOLE_POOL]} chips of the vole pool do not divide: they stay for the next vole")

    return _settlement(number, deal, result, book, state, unit, stake, notes)


def _settlement(number: int, deal: Deal, result: Result, book: _Book, state: TableState, unit: int, stake: int,
                notes: list[str]) -> Settlement:
    after = TableState(
        players=state.players,
        balances=tuple(book.balances[p] for p in state.players),
        pool=book.pots[Pot.POOL],
        vole_pool=book.pots[Pot.VOLE_POOL],
        spadille_reserve=book.pots[Pot.SPADILLE_RESERVE],
        deals_played=number,
        last_dealer=deal.dealer,
    )
    if after.total != state.total:  # pragma: no cover - a broken invariant is a bug, not bad input
        raise AssertionError(f"chips not conserved in deal {number}: {state.total} before, {after.total} after")
    return Settlement(number, deal, result, tuple(book.transfers), state, after, unit, stake, tuple(notes))


def _premium_alone(deal: Deal, book: _Book, result: Result, terms: _Terms, opponents: tuple[str, ...],
                   notes: list[str], stake: int) -> None:
    """Grandissimo and nemo paid by their premium only (house rule grandissimo_nemo): the pool stays."""
    notes.append(f"the pool of {stake} stays: {deal.contract.label} is paid by its premium only (house rule {R.GRANDISSIMO_NEMO})")
    u = terms.unit
    won = result in (Result.WON, Result.VOLE_WON, Result.VOLE_LOST)
    for opponent in opponents:
        payer, payee = (opponent, deal.hombre) if won else (deal.hombre, opponent)
        book.pay(payer, payee, terms.premium * u, Reason.GAME_PREMIUM,
                 _premium_label(deal) + ("" if won else ", the game lost"), terms.premium_rules + (R.GRANDISSIMO_NEMO,))
        if won:
            book.pay(opponent, deal.hombre, terms.premiers * u, Reason.PREMIERS, "premiers", terms.bonus_rules)


def _pairs(members: tuple[str, ...], opponents: tuple[str, ...], rules: HouseRules) -> list[tuple[str, str]]:
    """Who settles with whom: (side member, opponent) pairs.

    Alone, Hombre settles with each opponent. An alliance settles one to
    one (P: the first opponent after Hombre with Hombre, the other with her
    ally) or each to each (PG).
    """
    if len(members) == 1:
        return [(members[0], o) for o in opponents]
    if rules[R.BONUS_FLOW] == "each_to_each":
        return [(m, o) for m in members for o in opponents]
    return list(zip(members, opponents))


def _game_won(
    deal: Deal, book: _Book, result: Result, terms: _Terms, side: tuple[str, ...], opponents: tuple[str, ...],
    rules: HouseRules, flow: tuple[str, ...],
) -> None:
    pool = book.pots[Pot.POOL]
    if len(side) == 1:
        book.pay(Pot.POOL, deal.hombre, pool, Reason.POOL_SWEPT, "the game won, Hombre sweeps the pool")
    else:
        # P: the stake is divided equally between the allies.
        half = pool // 2
        odd = pool - 2 * half
        odd_rules = (R.ALLIANCE_ODD_CHIP,) if odd else ()
        to_hombre = half + (odd if rules[R.ALLIANCE_ODD_CHIP] == "to_hombre" else 0)
        book.pay(Pot.POOL, deal.hombre, to_hombre, Reason.POOL_SHARED, "her half of the pool, the game won", odd_rules)
        book.pay(Pot.POOL, side[1], half, Reason.POOL_SHARED, "the ally's half of the pool, the game won", odd_rules)

    u = terms.unit
    for member, opponent in _pairs(side, opponents, rules):
        if not _exempt_from_premium(deal, opponent, rules):
            book.pay(opponent, member, terms.premium * u, Reason.GAME_PREMIUM, _premium_label(deal), terms.premium_rules + flow)
        book.pay(opponent, member, terms.matadors * u, Reason.MATADORS, _matadors_label(deal), terms.matador_rules + flow)
        book.pay(opponent, member, terms.premiers * u, Reason.PREMIERS, "premiers", terms.bonus_rules + flow)
        if result is Result.VOLE_WON:
            book.pay(opponent, member, terms.vole_bonus * u, Reason.VOLE_BONUS, "the vole", (R.VOLE_PAYMENT,) + terms.bonus_rules + flow)
        if result is Result.VOLE_LOST and rules[R.VOLE_LOST_PAYS] == "vole_bonus":
            book.pay(member, opponent, VOLE_BONUS_UNITS * u * (2 if terms.favourite else 1), Reason.VOLE_PREMIUM_LOST,
                     "the vole undertaken and lost", (R.VOLE_LOST_PAYS,) + terms.bonus_rules + flow, "PG")


def _exempt_from_premium(deal: Deal, opponent: str, rules: HouseRules) -> bool:
    """P: the player who gave up the médiateur King neither pays nor is paid its premium."""
    return deal.kind.takes_king and opponent == deal.giver and rules[R.MEDIATEUR_KING] == "giver_exempt"


def _premium_label(deal: Deal) -> str:
    if deal.is_secret_solo:
        return "solo premium (her own King called: a secret solo)"
    return f"{deal.contract.label} premium"


def _matadors_label(deal: Deal) -> str:
    if deal.matadors == 3:
        return "three matadors"
    if deal.matadors == 4:
        return "double matadors"
    return f"{deal.matadors} matadors"


def _game_lost(
    deal: Deal, book: _Book, result: Result, terms: _Terms, side: tuple[str, ...], opponents: tuple[str, ...],
    rules: HouseRules, flow: tuple[str, ...], notes: list[str], stake: int,
) -> None:
    # Who pays: the whole side, or Hombre alone (P's three-trick rule, house rule alliance_loss).
    payers = side
    loss_rules: tuple[str, ...] = ()
    if len(side) == 2 and deal.kind.loss == "three_trick_rule":
        loss_rules = (R.ALLIANCE_LOSS,)
        needed = {"shared_unless_under_3": 3, "shared_unless_under_4": 4, "hombre_alone": TRICKS + 1}[rules[R.ALLIANCE_LOSS]]
        if deal.hombre_tricks < needed:
            payers = (deal.hombre,)
            if rules[R.ALLIANCE_LOSS] != "hombre_alone":
                notes.append(f"Hombre took only {deal.hombre_tricks} tricks, so she pays alone for her ally (P)")

    if result is Result.REMISE:
        beast = stake
        beast_reason, beast_what = Reason.REMISE_BEAST, "remise: the pool doubled"
        beast_rules: tuple[str, ...] = (R.REMISE_BEAST,)
        notes.append("remise: the pool is doubled and carried forward")
    else:
        taken = _codille_sweep(book, stake, opponents, rules, notes)
        kind = rules[R.CODILLE_BEAST]
        beast = {"twice_taken": 2 * taken, "once_pool": stake, "twice_pool": 2 * stake}[kind]
        if kind == "twice_taken" and taken == 0:
            notes.append("nothing was taken, so twice what was taken is nothing: Hombre puts up no beast (P does not say)")
        beast_reason, beast_what = Reason.CODILLE_BEAST, "codille beast"
        beast_rules = (R.CODILLE_BEAST,)
    if terms.favourite and rules[R.FAVOURITE_DOUBLES] == "everything":
        beast *= 2  # H47: a game in favourite wins or loses double
        beast_rules += (R.FAVOURITE_SUIT, R.FAVOURITE_DOUBLES)
    _share(book, payers, deal.hombre, beast, beast_reason, beast_what, beast_rules + loss_rules)

    pays_game = result is Result.REMISE or rules[R.CODILLE_PAYMENTS] == "what_she_would_have_received"
    if not pays_game:
        return
    extra = (R.CODILLE_PAYMENTS,) if result is Result.CODILLE else ()
    u = terms.unit
    for member, opponent in _pairs(side, opponents, rules):
        payer = member if member in payers else deal.hombre
        if not _exempt_from_premium(deal, opponent, rules):
            book.pay(payer, opponent, terms.premium * u, Reason.GAME_PREMIUM, f"{_premium_label(deal)}, the game lost",
                     terms.premium_rules + flow + loss_rules + extra)
        book.pay(payer, opponent, terms.matadors * u, Reason.MATADORS, f"{_matadors_label(deal)}, the game lost",
                 terms.matador_rules + flow + loss_rules + extra)
        if deal.vole_in_the_bid and rules[R.ANNOUNCED_VOLE_PREMIUM] == "vole_bonus":
            book.pay(payer, opponent, VOLE_BONUS_UNITS * u * (2 if terms.favourite else 1), Reason.VOLE_PREMIUM_LOST,
                     "premium of the vole announced and lost",
                     (R.ANNOUNCED_VOLE_PREMIUM, R.ANNOUNCED_VOLE_SHORT) + terms.bonus_rules + extra)


def _codille_sweep(book: _Book, stake: int, opponents: tuple[str, ...], rules: HouseRules, notes: list[str]) -> int:
    """The opponents divide the pool; return how much they took (P, house rule codille_indivisible)."""
    n = len(opponents)
    share = stake // n
    odd = stake - share * n
    if odd and rules[R.CODILLE_INDIVISIBLE] == "carry_whole":
        notes.append(f"the pool of {stake} does not divide among {n}: it stays for the next deal (P)")
        return 0
    for opponent in opponents:
        book.pay(Pot.POOL, opponent, share, Reason.CODILLE_SHARE, "codille: the opponents divide the pool",
                 (R.CODILLE_INDIVISIBLE,) if odd else ())
    if odd and rules[R.CODILLE_INDIVISIBLE] == "split_carry_odd":
        notes.append(f"{odd} odd chips stay in the pool (FR)")
    if odd and rules[R.CODILLE_INDIVISIBLE] == "odd_to_spadille":
        book.pay(Pot.POOL, Pot.SPADILLE_RESERVE, odd, Reason.ODD_CHIPS_SET_ASIDE,
                 "odd chips of the codille, for whoever holds Spadille next deal", (R.CODILLE_INDIVISIBLE,), "EB")
    return share * n


def _share(book: _Book, payers: tuple[str, ...], hombre: str, chips: int, reason: Reason, what: str, rules: tuple[str, ...]) -> None:
    """A payment into the pool shared equally by the payers; Hombre pays any odd chip."""
    if len(payers) == 1:
        book.pay(payers[0], Pot.POOL, chips, reason, what, rules)
        return
    half = chips // 2
    for payer in payers:
        book.pay(payer, Pot.POOL, chips - half if payer == hombre else half, reason, f"{what} (half each)", rules)


SYSTEMS: dict[str, Callable[[Deal, TableState, HouseRules, int], Settlement]] = {
    "chips": settle_chips,
    "points": settle_points,
}
"""Each profile names the settlement system that settles its deals."""
