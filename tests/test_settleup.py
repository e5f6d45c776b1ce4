"""The settle-up: exact, in integer cents, with the fewest payments."""

from __future__ import annotations

import itertools

import pytest
from helpers.scenario import parse_deal
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core import Evening, HouseRules, replay
from scorer.core.ledger.settleup import Payment, fewest_payments, settle_up

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


@st.composite
def zero_sum_balances(draw: st.DrawFn) -> dict[str, int]:
    n = draw(st.integers(2, 6))
    names = [f"P{i}" for i in range(n)]
    amounts = draw(st.lists(st.integers(-10_000, 10_000), min_size=n - 1, max_size=n - 1))
    return dict(zip(names, [*amounts, -sum(amounts)]))


def brute_force_minimum(balances: dict[str, int]) -> int:
    """The fewest payments by trying every split into zero-sum groups (small n only)."""
    people = [n for n, b in balances.items() if b]
    best = len(people) - 1 if people else 0
    for labels in itertools.product(range(len(people)), repeat=len(people)):
        groups: dict[int, int] = {}
        for person, label in zip(people, labels):
            groups[label] = groups.get(label, 0) + balances[person]
        if all(total == 0 for total in groups.values()):
            best = min(best, len(people) - len(groups))
    return best


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances())
def test_payments_settle_every_balance_exactly_and_never_exceed_players_minus_one(balances: dict[str, int]) -> None:
    payments = fewest_payments(balances)
    left = dict(balances)
    for p in payments:
        assert p.cents > 0 and p.payer != p.payee
        left[p.payer] += p.cents
        left[p.payee] -= p.cents
    assert all(v == 0 for v in left.values())
    assert len(payments) <= len(balances) - 1
    assert len(payments) == brute_force_minimum(balances)


@pytest.mark.parametrize(
    "balances, count",
    [
        ({"Ann": 500, "Bea": -500, "Cat": 300, "Dan": -300}, 2),  # two pairs: not three payments
        ({"Ann": 600, "Bea": -200, "Cat": -200, "Dan": -200}, 3),
        ({"Ann": 0, "Bea": 0, "Cat": 0, "Dan": 0}, 0),
        ({"Ann": 700, "Bea": -300, "Cat": -400, "Dan": 0}, 2),
    ],
)
def test_worked_settle_ups(balances: dict[str, int], count: int) -> None:
    assert len(fewest_payments(balances)) == count


def test_two_pairs_settle_in_two_payments() -> None:
    assert set(fewest_payments({"Ann": 500, "Bea": -500, "Cat": 300, "Dan": -300})) == {
        Payment("Bea", "Ann", 500), Payment("Dan", "Cat", 300)}


def test_balances_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(ValueError, match="must sum to zero"):
        fewest_payments({"Ann": 1, "Bea": 0})


def evening(lines: list[str], profile: str = "quadrille", **rules: str) -> Evening:
    return Evening(PLAYERS, HouseRules.of(profile, rules), tuple(parse_deal(line) for line in lines))


def test_chips_to_money_with_the_pool_shared_out() -> None:
    # a remise leaves 8 in the pool; pool_at_end=split_equally gives 2 back to each
    result = settle_up(replay(evening(["Ann deals: Bea solo in hearts, 5 tricks, 3 matadors"])), 25)
    assert result.units == {"Ann": 6, "Bea": -18, "Cat": 6, "Dan": 6}
    assert result.cents == {"Ann": 150, "Bea": -450, "Cat": 150, "Dan": 150}
    assert result.pool_left == 0 and len(result.closing) == 4
    assert len(result.payments) == 3 and sum(p.cents for p in result.payments) == 450


def test_a_pool_carried_forward_is_credited_to_the_players_in_equal_shares() -> None:
    result = settle_up(replay(evening(["Ann deals: Bea solo in hearts, 5 tricks, 3 matadors"], pool_at_end="carry_forward")), 25)
    assert result.pool_left == 8 and result.closing == ()
    assert result.units == {"Ann": 4, "Bea": -20, "Cat": 4, "Dan": 4}
    assert result.cents == {"Ann": 150, "Bea": -450, "Cat": 150, "Dan": 150}  # 8 chips = 200 cents, 50 each
    assert sum(result.cents.values()) == 0


def test_odd_cents_of_a_carried_pool_go_to_the_first_seats() -> None:
    result = settle_up(replay(evening(["Ann deals: Bea solo in hearts, 5 tricks, 3 matadors"], pool_at_end="carry_forward")), 3)
    assert sum(result.cents.values()) == 0  # 8 chips x 3 cents = 24 cents: 6 each, exactly
    result = settle_up(replay(evening(["Ann deals: Bea solo in hearts, 4 tricks"], pool_at_end="carry_forward")), 5)
    assert result.pool_left == 12 and sum(result.cents.values()) == 0  # 4 left + Bea's beast of 8 (PG: double the stake)


def test_a_point_score_settles_the_differences() -> None:
    # Bea -20, the others 0: each of Ann, Cat, Dan is 20 ahead of Bea
    result = settle_up(replay(evening(["Ann deals: Bea solo in hearts, 5 tricks"], "penguin_points")), 10)
    assert result.units == {"Ann": 20, "Bea": -60, "Cat": 20, "Dan": 20}
    assert result.cents == {"Ann": 200, "Bea": -600, "Cat": 200, "Dan": 200}
