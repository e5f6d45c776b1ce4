"""The smaller points of issue 12: the first dealer chosen by name, who holds the phone set apart from
the entry, the watch-only page refreshing itself, and a favicon."""

from __future__ import annotations

import re
import sqlite3

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.markup import parse, summary_of, text
from helpers.web import csrf_token, start_table

NAMES = {"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan", "profile": "quadrille",
         "deals_agreed": "8", "chip_value": "0.10", "currency": "EUR", "rule_unit": ""}


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden inputs of a page (one value each here), its CSRF token included."""
    return {i.get("name", ""): i.get("value", "") for i in parse(page).iter("input") if i.get("type") == "hidden"}


def dealer_step(client: FlaskClient, **changes: str) -> str:
    response = client.post("/new", data={**NAMES, **changes, "first_dealer": "by-name", "csrf_token": csrf_token(client, "/new")})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def stored_table(app: Flask) -> tuple[str, str, int, str]:
    row = sqlite3.connect(app.config["DATABASE"]).execute(
        "select first_dealer, players, chip_value_cents, currency from tables").fetchone()
    return row[0], row[1], row[2], row[3]


def test_the_first_page_offers_the_first_player_or_a_choice_by_name(app: Flask, client: FlaskClient) -> None:
    page = client.get("/new").get_data(as_text=True)
    group = parse(page).find(".//fieldset[@id='first_dealer']")
    assert group is not None
    offered = {i.get("value"): text(label) for label in group.iter("label") for i in label.iter("input")}
    assert offered == {"1": "The 1st player above", "by-name": "Someone else: tap the name on the next page"}
    assert [i.get("value") for i in group.iter("input") if i.get("checked") is not None] == ["1"]


@pytest.mark.parametrize("seat, dealer", [("1", "Ann"), ("2", "Bea"), ("3", "Cat"), ("4", "Dan")])
def test_the_first_dealer_chosen_by_name(app: Flask, client: FlaskClient, seat: str, dealer: str) -> None:
    page = dealer_step(client)
    root = parse(page)
    h1 = root.find(".//h1")
    assert h1 is not None and text(h1) == "Who deals first?"
    buttons = [(b.get("name"), b.get("value"), text(b)) for b in root.iter("button") if b.get("name") == "first_dealer"]
    assert buttons == [("first_dealer", "1", "Ann"), ("first_dealer", "2", "Bea"), ("first_dealer", "3", "Cat"),
                       ("first_dealer", "4", "Dan")]
    kept = hidden_fields(page)
    assert {k: kept[k] for k in NAMES} == NAMES  # everything typed on the first page goes along, hidden
    assert "first_dealer" not in kept
    assert sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from tables").fetchone()[0] == 0

    response = client.post("/new", data={**kept, "first_dealer": seat})
    assert response.status_code == 302 and response.headers["Location"].endswith("/join")
    first, players, cents, currency = stored_table(app)
    assert (first, players, cents, currency) == (dealer, '["Ann", "Bea", "Cat", "Dan"]', 10, "EUR")
    token = response.headers["Location"].split("/t/")[1].split("/")[0]
    state = parse(client.get(f"/t/{token}").get_data(as_text=True)).find(".//dl[@class='state']")
    assert state is not None
    assert {text(d.find("dt")): text(d.find("dd")) for d in state}["Dealer"] == dealer  # type: ignore[arg-type]


def test_the_dealer_step_goes_back_to_the_first_page_as_typed(app: Flask, client: FlaskClient) -> None:
    kept = hidden_fields(dealer_step(client, player_2="Mary Ann"))
    response = client.post("/new", data={**kept, "back": "1"})
    assert response.status_code == 200
    root = parse(response.get_data(as_text=True))
    assert root.find(".//input[@name='player_2']").get("value") == "Mary Ann"  # type: ignore[union-attr]
    assert root.find(".//input[@name='first_dealer'][@checked]").get("value") == "by-name"  # type: ignore[union-attr]
    assert root.find(".//*[@id='errors']") is None  # going back is not a refusal
    assert sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from tables").fetchone()[0] == 0


def test_the_dealer_step_checks_everything_again(app: Flask, client: FlaskClient) -> None:
    kept = hidden_fields(dealer_step(client))
    response = client.post("/new", data={**kept, "player_4": "ann", "first_dealer": "2"})  # a name changed on the way
    assert response.status_code == 422
    summary, links = summary_of(response.get_data(as_text=True))
    assert [href for href, _ in links] == ["#player_4"]
    assert sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from tables").fetchone()[0] == 0


def test_a_refused_first_page_never_reaches_the_dealer_step(app: Flask, client: FlaskClient) -> None:
    response = client.post("/new", data={**NAMES, "player_3": "", "first_dealer": "by-name", "csrf_token": csrf_token(client, "/new")})
    assert response.status_code == 422
    assert "Who deals first?" not in text(parse(response.get_data(as_text=True)).find(".//h1"))  # type: ignore[arg-type]


def test_the_dealer_step_needs_the_csrf_token(app: Flask, client: FlaskClient) -> None:
    kept = hidden_fields(dealer_step(client))
    assert client.post("/new", data={k: v for k, v in kept.items() if k != "csrf_token"} | {"first_dealer": "2"}).status_code == 400
    assert sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from tables").fetchone()[0] == 0


def test_only_the_table_started_counts_against_the_budget_of_new_tables_not_the_dealer_step(app: Flask, client: FlaskClient) -> None:
    app.config["LIMIT_NEW_TABLES"] = "2 per hour"  # read at each request
    for dealer in ("2", "3"):
        kept = hidden_fields(dealer_step(client))  # writes nothing: counts nothing
        assert client.post("/new", data={**kept, "first_dealer": dealer}).status_code == 302
    kept = hidden_fields(dealer_step(client))
    refused = client.post("/new", data={**kept, "first_dealer": "4"})
    assert refused.status_code == 429 and "Try again in" in refused.get_data(as_text=True)


def test_the_phone_holder_is_asked_apart_from_the_contract_choice(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    root = parse(client.get(f"/t/{token}").get_data(as_text=True))
    main = root.find(".//main")
    assert main is not None
    order = [e for e in main.iter() if e.tag in ("h1", "nav", "table", "section")]
    tags = [(e.tag, e.get("class")) for e in order]
    assert tags.index(("nav", "contracts")) < tags.index(("table", "standing")) < tags.index(("section", "holder"))
    holder = main.find(".//section[@class='holder']")
    assert holder is not None and holder.find(".//form[@class='me']") is not None
    assert text(holder.find("h2")).startswith("Who holds this phone?")  # type: ignore[arg-type]
    # no name button of the holder's form between the state and the contract choice
    contracts = main.find(".//nav[@class='contracts']")
    assert contracts is not None and not list(contracts.iter("button"))


def refreshes(page: str) -> list[str | None]:
    head = parse(page).find("head")
    assert head is not None
    return [m.get("content") for m in head.iter("meta") if m.get("http-equiv") == "refresh"]


def test_the_watch_only_page_follows_the_table_live_when_asked(app: Flask, client: FlaskClient) -> None:
    """The watch-only page reloads itself every 30 seconds once the spectator taps "Follow the table live"
    (a meta refresh, no JavaScript); not before, so the timing stays the reader's (WCAG 2.2.1, which
    axe-core's rule meta-refresh checks on every page the browser tests visit)."""
    token = start_table(client)
    join = client.get(f"/t/{token}/join").get_data(as_text=True)
    watch = re.search(r'href="[^"]*(/s/[\w-]+)"', join)
    assert watch
    page = client.get(watch.group(1)).get_data(as_text=True)
    assert refreshes(page) == []
    follow = [a for a in parse(page).iter("a") if text(a) == "Follow the table live"]
    assert [a.get("href") for a in follow] == [watch.group(1) + "?live=1"]
    live = client.get(watch.group(1) + "?live=1").get_data(as_text=True)
    assert refreshes(live) == ["30"]
    stop = [a.get("href") for a in parse(live).iter("a") if text(a) == "Stop following"]
    assert stop == [watch.group(1)]
    assert refreshes(client.get(f"/t/{token}/ledger?live=1").get_data(as_text=True)) == []  # the players' ledger never


def test_the_favicon_is_served_and_linked(app: Flask, client: FlaskClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.mimetype == "image/vnd.microsoft.icon"
    assert icon.data[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    svg = client.get("/static/favicon.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    for url in ("/", "/new", "/import"):
        links = [link.get("href") for link in parse(client.get(url).get_data(as_text=True)).iter("link")
                 if link.get("rel") == "icon"]
        assert links == ["/static/favicon.svg", "/favicon.ico"]
        assert all(client.get(href).status_code == 200 for href in links)
