"""PG's point score: every entry of its point table, and the multiplier after lost games.

Profile ``penguin_points``. Players Ann, Bea, Cat, Dan; a fresh table counts
single (×1). Changes are the points each player scores in the deal.
"""

from __future__ import annotations

import pytest
from scenario import assert_settles_as, parse_deal, parse_expected, parse_scenario

from scorer.core import Evening, HouseRules, TableState, replay, settle

PLAYERS = ("Ann", "Bea", "Cat", "Dan")

# PG's table: forced 3/6/12/1/-6/-12, alliance 5/10/20/2/-10/-20, solo 10/20/40/5/-20/-40.
POINT_TABLE = [
    ("forced won", "Ann deals: Cat forced spadille in spades calling KH held by Dan, 3 + 3 tricks",
     "=> won; Ann 0, Bea 0, Cat +3, Dan +3"),
    ("forced won with premiers", "Ann deals: Cat forced spadille in spades calling KH held by Dan, 3 + 3 tricks, premiers",
     "=> won; Ann 0, Bea 0, Cat +6, Dan +6"),
    ("forced with vole won", "Ann deals: Cat forced spadille in spades calling KH held by Dan, 5 + 5 tricks, premiers, vole undertaken",
     "=> vole_won; Ann 0, Bea 0, Cat +12, Dan +12"),
    ("forced with vole lost", "Ann deals: Cat forced spadille in spades calling KH held by Dan, 4 + 4 tricks, premiers, vole undertaken",
     "=> vole_lost; Ann 0, Bea 0, Cat +1, Dan +1"),
    ("forced remise: the ally loses too", "Ann deals: Cat forced spadille in spades calling KH held by Dan, 3 + 2 tricks",
     "=> remise; Ann 0, Bea 0, Cat -6, Dan -6"),
    ("forced codille: the ally loses too", "Ann deals: Cat forced spadille in spades calling KH held by Dan, 2 + 2 tricks",
     "=> codille; Ann 0, Bea 0, Cat -12, Dan -12"),
    ("alliance won", "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks",
     "=> won; Ann 0, Bea +5, Cat 0, Dan +5"),
    ("alliance won with premiers", "Ann deals: Bea alliance in spades calling KH held by Dan, 3 + 3 tricks, premiers",
     "=> won; Ann 0, Bea +10, Cat 0, Dan +10"),
    ("alliance with vole won", "Ann deals: Bea alliance in spades calling KH held by Dan, 5 + 5 tricks, premiers, vole undertaken",
     "=> vole_won; Ann 0, Bea +20, Cat 0, Dan +20"),
    ("alliance with vole lost", "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 4 tricks, premiers, vole undertaken",
     "=> vole_lost; Ann 0, Bea +2, Cat 0, Dan +2"),
    ("alliance remise: Hombre alone loses", "Ann deals: Bea alliance in spades calling KH held by Dan, 3 + 2 tricks",
     "=> remise; Ann 0, Bea -10, Cat 0, Dan 0"),
    ("alliance codille: Hombre alone loses", "Ann deals: Bea alliance in spades calling KH held by Dan, 2 + 2 tricks",
     "=> codille; Ann 0, Bea -20, Cat 0, Dan 0"),
    ("solo won", "Ann deals: Bea solo in hearts, 6 tricks, 3 matadors",  # matadors are ignored
     "=> won; Ann 0, Bea +10, Cat 0, Dan 0"),
    ("solo won with premiers", "Ann deals: Bea solo in hearts, 6 tricks, premiers",
     "=> won; Ann 0, Bea +20, Cat 0, Dan 0"),
    ("solo with vole won", "Ann deals: Bea solo in hearts, 10 tricks, premiers, vole undertaken",
     "=> vole_won; Ann 0, Bea +40, Cat 0, Dan 0"),
    ("solo with vole lost", "Ann deals: Bea solo in hearts, 9 tricks, premiers, vole undertaken",
     "=> vole_lost; Ann 0, Bea +5, Cat 0, Dan 0"),
    ("solo remise", "Ann deals: Bea solo in hearts, 5 tricks",
     "=> remise; Ann 0, Bea -20, Cat 0, Dan 0"),
    ("solo codille", "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; Ann 0, Bea -40, Cat 0, Dan 0"),
    ("vole announced and won: the solo column", "Ann deals: Bea vole in hearts, 10 tricks, premiers",
     "=> vole_won; Ann 0, Bea +40, Cat 0, Dan 0"),
]


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


MULTIPLIER_PER_TABLE = """
players Ann Bea Cat Dan
profile penguin_points
# a remise: the next game counts double
Ann deals: Bea solo in hearts, 5 tricks
=> remise; ×1; Ann 0, Bea -20, Cat 0, Dan 0
# a codille at double: -40 x 2; two lost in a row, the next counts treble
Bea deals: Cat solo in clubs, 4 tricks
=> codille; ×2; Ann 0, Bea 0, Cat -80, Dan 0
# an alliance won at treble: 5 x 3 to each ally; the multiplier resets
Cat deals: Dan alliance in spades calling KH held by Ann, 4 + 3 tricks
=> won; ×3; Ann +15, Bea 0, Cat 0, Dan +15
Dan deals: Ann solo in hearts, 6 tricks
=> won; ×1; Ann +10, Bea 0, Cat 0, Dan 0
"""

MULTIPLIER_PER_PLAYER = """
players Ann Bea Cat Dan
profile penguin_points
rules multiplier_scope=per_player
Ann deals: Bea solo in hearts, 5 tricks
=> remise; ×1; Ann 0, Bea -20, Cat 0, Dan 0
# Cat has lost nothing: single
Bea deals: Cat solo in clubs, 6 tricks
=> won; ×1; Ann 0, Bea 0, Cat +10, Dan 0
# Bea's own next game counts double; she wins, and hers resets
Cat deals: Bea solo in spades, 6 tricks
=> won; ×2; Ann 0, Bea +20, Cat 0, Dan 0
Dan deals: Bea solo in hearts, 6 tricks
=> won; ×1; Ann 0, Bea +10, Cat 0, Dan 0
"""


@pytest.mark.parametrize("text", [MULTIPLIER_PER_TABLE, MULTIPLIER_PER_PLAYER], ids=["per table (PG)", "per player"])
def test_the_multiplier_rises_after_lost_games_and_resets_after_a_win(text: str) -> None:
    scenario = parse_scenario(text)
    result = replay(Evening(scenario.players, scenario.rules, tuple(d for d, _ in scenario.steps)))
    for settlement, (_, expected) in zip(result.settlements, scenario.steps, strict=True):
        assert expected.multiplier is not None
        assert_settles_as(settlement, expected, scenario.players)
