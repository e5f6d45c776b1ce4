"""Infer, don't refuse (issue 12, point 3): what the tricks imply is filled in, and a run of four
matadors in black trumps is taken as held and paid as the house rules say. What cannot be is still refused."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from flask.testing import FlaskClient
from helpers.web import record, start_table

from scorer.core import Contract, Deal, HouseRules, ImpossibleDeal, Reason, Suit, TableState, Vole, check_deal, implied, settle

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
START = TableState.start(PLAYERS)


def solo(**changes: object) -> Deal:
    fields: dict[str, object] = dict(dealer="Ann", hombre="Bea", contract=Contract.SOLO, trumps=Suit.HEARTS, hombre_tricks=6)
    fields.update(changes)
    return Deal(**fields)  # type: ignore[arg-type]


# (what, the deal entered, the house rules changed, (premiers, vole) implied)
IMPLIED = [
    ("ten tricks alone: premiers and the vole undertaken", solo(hombre_tricks=10), {}, (True, Vole.UNDERTAKEN)),
    ("ten tricks, premiers ticked: the vole too", solo(hombre_tricks=10, premiers=True), {}, (True, Vole.UNDERTAKEN)),
    ("ten tricks between the allies", Deal("Ann", "Bea", Contract.ALLIANCE, Suit.HEARTS, called=None, ally="Dan",
                                           hombre_tricks=6, ally_tricks=4), {}, (True, Vole.UNDERTAKEN)),
    ("nine tricks: nothing implied", solo(hombre_tricks=9), {}, (False, Vole.NONE)),
    ("the vole bid: announced already, premiers implied", solo(contract=Contract.VOLE, hombre_tricks=10), {},
     (True, Vole.NONE)),
    ("a forced spadille with no bonuses: nothing", Deal("Ann", "Bea", Contract.FORCED_SPADILLE, Suit.HEARTS, ally="Dan",
                                                      hombre_tricks=6, ally_tricks=4), {}, (False, Vole.NONE)),
]


@pytest.mark.parametrize("what, deal, changes, expected", IMPLIED, ids=[row[0] for row in IMPLIED])
def test_what_ten_tricks_imply(what: str, deal: Deal, changes: dict[str, str], expected: tuple[bool, Vole]) -> None:
    rules = HouseRules.of("quadrille", changes)
    inferred = implied(deal, rules)
    assert (inferred.premiers, inferred.vole) == expected
    assert replace(inferred, premiers=deal.premiers, vole=deal.vole) == deal  # nothing else touched


def test_the_core_still_refuses_ten_tricks_without_premiers() -> None:
    """A deal given to the core as it stands (an imported file) is not corrected silently."""
    with pytest.raises(ImpossibleDeal, match="mark premiers"):
        check_deal(solo(hombre_tricks=10), START, HouseRules.of())


def matador_payments(deal: Deal, changes: dict[str, str] | None = None) -> list[tuple[str, int, str]]:
    settlement = settle(deal, START, HouseRules.of("quadrille", changes or {}))
    return [(str(t.payer), t.chips, str(t.what)) for t in settlement.transfers if t.reason is Reason.MATADORS]


def test_four_matadors_in_black_are_held_and_pay_as_three_where_double_matadors_need_punto() -> None:
    """P: double matadors are "3 plus Punto", "of course possible only when a red suit was trump";
    matadors "are paid when Hombre originally held Spadille, Manille, and Basto"."""
    black_four = solo(trumps=Suit.CLUBS, matadors=4, hombre_tricks=7, premiers=True, vole=Vole.UNDERTAKEN)
    check_deal(black_four, START, HouseRules.of())  # not refused
    three = matador_payments(replace(black_four, matadors=3))
    four = matador_payments(black_four)
    assert [chips for _, chips, _ in four] == [chips for _, chips, _ in three] and four
    assert all("paid as three" in what and "(P)" in what for _, _, what in four)
    five = matador_payments(replace(black_four, matadors=5))
    assert [chips for _, chips, _ in five] == [chips for _, chips, _ in three]


def test_four_matadors_in_black_are_double_matadors_where_any_suit_counts() -> None:
    """W: "the four highest matadors (trumps)", in any suit: two units in place of one."""
    black_four = solo(trumps=Suit.CLUBS, matadors=4)
    three = matador_payments(replace(black_four, matadors=3), {"double_matadors_suits": "any_suit"})
    four = matador_payments(black_four, {"double_matadors_suits": "any_suit"})
    assert [chips for _, chips, _ in four] == [2 * chips for _, chips, _ in three]
    assert all(what == "double matadors" for _, _, what in four)


def exported_deal(client: FlaskClient, token: str, number: int) -> dict[str, object]:
    deals = json.loads(client.get(f"/t/{token}/export.json").get_data())["deals"]
    return deals[number - 1]  # type: ignore[no-any-return]


def test_ten_tricks_tapped_without_premiers_record_premiers_and_the_vole(client: FlaskClient) -> None:
    token = start_table(client)
    response = record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "clubs", "hombre_tricks": "10", "matadors": "0"})
    assert response.status_code == 302
    deal = exported_deal(client, token, 1)
    assert deal["premiers"] is True and deal["vole"] == "undertaken"


def test_the_preview_shows_what_ten_tricks_imply_ticked(client: FlaskClient) -> None:
    token = start_table(client)
    from helpers.web import post_deal

    page = post_deal(client, token, "solo", 1, {"hombre": "Bea", "trumps": "clubs", "hombre_tricks": "10",
                                                 "matadors": "0"}).get_data(as_text=True)
    premiers = re.search(r'<input[^>]*name="premiers"[^>]*>', page)
    assert premiers and "checked" in premiers.group(0)
    assert 'value="undertaken" checked' in page


def test_four_black_matadors_tapped_record_and_pay_as_three(client: FlaskClient) -> None:
    token = start_table(client)
    response = record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "spades", "hombre_tricks": "6", "matadors": "4"})
    assert response.status_code == 302
    assert exported_deal(client, token, 1)["matadors"] == 4
    audit = client.get(f"/t/{token}/audit/1").get_data(as_text=True)
    assert "paid as three" in audit


def test_what_cannot_be_is_still_refused(client: FlaskClient) -> None:
    token = start_table(client)
    from helpers.web import post_deal

    page = post_deal(client, token, "solo", 1, {"hombre": "Bea", "trumps": "spades", "hombre_tricks": "8", "premiers": "y",
                                                 "matadors": "0"})
    assert page.status_code == 422
    assert "leading to the seventh trick after premiers undertakes the vole" in page.get_data(as_text=True)
