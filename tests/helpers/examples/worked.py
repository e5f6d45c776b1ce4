"""Single deals worked by hand, one row each (tests/test_worked_examples.py).

Players sit Ann, Bea, Cat, Dan in the order of play; Ann deals, so Bea is
eldest. Unless a row says otherwise the pool is empty before the antes
(each antes 1: stake 4, unit 1) and the house rules are the quadrille
defaults (source P). Changes are each player's chips won or lost in the
deal, antes included; with the pool's change they sum to zero.

A row of :data:`EXAMPLES`: (name, house rule changes, pool before, deal line, expected line); of
:data:`PENGUIN_CHIPS`: (name, deal line, expected line).
"""

from __future__ import annotations

EXAMPLES = [
    # --- P, solo won: pool to Hombre; each opponent pays solo 4, +1 three matadors,
    # +2 double matadors, +1 premiers, +2 vole (RULES-NOTES, numbers stated outright).
    ("P solo won: 4 from each", {}, 0,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5"),  # Bea: -1 ante +4 pool +3x4
    ("P solo won with three matadors: 4+1 from each", {}, 0,
     "Ann deals: Bea solo in spades, 7 tricks, 3 matadors",
     "=> won; pool 0; Ann -6, Bea +18, Cat -6, Dan -6"),
    ("P solo won with double matadors: 4+2 from each", {}, 0,
     "Ann deals: Bea solo in hearts, 7 tricks, 4 matadors",
     "=> won; pool 0; Ann -7, Bea +21, Cat -7, Dan -7"),
    ("P solo won with premiers: 4+1 from each", {}, 0,
     "Ann deals: Bea solo in clubs, 6 tricks, premiers",
     "=> won; pool 0; Ann -6, Bea +18, Cat -6, Dan -6"),
    # P vole: every player pays 3 into a vole pool of 12, which goes to Hombre.
    ("P vole won: 4+1+2 from each and the vole pool of 12", {}, 0,
     "Ann deals: Bea solo in diamonds, 10 tricks, premiers, vole undertaken",
     "=> vole_won; pool 0; vole pool 0; Ann -11, Bea +33, Cat -11, Dan -11"),  # Bea: -1 -3 +4 +3x7 +12
    ("P everything: 4+2+1+2 from each", {}, 0,
     "Ann deals: Bea solo in hearts, 10 tricks, 4 matadors, premiers, vole undertaken",
     "=> vole_won; pool 0; Ann -13, Bea +39, Cat -13, Dan -13"),
    # P: a vole undertaken and lost: Hombre keeps the game, premiers and matadors;
    # the vole pool of 12 goes to the opponents in equal shares.
    ("P vole undertaken, lost: vole pool 4 to each opponent", {}, 0,
     "Ann deals: Bea solo in hearts, 8 tricks, 3 matadors, premiers, vole undertaken",
     "=> vole_lost; pool 0; vole pool 0; Ann -6, Bea +18, Cat -6, Dan -6"),  # Bea: -1 -3 +4 +3x6
    ("PG vole undertaken, lost: and 2 units to each", {"vole_lost_pays": "vole_bonus"}, 0,
     "Ann deals: Bea solo in hearts, 8 tricks, 3 matadors, premiers, vole undertaken",
     "=> vole_lost; pool 0; Ann -4, Bea +12, Cat -4, Dan -4"),
    ("PG vole with no vole pool: 2 units from each", {"vole_payment": "bonus_only"}, 0,
     "Ann deals: Bea solo in hearts, 10 tricks, premiers, vole undertaken",
     "=> vole_won; pool 0; Ann -8, Bea +24, Cat -8, Dan -8"),  # Bea: -1 +4 +3x(4+1+2)
    ("vole pool only, no 2-unit bonus", {"vole_payment": "pool_only"}, 0,
     "Ann deals: Bea solo in hearts, 10 tricks, premiers, vole undertaken",
     "=> vole_won; pool 0; Ann -9, Bea +27, Cat -9, Dan -9"),  # Bea: -1 -3 +4 +3x5 +12
    # --- remise and codille of a solo (P).
    ("P solo remise: Hombre doubles the pool, pays premium and matadors", {}, 0,
     "Ann deals: Bea solo in hearts, 5 tricks, 3 matadors",
     "=> remise; pool 8; Ann +4, Bea -20, Cat +4, Dan +4"),  # Bea: -1 -4 beast -3x5
    ("P solo codille, pool of 12 divides: opponents take 4 each, Hombre puts up 24", {}, 8,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 24; Ann +15, Bea -61, Cat +15, Dan +15"),  # unit 3; Bea -1 -24 -3x12
    ("P solo codille, pool of 4 does not divide by 3: it stays, twice nothing taken (P read literally)",
     {"codille_beast": "twice_taken"}, 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 4; Ann +3, Bea -13, Cat +3, Dan +3"),
    ("P solo codille, pool of 4 does not divide by 3: it stays, PG's double the stake (the default)", {}, 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 12; Ann +3, Bea -21, Cat +3, Dan +3"),  # pool kept (4) + beast 8
    ("PG codille pays only the beast", {"codille_payments": "none"}, 8,
     "Ann deals: Bea solo in hearts, 3 tricks, 3 matadors",
     "=> codille; pool 24; Ann +3, Bea -25, Cat +3, Dan +3"),
    ("EB codille beast: once the pool", {"codille_beast": "once_pool"}, 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 8; Ann +3, Bea -17, Cat +3, Dan +3"),  # pool kept (4) + beast 4
    ("W codille beast: twice the pool, even when it stays", {"codille_beast": "twice_pool"}, 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 12; Ann +3, Bea -21, Cat +3, Dan +3"),
    ("FR indivisible codille: divide 3, the odd chip stays", {"codille_indivisible": "split_carry_odd"}, 0,
     "Ann deals: Bea solo in hearts, 4 tricks",
     "=> codille; pool 7; Ann +4, Bea -19, Cat +4, Dan +4"),  # 1 left + 2x3 beast
    # --- alliances (P: the pool divided equally, bonuses one to one).
    ("P alliance won with three matadors: one to one", {}, 0,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks, 3 matadors",
     "=> won; pool 0; Ann -2, Bea +2, Cat -2, Dan +2"),  # Cat pays Bea, Ann pays Dan
    ("PG alliance won with three matadors: each to each", {"bonus_flow": "each_to_each"}, 0,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks, 3 matadors",
     "=> won; pool 0; Ann -3, Bea +3, Cat -3, Dan +3"),
    ("P alliance remise, Hombre took 3: shared", {}, 0,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 3 + 2 tricks, 3 matadors",
     "=> remise; pool 8; Ann 0, Bea -4, Cat 0, Dan -4"),  # each: -1 -2 half beast -1 matadors
    ("P alliance remise, Hombre took 2: she pays alone", {}, 0,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 2 + 3 tricks, 3 matadors",
     "=> remise; pool 8; Ann 0, Bea -7, Cat 0, Dan -1"),
    ("FR alliance remise, Hombre took 3 of the 4 some houses ask", {"alliance_loss": "shared_unless_under_4"}, 0,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 3 + 2 tricks, 3 matadors",
     "=> remise; pool 8; Ann 0, Bea -7, Cat 0, Dan -1"),
    ("PG alliance remise: Hombre always alone", {"alliance_loss": "hombre_alone"}, 0,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 5 + 0 tricks",
     "=> remise; pool 8; Ann -1, Bea -5, Cat -1, Dan -1"),
    ("P alliance codille, Hombre took 2: two opponents take 2 each, she puts up 8", {}, 0,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 2 + 2 tricks",
     "=> codille; pool 8; Ann +1, Bea -9, Cat +1, Dan -1"),
    ("P forced spadille codille: always shared", {}, 0,
     "Ann deals: Cat forced spadille in hearts calling KS held by Dan, 1 + 1 tricks",
     "=> codille; pool 8; Ann +1, Bea +1, Cat -5, Dan -5"),
    ("P forced spadille won: pool divided, no premium", {}, 0,
     "Ann deals: Cat forced spadille in hearts calling KS held by Dan, 3 + 4 tricks",
     "=> won; pool 0; Ann -1, Bea -1, Cat +1, Dan +1"),
    ("PG forced spadille with premiers", {"forced_spadille_bonuses": "premiers_and_vole"}, 0,
     "Ann deals: Cat forced spadille in hearts calling KS held by Dan, 3 + 3 tricks, premiers",
     "=> won; pool 0; Ann -2, Bea -2, Cat +2, Dan +2"),
    ("P alliance vole undertaken and lost: vole pool 6 to each opponent", {}, 0,
     "Ann deals: Bea alliance in spades calling KD held by Cat, 5 + 3 tricks, premiers, vole undertaken",
     "=> vole_lost; pool 0; Ann +1, Bea -1, Cat -1, Dan +1"),  # Bea: -1 -3 +2 +1
    # --- a King of her own (RULES-NOTES 19).
    ("P secret solo won: as a solo", {}, 0,
     "Ann deals: Bea alliance in clubs calling KD held by Bea, 6 tricks",
     "=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5"),
    ("EB secret solo won: alone, without the premium", {"own_king": "alone_no_premium"}, 0,
     "Ann deals: Bea alliance in clubs calling KD held by Bea, 6 tricks",
     "=> won; pool 0; Ann -1, Bea +3, Cat -1, Dan -1"),
    # --- the vole announced (RULES-NOTES 15).
    ("P vole announced, won", {}, 0,
     "Ann deals: Bea vole in hearts, 10 tricks, premiers",
     "=> vole_won; pool 0; vole pool 0; Ann -11, Bea +33, Cat -11, Dan -11"),
    ("P vole announced, lost with 8: pool stays, vole premium to each", {}, 0,
     "Ann deals: Bea vole in hearts, 8 tricks, premiers",
     "=> vole_lost; pool 4; vole pool 0; Ann +2, Bea -10, Cat +2, Dan +2"),  # Bea: -1 -3 -3x2
    ("P vole announced, 5 tricks: a remise and a lost solo", {}, 0,
     "Ann deals: Bea vole in hearts, 5 tricks",
     "=> remise; pool 8; Ann +6, Bea -26, Cat +6, Dan +6"),  # Bea: -1 -3 -4 -3x(4+2)
    ("P vole announced, 3 tricks: still a remise", {}, 0,
     "Ann deals: Bea vole in hearts, 3 tricks",
     "=> remise; pool 8; Ann +6, Bea -26, Cat +6, Dan +6"),
    ("vole announced, 3 tricks, by tricks: a codille", {"announced_vole_short": "by_tricks"}, 0,
     "Ann deals: Bea vole in hearts, 3 tricks",
     "=> codille; pool 12; Ann +6, Bea -30, Cat +6, Dan +6"),  # pool 4 stays, Bea puts up double the stake, 8 (PG)
    ("announced vole lost with no vole premium", {"announced_vole_premium": "none"}, 0,
     "Ann deals: Bea vole in hearts, 8 tricks, premiers",
     "=> vole_lost; pool 4; Ann 0, Bea -4, Cat 0, Dan 0"),
    # --- premiums, matadors and units under other rules.
    ("Médiateur solo premium: 2 units", {"solo_premium": "two_units"}, 0,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -3, Bea +9, Cat -3, Dan -3"),
    ("PG: no solo premium", {"solo_premium": "none"}, 0,
     "Ann deals: Bea solo in hearts, 6 tricks, 3 matadors",
     "=> won; pool 0; Ann -2, Bea +6, Cat -2, Dan -2"),
    ("double matadors 1 + 2", {"double_matadors_pay": "in_addition"}, 0,
     "Ann deals: Bea solo in hearts, 6 tricks, 4 matadors",
     "=> won; pool 0; Ann -8, Bea +24, Cat -8, Dan -8"),
    ("W double matadors in black trumps", {"double_matadors_suits": "any_suit"}, 0,
     "Ann deals: Bea solo in spades, 6 tricks, 4 matadors",
     "=> won; pool 0; Ann -7, Bea +21, Cat -7, Dan -7"),
    ("six matadors paid as double", {}, 0,
     "Ann deals: Bea solo in hearts, 7 tricks, 6 matadors",
     "=> won; pool 0; Ann -7, Bea +21, Cat -7, Dan -7"),
    ("six matadors, a unit for each past four", {"long_matadors": "one_more_each"}, 0,
     "Ann deals: Bea solo in hearts, 7 tricks, 6 matadors",
     "=> won; pool 0; Ann -9, Bea +27, Cat -9, Dan -9"),
    ("P unit grows with the pool: 28 in play, unit 7", {}, 24,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -29, Bea +111, Cat -29, Dan -29"),
    ("unit fixed at one chip", {"unit": "one_chip"}, 24,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -5, Bea +39, Cat -5, Dan -5"),
    ("11 in play, unit rounded down to 2", {}, 7,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -9, Bea +34, Cat -9, Dan -9"),
    ("11 in play, unit rounded up to 3", {"unit_rounding": "up"}, 7,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -13, Bea +46, Cat -13, Dan -13"),
    ("10 in play, unit to the nearest: 2.5 rounds to 3", {"unit_rounding": "nearest"}, 6,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -13, Bea +45, Cat -13, Dan -13"),
    # --- antes.
    ("P: the dealer stakes four", {"ante_by": "dealer"}, 0,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -8, Bea +16, Cat -4, Dan -4"),
    ("antes only into an empty pool: 8 carried, no ante, unit 2", {"antes": "when_pool_empty"}, 8,
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -8, Bea +32, Cat -8, Dan -8"),
    # --- an odd chip when allies share the pool (7 in play).
    ("odd chip of a shared pool stays", {}, 3,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks",
     "=> won; pool 1; Ann -1, Bea +2, Cat -1, Dan +2"),
    ("odd chip of a shared pool to Hombre", {"alliance_odd_chip": "to_hombre"}, 3,
     "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks",
     "=> won; pool 0; Ann -1, Bea +3, Cat -1, Dan +2"),
]

# The profile penguin_chips (PG's settlement in chips): no solo premium, bonuses each to each,
# a lost alliance paid by Hombre alone, the vole 2 units each way with no vole pool, codille costs only the beast.
PENGUIN_CHIPS = [
    ("solo won: matadors only, no premium", "Ann deals: Bea solo in hearts, 6 tricks, 3 matadors",
     "=> won; pool 0; Ann -2, Bea +6, Cat -2, Dan -2"),
    ("alliance won: each opponent pays each ally", "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks, 3 matadors",
     "=> won; pool 0; Ann -3, Bea +3, Cat -3, Dan +3"),
    ("alliance remise: Hombre alone, though she took 3", "Ann deals: Bea alliance in spades calling KH held by Dan, 3 + 2 tricks",
     "=> remise; pool 8; Ann -1, Bea -5, Cat -1, Dan -1"),
    ("forced spadille codille: shared, only the beast", "Ann deals: Cat forced spadille in hearts calling KS held by Dan, 2 + 2 tricks",
     "=> codille; pool 8; Ann +1, Bea +1, Cat -5, Dan -5"),
    ("vole announced and won: premiers and 2 units from each", "Ann deals: Bea vole in hearts, 10 tricks, premiers",
     "=> vole_won; pool 0; Ann -4, Bea +12, Cat -4, Dan -4"),
    ("vole undertaken and lost: premiers in, 2 units out", "Ann deals: Bea solo in hearts, 8 tricks, premiers, vole undertaken",
     "=> vole_lost; pool 0; Ann 0, Bea 0, Cat 0, Dan 0"),  # Bea: -1 +4 +3x1 -3x2
]
