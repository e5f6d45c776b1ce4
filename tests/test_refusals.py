"""A refused form cannot be missed: a summary first in <main>, a link to each field in error, and the
fields tied to their messages for screen readers (``aria-invalid``, ``aria-describedby``).

The pages are parsed as a browser parses them (tinyhtml5, an HTML5 parser), not searched as text.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.markup import by_id, parse, summary_of, text
from helpers.web import amend, csrf_token, post_deal, start_table, ten_deal_table

NEW_TABLE = {"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan", "first_dealer": "1",
             "profile": "quadrille", "deals_agreed": "8"}


def check_fields_tied(page: str, names: set[str]) -> None:
    """Every input named in ``names`` is aria-invalid and described by messages on the page; no other is invalid."""
    root = parse(page)
    ids = by_id(root)
    invalid = {e.get("name", "") for e in root.iter() if e.get("aria-invalid") == "true"}
    assert invalid == names
    for element in root.iter():
        if element.get("aria-invalid") != "true":
            continue
        described = (element.get("aria-describedby") or "").split()
        assert described, f"{element.get('name')} is invalid but described by nothing"
        for target in described:
            assert target in ids, f"{element.get('name')} is described by #{target}, which is not on the page"
            assert "error" in (ids[target].get("class") or "").split() and text(ids[target])


def heading(summary: ET.Element) -> str:
    h2 = summary.find("h2")
    assert h2 is not None
    return text(h2)


NEW_TABLE_REFUSALS = [
    ({"player_2": "", "player_4": ""}, "The table was not started: 2 things to fix", ["#player_2", "#player_4"],
     {"player_2", "player_4"}),
    ({"deals_agreed": "7"}, "The table was not started: 1 thing to fix", ["#deals_agreed"], {"deals_agreed"}),
    ({"player_1": "", "chip_value": "0.001", "currency": "x" * 200}, "The table was not started: 3 things to fix",
     ["#player_1", "#chip_value", "#currency"], {"player_1", "chip_value", "currency"}),
    ({"first_dealer": "9"}, "The table was not started: 1 thing to fix", ["#first_dealer"], {"first_dealer"}),
    ({"rule_unit": "no such unit"}, "The table was not started: 1 thing to fix", ["#rule_unit"], {"rule_unit"}),
]


@pytest.mark.parametrize("changes, title, targets, invalid", NEW_TABLE_REFUSALS, ids=[t[2][0] for t in NEW_TABLE_REFUSALS])
def test_a_refused_new_table_form_opens_on_its_summary(
    app: Flask, client: FlaskClient, changes: dict[str, str], title: str, targets: list[str], invalid: set[str]
) -> None:
    response = client.post("/new", data={**NEW_TABLE, **changes, "csrf_token": csrf_token(client, "/new")})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    summary, links = summary_of(page)
    assert heading(summary) == title
    assert [href for href, _ in links] == targets  # in the order of the page
    check_fields_tied(page, invalid)


@pytest.mark.parametrize("chip_value, errors", [
    ("", []), ("  ", []), ("0.25", []), ("abc", ["Not a valid decimal value."]),
    ("0.001", ["Enter an amount in whole cents, such as 0.10, or leave it empty."]),
    ("-1", ["Number must be between 0 and 10000."]), ("NaN", ["Enter an amount in whole cents, such as 0.10, or leave it empty."]),
])
def test_a_sum_of_money_is_refused_once_and_an_empty_one_is_accepted(
    app: Flask, client: FlaskClient, chip_value: str, errors: list[str]
) -> None:
    response = client.post("/new", data={**NEW_TABLE, "chip_value": chip_value, "csrf_token": csrf_token(client, "/new")})
    assert response.status_code == (422 if errors else 302)
    if errors:
        _, links = summary_of(response.get_data(as_text=True))
        assert links == [("#chip_value", f"Value of one chip (optional): {e}") for e in errors]


def test_a_house_rule_in_error_is_shown_open(app: Flask, client: FlaskClient) -> None:
    page = client.post("/new", data={**NEW_TABLE, "rule_unit": "nonsense", "csrf_token": csrf_token(client, "/new")})
    details = parse(page.get_data(as_text=True)).find(".//details")
    assert details is not None and details.get("open") is not None  # the field the summary links to is not hidden


def test_a_summary_line_names_the_field_and_says_what_is_wrong(app: Flask, client: FlaskClient) -> None:
    page = client.post("/new", data={**NEW_TABLE, "deals_agreed": "7", "csrf_token": csrf_token(client, "/new")})
    _, links = summary_of(page.get_data(as_text=True))
    assert links == [("#deals_agreed", "Deals agreed (a multiple of 4): an evening is a multiple of four deals, not 7")]


DEAL_REFUSALS = [
    ("solo", {"hombre": "Ann", "hombre_tricks": "6"}, ["#trumps"], {"trumps"}),
    ("solo", {"hombre": "Ann", "trumps": "hearts", "hombre_tricks": "5", "premiers": "y"}, ["#premiers"], {"premiers"}),
    ("alliance", {"hombre": "Ann", "trumps": "hearts", "called": "KH", "hombre_tricks": "4", "ally_tricks": "2"},
     ["#called"], {"called"}),
    ("solo", {"hombre": "Eve", "trumps": "hearts", "hombre_tricks": "6"}, ["#hombre"], {"hombre"}),
]


@pytest.mark.parametrize("contract, data, targets, invalid", DEAL_REFUSALS, ids=[f"{d[0]}-{d[2][0]}" for d in DEAL_REFUSALS])
def test_a_refused_deal_opens_on_its_summary(
    app: Flask, client: FlaskClient, contract: str, data: dict[str, str], targets: list[str], invalid: set[str]
) -> None:
    token = start_table(client)
    response = post_deal(client, token, contract, 1, data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    summary, links = summary_of(page)
    assert heading(summary) == "This deal was not recorded: 1 thing to fix"
    assert [href for href, _ in links] == targets
    check_fields_tied(page, invalid)
    # a radio group: the link goes to its fieldset, whose every input is marked
    root = parse(page)
    group = by_id(root)[targets[0][1:]]
    inputs = list(group.iter("input"))
    assert inputs and all(i.get("aria-invalid") == "true" for i in inputs)


def test_the_settings_and_import_forms_open_on_their_summaries(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    url = f"/t/{token}/settings"
    response = client.post(url, data={"csrf_token": csrf_token(client, url), "profile": "quadrille", "deals_agreed": "",
                                      "chip_value": "-1"})
    assert response.status_code == 422
    summary, links = summary_of(response.get_data(as_text=True))
    assert heading(summary) == "The house rules were not saved: 2 things to fix"
    assert [href for href, _ in links] == ["#deals_agreed", "#chip_value"]
    check_fields_tied(response.get_data(as_text=True), {"deals_agreed", "chip_value"})

    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"), "evening": (io.BytesIO(b"{"), "x.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    summary, links = summary_of(response.get_data(as_text=True))
    assert heading(summary) == "Nothing was imported: 1 thing to fix"
    assert [href for href, _ in links] == ["#evening"]
    check_fields_tied(response.get_data(as_text=True), {"evening"})


def test_a_refused_correction_opens_on_its_summary(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    refused = amend(client, token, 2, "solo", {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "6"}, by="")
    page = refused.get_data(as_text=True)  # type: ignore[attr-defined]
    summary, links = summary_of(page)
    assert heading(summary) == "This correction was not saved: 1 thing to fix"
    assert links == [("#by", "Who is correcting? Say who is making this correction.")]
    check_fields_tied(page, {"by"})


def test_a_correction_that_breaks_a_later_deal_says_so_in_its_summary(app: Flask, client: FlaskClient) -> None:
    from helpers.web import record

    token = start_table(client, rule_codille_indivisible="odd_to_spadille")
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6"})
    record(client, token, "solo", 2, {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "6"})
    refused = amend(client, token, 1, "solo", {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "4"})
    summary, links = summary_of(refused.get_data(as_text=True))  # type: ignore[attr-defined]
    assert links == []
    assert heading(summary) == "This correction was not saved: 1 thing to fix"
    assert "This correction would make deal 2 impossible" in text(summary)


@pytest.mark.parametrize("url", ["/new", "/import", "/t/{token}/settings", "/t/{token}/deal/solo", "/t/{token}"])
def test_a_form_not_yet_sent_has_no_summary_and_no_invalid_field(app: Flask, client: FlaskClient, url: str) -> None:
    token = start_table(client)
    page = client.get(url.format(token=token)).get_data(as_text=True)
    root = parse(page)
    assert "errors" not in by_id(root)
    assert not [e for e in root.iter() if e.get("aria-invalid")]
