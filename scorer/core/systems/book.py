"""Moving chips (or counters) around the table: the pieces every pool-based system shares.

The hard score (P) and the Britannica's counters (EB) both ante into a pool,
sweep or divide it, double it on a remise and beast it on a codille; they
differ in what the players pay each other. Those shared movements live here.
"""

from __future__ import annotations

from typing import NamedTuple

from .. import rules as R
from ..game.checks import spadille_holder
from ..game.context import DealContext
from ..errors import Counted, Words
from ..i18n import N_
from ..model import NOTHING_CARRIED, TRICKS, Account, Pot, Reason, Result, Settlement, TableState, Transfer
from ..names import listed_words
from ..game.outcome import remise_rules
from ..game.play import beasted_renounces, renounce_said


class Entry(NamedTuple):
    """Why chips move, as a transfer tells it: the reason, the sentence, the house rules that decided it, the source.
    A named tuple: one is made for every lost game, and a tuple is built several times faster than a frozen dataclass."""

    reason: Reason
    what: Words
    rules: tuple[str, ...] = ()
    source: str = "P"


# Enum members read for every deal settled, read once here: Python 3.11 reads an attribute of an Enum class
# (``Pot.POOL``) through the hook of EnumType.__getattr__, several times slower than a module's global.
_POOL, _VOLE_POOL, _SPADILLE_RESERVE, _BEASTS_WAITING, _CIRCLE_POOL = (
    Pot.POOL, Pot.VOLE_POOL, Pot.SPADILLE_RESERVE, Pot.BEASTS_WAITING, Pot.CIRCLE_POOL)
_REMISE = Result.REMISE
_POOL_SWEPT, _POOL_SHARED, _CODILLE_SHARE = Reason.POOL_SWEPT, Reason.POOL_SHARED, Reason.CODILLE_SHARE
_REMISE_BEAST, _CODILLE_BEAST = Reason.REMISE_BEAST, Reason.CODILLE_BEAST
# The words of the movements most deals make, made once and shared by every transfer that says them.
_SWEEPS, _HER_HALF, _ALLY_HALF = (Words(N_("the game won, Hombre sweeps the pool")),
                                  Words(N_("her half of the pool, the game won")), Words(N_("the ally's half of the pool, the game won")))
_ANTE, _DEALERS_ANTE = Words(N_("ante")), Words(N_("the dealer's ante"))
_DIVIDED, _DOUBLED, _DOUBLED_NOTE, _BEASTED = (
    Words(N_("codille: the opponents divide the pool")), Words(N_("remise: the pool doubled")),
    Words(N_("remise: the pool is doubled and carried forward")), Words(N_("codille beast")))


_new_transfer = tuple.__new__
"""Builds a :class:`Transfer` without the named tuple's own ``__new__`` (a Python function; ten a deal)."""


class Book:
    """Moves chips between accounts during one deal, and keeps the transfers and the notes in order."""

    def __init__(self, ctx: DealContext) -> None:
        state = ctx.state
        self.ctx = ctx
        self.balances = dict(zip(state.players, state.balances))
        waiting = state.beasts_waiting
        self.pots = {_POOL: state.pool, _VOLE_POOL: state.vole_pool, _SPADILLE_RESERVE: state.spadille_reserve,
                     _BEASTS_WAITING: sum(waiting) if waiting else 0, _CIRCLE_POOL: state.circle_pool}
        """Every pot, in this order."""
        self.waiting = list(waiting)
        """The beasts waiting for a later pool, greatest first (house rule beasts_together)."""
        self.beasts: list[int] = []
        """The beasts made in this deal (a remise or codille beast, renounce beasts), as they are made."""
        self.transfers: list[Transfer] = []
        self.notes: list[Words] = []
        self.spadille_takers = state.spadille_takers
        """Who may take the odd chips set aside for Spadille (EB: the three who won that codille)."""

    def pay(  # more than 5: the fields of the Transfer it writes, in the Transfer's order
        self, payer: Account, payee: Account, chips: int, reason: Reason, what: Words, rules: tuple[str, ...] = (), source: str = "P"
    ) -> None:
        if chips <= 0:
            return
        # A player can never be named like a pot (check_players), so membership tells them apart.
        pots, balances = self.pots, self.balances
        if payer in pots:
            pots[payer] -= chips  # type: ignore[index]
        else:
            balances[payer] -= chips
        if payee in pots:
            pots[payee] += chips  # type: ignore[index]
        else:
            balances[payee] += chips
        self.transfers.append(_new_transfer(Transfer, (payer, payee, chips, reason, what, rules, source)))

    def settlement(self, unit: int, stake: int) -> Settlement:
        """The deal's settlement and the state after it; chips must be conserved."""
        ctx = self.ctx
        state, number = ctx.state, ctx.number
        pool, vole_pool, spadille_reserve, _waiting, circle_pool = self.pots.values()  # in the order they were put in
        after = TableState(state.players, tuple(self.balances.values()),  # in the players' order (no other name is added)
                           pool, vole_pool, spadille_reserve, self.spadille_takers if spadille_reserve else (),
                           tuple(self.waiting), circle_pool, NOTHING_CARRIED, number, ctx.deal.dealer)
        if after.total != state.total:  # pragma: no cover - a broken invariant is a bug, not bad input
            raise AssertionError(f"chips not conserved in deal {number}: {state.total} before, {after.total} after")
        return Settlement(number, ctx.deal, ctx.result, tuple(self.transfers), state, after, unit, stake, tuple(self.notes))


def _odd_chips(n: int) -> Counted:
    """The odd chips of a codille shared among three, counted ("1 odd chip", "2 odd chips")."""
    return Counted("{n} odd chip", "{n} odd chips", n)


def open_book(ctx: DealContext) -> Book:
    """A pool-based deal's book, the odd chips reserved for Spadille already released (they move first)."""
    book = Book(ctx)
    state = ctx.state
    if state.spadille_reserve:
        release_reserve(book)
    if state.beasts_waiting:
        release_waiting_beast(book)
    if state.circle_pool:
        carry_in(book)
    return book


def carry_in(book: Book) -> None:
    """What a circle's last evening left on the table joins this evening's first pool, before the antes
    (house rule pool_at_end: carried whole, or its odd chips; the sources speak of no next evening)."""
    book.pay(Pot.CIRCLE_POOL, Pot.POOL, book.pots[Pot.CIRCLE_POOL], Reason.POOL_CARRIED_IN,
             Words(N_("the evening's first pool")), (R.POOL_AT_END,), "")


def release_waiting_beast(book: Book) -> None:
    """EB: "when there are several beasts, the greatest always goes first": the greatest beast
    waiting joins this deal's pool, before the antes (one a deal; house rule beasts_together)."""
    if book.waiting:
        chips = book.waiting.pop(0)
        book.pay(Pot.BEASTS_WAITING, Pot.POOL, chips, Reason.BEAST_JOINS_POOL,
                 Words(N_("a beast of an earlier deal joins the pool (the greatest waiting goes first)")), (R.BEASTS_TOGETHER,), "EB")


def renounce_beasts(book: Book, stake: int) -> None:
    """EB: a renouncer "is beasted as often as he has renounced and it is detected": each renounce the
    deal's play record proves costs its player what is upon the game, into the pool (house rule renounce_beast)."""
    ctx = book.ctx
    if ctx.deal.play is None:
        return  # nothing to prove a renounce
    for renounce in beasted_renounces(ctx.deal, ctx.state.players, ctx.rules):
        book.pay(renounce.player, Pot.POOL, stake, Reason.RENOUNCE_BEAST,
                 Words(N_("beasted for {renounce}"), renounce=renounce_said(renounce),
                       label=Words(N_("beasted for a renounce in trick {trick}"), trick=renounce.trick)), (R.RENOUNCE_BEAST,), "EB")
        if stake:
            book.beasts.append(stake)


def hold_back_beasts(book: Book) -> None:
    """Several beasts made in one deal: together into the next pool (EB's default), or the greatest
    now and each other waiting for a later pool, the greatest first (house rule beasts_together)."""
    if len(book.beasts) < 2 or book.ctx.rules[R.BEASTS_TOGETHER] is R.BeastsTogether.TOGETHER:
        return
    later = sorted(book.beasts, reverse=True)[1:]
    book.pay(Pot.POOL, Pot.BEASTS_WAITING, sum(later), Reason.BEAST_WAITS,
             Words(N_("{label}: the greatest goes first"), label=Words(
                 N_("{beasts} of this deal's beasts wait for later pools"), beasts=listed_words(tuple(map(str, later))))),
             (R.BEASTS_TOGETHER,), "EB")
    book.waiting = sorted(book.waiting + later, reverse=True)


def release_reserve(book: Book) -> None:
    """EB: odd chips of the last codille "belong to him of the three who shall have spadill or
    the highest trump the next deal". The deal names him as Spadille's holder (house rule
    codille_indivisible says whom to enter when the loser of the codille held Spadille)."""
    holder = spadille_holder(book.ctx.deal)
    if holder is not None:
        book.pay(Pot.SPADILLE_RESERVE, holder, book.ctx.state.spadille_reserve, Reason.ODD_CHIPS_TO_SPADILLE,
                 Words(N_("odd chips of the last codille, for holding Spadille (or the highest trump of the three)")),
                 (R.CODILLE_INDIVISIBLE,), "EB")


def antes(book: Book, each: int, extra_rules: tuple[str, ...] = ()) -> int:
    """Each player stakes ``each`` before the deal (twice it on a deal paulans doubles), or the dealer
    four times it (P, PG); return the single stake put in (0 when the house rules skip antes into a carried pool).
    The pool is looked at after a pool carried in and a waiting beast have joined it (:func:`open_book`): under
    ``antes: when_pool_empty`` they fill it as a pool carried forward does."""
    ctx = book.ctx
    rules, state, chips = ctx.rules, ctx.state, each * ctx.paulans
    if not (book.pots[_POOL] == 0 or rules[R.ANTES] is R.Antes.EVERY_DEAL):
        return 0
    used = (R.ANTE_BY, R.ANTES) + extra_rules + ctx.doubling
    if rules[R.ANTE_BY] is R.AnteBy.DEALER:
        book.pay(ctx.deal.dealer, _POOL, 4 * chips, Reason.ANTE, _DEALERS_ANTE, used)
        return 4 * each
    players = state.players
    eldest = state.seat(ctx.deal.dealer) + 1  # from the dealer's right (seat raises for a stranger)
    for player in players[eldest:] + players[:eldest]:
        book.pay(player, _POOL, chips, Reason.ANTE, _ANTE, used)
    return 4 * each


def fish_for_the_king(book: Book, chips: int, extra_rules: tuple[str, ...] = ()) -> None:
    """EB, H47: Hombre gives a fish with the card she returns for the médiateur King (two in favourite),
    where the house rule mediateur_king says so."""
    ctx = book.ctx
    if ctx.fish_to is not None:
        book.pay(ctx.deal.hombre, ctx.fish_to, chips, Reason.MEDIATEUR_KING, Words(N_("a fish for the médiateur King")),
                 (R.MEDIATEUR_KING,) + ctx.favourite_rules + extra_rules, "EB")


def take_pool(book: Book) -> None:
    """The game won: Hombre sweeps the pool, or the allies divide it equally (P)."""
    ctx = book.ctx
    hombre, side = ctx.deal.hombre, ctx.side
    pool = book.pots[_POOL]
    if len(side) == 1:
        book.pay(_POOL, hombre, pool, _POOL_SWEPT, _SWEEPS)
        return
    half = pool // 2
    odd = pool - 2 * half
    odd_rules = (R.ALLIANCE_ODD_CHIP,) if odd else ()
    to_hombre = half + (odd if odd and ctx.rules[R.ALLIANCE_ODD_CHIP] is R.AllianceOddChip.TO_HOMBRE else 0)
    book.pay(_POOL, hombre, to_hombre, _POOL_SHARED, _HER_HALF, odd_rules)
    book.pay(_POOL, side[1], half, _POOL_SHARED, _ALLY_HALF, odd_rules)


_TRICKS_TO_SHARE_A_LOSS = {R.AllianceLoss.SHARED_UNLESS_UNDER_3: 3, R.AllianceLoss.SHARED_UNLESS_UNDER_4: 4,
                           R.AllianceLoss.HOMBRE_ALONE: TRICKS + 1}
"""The tricks Hombre must take herself for her ally to share a lost alliance (house rule alliance_loss)."""


def loss_payers(book: Book) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Who pays a lost game, and the house rules that said so: the whole side, or
    Hombre alone (P's three-trick rule, house rule alliance_loss)."""
    ctx = book.ctx
    deal, side, rules = ctx.deal, ctx.side, ctx.rules
    if len(side) < 2 or deal.kind.loss != "three_trick_rule":
        return side, ()
    if deal.hombre_tricks >= _TRICKS_TO_SHARE_A_LOSS[rules[R.ALLIANCE_LOSS]]:
        return side, (R.ALLIANCE_LOSS,)
    if rules[R.ALLIANCE_LOSS] is not R.AllianceLoss.HOMBRE_ALONE:
        book.notes.append(Words(N_("Hombre took only {n} tricks, so she pays alone for her ally (P)"), n=deal.hombre_tricks))
    return (deal.hombre,), (R.ALLIANCE_LOSS,)


def beast(book: Book, stake: int, payers: tuple[str, ...], extra_rules: tuple[str, ...] = ()) -> None:
    """A lost game's pool: on a remise Hombre's side doubles it; on a codille the
    opponents divide it and the side puts up the codille beast. A favourite suit that
    doubles everything doubles the beast (the context's ``beast_doubled_by``)."""
    ctx = book.ctx
    decided_by = remise_rules(ctx.deal)  # alliance_remise, for four tricks between Hombre and her ally
    if ctx.result is _REMISE:
        chips = stake
        reason, what, source = _REMISE_BEAST, _DOUBLED, "EB" if decided_by else "P"
        used: tuple[str, ...] = (R.REMISE_BEAST,) + decided_by
        book.notes.append(_DOUBLED_NOTE)
        if decided_by:
            book.notes.append(Words(N_("Hombre and her ally took four tricks between them: a remise, not a codille (EB)")))
    else:
        taken = codille_sweep(book, stake)
        chips, source = _codille_beast(ctx.rules[R.CODILLE_BEAST], stake, taken, book.notes)
        reason, what = _CODILLE_BEAST, _BEASTED
        used = (R.CODILLE_BEAST,) + decided_by
    if ctx.beast_doubled_by:
        chips *= 2  # PG: in Preference a game "wins or loses double"; the beasts doubled too is the app's reading
        used += ctx.beast_doubled_by
    share(book, payers, chips, Entry(reason, what, used + extra_rules, source))
    if chips:
        book.beasts.append(chips)


def _codille_beast(kind: R.CodilleBeast, stake: int, taken: int, notes: list[Words]) -> tuple[int, str]:
    """What Hombre's side puts up on a codille (house rule codille_beast), and the source it follows.

    P: "twice the amount that was just taken"; PG: "double the stake", also when three
    opponents could not divide the pool; EB: "beasted what is upon the game"."""
    if kind is R.CodilleBeast.ONCE_POOL:
        return stake, "EB"
    if kind is R.CodilleBeast.TWICE_POOL:
        return 2 * stake, "PG, W"
    if taken:
        return 2 * taken, "P"
    if kind is R.CodilleBeast.TWICE_TAKEN:
        notes.append(Words(N_("nothing was taken, so twice what was taken is nothing: Hombre puts up no beast "
                              "(P read literally; a codille cheaper than a remise)")))
        return 0, "P"
    notes.append(Words(N_("nothing was taken: Hombre puts up double the stake, {chips} (PG)"), chips=2 * stake))
    return 2 * stake, "PG"


def codille_sweep(book: Book, stake: int) -> int:
    """The opponents divide the pool; return how much they took (P, house rule codille_indivisible)."""
    opponents, rules, notes = book.ctx.opponents, book.ctx.rules, book.notes
    n = len(opponents)
    each = stake // n
    odd = stake - each * n
    if odd and rules[R.CODILLE_INDIVISIBLE] is R.CodilleIndivisible.CARRY_WHOLE:
        notes.append(Words(N_("the pool of {stake} does not divide among {n}: it stays for the next deal (P)"), stake=stake, n=n))
        return 0
    used = (R.CODILLE_INDIVISIBLE,) if odd else ()
    for opponent in opponents:
        book.pay(_POOL, opponent, each, _CODILLE_SHARE, _DIVIDED, used)
    if odd and rules[R.CODILLE_INDIVISIBLE] is R.CodilleIndivisible.SPLIT_CARRY_ODD:
        notes.append(Words(N_("the pool keeps {odd} (FR)"), odd=_odd_chips(odd)))
    if odd and rules[R.CODILLE_INDIVISIBLE] is R.CodilleIndivisible.ODD_TO_SPADILLE:
        # EB: they "belong to him of the three who shall have spadill or the highest trump the next deal".
        winners = listed_words(opponents)
        book.spadille_takers = opponents
        book.pay(Pot.POOL, Pot.SPADILLE_RESERVE, odd, Reason.ODD_CHIPS_SET_ASIDE,
                 Words(N_("odd chips of the codille, for whichever of {winners} holds Spadille, or else the highest trump, "
                          "next deal"), winners=winners), (R.CODILLE_INDIVISIBLE,), "EB")
        notes.append(Words(N_("{odd} set aside for whichever of {winners} holds Spadille next deal, or the highest "
                              "trump if none of them does: enter that player as Spadille's holder (EB)"),
                           odd=_odd_chips(odd), winners=winners))
    return each * n


def share(book: Book, payers: tuple[str, ...], chips: int, entry: Entry) -> None:
    """A payment into the pool shared equally by the payers; Hombre pays any odd chip (the app's reading, said in
    the help text of house rule alliance_loss)."""
    if len(payers) == 1:
        book.pay(payers[0], _POOL, chips, entry.reason, entry.what, entry.rules, entry.source)
        return
    half, hombre, what = chips // 2, book.ctx.deal.hombre, Words(N_("{label} (half each)"), label=entry.what)
    for payer in payers:
        book.pay(payer, _POOL, chips - half if payer == hombre else half, entry.reason, what, entry.rules, entry.source)
