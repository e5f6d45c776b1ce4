"""The settle-up at the end of the evening: balances in money, and the fewest payments that settle them.

Algorithm. A set of players whose balances sum to zero can settle among
themselves with one payment fewer than its size (each payment clears at
least one player's balance, and the last one clears two). So the fewest
payments for everyone is the number of players minus the largest number of
disjoint zero-sum groups they can be split into. We find that split exactly
by dynamic programming over the subsets of players (2^n states; n is 4 at a
Quadrille table), then settle each group greedily, the largest debtor paying
the largest creditor.

Guarantee: the payments settle every balance exactly, in integer cents (no
rounding: chips times the chip's value in cents); their number is the
minimum possible, and never more than the number of players minus one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .evening import Replay, close_evening, left_on_the_table
from ..model import Pot, Transfer


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    cents: int


@dataclass(frozen=True)
class SettleUp:
    closing: tuple[Transfer, ...]
    """What happened to the pool at the end (house rule pool_at_end)."""
    pool_left: int
    """Chips (or counters) left on the table after closing, carried to the next evening: the pool's (carried
    whole, or its odd chips), the vole pool's, the odd chips kept for Spadille and the beasts waiting."""
    units: dict[str, int]
    """Each player's final figure after closing, in the profile's units."""
    cents: dict[str, int]
    """What each player wins (positive) or owes (negative), in cents."""
    payments: tuple[Payment, ...]
    left: tuple[tuple[Pot, int], ...] = ()
    """:attr:`pool_left` pot by pot (only those that hold chips), for the page to say what stays: house rule
    ``pool_at_end`` shares out the pool alone; the beasts waiting stay with the vole pool (:func:`left_on_the_table`)."""


def fewest_payments(balances: Mapping[str, int]) -> tuple[Payment, ...]:
    """The fewest payments that settle ``balances`` (which must sum to zero) exactly."""
    if sum(balances.values()) != 0:
        raise ValueError(f"balances must sum to zero to be settled, not {sum(balances.values())}")
    names = [n for n, b in balances.items() if b != 0]
    amounts = [balances[n] for n in names]
    full = (1 << len(names)) - 1

    totals = [0] * (full + 1)
    for mask in range(1, full + 1):
        lowest = mask & -mask
        totals[mask] = totals[mask ^ lowest] + amounts[lowest.bit_length() - 1]
    best = _most_groups(totals, full)

    payments: list[Payment] = []
    for group in best if names else ():
        members = {names[i]: amounts[i] for i in range(len(names)) if group >> i & 1}
        while any(members.values()):
            debtor = min(members, key=lambda n: (members[n], n))
            creditor = max(members, key=lambda n: (members[n], n))
            cents = min(-members[debtor], members[creditor])
            payments.append(Payment(debtor, creditor, cents))
            members[debtor] += cents
            members[creditor] -= cents
    return tuple(payments)


def _most_groups(totals: list[int], full: int) -> tuple[int, ...]:
    """The most zero-sum groups the players of ``full`` split into (each a bit mask), ``totals`` the sum of each
    set's balances: best[mask], for a zero-sum set of players, is the most groups it splits into, and those groups."""
    best: list[tuple[int, tuple[int, ...]]] = [(0, ())] * (full + 1)
    for mask in range(1, full + 1):
        if totals[mask]:
            continue
        lowest = mask & -mask  # every split puts the lowest player in some group: fix it in the first
        result: tuple[int, tuple[int, ...]] = (1, (mask,))
        sub = (mask - 1) & mask
        while sub:
            if sub & lowest and totals[sub] == 0:
                count, groups = best[mask ^ sub]
                if count + 1 > result[0]:
                    result = (count + 1, (sub, *groups))
            sub = (sub - 1) & mask
        best[mask] = result
    return best[full][1]


def settle_up(replay: Replay, value_cents: int) -> SettleUp:
    """Close the evening and turn the balances into money at ``value_cents`` a chip (point, counter).

    With chips and counters the pool is dealt with under the house rule
    ``pool_at_end`` first; whatever stays in it is credited to the players in
    equal shares (whole cents, the odd cents to the first in seating order). A point score (PG) is not zero-sum: each player
    settles the difference of scores with each other player, so a player's
    net is the sum of her differences with the other three.
    """
    rules = replay.evening.rules
    system = rules.profile.system
    closing, units, pool_left = system.final_figures(replay.final, rules)
    left = tuple(pot for pot in left_on_the_table(close_evening(replay.final, rules)[1])
                 if pot[0] is not Pot.CIRCLE_POOL) if system.has_pool else ()
    cents = {p: u * value_cents for p, u in units.items()}
    common = pool_left - (replay.evening.carried_in - replay.final.circle_pool)  # what joined the pool from the circle
    if common:
        # Chips left in the pool (carried whole, or odd chips) were paid in by the players and stay
        # on the table for the next evening; they belong to the four in common, so each is credited
        # an equal share of their value before the money is settled. What a circle's evening found on
        # the table (carried in, once it joined the first pool) was not theirs: only the difference is shared.
        cents = spread(cents, common * value_cents)
    return SettleUp(closing, pool_left, units, cents, fewest_payments(cents), left)


def spread(cents: dict[str, int], amount: int) -> dict[str, int]:
    """Add ``amount`` cents across the players as evenly as whole cents allow (the first in seating order get the extra)."""
    n = len(cents)
    base, extra = divmod(amount, n)
    return {p: c + base + (1 if i < extra else 0) for i, (p, c) in enumerate(cents.items())}
