"""An evening: four players, their house rules, and the deals in order.

Nothing about an evening is stored but its inputs: the balances, the pool
and everything else are the replay of its deals through :func:`settle`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..game.describe import result_label
from ..errors import DealError, ImpossibleDeal, Later, Words
from ..i18n import N_
from ..model import Deal, Pot, Settlement, TableState, Transfer, check_players
from ..systems.profiles import HouseRules
from .settle import settle

DEFAULT_DEALS_AGREED = 40


@dataclass(frozen=True)
class Evening:
    """The inputs of an evening of Quadrille."""

    players: tuple[str, ...]
    """The four players in the order of play: each one's right-hand neighbour is the next."""
    rules: HouseRules = field(default_factory=HouseRules.of)
    deals: tuple[Deal, ...] = ()
    deals_agreed: int = DEFAULT_DEALS_AGREED
    """The length of the evening agreed in advance, a multiple of four (P)."""
    carried_in: int = 0
    """Chips a circle's last evening left on the table (house rule pool_at_end), which join this
    evening's first pool (:mod:`scorer.core.ledger.season`)."""

    def __post_init__(self) -> None:
        check_players(self.players)
        if self.deals_agreed <= 0 or self.deals_agreed % 4:
            raise ImpossibleDeal(Words(N_("an evening is a multiple of four deals, not {n}"), n=self.deals_agreed), "deals_agreed")
        if self.carried_in < 0 or (self.carried_in and not self.rules.profile.system.has_pool):
            raise ImpossibleDeal(Words(N_("{chips} chips cannot be carried into an evening of {profile}"),
                                       chips=self.carried_in, profile=Later(self.rules.profile, "title")))

    def start(self) -> TableState:
        """The table before the first deal: nothing won, and what the last evening carried in."""
        return replace(TableState.start(self.players), circle_pool=self.carried_in)


@dataclass(frozen=True)
class Replay:
    """An evening replayed: one settlement per deal and the state after the last."""

    evening: Evening
    settlements: tuple[Settlement, ...]
    final: TableState

    @property
    def balances(self) -> dict[str, int]:
        return dict(zip(self.final.players, self.final.balances))

    @property
    def next_dealer(self) -> str | None:
        return self.final.next_dealer


def replay(evening: Evening) -> Replay:
    """Settle every deal of the evening in order.

    Raises :class:`DealError` naming the first impossible deal; nothing
    after it is settled.
    """
    return _settle_from(evening, (), 1)


def replay_from(previous: Replay, number: int, deal: Deal) -> Replay:
    """The evening with ``deal`` in place of deal ``number``: the deals before it keep their
    settlements, and only it and the deals after are settled again.

    Raises :class:`DealError` naming the first deal the change makes impossible.
    """
    old = previous.evening
    evening = replace(old, deals=old.deals[: number - 1] + (deal,) + old.deals[number:])
    return _settle_from(evening, previous.settlements[: number - 1], number)


def replay_continued(previous: Replay, evening: Evening) -> Replay:
    """``evening`` replayed, keeping ``previous``'s settlements of the deals both share from the start (the
    same players, rules, length and carry, and the same deals up to the first that differs): a deal added to
    an evening replayed before settles that deal alone. Raises :class:`DealError` as :func:`replay` does."""
    old = previous.evening
    if (old.players, old.rules, old.deals_agreed, old.carried_in) != (evening.players, evening.rules, evening.deals_agreed,
                                                                    evening.carried_in):
        return replay(evening)
    same = 0
    for before, now in zip(previous.settlements, evening.deals):
        if before.deal != now:
            break
        same += 1
    return _settle_from(evening, previous.settlements[:same], same + 1)


def _settle_from(evening: Evening, kept: tuple[Settlement, ...], number: int) -> Replay:
    """Keep the settlements before deal ``number`` and settle it and every later deal."""
    state = kept[-1].after if kept else evening.start()
    settlements = list(kept)
    for n, deal in enumerate(evening.deals[number - 1:], start=number):
        try:
            settlement = settle(deal, state, evening.rules, evening.deals_agreed)
        except ImpossibleDeal as error:
            raise DealError(n, error) from error
        settlements.append(settlement)
        state = settlement.after
    return Replay(evening, tuple(settlements), state)


def close_evening(state: TableState, rules: HouseRules) -> tuple[tuple[Transfer, ...], TableState]:
    """What happens to what is on the table when the evening ends: the table's system says
    (a pool-based system shares the pool out per house rule ``pool_at_end``)."""
    return rules.profile.system.close(state, rules)


def left_on_the_table(state: TableState) -> tuple[tuple[Pot, int], ...]:
    """What lies on the table besides the players' balances, pot by pot (only those that hold chips): the pool,
    the vole pool, the odd chips kept for Spadille, the beasts waiting (house rule beasts_together) and what a
    circle's last evening left, not yet joined to a pool. With the balances it sums to what the evening began with.

    After the close (:func:`close_evening`) it is what the evening leaves for the next: house rule
    ``pool_at_end`` shares out the pool alone, or carries it whole; the vole pool, the odd chips for Spadille
    and the beasts waiting are carried whatever it says, as a circle's next evening takes them into its first
    pool (:mod:`scorer.core.ledger.season`). The sources speak of no next evening: this is the app's reading."""
    pots = ((Pot.POOL, state.pool), (Pot.VOLE_POOL, state.vole_pool), (Pot.SPADILLE_RESERVE, state.spadille_reserve),
            (Pot.BEASTS_WAITING, sum(state.beasts_waiting)), (Pot.CIRCLE_POOL, state.circle_pool))
    return tuple((pot, chips) for pot, chips in pots if chips)


@dataclass(frozen=True)
class DealDifference:
    """How one deal's outcome changes when an earlier deal is corrected."""

    number: int
    before: dict[str, int]
    """Each player's change in this deal, as it stands."""
    after: dict[str, int]
    """... and as it would be."""
    pool_before: int
    pool_after: int
    result_before: Words
    result_after: Words


def differences(old: Replay, new: Replay) -> tuple[list[DealDifference], dict[str, int]]:
    """The deals whose settlement changes between two replays of an evening, and the change of
    each player's final balance (new minus old)."""
    changed = []
    for a, b in zip(old.settlements, new.settlements):
        before = {p: a.change(p) for p in a.after.players}
        after = {p: b.change(p) for p in b.after.players}
        if before != after or a.after.pool != b.after.pool or a.result is not b.result:
            changed.append(DealDifference(a.number, before, after, a.after.pool, b.after.pool, result_label(a.deal, a.result),
                                          result_label(b.deal, b.result)))
    finals = {p: new.balances[p] - old.balances[p] for p in old.balances}
    return changed, finals
