"""Médiateur with Quanti's table: every figure of the table, not in favourite and in favourite.

Profile ``mediateur`` (favourite suit: hearts). Players Ann, Bea, Cat, Dan;
Ann deals, so Bea is eldest; the pool is empty before the antes (stake 4,
unit 1 chip). Each row names the figure it checks and where that figure
shows as a transfer (the premium each opponent pays, or each player's stake
in the vole pool); the changes are worked by hand.

The rows are data in tests/helpers/examples/mediateur.py (the deal summary's tests read every one of them too).
"""

from __future__ import annotations

import pytest
from helpers.examples.mediateur import MEDIATEUR_RULES, QUANTI
from helpers.scenario import assert_settles_as, parse_deal, parse_expected

from scorer.core import Contract, HouseRules, Reason, TableState, settle
from scorer.core.systems.chips import (
    QUANTI_GAMES,
    QUANTI_VOLES_ANNOUNCED,
    QUANTI_VOLES_REVEALED,
    QUANTI_VOLES_UNDERTAKEN,
    Rate,
)

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


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


@pytest.mark.parametrize("changes, deal_line, expected_line", [pytest.param(*r[1:], id=r[0]) for r in MEDIATEUR_RULES])
def test_mediateur_house_rules(changes: dict[str, str], deal_line: str, expected_line: str) -> None:
    expected = parse_expected(expected_line)
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), HouseRules.of("mediateur", changes))
    assert_settles_as(settlement, expected, PLAYERS)
