"""Whole evenings written as text, replayed deal by deal (tests/test_scenarios.py; see :mod:`helpers.scenario`).

Each ``=>`` line gives the result, the pool after the deal and each
player's change in that deal; the comments show the arithmetic.
"""

from __future__ import annotations

REMISE_CODILLE_THEN_SWEEP = """
players Ann Bea Cat Dan
# antes 4; remise: Bea adds 4 and pays each 4 + 1 (matadors)
Ann deals: Bea solo in hearts, 5 tricks, 3 matadors
=> remise; pool 8; Ann +4, Bea -20, Cat +4, Dan +4
# 8 + 4 antes = 12 in play, unit 3; codille: 4 to each opponent, Cat puts up 24 and pays each 4 units
Bea deals: Cat solo in clubs, 4 tricks
=> codille; pool 24; Ann +15, Bea +15, Cat -61, Dan +15
# 24 + 4 = 28 in play, unit 7: Dan sweeps 28 and takes 4 units from each
Cat deals: Dan solo in diamonds, 6 tricks
=> won; pool 0; Ann -29, Bea -29, Cat -29, Dan +111
"""

ALLIANCE_HOMBRE_TOOK_TWO = """
players Ann Bea Cat Dan
# Bea took 2 of the side's 5: remise paid by Bea alone (beast 4, matadors 1 to Cat and to Ann)
Ann deals: Bea alliance in spades calling KH held by Dan, 2 + 3 tricks, 3 matadors
=> remise; pool 8; Ann 0, Bea -7, Cat 0, Dan -1
# Cat took 3: shared. 12 in play, unit 3; beast 12, 6 each; matadors one to one: Cat to Dan, Ann to Bea
Bea deals: Cat alliance in hearts calling KC held by Ann, 3 + 2 tricks, 3 matadors
=> remise; pool 24; Ann -10, Bea +2, Cat -10, Dan +2
# Dan took 1: codille paid by Dan alone. 28 in play: Ann and Cat take 14 each, Dan puts up 56
Cat deals: Dan alliance in diamonds calling KS held by Bea, 1 + 3 tricks
=> codille; pool 56; Ann +13, Bea -1, Cat +13, Dan -57
"""

VOLE_UNDERTAKEN_AND_LOST = """
players Ann Bea Cat Dan
# vole pool 12; Bea keeps the game (pool 4, 4 + 1 + 1 from each), the opponents take 4 each of the vole pool
Ann deals: Bea solo in hearts, 8 tricks, 3 matadors, premiers, vole undertaken
=> vole_lost; pool 0; vole pool 0; Ann -6, Bea +18, Cat -6, Dan -6
# the same in an alliance: pool 2 each, premiers one to one, the vole pool 6 to each opponent
Bea deals: Cat alliance in spades calling KD held by Dan, 5 + 3 tricks, premiers, vole undertaken
=> vole_lost; pool 0; vole pool 0; Ann +1, Bea +1, Cat -1, Dan -1
"""

INDIVISIBLE_CARRY_WHOLE = """
players Ann Bea Cat Dan
rules codille_indivisible=carry_whole
# P, PG: 4 does not divide by 3, it stays; nothing was taken, so Bea puts up double the stake, 8 (PG); premium 4 to each
Ann deals: Bea solo in hearts, 4 tricks
=> codille; pool 12; Ann +3, Bea -21, Cat +3, Dan +3
# 16 in play, unit 4
Bea deals: Cat solo in clubs, 6 tricks
=> won; pool 0; Ann -17, Bea -17, Cat +63, Dan -17
"""

INDIVISIBLE_SPLIT_CARRY_ODD = """
players Ann Bea Cat Dan
rules codille_indivisible=split_carry_odd
# FR: 1 to each opponent, 1 stays; Bea puts up twice the 3 taken
Ann deals: Bea solo in hearts, 4 tricks
=> codille; pool 7; Ann +4, Bea -19, Cat +4, Dan +4
# 11 in play, unit 2 (rounded down)
Bea deals: Cat solo in clubs, 6 tricks
=> won; pool 0; Ann -9, Bea -9, Cat +34, Dan -9
"""

INDIVISIBLE_ODD_TO_SPADILLE = """
players Ann Bea Cat Dan
rules codille_indivisible=odd_to_spadille
# EB: 1 to each opponent, the odd chip waits for Spadille; Bea puts up 6, pool 6
Ann deals: Bea solo in hearts, 4 tricks
=> codille; pool 6; Ann +4, Bea -19, Cat +4, Dan +4
# Dan holds Spadille and takes the odd chip; 10 in play, unit 2
Bea deals: Cat solo in clubs, 6 tricks, spadille with Dan
=> won; pool 0; Ann -9, Bea -9, Cat +33, Dan -8
"""

ANNOUNCED_VOLE_LEAVES_THE_POOL = """
players Ann Bea Cat Dan
# a vole announced and lost at 8 tricks: the pool of 4 stays, vole premium 2 to each
Ann deals: Bea vole in hearts, 8 tricks, premiers
=> vole_lost; pool 4; vole pool 0; Ann +2, Bea -10, Cat +2, Dan +2
# 8 in play: Cat sweeps it, unit 2
Bea deals: Cat solo in spades, 6 tricks
=> won; pool 0; Ann -9, Bea -9, Cat +31, Dan -9
"""

PAULANS_LAST_DEAL = """
players Ann Bea Cat Dan
rules paulans=last_deal
agreed 4
Ann deals: Bea solo in hearts, 6 tricks
=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5
Bea deals: Cat solo in hearts, 6 tricks
=> won; pool 0; Ann -5, Bea -5, Cat +15, Dan -5
Cat deals: Dan solo in hearts, 6 tricks
=> won; pool 0; Ann -5, Bea -5, Cat -5, Dan +15
# the last deal doubled: antes 2 each (8 in play), unit 1 x 2, premium 8 from each
Dan deals: Ann solo in hearts, 6 tricks
=> won; pool 0; Ann +30, Bea -10, Cat -10, Dan -10
"""

SCENARIOS = {
    "remise, codille, then a win sweeping the carried pool": REMISE_CODILLE_THEN_SWEEP,
    "alliances where Hombre took 2, 3 and 1 tricks": ALLIANCE_HOMBRE_TOOK_TWO,
    "a vole undertaken and lost, alone and allied": VOLE_UNDERTAKEN_AND_LOST,
    "indivisible codille pool: carried whole (P, PG)": INDIVISIBLE_CARRY_WHOLE,
    "indivisible codille pool: odd chips stay (FR)": INDIVISIBLE_SPLIT_CARRY_ODD,
    "indivisible codille pool: odd chips to Spadille (EB)": INDIVISIBLE_ODD_TO_SPADILLE,
    "a vole announced and lost leaves the pool": ANNOUNCED_VOLE_LEAVES_THE_POOL,
    "paulans: the last deal doubled": PAULANS_LAST_DEAL,
}
