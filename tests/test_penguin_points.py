"""PG's point score: every entry of its point table, and the multiplier after lost games.

Profile ``penguin_points``. Players Ann, Bea, Cat, Dan; a fresh table counts
single (×1). Changes are the points each player scores in the deal.

The rows are data in tests/helpers/examples/penguin_points.py (the deal summary's tests read every one of them too).
"""

from __future__ import annotations

import pytest
from helpers.examples.penguin_points import MULTIPLIER_PER_PLAYER, MULTIPLIER_PER_TABLE, POINT_TABLE
from helpers.scenario import assert_settles_as, parse_deal, parse_expected, parse_scenario

from scorer.core import Evening, HouseRules, TableState, replay, settle

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


@pytest.mark.parametrize("deal_line, expected_line", [pytest.param(d, e, id=n) for n, d, e in POINT_TABLE])
def test_every_entry_of_pgs_point_table(deal_line: str, expected_line: str) -> None:
    expected = parse_expected(expected_line)
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), HouseRules.of("penguin_points"))
    assert_settles_as(settlement, expected, PLAYERS)
    assert settlement.multiplier == 1
    assert settlement.after.pool == 0 and not any(t.reason.value == "ante" for t in settlement.transfers)


def test_the_ally_can_share_losses_by_house_rule() -> None:
    deal = parse_deal("Ann deals: Bea alliance in spades calling KH held by Dan, 3 + 2 tricks")
    settlement = settle(deal, TableState.start(PLAYERS), HouseRules.of("penguin_points", {"points_ally": "shares_losses"}))
    assert {p: settlement.change(p) for p in PLAYERS} == {"Ann": 0, "Bea": -10, "Cat": 0, "Dan": -10}


@pytest.mark.parametrize("text", [MULTIPLIER_PER_TABLE, MULTIPLIER_PER_PLAYER], ids=["per table (PG)", "per player"])
def test_the_multiplier_rises_after_lost_games_and_resets_after_a_win(text: str) -> None:
    scenario = parse_scenario(text)
    result = replay(Evening(scenario.players, scenario.rules, tuple(d for d, _ in scenario.steps)))
    for settlement, (_, expected) in zip(result.settlements, scenario.steps, strict=True):
        assert expected.multiplier is not None
        assert_settles_as(settlement, expected, scenario.players)
