"""Settling one deal of Quadrille: every chip transfer, explained.

``settle(deal, state, rules)`` checks the deal, then moves chips in the
order they move at a real table: odd chips reserved for Spadille, antes,
the vole stake, then the pool and the payments of the result. Every
movement is a :class:`Transfer` naming its reason and the house rules
that decided it. Nothing is settled from a deal that fails its checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import rules as R
from .errors import ImpossibleDeal
from .model import (
    TRICKS,
    Account,
    Contract,
    Deal,
    Pot,
    Reason,
    Result,
    Settlement,
    TableState,
    Transfer,
    Vole,
)
from .rules import HouseRules

VOLE_STAKE_CHIPS = 3
"""P: every player pays three chips into the vole pool (12 in all)."""
VOLE_BONUS_UNITS = 2
"""P's list and PG: the vole is worth 2 units from each opponent."""
PREMIERS_UNITS = 1
ANTE_CHIPS = 1
"""P: each player stakes one chip, or the dealer four."""


# --- checks -----------------------------------------------------------------


def check_deal(deal: Deal, state: TableState, rules: HouseRules) -> None:
    """Raise :class:`ImpossibleDeal` if the deal could not have happened under these rules."""
    for who, name in (("dealer", deal.dealer), ("hombre", deal.hombre)):
        if name not in state.players:
            raise ImpossibleDeal(f"{name!r} is not one of the players at this table ({', '.join(state.players)})", who)
    expected = state.next_dealer
    if expected is not None and deal.dealer != expected:
        raise ImpossibleDeal(
            f"it is {expected}'s deal, not {deal.dealer}'s: the deal passes to the right, to the player after {state.last_dealer}",
            "dealer",
        )
    if deal.contract not in rules.profile.contracts:
        allowed = ", ".join(c.label for c in rules.profile.contracts)
        raise ImpossibleDeal(f"the {rules.profile.title} profile has no {deal.contract.label} (it plays: {allowed})", "contract")

    _check_partnership(deal, state, rules)
    _check_tricks(deal)
    _check_matadors(deal, rules)
    _check_premiers_and_vole(deal, rules)

    if deal.spadille is not None:
        if deal.spadille not in state.players:
            raise ImpossibleDeal(f"{deal.spadille!r} is not one of the players at this table", "spadille")
        if deal.contract is Contract.FORCED_SPADILLE and deal.spadille != deal.hombre:
            raise ImpossibleDeal("in a forced spadille Hombre is the player who held Spadille", "spadille")
    if state.spadille_reserve and _spadille_holder(deal) is None:
        raise ImpossibleDeal(
            f"{state.spadille_reserve} odd chips from the last codille go to whoever holds Spadille this deal "
            f"(house rule {R.CODILLE_INDIVISIBLE}): say who held it",
            "spadille",
        )


def _a(label: str) -> str:
    """The label with its indefinite article: "an alliance", "a solo"."""
    return f"{'an' if label[0] in 'aeiou' else 'a'} {label}"


def _check_partnership(deal: Deal, state: TableState, rules: HouseRules) -> None:
    allied = deal.contract in (Contract.ALLIANCE, Contract.FORCED_SPADILLE)
    if not allied:
        if deal.ally is not None:
            raise ImpossibleDeal(f"{_a(deal.contract.label)} is played alone: there is no ally", "ally")
        if deal.called is not None:
            raise ImpossibleDeal(f"nobody is called in {_a(deal.contract.label)}", "called")
        if deal.ally_tricks:
            raise ImpossibleDeal(f"{_a(deal.contract.label)} has no ally to take tricks", "tricks")
        return
    if deal.called is None:
        raise ImpossibleDeal(f"{_a(deal.contract.label)} calls a King: which one?", "called")
    if deal.called.rank not in ("K", "Q"):
        raise ImpossibleDeal(f"Hombre calls a King (or a Queen when she holds every King), not the {deal.called.name}", "called")
    if deal.called.suit is deal.trumps:
        raise ImpossibleDeal(f"the {deal.called.name} is a trump: Hombre may not call a card of the trump suit", "called")
    if deal.ally is None:
        raise ImpossibleDeal(f"who held the {deal.called.name}? {_a(deal.contract.label).capitalize()} needs the ally", "ally")
    if deal.ally not in state.players:
        raise ImpossibleDeal(f"{deal.ally!r} is not one of the players at this table", "ally")
    if deal.is_secret_solo:
        if rules[R.OWN_KING] == "forbidden":
            raise ImpossibleDeal(
                f"Hombre may not call a King she holds herself at this table (house rule {R.OWN_KING})", "ally"
            )
        if deal.ally_tricks:
            raise ImpossibleDeal("Hombre called her own King: she played alone, so no ally took tricks", "tricks")
    elif deal.ally_tricks is None:
        raise ImpossibleDeal(f"how many tricks did {deal.ally} (the ally) take?", "tricks")


def _check_tricks(deal: Deal) -> None:
    for who, tricks in (("Hombre", deal.hombre_tricks), ("the ally", deal.ally_tricks)):
        if tricks is not None and not 0 <= tricks <= TRICKS:
            raise ImpossibleDeal(f"{who} cannot take {tricks} tricks: a deal has 0 to {TRICKS}", "tricks")
    if deal.side_tricks > TRICKS:
        raise ImpossibleDeal(
            f"Hombre's {deal.hombre_tricks} and her ally's {deal.ally_tricks} tricks make {deal.side_tricks}: there are only {TRICKS}",
            "tricks",
        )


def _check_matadors(deal: Deal, rules: HouseRules) -> None:
    m = deal.matadors
    if m < 0 or m in (1, 2):
        raise ImpossibleDeal(
            f"matadors are 0, or the unbroken run of trumps from Spadille of 3 or more; {m} is not one", "matadors"
        )
    if m > deal.trumps.trump_count:
        raise ImpossibleDeal(f"{deal.trumps.value} have only {deal.trumps.trump_count} trumps, so not {m} matadors", "matadors")
    if m >= 4 and not deal.trumps.is_red and rules[R.DOUBLE_MATADORS_SUITS] == "red_only":
        raise ImpossibleDeal(
            f"double matadors need Punto, the Ace of a red trump suit; with {deal.trumps.value} trumps enter 3 "
            f"(house rule {R.DOUBLE_MATADORS_SUITS})",
            "matadors",
        )


def _check_premiers_and_vole(deal: Deal, rules: HouseRules) -> None:
    tricks = deal.side_tricks
    forced_without = deal.contract is Contract.FORCED_SPADILLE and rules[R.FORCED_SPADILLE_BONUSES] == "no_premiers_no_vole"
    if deal.premiers and forced_without:
        raise ImpossibleDeal(
            f"no premiers are paid in a forced spadille at this table (house rule {R.FORCED_SPADILLE_BONUSES})", "premiers"
        )
    if deal.premiers and tricks < 6:
        raise ImpossibleDeal(f"premiers are the first six tricks, but the contracting side took only {tricks}", "premiers")
    if deal.vole is Vole.UNDERTAKEN:
        if deal.contract is Contract.VOLE:
            raise ImpossibleDeal("a vole announced is already a vole: do not mark it undertaken as well", "vole")
        if forced_without:
            raise ImpossibleDeal(
                f"no vole may be undertaken in a forced spadille at this table (house rule {R.FORCED_SPADILLE_BONUSES})", "vole"
            )
        if not deal.premiers:
            raise ImpossibleDeal("a vole can be undertaken only after winning premiers (the first six tricks)", "vole")
    if tricks == TRICKS and not deal.premiers and not forced_without:
        raise ImpossibleDeal("taking all ten tricks means taking the first six: mark premiers", "premiers")
    if deal.premiers and tricks > 6 and deal.vole is Vole.NONE and deal.contract is not Contract.VOLE:
        raise ImpossibleDeal(
            "leading to the seventh trick after premiers undertakes the vole: mark the vole undertaken, "
            "or enter 6 tricks if the side claimed at premiers",
            "vole",
        )


def _spadille_holder(deal: Deal) -> str | None:
    if deal.contract is Contract.FORCED_SPADILLE:
        return deal.hombre
    return deal.spadille


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
    premium: int
    matadors: int
    premiers: int
    vole_bonus: int
    premium_rules: tuple[str, ...]
    matador_rules: tuple[str, ...]


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


def _premium_units(deal: Deal, rules: HouseRules) -> tuple[int, tuple[str, ...]]:
    """Units of game premium: none for an alliance or forced spadille (P, Quanti's table)."""
    solo = {"four_units": 4, "two_units": 2, "none": 0}[rules[R.SOLO_PREMIUM]]
    if deal.contract in (Contract.SOLO, Contract.VOLE):
        return solo, (R.SOLO_PREMIUM,)
    if deal.is_secret_solo:
        # P: a secret solo wins or loses as a solo; EB: but sans appeler is not paid.
        return (solo if rules[R.OWN_KING] == "secret_solo" else 0), (R.OWN_KING, R.SOLO_PREMIUM)
    return 0, ()


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


def _doubled(number: int, deals_agreed: int, rules: HouseRules) -> bool:
    paulans = rules[R.PAULANS]
    if paulans == "last_deal":
        return number == deals_agreed
    if paulans == "last_round":
        return deals_agreed - 4 < number <= deals_agreed
    return False


def result_of(deal: Deal, rules: HouseRules) -> Result:
    """Won, remise or codille, and the vole, from the tricks taken (P)."""
    tricks = deal.side_tricks
    if deal.contract is Contract.VOLE and tricks >= 6:
        return Result.VOLE_WON if tricks == TRICKS else Result.VOLE_LOST
    if deal.contract is Contract.VOLE and rules[R.ANNOUNCED_VOLE_SHORT] == "remise":
        return Result.REMISE  # P: "she does pay a remise", however few tricks she took
    if tricks >= 6:
        if deal.vole is Vole.UNDERTAKEN:
            return Result.VOLE_WON if tricks == TRICKS else Result.VOLE_LOST
        return Result.WON
    return Result.REMISE if tricks == 5 else Result.CODILLE


def settle(deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int = 40) -> Settlement:
    """Settle one deal: check it, then return its transfers and the table's state after.

    ``deals_agreed`` is the length of the evening, needed only for paulans.
    Raises :class:`ImpossibleDeal` (and settles nothing) for a deal that could
    not have happened or that the house rules forbid.
    """
    check_deal(deal, state, rules)
    number = state.deals_played + 1
    factor = 2 if _doubled(number, deals_agreed, rules) else 1
    doubling: tuple[str, ...] = (R.PAULANS,) if factor == 2 else ()
    book = _Book(state)
    notes: list[str] = []

    # EB: odd chips of the last codille belong to whoever holds Spadille now.
    holder = _spadille_holder(deal)
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

    result = result_of(deal, rules)
    vole_in_play = deal.contract is Contract.VOLE or deal.vole is Vole.UNDERTAKEN
    vole_pool_used = vole_in_play and rules[R.VOLE_PAYMENT] in ("pool_and_bonus", "pool_only")
    if vole_pool_used:
        for player in state.order_from(deal.hombre):
            book.pay(player, Pot.VOLE_POOL, VOLE_STAKE_CHIPS * factor, Reason.VOLE_STAKE, "stake for the vole", (R.VOLE_PAYMENT,) + doubling)

    premium, premium_rules = _premium_units(deal, rules)
    matadors, matador_rules = _matador_units(deal, rules)
    terms = _Terms(
        unit=unit,
        premium=premium,
        matadors=matadors,
        premiers=PREMIERS_UNITS if deal.premiers else 0,
        vole_bonus=VOLE_BONUS_UNITS if rules[R.VOLE_PAYMENT] in ("pool_and_bonus", "bonus_only") else 0,
        premium_rules=premium_rules + unit_rules,
        matador_rules=matador_rules + unit_rules,
    )

    side = deal.side
    opponents = tuple(p for p in state.order_from(state.right_of(deal.hombre)) if p not in side)
    flow = (R.BONUS_FLOW,) if len(side) == 2 else ()

    if result in (Result.WON, Result.VOLE_WON) or (result is Result.VOLE_LOST and deal.contract is not Contract.VOLE):
        _game_won(deal, book, result, terms, side, opponents, rules, flow)
    elif result is Result.VOLE_LOST:
        # P: a vole announced and lost with six tricks: the pool is neither won nor doubled.
        notes.append(f"the pool of {stake} stays for the next deal: a vole announced and lost neither wins nor doubles it (P)")
        if rules[R.ANNOUNCED_VOLE_PREMIUM] == "vole_bonus":
            for opponent in opponents:
                book.pay(deal.hombre, opponent, VOLE_BONUS_UNITS * unit, Reason.VOLE_PREMIUM_LOST,
                         "premium of the vole announced and lost", (R.ANNOUNCED_VOLE_PREMIUM,) + unit_rules)
    else:
        _game_lost(deal, book, result, terms, side, opponents, rules, flow, notes, stake)

    # The vole pool goes to the side that won or lost the vole, in equal shares (P).
    if vole_pool_used:
        winners = side if result is Result.VOLE_WON else opponents
        share = book.pots[Pot.VOLE_POOL] // len(winners)
        what = "the vole won" if result is Result.VOLE_WON else "the vole lost by Hombre's side"
        reason = Reason.VOLE_POOL_WON if result is Result.VOLE_WON else Reason.VOLE_POOL_LOST
        for player in winners:
            book.pay(Pot.VOLE_POOL, player, share, reason, what, (R.VOLE_PAYMENT,))

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

    for member, opponent in _pairs(side, opponents, rules):
        u = terms.unit
        book.pay(opponent, member, terms.premium * u, Reason.GAME_PREMIUM, _premium_label(deal), terms.premium_rules + flow)
        book.pay(opponent, member, terms.matadors * u, Reason.MATADORS, _matadors_label(deal), terms.matador_rules + flow)
        book.pay(opponent, member, terms.premiers * u, Reason.PREMIERS, "premiers", (R.UNIT,) + flow)
        if result is Result.VOLE_WON:
            book.pay(opponent, member, terms.vole_bonus * u, Reason.VOLE_BONUS, "the vole", (R.VOLE_PAYMENT, R.UNIT) + flow)
        if result is Result.VOLE_LOST and rules[R.VOLE_LOST_PAYS] == "vole_bonus":
            book.pay(member, opponent, VOLE_BONUS_UNITS * u, Reason.VOLE_PREMIUM_LOST, "the vole undertaken and lost",
                     (R.VOLE_LOST_PAYS, R.UNIT) + flow, "PG")


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
    if len(side) == 2 and deal.contract is Contract.ALLIANCE:
        loss_rules = (R.ALLIANCE_LOSS,)
        needed = {"shared_unless_under_3": 3, "shared_unless_under_4": 4, "hombre_alone": TRICKS + 1}[rules[R.ALLIANCE_LOSS]]
        if deal.hombre_tricks < needed:
            payers = (deal.hombre,)
            if rules[R.ALLIANCE_LOSS] != "hombre_alone":
                notes.append(f"Hombre took only {deal.hombre_tricks} tricks, so she pays alone for her ally (P)")

    if result is Result.REMISE:
        beast = stake
        beast_reason, beast_what, beast_rules = Reason.REMISE_BEAST, "remise: the pool doubled", (R.REMISE_BEAST,)
        notes.append("remise: the pool is doubled and carried forward")
    else:
        taken = _codille_sweep(book, stake, opponents, rules, notes)
        kind = rules[R.CODILLE_BEAST]
        beast = {"twice_taken": 2 * taken, "once_pool": stake, "twice_pool": 2 * stake}[kind]
        if kind == "twice_taken" and taken == 0:
            notes.append("nothing was taken, so twice what was taken is nothing: Hombre puts up no beast (P does not say)")
        beast_reason, beast_what, beast_rules = Reason.CODILLE_BEAST, "codille beast", (R.CODILLE_BEAST,)
    _share(book, payers, deal.hombre, beast, beast_reason, beast_what, beast_rules + loss_rules)

    pays_game = result is Result.REMISE or rules[R.CODILLE_PAYMENTS] == "what_she_would_have_received"
    if not pays_game:
        return
    extra = (R.CODILLE_PAYMENTS,) if result is Result.CODILLE else ()
    u = terms.unit
    for member, opponent in _pairs(side, opponents, rules):
        payer = member if member in payers else deal.hombre
        book.pay(payer, opponent, terms.premium * u, Reason.GAME_PREMIUM, f"{_premium_label(deal)}, the game lost",
                 terms.premium_rules + flow + loss_rules + extra)
        book.pay(payer, opponent, terms.matadors * u, Reason.MATADORS, f"{_matadors_label(deal)}, the game lost",
                 terms.matador_rules + flow + loss_rules + extra)
        if deal.contract is Contract.VOLE and rules[R.ANNOUNCED_VOLE_PREMIUM] == "vole_bonus":
            book.pay(payer, opponent, VOLE_BONUS_UNITS * u, Reason.VOLE_PREMIUM_LOST, "premium of the vole announced and lost",
                     (R.ANNOUNCED_VOLE_PREMIUM, R.ANNOUNCED_VOLE_SHORT, R.UNIT) + extra)


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
