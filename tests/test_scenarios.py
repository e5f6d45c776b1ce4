"""Whole evenings written as text, replayed deal by deal (see tests/helpers/scenario.py).

Each ``=>`` line gives the result, the pool after the deal and each
player's change in that deal; the comments show the arithmetic.

The evenings are data in tests/helpers/examples/scenarios.py (the deal summary's tests read each of them too).
"""

from __future__ import annotations

import pytest
from helpers.examples.scenarios import INDIVISIBLE_ODD_TO_SPADILLE, REMISE_CODILLE_THEN_SWEEP, SCENARIOS
from helpers.scenario import assert_settles_as, parse_scenario

from scorer.core import Evening, replay


@pytest.mark.parametrize("text", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_scenario(text: str) -> None:
    scenario = parse_scenario(text)
    evening = Evening(scenario.players, scenario.rules, tuple(d for d, _ in scenario.steps), scenario.deals_agreed)

    result = replay(evening)

    for settlement, (_, expected) in zip(result.settlements, scenario.steps, strict=True):
        assert_settles_as(settlement, expected, scenario.players)
        assert settlement.after.total == 0


def test_odd_chips_wait_in_a_reserve_until_spadille_is_named() -> None:
    scenario = parse_scenario(INDIVISIBLE_ODD_TO_SPADILLE)
    first = replay(Evening(scenario.players, scenario.rules, (scenario.steps[0][0],)))
    assert first.final.spadille_reserve == 1
    assert first.final.pool == 6


def test_the_balances_after_each_deal_and_the_next_dealer() -> None:
    scenario = parse_scenario(REMISE_CODILLE_THEN_SWEEP)
    result = replay(Evening(scenario.players, scenario.rules, tuple(d for d, _ in scenario.steps)))
    assert [dict(zip(s.after.players, s.after.balances)) for s in result.settlements] == [
        {"Ann": 4, "Bea": -20, "Cat": 4, "Dan": 4},
        {"Ann": 19, "Bea": -5, "Cat": -57, "Dan": 19},
        {"Ann": -10, "Bea": -34, "Cat": -86, "Dan": 130},
    ]
    assert result.next_dealer == "Dan"
    assert result.settlements[1].before.eldest("Bea") == "Cat"


def test_replaying_from_a_corrected_deal_equals_a_full_replay() -> None:
    from dataclasses import replace

    from scorer.core.ledger.evening import replay_from

    scenario = parse_scenario(REMISE_CODILLE_THEN_SWEEP)
    deals = tuple(d for d, _ in scenario.steps)
    whole = replay(Evening(scenario.players, scenario.rules, deals))
    corrected = replace(deals[0], hombre_tricks=6)
    partial = replay_from(whole, 1, corrected)
    assert partial == replay(Evening(scenario.players, scenario.rules, (corrected,) + deals[1:]))
    assert partial.settlements[1:] != whole.settlements[1:]  # the later deals really changed
    assert replay_from(whole, 3, deals[2]) == whole
