"""The Britannica's counters: EB's six stated figures, and the items around them.

Profile ``britannica``: each player stakes a fish (10 counters), so 40 are on
the game; the médiateur King is bought with a fish (EB). Players Ann, Bea,
Cat, Dan; Ann deals; Dan gives Bea the médiateur King.

The rows are data in tests/helpers/examples/britannica.py (the deal summary's tests read every one of them too).
"""

from __future__ import annotations

import pytest
from helpers.examples.britannica import COUNTER_EXAMPLES, EB_FIGURES
from helpers.scenario import assert_settles_as, parse_deal, parse_expected

from scorer.core import HouseRules, Pot, Reason, TableState, settle
from scorer.core import counters_text

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


@pytest.mark.parametrize("deal_line, figure, expected_line", [pytest.param(*r[1:], id=r[0]) for r in EB_FIGURES])
def test_the_britannicas_six_figures(deal_line: str, figure: int, expected_line: str) -> None:
    deal = parse_deal(deal_line)
    settlement = settle(deal, TableState.start(PLAYERS), HouseRules.of("britannica"))
    expected = parse_expected(expected_line)

    between_players = [t for t in settlement.transfers
                       if not isinstance(t.payer, Pot) and not isinstance(t.payee, Pot) and t.reason is not Reason.MEDIATEUR_KING]
    for opponent in ("Ann", "Cat", "Dan"):
        paid = sum(t.chips for t in between_players if t.payer == opponent) - sum(t.chips for t in between_players if t.payee == opponent)
        assert paid == figure, f"{opponent} pays Hombre {paid}, EB says {figure}"
    assert_settles_as(settlement, expected, PLAYERS)


def test_the_figures_are_itemised() -> None:
    deal = parse_deal("Ann deals: Bea solo in spades, 6 tricks")
    settlement = settle(deal, TableState.start(PLAYERS), HouseRules.of("britannica"))
    from_cat = {t.reason: t.chips for t in settlement.transfers if t.payer == "Cat"}
    assert from_cat == {Reason.ANTE: 10, Reason.GAME: 1, Reason.CONSOLATION: 2, Reason.SANS_APPELER: 4, Reason.FISH_EXTRAORDINARY: 10}


@pytest.mark.parametrize("changes, deal_line, expected_line", [pytest.param(*r[1:], id=r[0]) for r in COUNTER_EXAMPLES])
def test_counter_examples(changes: dict[str, str], deal_line: str, expected_line: str) -> None:
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), HouseRules.of("britannica", changes))
    expected = parse_expected(expected_line)
    assert_settles_as(settlement, expected, PLAYERS)


@pytest.mark.parametrize(
    "counters, text",
    [(0, "0 counters"), (1, "1 counter"), (13, "1 fish 3 counters"), (100, "1 mil"), (1234, "12 mils 3 fish 4 counters"),
     (-17, "−1 fish 7 counters")],
)
def test_counters_as_mils_fish_and_counters(counters: int, text: str) -> None:
    assert counters_text(counters) == text
