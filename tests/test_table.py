"""The table app through Flask's test client, CSRF protection on, as phones would use it."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import (
    EXAMPLE, csrf_token, event_rows, form_data, ledger_balances, post_deal, record, shown, start_table,
)

from scorer import create_app
from scorer.core import loads, replay
from scorer.web.forms import NOT_A_CHOICE

PLAYERS = ["Ann", "Bea", "Cat", "Dan"]


def checked_inputs(page: str) -> dict[str, str]:
    """name -> value of every checked radio button and checkbox on the page, whatever the attribute order."""
    found = {}
    for tag in re.findall(r"<input\b[^>]*>", page):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        if re.search(r"\schecked\b", tag) and "name" in attrs:
            found[attrs["name"]] = attrs.get("value", "")
    return found


def test_a_whole_evening_of_eight_deals_then_undo(app: Flask, client: FlaskClient) -> None:
    evening_json = json.loads(EXAMPLE.read_text())
    token = start_table(client)
    join = client.get(f"/t/{token}/join").get_data(as_text=True)
    assert "<svg" in join and f"/t/{token}" in join

    phones = [app.test_client() for _ in range(4)]  # every player's phone joins by the link
    for number, deal in enumerate(evening_json["deals"], start=1):
        phone = phones[number % 4]
        page = phone.get(f"/t/{token}").get_data(as_text=True)
        assert f"Deal {number}: what did Hombre play?" in page
        assert f"<dt>Dealer</dt><dd>{deal['dealer']}</dd>" in page
        response = record(phone, token, deal["contract"], number, form_data(deal))
        assert response.status_code == 302 and response.headers["Location"].endswith(f"/t/{token}?recorded={number}")

    expected = replay(loads(EXAMPLE.read_text()))
    assert {d["contract"] for d in evening_json["deals"]} == {"alliance", "solo", "vole", "forced_spadille"}
    assert ledger_balances(client, f"/t/{token}/ledger") == [shown(b) for b in expected.final.balances] + [str(expected.final.pool)]
    assert "The evening is over" in client.get(f"/t/{token}").get_data(as_text=True)

    undo_page = client.get(f"/t/{token}/undo").get_data(as_text=True)
    assert "Undo deal 8?" in undo_page
    response = client.post(f"/t/{token}/undo", data={"csrf_token": csrf_token(client, f"/t/{token}/undo"), "number": "8"})
    assert response.status_code == 302
    seven = replay(loads(json.dumps({**evening_json, "deals": evening_json["deals"][:7]})))
    assert ledger_balances(client, f"/t/{token}/ledger") == [shown(b) for b in seven.final.balances] + [str(seven.final.pool)]
    assert event_rows(app)[-2:] == [("record", 8), ("undo", 8)]  # the undo is kept, nothing deleted
    assert "Deal 8: what did Hombre play?" in client.get(f"/t/{token}").get_data(as_text=True)


def test_preview_shows_every_transfer_and_records_nothing(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    response = post_deal(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "3"})
    page = response.get_data(as_text=True)
    assert "Deal 1:</span> Bea&#39;s solo in hearts: won" in page  # the result in a line, then who pays whom in all
    assert "Ann, Cat and Dan each pay Bea 5: solo 4, matadors 1" in page
    assert "Record deal 1" in page
    assert event_rows(app) == []


def test_changing_the_deal_after_its_preview_shows_a_new_preview(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    data = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}
    preview = post_deal(client, token, "solo", 1, data).get_data(as_text=True)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview).group(1)  # type: ignore[union-attr]
    changed = post_deal(client, token, "solo", 1, {**data, "hombre_tricks": "5"}, action="record", previewed=digest)
    assert changed.status_code == 200
    assert "The deal changed since its preview" in changed.get_data(as_text=True)
    assert "Bea&#39;s solo in hearts: remise" in changed.get_data(as_text=True)
    assert event_rows(app) == []


def test_a_deal_recorded_on_another_phone_is_not_recorded_twice(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    data = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}
    assert record(client, token, "solo", 1, data).status_code == 302
    again = post_deal(client, token, "solo", 1, data)
    assert again.status_code == 200 and "Deal 1 already stands as this phone entered it" in again.get_data(as_text=True)
    assert event_rows(app) == [("record", 1)]


# (contract, taps, the message shown, the taps that must come back checked)
REFUSALS = [
    ("solo", {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "5", "premiers": "y"},
     "premiers are the first six tricks, but the contracting side took only 5", ("hombre", "trumps", "hombre_tricks", "premiers")),
    ("solo", {"hombre": "Bea", "hombre_tricks": "6"}, "which suit was trumps?", ("hombre", "hombre_tricks")),
    ("solo", {"trumps": "hearts", "hombre": "Eve", "hombre_tricks": "6"}, NOT_A_CHOICE, ("trumps", "hombre_tricks")),
    ("solo", {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "eleven"}, NOT_A_CHOICE, ("hombre", "trumps")),
    ("solo", {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "8", "vole": "undertaken"},
     "a vole can be undertaken only after winning premiers", ("hombre", "trumps", "hombre_tricks", "vole")),
    ("alliance", {"hombre": "Bea", "trumps": "spades", "ally": "Dan", "hombre_tricks": "4", "ally_tricks": "2"},
     "an alliance calls a King: which one?", ("trumps", "ally", "hombre_tricks", "ally_tricks")),
    ("alliance", {"hombre": "Bea", "trumps": "spades", "called": "KS", "ally": "Dan", "hombre_tricks": "4", "ally_tricks": "2"},
     "the King of spades is a trump", ("trumps", "called", "ally")),
    ("alliance", {"hombre": "Bea", "trumps": "spades", "called": "KH", "hombre_tricks": "4", "ally_tricks": "2"},
     "who held the King of hearts?", ("called", "hombre_tricks", "ally_tricks")),
    ("alliance", {"hombre": "Bea", "trumps": "spades", "called": "KH", "ally": "Dan", "hombre_tricks": "6", "ally_tricks": "5"},
     "make 11: there are only 10", ("called", "ally", "hombre_tricks", "ally_tricks")),
    ("forced_spadille", {"hombre": "Bea", "trumps": "spades", "called": "KH", "ally": "Dan", "hombre_tricks": "6",
                         "ally_tricks": "2", "matadors": "2"}, NOT_A_CHOICE, ("called", "ally", "hombre_tricks")),
]


@pytest.mark.parametrize("contract, data, message, kept", REFUSALS, ids=[f"{r[0]}: {r[2][:40]}" for r in REFUSALS])
def test_every_refusal_is_shown_beside_the_form_and_nothing_is_recorded(
    app: Flask, client: FlaskClient, contract: str, data: dict[str, str], message: str, kept: tuple[str, ...]
) -> None:
    token = start_table(client)
    response = post_deal(client, token, contract, 1, data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in page
    assert 'class="error" role="alert"' in page
    checked = checked_inputs(page)
    for name in kept:
        assert checked.get(name) == data[name], f"the form lost what was tapped for {name}"
    assert event_rows(app) == []


def test_a_post_without_csrf_token_is_refused(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    response = client.post(f"/t/{token}/deal/solo", data={"contract": "solo", "number": "1", "hombre": "Bea",
                                                          "trumps": "hearts", "hombre_tricks": "6", "action": "record"})
    assert response.status_code == 400
    assert client.post("/new", data={"player_1": "A", "player_2": "B", "player_3": "C", "player_4": "D"}).status_code == 400
    assert event_rows(app) == []


@pytest.mark.parametrize("url", ["/t/nosuchtable", "/t/nosuchtable/ledger", "/t/nosuchtable/deal/solo",
                                 "/t/nosuchtable/undo", "/t/nosuchtable/join", "/s/nosuchtable"])
def test_a_wrong_link_is_404(client: FlaskClient, url: str) -> None:
    assert client.get(url).status_code == 404


def test_tables_are_reached_only_by_unguessable_links(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    assert len(token) >= 22
    assert client.get("/t/1").status_code == 404
    assert client.get(f"/t/{token}/deal/grandissimo").status_code == 404


def test_the_spectator_link_reads_the_ledger_and_cannot_record(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    join = client.get(f"/t/{token}/join").get_data(as_text=True)
    watch = re.search(r'href="http://localhost/s/([^"]+)"', join).group(1)  # type: ignore[union-attr]
    page = client.get(f"/s/{watch}").get_data(as_text=True)
    assert "(watching)" in page and "+15" in page
    assert f"/t/{token}" not in page
    assert client.get(f"/t/{watch}").status_code == 404


def test_records_survive_a_restart(tmp_path: Path) -> None:
    config = {"TESTING": True, "DATABASE": str(tmp_path / "scorer.sqlite"), "INSTANCE_PATH": str(tmp_path / "instance")}
    first = create_app(config)
    client = first.test_client()
    token = start_table(client)
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "5", "matadors": "3"})
    before = ledger_balances(client, f"/t/{token}/ledger")

    second = create_app(config)
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]
    after = ledger_balances(second.test_client(), f"/t/{token}/ledger")
    assert after == before == ["+4", "−20", "+4", "+4", "8"]


def test_house_rules_can_change_until_the_first_deal_then_are_frozen(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    url = f"/t/{token}/settings"
    response = client.post(url, data={"csrf_token": csrf_token(client, url), "profile": "quadrille", "deals_agreed": "12",
                                      "rule_solo_premium": "two_units"})
    assert response.status_code == 302
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    assert ledger_balances(client, f"/t/{token}/ledger") == ["−3", "+9", "−3", "−3", "0"]  # 2-unit solo premium
    frozen = client.post(url, data={"csrf_token": csrf_token(client, "/new"), "profile": "quadrille", "deals_agreed": "40"},
                         follow_redirects=True).get_data(as_text=True)
    assert "The house rules are frozen" in frozen
    assert "of 12" in client.get(f"/t/{token}").get_data(as_text=True)


def test_new_table_form_refusals_keep_what_was_typed(client: FlaskClient) -> None:
    response = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "Bea",
                                         "player_3": "Cat", "player_4": "ann", "first_dealer": "1", "profile": "quadrille",
                                         "deals_agreed": "10"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "two players have the same name" in page
    assert "an evening is a multiple of four deals, not 10" in page
    assert 'value="Cat"' in page


def test_player_names_with_markup_are_escaped(client: FlaskClient) -> None:
    token = start_table(client, ["<b>Ann</b>", "Bea", "Cat", "Dan"])
    for url in (f"/t/{token}", f"/t/{token}/ledger", f"/t/{token}/deal/solo"):
        page = client.get(url).get_data(as_text=True)
        assert "<b>Ann</b>" not in page
        assert "&lt;b&gt;Ann&lt;/b&gt;" in page


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("chip_value", "NaN", "Enter an amount in whole cents"),
        ("chip_value", "sNaN", "Enter an amount in whole cents"),
        ("chip_value", "-Infinity", "Enter an amount in whole cents"),
        ("chip_value", "0.005", "Enter an amount in whole cents"),
        ("chip_value", "-1", "Number must be between"),
        ("deals_agreed", "1e9", "Not a valid integer value"),
        ("deals_agreed", "0", "Number must be between 4 and 400"),
        ("profile", "whist", NOT_A_CHOICE),
        ("first_dealer", "9", NOT_A_CHOICE),
        ("rule_solo_premium", "zzz", "Not a valid choice"),
        ("player_1", "x" * 5000, "Field cannot be longer than 30 characters"),
        ("player_1", "A\x00n", "invisible control character"),
        ("currency", "€€€€€€", "Field cannot be longer than 5 characters"),
    ],
)
def test_bad_table_settings_are_refused_with_a_message(app: Flask, client: FlaskClient, field: str, value: str, message: str) -> None:
    data = {"csrf_token": csrf_token(client, "/new"), "player_1": "Ann", "player_2": "Bea", "player_3": "Cat",
            "player_4": "Dan", "first_dealer": "1", "profile": "quadrille", "deals_agreed": "8", field: value}
    response = client.post("/new", data=data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from tables").fetchone() == (0,)


def test_a_chip_value_is_kept_in_whole_cents(app: Flask, client: FlaskClient) -> None:
    token = start_table(client, chip_value="0.25", currency="EUR")
    page = client.get(f"/t/{token}/settings").get_data(as_text=True)
    assert 'value="0.25"' in page and 'value="EUR"' in page
    row = sqlite3.connect(app.config["DATABASE"]).execute("select chip_value_cents, currency from tables").fetchone()
    assert row == (25, "EUR")


def test_link_tokens_never_start_with_a_dash_or_underscore() -> None:
    from scorer.store import new_token

    tokens = [new_token() for _ in range(2000)]
    assert all(t[0].isalnum() and len(t) >= 22 for t in tokens)
    assert len(set(tokens)) == len(tokens)


def test_a_long_ledger_is_paged_latest_deals_first(app: Flask, client: FlaskClient) -> None:
    from scorer.core import Contract, Deal, Suit, TableState, settle
    from scorer.web.db import get_db
    from scorer.core.ledger.log import Record
    from scorer.store import run, table_by_token

    token = start_table(client, deals_agreed="100")
    with app.app_context():
        table = table_by_token(get_db(), token)
        assert table is not None
        state = TableState.start(table.players)
        for number in range(1, 91):
            deal = Deal(state.next_dealer or "Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)
            state = settle(deal, state, table.rules).after
            run(get_db(), table, Record(number, deal))
    last = client.get(f"/t/{token}/ledger").get_data(as_text=True)
    assert "Deals 81–90 of 90" in last and "Earlier deals" in last and "Later deals" not in last
    assert last.count('<tr class="what">') == 10
    first = client.get(f"/t/{token}/ledger?page=1").get_data(as_text=True)
    assert "Deals 1–40 of 90" in first and first.count('<tr class="what">') == 40
    assert client.get(f"/t/{token}/ledger?page=999").status_code == 200
    assert client.get(f"/t/{token}/ledger?page=abc").status_code == 200
