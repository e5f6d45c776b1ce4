"""Single deals worked by hand, one row each.

Players sit Ann, Bea, Cat, Dan in the order of play; Ann deals, so Bea is
eldest. Unless a row says otherwise the pool is empty before the antes
(each antes 1: stake 4, unit 1) and the house rules are the quadrille
defaults (source P). Changes are each player's chips won or lost in the
deal, antes included; with the pool's change they sum to zero.

The rows are data in tests/helpers/examples/worked.py (the deal summary's tests read every one of them too).
"""

from __future__ import annotations

import pytest
from helpers.examples.worked import EXAMPLES, PENGUIN_CHIPS
from helpers.scenario import assert_settles_as, parse_deal, parse_expected

from scorer.core import HouseRules, Pot, Reason, TableState, settle

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


@pytest.mark.parametrize(
    "changes, pool_before, deal_line, expected_line",
    [pytest.param(c, p, d, e, id=name) for name, c, p, d, e in EXAMPLES],
)
def test_worked_example(changes: dict[str, str], pool_before: int, deal_line: str, expected_line: str) -> None:
    rules = HouseRules.of("quadrille", changes)
    state = TableState(players=PLAYERS, balances=(0, 0, 0, 0), pool=pool_before)
    expected = parse_expected(expected_line)

    settlement = settle(parse_deal(deal_line), state, rules)

    assert_settles_as(settlement, expected, PLAYERS)
    assert sum(expected.changes.values()) + expected.pool - pool_before + expected.vole_pool == 0


def test_solo_transfers_are_itemised_by_reason() -> None:
    """P's list: each opponent pays each bonus as its own transfer, with its rule."""
    deal = parse_deal("Ann deals: Bea solo in hearts, 10 tricks, 4 matadors, premiers, vole undertaken")
    settlement = settle(deal, TableState.start(PLAYERS), HouseRules.of())

    paid_by_cat = {t.reason: t.chips for t in settlement.transfers if t.payer == "Cat" and t.payee == "Bea"}
    assert paid_by_cat == {Reason.GAME_PREMIUM: 4, Reason.MATADORS: 2, Reason.PREMIERS: 1, Reason.VOLE_BONUS: 2}
    vole_stakes = [t for t in settlement.transfers if t.payee is Pot.VOLE_POOL]
    assert sorted(t.payer for t in vole_stakes) == sorted(PLAYERS) and {t.chips for t in vole_stakes} == {3}
    premium = next(t for t in settlement.transfers if t.reason is Reason.GAME_PREMIUM)
    assert "solo_premium" in premium.rules
    assert premium.sentence == "Cat pays Bea 4 — solo premium"


def test_indivisible_codille_is_explained_in_a_note() -> None:
    deal = parse_deal("Ann deals: Bea solo in hearts, 4 tricks")
    settlement = settle(deal, TableState.start(PLAYERS), HouseRules.of())
    assert any("does not divide among 3" in str(note) for note in settlement.notes)
    assert not any(t.reason is Reason.CODILLE_SHARE for t in settlement.transfers)


@pytest.mark.parametrize("deal_line, expected_line", [pytest.param(d, e, id=n) for n, d, e in PENGUIN_CHIPS])
def test_penguin_chips_profile(deal_line: str, expected_line: str) -> None:
    expected = parse_expected(expected_line)
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), HouseRules.of("penguin_chips"))
    assert_settles_as(settlement, expected, PLAYERS)
