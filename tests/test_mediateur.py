"""Médiateur with Quanti's table: every figure of the table, not in favourite and in favourite.

Profile ``mediateur`` (favourite suit: hearts). Players Ann, Bea, Cat, Dan;
Ann deals, so Bea is eldest; the pool is empty before the antes (stake 4,
unit 1 chip). Each row names the figure it checks and where that figure
shows as a transfer (the premium each opponent pays, or each player's stake
in the vole pool); the changes are worked by hand.
"""

from __future__ import annotations

import pytest
from scenario import assert_settles_as, parse_deal, parse_expected

from scorer.core import Contract, HouseRules, Reason, TableState, settle
from scorer.core.systems.chips import (
    QUANTI_GAMES,
    QUANTI_VOLES_ANNOUNCED,
    QUANTI_VOLES_REVEALED,
    QUANTI_VOLES_UNDERTAKEN,
    Rate,
)

PLAYERS = ("Ann", "Bea", "Cat", "Dan")

# (figure of Quanti's table, n/f, deal, which transfer shows the figure, its chips, expected result and changes)
QUANTI = [
    # --- games: the premium each opponent pays (one to one between allies)
    ("forced spadille", "n", "Ann deals: Cat forced spadille in spades calling KH held by Dan, 3 + 4 tricks",
     Reason.GAME_PREMIUM, 0, "=> won; pool 0; Ann -1, Bea -1, Cat +1, Dan +1"),
    ("forced spadille", "f", "Ann deals: Cat forced spadille in hearts calling KS held by Dan, 3 + 4 tricks",
     Reason.GAME_PREMIUM, 1, "=> won; pool 0; Ann -2, Bea -2, Cat +2, Dan +2"),
    ("alliance", "n", "Ann deals: Bea alliance in spades calling KH held by Dan, 4 + 3 tricks",
     Reason.GAME_PREMIUM, 0, "=> won; pool 0; Ann -1, Bea +1, Cat -1, Dan +1"),
    ("alliance", "f", "Ann deals: Bea alliance in hearts calling KS held by Dan, 4 + 3 tricks",
     Reason.GAME_PREMIUM, 1, "=> won; pool 0; Ann -2, Bea +2, Cat -2, Dan +2"),
    # médiateur: Dan gave the King and is exempt from the premium (P)
    ("médiateur", "n", "Ann deals: Bea mediateur in spades calling KH from Dan, 6 tricks",
     Reason.GAME_PREMIUM, 1, "=> won; pool 0; Ann -2, Bea +5, Cat -2, Dan -1"),
    ("médiateur", "f", "Ann deals: Bea mediateur in hearts calling KS from Dan, 6 tricks",
     Reason.GAME_PREMIUM, 2, "=> won; pool 0; Ann -3, Bea +7, Cat -3, Dan -1"),
    ("casco", "n", "Ann deals: Bea casco in spades calling KH held by Dan, 4 + 3 tricks",
     Reason.GAME_PREMIUM, 2, "=> won; pool 0; Ann -3, Bea +3, Cat -3, Dan +3"),
    ("casco", "f", "Ann deals: Bea casco in hearts calling KS held by Dan, 4 + 3 tricks",
     Reason.GAME_PREMIUM, 4, "=> won; pool 0; Ann -5, Bea +5, Cat -5, Dan +5"),
    ("solo", "n", "Ann deals: Bea solo in spades, 6 tricks",
     Reason.GAME_PREMIUM, 2, "=> won; pool 0; Ann -3, Bea +9, Cat -3, Dan -3"),
    ("solo", "f", "Ann deals: Bea solo in hearts, 6 tricks",
     Reason.GAME_PREMIUM, 4, "=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5"),
    ("grandissimo", "n", "Ann deals: Bea grandissimo, 6 tricks",
     Reason.GAME_PREMIUM, 8, "=> won; pool 0; Ann -9, Bea +27, Cat -9, Dan -9"),
    ("nemo", "n", "Ann deals: Bea nemo, 0 tricks",
     Reason.GAME_PREMIUM, 16, "=> won; pool 0; Ann -17, Bea +51, Cat -17, Dan -17"),
    # --- matadors and premiers, on a solo (premium 2, or 4 in favourite)
    ("3 matadors", "n", "Ann deals: Bea solo in spades, 6 tricks, 3 matadors",
     Reason.MATADORS, 1, "=> won; pool 0; Ann -4, Bea +12, Cat -4, Dan -4"),
    ("3 matadors", "f", "Ann deals: Bea solo in hearts, 6 tricks, 3 matadors",
     Reason.MATADORS, 2, "=> won; pool 0; Ann -7, Bea +21, Cat -7, Dan -7"),
    ("4 matadors", "n", "Ann deals: Bea solo in diamonds, 6 tricks, 4 matadors",
     Reason.MATADORS, 2, "=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5"),
    ("4 matadors", "f", "Ann deals: Bea solo in hearts, 6 tricks, 4 matadors",
     Reason.MATADORS, 4, "=> won; pool 0; Ann -9, Bea +27, Cat -9, Dan -9"),
    ("premiers", "n", "Ann deals: Bea solo in spades, 6 tricks, premiers",
     Reason.PREMIERS, 1, "=> won; pool 0; Ann -4, Bea +12, Cat -4, Dan -4"),
    ("premiers", "f", "Ann deals: Bea solo in hearts, 6 tricks, premiers",
     Reason.PREMIERS, 2, "=> won; pool 0; Ann -7, Bea +21, Cat -7, Dan -7"),
    # --- voles undertaken: each player's stake in the vole pool, which the winners take
    ("vole undertaken, alliance", "n", "Ann deals: Bea alliance in spades calling KH held by Dan, 5 + 5 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 3, "=> vole_won; pool 0; Ann -5, Bea +5, Cat -5, Dan +5"),
    ("vole undertaken, alliance", "f", "Ann deals: Bea alliance in hearts calling KS held by Dan, 5 + 5 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 6, "=> vole_won; pool 0; Ann -10, Bea +10, Cat -10, Dan +10"),
    ("vole undertaken, médiateur", "n", "Ann deals: Bea mediateur in spades calling KH from Dan, 10 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 3, "=> vole_won; pool 0; Ann -6, Bea +17, Cat -6, Dan -5"),
    ("vole undertaken, médiateur", "f", "Ann deals: Bea mediateur in hearts calling KS from Dan, 10 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 6, "=> vole_won; pool 0; Ann -11, Bea +31, Cat -11, Dan -9"),
    ("vole undertaken, casco", "n", "Ann deals: Bea casco in spades calling KH held by Dan, 5 + 5 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 6, "=> vole_won; pool 0; Ann -10, Bea +10, Cat -10, Dan +10"),
    ("vole undertaken, casco", "f", "Ann deals: Bea casco in hearts calling KS held by Dan, 5 + 5 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 12, "=> vole_won; pool 0; Ann -19, Bea +19, Cat -19, Dan +19"),
    ("vole undertaken, solo", "n", "Ann deals: Bea solo in spades, 10 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 6, "=> vole_won; pool 0; Ann -10, Bea +30, Cat -10, Dan -10"),
    ("vole undertaken, solo", "f", "Ann deals: Bea solo in hearts, 10 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 12, "=> vole_won; pool 0; Ann -19, Bea +57, Cat -19, Dan -19"),
    ("vole undertaken, grandissimo", "n", "Ann deals: Bea grandissimo, 10 tricks, premiers, vole undertaken",
     Reason.VOLE_STAKE, 24, "=> vole_won; pool 0; Ann -34, Bea +102, Cat -34, Dan -34"),
    # --- voles announced
    ("vole announced, médiateur", "n", "Ann deals: Bea mediateur in spades calling KH from Dan, 10 tricks, premiers, vole announced",
     Reason.VOLE_STAKE, 5, "=> vole_won; pool 0; Ann -8, Bea +23, Cat -8, Dan -7"),
    ("vole announced, médiateur", "f", "Ann deals: Bea mediateur in hearts calling KS from Dan, 10 tricks, premiers, vole announced",
     Reason.VOLE_STAKE, 10, "=> vole_won; pool 0; Ann -15, Bea +43, Cat -15, Dan -13"),
    ("vole announced, solo", "n", "Ann deals: Bea solo in spades, 10 tricks, premiers, vole announced",
     Reason.VOLE_STAKE, 9, "=> vole_won; pool 0; Ann -13, Bea +39, Cat -13, Dan -13"),
    ("vole announced, solo", "f", "Ann deals: Bea solo in hearts, 10 tricks, premiers, vole announced",
     Reason.VOLE_STAKE, 18, "=> vole_won; pool 0; Ann -25, Bea +75, Cat -25, Dan -25"),
    ("vole announced, grandissimo", "n", "Ann deals: Bea grandissimo, 10 tricks, premiers, vole announced",
     Reason.VOLE_STAKE, 36, "=> vole_won; pool 0; Ann -46, Bea +138, Cat -46, Dan -46"),
    # --- voles revealed
    ("vole revealed, médiateur", "n", "Ann deals: Bea mediateur in spades calling KH from Dan, 10 tricks, premiers, vole revealed",
     Reason.VOLE_STAKE, 6, "=> vole_won; pool 0; Ann -9, Bea +26, Cat -9, Dan -8"),
    ("vole revealed, médiateur", "f", "Ann deals: Bea mediateur in hearts calling KS from Dan, 10 tricks, premiers, vole revealed",
     Reason.VOLE_STAKE, 12, "=> vole_won; pool 0; Ann -17, Bea +49, Cat -17, Dan -15"),
    ("vole revealed, solo", "n", "Ann deals: Bea solo in spades, 10 tricks, premiers, vole revealed",
     Reason.VOLE_STAKE, 12, "=> vole_won; pool 0; Ann -16, Bea +48, Cat -16, Dan -16"),
    ("vole revealed, solo", "f", "Ann deals: Bea solo in hearts, 10 tricks, premiers, vole revealed",
     Reason.VOLE_STAKE, 24, "=> vole_won; pool 0; Ann -31, Bea +93, Cat -31, Dan -31"),
    ("vole revealed, grandissimo", "n", "Ann deals: Bea grandissimo, 10 tricks, premiers, vole revealed",
     Reason.VOLE_STAKE, 48, "=> vole_won; pool 0; Ann -58, Bea +174, Cat -58, Dan -58"),
]


@pytest.mark.parametrize(
    "deal_line, reason, figure, expected_line",
    [pytest.param(d, r, c, e, id=f"{name} ({nf}) = {c}") for name, nf, d, r, c, e in QUANTI],
)
def test_every_figure_of_quantis_table(deal_line: str, reason: Reason, figure: int, expected_line: str) -> None:
    expected = parse_expected(expected_line)
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), HouseRules.of("mediateur"))

    shown = {t.chips for t in settlement.transfers if t.reason is reason}
    assert shown == ({figure} if figure else set()), "the figure of Quanti's table, as the transfer that pays it"
    assert_settles_as(settlement, expected, PLAYERS)


def test_the_table_has_a_row_for_every_figure() -> None:
    """One row for each figure of Quanti's table as P prints it (n, and f where the table gives one)."""
    # Matadors (three 1/2, four 2/4) and premiers (1/2): the hard score reckons them as the bonuses of every
    # profile (matadors_paid, double_matadors_pay; doubled in favourite), which these rows show to be Quanti's.
    matadors_and_premiers = [Rate(1, 2), Rate(2, 4), Rate(1, 2)]
    printed = [
        *QUANTI_GAMES.values(), *matadors_and_premiers,
        *(r for c, r in QUANTI_VOLES_UNDERTAKEN.items() if c is not Contract.FORCED_SPADILLE),  # not in the table
        *(r for c, r in QUANTI_VOLES_ANNOUNCED.items() if c is not Contract.VOLE),  # the basic game's bid
        *QUANTI_VOLES_REVEALED.values(),
    ]
    figures = sum(2 if rate.favourite is not None else 1 for rate in printed)
    rows = {(name, nf) for name, nf, *_ in QUANTI}
    assert len(rows) == len(QUANTI) == figures == 37


MEDIATEUR_RULES = [
    ("EB: the médiateur King's giver is paid a fish and pays the premium", {"mediateur_king": "giver_paid_a_fish"},
     "Ann deals: Bea mediateur in spades calling KH from Dan, 6 tricks",
     "=> won; pool 0; Ann -2, Bea +5, Cat -2, Dan -1"),  # Bea: -1 +4 -1 fish +3x1; Dan: -1 +1 -1
    ("P: médiateur lost by remise; the giver is not paid the premium", {},
     "Ann deals: Bea mediateur in spades calling KH from Dan, 5 tricks, 3 matadors",
     "=> remise; pool 8; Ann +1, Bea -10, Cat +1, Dan 0"),  # Bea: -1 -4 -(1+1) to Cat, Ann, -1 to Dan
    ("casco lost: both equally liable", {},
     "Ann deals: Bea casco in spades calling KH held by Dan, 1 + 4 tricks",
     "=> remise; pool 8; Ann +1, Bea -5, Cat +1, Dan -5"),  # each: -1 -2 beast -2 premium
    ("nemo lost: a remise and 16 to each", {},
     "Ann deals: Bea nemo, 1 trick",
     "=> remise; pool 8; Ann +15, Bea -53, Cat +15, Dan +15"),
    ("nemo lost, premium only: the pool stays", {"grandissimo_nemo": "premium_only"},
     "Ann deals: Bea nemo, 2 tricks",
     "=> lost; pool 4; Ann +15, Bea -49, Cat +15, Dan +15"),
    ("grandissimo won, premium only: the pool stays", {"grandissimo_nemo": "premium_only"},
     "Ann deals: Bea grandissimo, 7 tricks",
     "=> won; pool 4; Ann -9, Bea +23, Cat -9, Dan -9"),
    ("H47: in favourite the remise beast doubles too", {"favourite_doubles": "everything"},
     "Ann deals: Bea solo in hearts, 5 tricks",
     "=> remise; pool 12; Ann +3, Bea -21, Cat +3, Dan +3"),  # beast 8; premium 4 to each
    ("P: in favourite the stake stays single", {},
     "Ann deals: Bea solo in hearts, 5 tricks",
     "=> remise; pool 8; Ann +3, Bea -17, Cat +3, Dan +3"),
    ("favourite drawn each deal: clubs this deal", {"favourite_suit": "each_deal"},
     "Ann deals: Bea solo in clubs, 6 tricks, favourite clubs",
     "=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5"),
    ("favourite drawn each deal: not this deal's trumps", {"favourite_suit": "each_deal"},
     "Ann deals: Bea solo in hearts, 6 tricks, favourite clubs",
     "=> won; pool 0; Ann -3, Bea +9, Cat -3, Dan -3"),
    ("announced vole lost: the pool stays, the vole pool to the opponents", {},
     "Ann deals: Bea solo in spades, 8 tricks, premiers, vole announced",
     "=> vole_lost; pool 4; Ann +2, Bea -10, Cat +2, Dan +2"),  # vole pool 36: 12 to each of three
    ("médiateur vole announced, lost: 20 in the vole pool, 2 do not divide by 3", {},
     "Ann deals: Bea mediateur in spades calling KH from Dan, 7 tricks, premiers, vole announced",
     "=> vole_lost; pool 4; vole pool 2; Ann +0, Bea -6, Cat +0, Dan +0"),  # each -1 -5 +6; Bea -1 -5
]


@pytest.mark.parametrize("changes, deal_line, expected_line", [pytest.param(*r[1:], id=r[0]) for r in MEDIATEUR_RULES])
def test_mediateur_house_rules(changes: dict[str, str], deal_line: str, expected_line: str) -> None:
    expected = parse_expected(expected_line)
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), HouseRules.of("mediateur", changes))
    assert_settles_as(settlement, expected, PLAYERS)
