"""The Britannica's counters: EB's six stated figures, and the items around them (tests/test_britannica.py).

Profile ``britannica``: each player stakes a fish (10 counters), so 40 are on
the game; the médiateur King is bought with a fish (EB). Players Ann, Bea,
Cat, Dan; Ann deals; Dan gives Bea the médiateur King.
"""

from __future__ import annotations


# EB: "he who wins the médiateur receives thirteen counters from each; and if he loses by remise
# he pays twelve to each, and thirteen if by codill. The winner of sans prendre receives seventeen
# counters from each; and if by remise he loses, he pays sixteen to each, and seventeen if by codill."
EB_FIGURES = [
    ("médiateur won: 13 from each", "Ann deals: Bea mediateur in spades calling KH from Dan, 6 tricks", 13,
     "=> won; pool 0; Ann -23, Bea +59, Cat -23, Dan -13"),  # Bea: -10 +40 +3x13 -10 (the fish for the King)
    ("médiateur remise: 12 to each", "Ann deals: Bea mediateur in spades calling KH from Dan, 5 tricks", -12,
     "=> remise; pool 80; Ann +2, Bea -96, Cat +2, Dan +12"),  # Bea: -10 -40 beast -3x12 -10
    ("médiateur codille: 13 to each", "Ann deals: Bea mediateur in spades calling KH from Dan, 4 tricks", -13,
     "=> codille; pool 40; Ann +16, Bea -99, Cat +16, Dan +26"),  # 40 divided 13 each, 1 kept for Spadille; beast 40
    ("sans prendre won: 17 from each", "Ann deals: Bea solo in spades, 6 tricks", 17,
     "=> won; pool 0; Ann -27, Bea +81, Cat -27, Dan -27"),
    ("sans prendre remise: 16 to each", "Ann deals: Bea solo in spades, 5 tricks", -16,
     "=> remise; pool 80; Ann +6, Bea -98, Cat +6, Dan +6"),
    ("sans prendre codille: 17 to each", "Ann deals: Bea solo in spades, 4 tricks", -17,
     "=> codille; pool 40; Ann +20, Bea -101, Cat +20, Dan +20"),
]

COUNTER_EXAMPLES = [
    ("forced spadille won: the board divided, game and consolation one to one", {},
     "Ann deals: Bea forced spadille in spades calling KH held by Cat, 3 + 3 tricks",
     "=> won; pool 0; Ann -13, Bea +13, Cat +13, Dan -13"),  # 20 each; Dan pays Bea 3, Ann pays Cat 3
    ("alliance won with three matadors, one to one", {},
     "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks, 3 matadors",
     "=> won; pool 0; Ann -16, Bea +16, Cat -16, Dan +16"),  # board 20 each; game 1 + consolation 2 + 3 matadors
    ("the favourite suit pays double", {"favourite_suit": "hearts"},
     "Ann deals: Bea solo in hearts, 6 tricks",
     "=> won; pool 0; Ann -44, Bea +132, Cat -44, Dan -44"),  # 34 from each
    # EB doubles in favourite the King's fish ("two fish if it is in the favourite suite") and says not what else:
    # the profile doubles everything in favourite (the app's reading, as H47 is said to), the beast too; a
    # table that takes favourite_doubles = bonuses doubles its items and leaves the beast what is upon the game.
    ("a remise in favourite, the bonuses only doubled: the items double, the beast does not",
     {"favourite_suit": "hearts", "favourite_doubles": "bonuses"},
     "Ann deals: Bea solo in hearts, 5 tricks",
     "=> remise; pool 80; Ann +22, Bea -146, Cat +22, Dan +22"),  # Bea: -10 -40 beast -3x2x(2+4+10)
    ("the same remise under the profile, the favourite doubling everything (the app's reading): the beast too",
     {"favourite_suit": "hearts"},
     "Ann deals: Bea solo in hearts, 5 tricks",
     "=> remise; pool 120; Ann +22, Bea -186, Cat +22, Dan +22"),  # Bea: -10 -80 beast -96
    ("the médiateur King in favourite costs two fish", {"favourite_suit": "hearts"},
     "Ann deals: Bea mediateur in hearts calling KS from Dan, 6 tricks",
     "=> won; pool 0; Ann -36, Bea +88, Cat -36, Dan -16"),  # Bea: -10 +40 +3x26 -20 to Dan
    ("the vole: a fish from each", {},
     "Ann deals: Bea solo in spades, 10 tricks, premiers, vole undertaken",
     "=> vole_won; pool 0; Ann -37, Bea +111, Cat -37, Dan -37"),
    ("the vole doubled alone (FR)", {"counter_vole": "doubled_alone"},
     "Ann deals: Bea solo in spades, 10 tricks, premiers, vole undertaken",
     "=> vole_won; pool 0; Ann -47, Bea +141, Cat -47, Dan -47"),
    ("the common game: no fish extraordinary", {"fish_extraordinary": "no"},
     "Ann deals: Bea solo in spades, 6 tricks",
     "=> won; pool 0; Ann -17, Bea +51, Cat -17, Dan -17"),
    ("a counter each on the game", {"counter_stake": "counter_each"},
     "Ann deals: Bea solo in spades, 6 tricks",
     "=> won; pool 0; Ann -18, Bea +54, Cat -18, Dan -18"),
    ("P's exemption for the giver instead of EB's fish", {"mediateur_king": "giver_exempt"},
     "Ann deals: Bea mediateur in spades calling KH from Dan, 6 tricks",
     "=> won; pool 0; Ann -23, Bea +56, Cat -23, Dan -10"),  # Dan pays nothing but the ante; Bea: -10 +40 +2x13
    ("alliance lost by Hombre with 2 tricks: she pays alone", {},
     "Ann deals: Bea alliance in spades calling KH held by Dan, 2 + 3 tricks",
     "=> remise; pool 80; Ann -8, Bea -54, Cat -8, Dan -10"),  # beast 40; consolation 2 to Cat and to Ann
]
