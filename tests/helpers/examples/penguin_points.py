"""PG's point score: every entry of its point table, and the multiplier after lost games
(tests/test_penguin_points.py).

Profile ``penguin_points``. Players Ann, Bea, Cat, Dan; a fresh table counts
single (×1). Changes are the points each player scores in the deal.
"""

from __future__ import annotations


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
