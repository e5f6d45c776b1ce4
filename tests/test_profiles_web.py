"""Every rule profile plays a short evening through the web forms; the ledger matches the core's replay."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.deals import EVENINGS
from helpers.web import csrf_token, form_data, ledger_balances, record, shown

from scorer.core import loads, replay
from scorer.web.db import get_db
from scorer.store import table_by_token


@pytest.mark.parametrize("profile", sorted(EVENINGS))
def test_a_short_evening_in_every_profile(app: Flask, client: FlaskClient, profile: str) -> None:
    deals = EVENINGS[profile]
    agreed = str(-(-len(deals) // 4) * 4)
    new = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "Bea",
                                    "player_3": "Cat", "player_4": "Dan", "first_dealer": "1", "profile": profile,
                                    "deals_agreed": agreed})
    assert new.status_code == 302
    token = new.headers["Location"].split("/t/")[1].split("/")[0]

    play = client.get(f"/t/{token}").get_data(as_text=True)
    contracts = {d["contract"] for d in deals}
    for contract in contracts:
        assert f"/t/{token}/deal/{contract}" in play, f"{profile} offers {contract}"
    for number, d in enumerate(deals, start=1):
        response = record(client, token, str(d["contract"]), number, form_data(d))
        assert response.status_code == 302

    evening = loads(json.dumps({"format": "quadrille-evening/1", "players": ["Ann", "Bea", "Cat", "Dan"],
                                "profile": profile, "deals_agreed": int(agreed), "deals": deals}))
    expected = replay(evening)
    balances = ledger_balances(client, f"/t/{token}/ledger")
    assert balances[:4] == [shown(b) for b in expected.final.balances]
    page = client.get(f"/t/{token}/ledger").get_data(as_text=True)
    if profile == "penguin_points":
        assert f"×{expected.settlements[-1].multiplier}" in page and "Next game counts" in page
        assert balances[4] == ""
    else:
        assert balances[4] == str(expected.final.pool)
    if profile == "britannica":
        assert "fish" in page


def test_the_mediateur_form_asks_only_what_each_contract_needs(app: Flask, client: FlaskClient) -> None:
    new = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "Bea",
                                    "player_3": "Cat", "player_4": "Dan", "first_dealer": "1", "profile": "mediateur",
                                    "deals_agreed": "8"})
    token = new.headers["Location"].split("/t/")[1].split("/")[0]
    grandissimo = client.get(f"/t/{token}/deal/grandissimo").get_data(as_text=True)
    assert 'name="trumps"' not in grandissimo and 'name="matadors"' not in grandissimo
    assert 'value="announced"' in grandissimo and 'value="revealed"' in grandissimo
    nemo = client.get(f"/t/{token}/deal/nemo").get_data(as_text=True)
    assert 'name="premiers"' not in nemo and 'name="vole"' not in nemo
    mediateur = client.get(f"/t/{token}/deal/mediateur").get_data(as_text=True)
    assert 'name="giver"' in mediateur and 'name="ally"' not in mediateur and 'name="called"' in mediateur
    casco = client.get(f"/t/{token}/deal/casco").get_data(as_text=True)
    assert 'name="ally"' in casco and 'value="announced"' not in casco
    assert client.get(f"/t/{token}/deal/vole").status_code == 404  # Médiateur announces the vole with a bid instead


def test_a_favourite_suit_can_be_drawn_at_the_start(app: Flask, client: FlaskClient) -> None:
    new = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "Bea",
                                    "player_3": "Cat", "player_4": "Dan", "first_dealer": "1", "profile": "mediateur",
                                    "deals_agreed": "8", "rule_favourite_suit": "draw"})
    assert new.status_code == 302
    token = new.headers["Location"].split("/t/")[1].split("/")[0]
    with app.app_context():
        table = table_by_token(get_db(), token)
    assert table is not None
    assert table.rules.value_of("favourite_suit") in ("spades", "clubs", "diamonds", "hearts")


def test_a_favourite_suit_drawn_each_deal_is_asked_each_deal(app: Flask, client: FlaskClient) -> None:
    new = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "Bea",
                                    "player_3": "Cat", "player_4": "Dan", "first_dealer": "1", "profile": "mediateur",
                                    "deals_agreed": "8", "rule_favourite_suit": "each_deal"})
    token = new.headers["Location"].split("/t/")[1].split("/")[0]
    solo = {"hombre": "Bea", "trumps": "clubs", "hombre_tricks": "6", "matadors": "0"}
    assert 'name="favourite"' in client.get(f"/t/{token}/deal/solo").get_data(as_text=True)
    refused = client.post(f"/t/{token}/deal/solo", data={"csrf_token": csrf_token(client, f"/t/{token}/deal/solo"),
                                                         "contract": "solo", "number": "1", "action": "preview", **solo})
    assert refused.status_code == 422 and "which suit is favourite this deal?" in refused.get_data(as_text=True)
    assert record(client, token, "solo", 1, {**solo, "favourite": "clubs"}).status_code == 302
    assert ledger_balances(client, f"/t/{token}/ledger")[:4] == ["−5", "+15", "−5", "−5"]  # solo in favourite: 4 units
