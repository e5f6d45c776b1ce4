"""What a table's pages say, in every profile and in English and French, read as a browser reads them: the
names the players typed (some needing escapes), the contracts offered and the choices of each deal form, the
refusals and where they point, each deal's figures before it is recorded and the standing they add up to, the
correction page, and the new-table and settings forms. Not their HTML: a page may be drawn differently and say
the same."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.markup import by_id, parse, summary_of, text

from scorer import create_app
from scorer.core import PROFILES, HouseRules
from scorer.store import create_table, ledger, table_by_token
from scorer.web.db import get_db

PLAYERS = ("Ann", "Bé <a>", "Cat & Co", "Dan's")
SUITS = ["spades", "clubs", "diamonds", "hearts"]
CARDS = [r + s for r in "KQ" for s in "SCDH"]
TRICKS = [str(n) for n in range(11)]
HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')
LANGUAGES = ("en", "fr")
SAYS = {"en": {"not recorded": "This deal was not recorded", "not started": "The table was not started"},
        "fr": {"not recorded": "Ce coup n'a pas été enregistré", "not started": "La table n'a pas été commencée"}}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app for the file: each test starts tables of its own on it."""
    tmp: Path = tmp_path_factory.mktemp("pages")
    yield create_app({"TESTING": True, "DATABASE": str(tmp / "t.sqlite"), "SECRET_KEY": "test"})


def phone(app: Flask, language: str) -> FlaskClient:
    client = app.test_client()
    client.set_cookie("lang", language)
    return client


def main_of(page: str, language: str) -> ET.Element:
    root = parse(page)
    assert root.get("lang") == language
    main = root.find(".//main")
    assert main is not None
    return main


def radio_groups(root: ET.Element) -> dict[str, tuple[str, list[tuple[str, str, bool]]]]:
    """Each group of radio buttons by its name: its legend, and each choice's value, label and whether it is checked."""
    groups: dict[str, tuple[str, list[tuple[str, str, bool]]]] = {}
    for fieldset in root.iter("fieldset"):
        legend = fieldset.find("legend")
        for label in fieldset.iter("label"):
            radio = label.find(".//input[@type='radio']")
            if radio is not None:
                name = radio.get("name", "")
                groups.setdefault(name, (text(legend) if legend is not None else "", []))[1].append(
                    (radio.get("value", ""), text(label), radio.get("checked") is not None))
    return groups


def number(shown: str) -> float:
    """A figure as a page shows it: −12, +10, 3,70 € or €3.70."""
    cleaned = re.sub(r"[^\d,.+−-]", "", shown).replace("−", "-").replace(",", ".")
    return float(cleaned)


def nets(root: ET.Element) -> dict[str, float]:
    """Each player's change for a deal, as its one line says it (``#nets``)."""
    line = by_id(root)["nets"]
    changes = {}
    for net in line.iter("span"):
        if "net" in (net.get("class") or "").split():
            figure = net.find("strong")
            assert figure is not None
            changes[text(net).removesuffix("·").strip().removesuffix(text(figure)).strip()] = number(text(figure))
    return changes


def standing(root: ET.Element) -> dict[str, float]:
    table = root.find(".//table[@class='standing']")
    assert table is not None
    heads, figures = ([text(cell) for cell in row] for row in table.findall(".//tr")[:2])
    return {name: number(figure) for name, figure in zip(heads, figures, strict=True)}


def said_where_it_points(page: str, language: str) -> list[tuple[str, str]]:
    """A refused form's summary: its heading says the form was not taken, and each line's message is said again
    beside the field it links to."""
    summary, lines = summary_of(page)
    assert lines
    ids = by_id(parse(page))
    for href, line in lines:
        field = ids[href[1:]]
        described = [ids[name] for name in field.get("aria-describedby", "").split()]  # as a screen reader says it
        beside = [text(e) for e in [*field.iter(), *described] if "error" in (e.get("class") or "").split()]
        assert any(message and line.endswith(message) for message in beside), (line, beside)
    return lines


def rule_anchors(client: FlaskClient, language: str) -> set[str]:
    return set(by_id(main_of(client.get("/rules").get_data(as_text=True), language)))


def assert_links_to_rules(root: ET.Element, anchors: set[str]) -> None:
    for link in root.iter("a"):
        href = link.get("href", "")
        if href.startswith("/rules#"):
            assert href.removeprefix("/rules#") in anchors and text(link), href


def assert_a_deal_form(root: ET.Element, token: str, contract: str, contracts: list[str]) -> dict[str, tuple[str, list[tuple[str, str, bool]]]]:
    """The contracts offered (this one marked current), and the choices of the deal form a player taps."""
    offered = root.find(".//nav[@class='contracts small']")
    assert offered is not None
    assert [a.get("href") for a in offered.iter("a")] == [f"/t/{token}/deal/{c}" for c in contracts]
    assert [a.get("href") for a in offered.iter("a") if a.get("aria-current") == "page"] == [f"/t/{token}/deal/{contract}"]
    groups = radio_groups(root)
    assert [(value, label) for value, label, _ in groups["hombre"][1]] == [(p, p) for p in PLAYERS]
    if "trumps" in groups:
        assert [value for value, _, _ in groups["trumps"][1]] == SUITS
    assert [value for value, _, _ in groups["hombre_tricks"][1]] == TRICKS
    if "called" in groups:
        assert [value for value, _, _ in groups["called"][1]] == CARDS
    if "ally" in groups:
        assert [value for value, _, _ in groups["ally"][1]][:4] == list(PLAYERS)
        assert [value for value, _, _ in groups["ally_tricks"][1]] == TRICKS
    for name, (legend, choices) in groups.items():
        assert legend and all(label for _, label, _ in choices), name
        assert sum(checked for _, _, checked in choices) <= 1, name
    buttons = {(b.get("name"), b.get("value")) for b in root.iter("button")}
    assert ("action", "preview") in buttons
    return groups


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_tables_pages_say_its_names_choices_refusals_and_figures(app: Flask, profile: str, language: str) -> None:
    """A table's page before any deal; each contract's deal page; the first contract's deal refused (taps that are
    no choice of the form, then premiers claimed with three tricks); a deal of each contract previewed and recorded,
    its figures adding up to the standing; the correction page of the first deal."""
    rng = random.Random(profile)
    client = phone(app, language)
    anchors = rule_anchors(client, language)
    contracts = [c.value for c in PROFILES[profile].contracts]
    with app.app_context():
        chip_value = 10 if profile in ("quadrille", "mediateur") else None  # some payments in money
        token = create_table(get_db(), PLAYERS, PLAYERS[0], HouseRules.of(profile), 40, chip_value, "EUR").token

    page = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Bé &lt;a&gt;" in page and "Cat &amp; Co" in page and "<a>" not in page  # names as typed, escaped
    main = main_of(page, language)
    state = [text(dd) for dd in main.iter("dd")]
    assert state[:3] == [f"1 {'of' if language == 'en' else 'sur'} 40", PLAYERS[0], PLAYERS[1]]  # deal, dealer, eldest
    offered = main.find(".//nav[@class='contracts']")
    assert offered is not None and [a.get("href") for a in offered.iter("a")] == [f"/t/{token}/deal/{c}" for c in contracts]
    assert all(text(a) for a in offered.iter("a"))
    assert standing(main) == dict.fromkeys(PLAYERS, 0)
    assert [b.get("value") for b in main.iter("button") if b.get("name") == "me"] == list(PLAYERS)  # who holds this phone
    assert f"/t/{token}/settings" in {a.get("href") for a in main.iter("a")}

    balances = dict.fromkeys(PLAYERS, 0.0)
    recorded: list[tuple[str, dict[str, str], dict[str, float]]] = []
    for n, contract in enumerate(contracts):
        url = f"/t/{token}/deal/{contract}"
        page = client.get(url).get_data(as_text=True)
        groups = assert_a_deal_form(main_of(page, language), token, contract, contracts)
        sent = dict(HIDDEN.findall(page))
        if n == 0:
            tampered = client.post(url, data={**sent, "hombre": "Zed", "trumps": "x", "hombre_tricks": "6", "premiers": "y",
                                              **({"vole": "?"} if "vole" in groups else {}), "action": "preview"})
            assert tampered.status_code == 422
            refused = tampered.get_data(as_text=True)
            assert SAYS[language]["not recorded"] in text(main_of(refused, language))
            assert {"#hombre", "#trumps"} <= {href for href, _ in said_where_it_points(refused, language)}
            premiers = client.post(url, data={
                **sent, "hombre": PLAYERS[1], "trumps": "hearts", "called": "KS", "ally": PLAYERS[2], "hombre_tricks": "3",
                "ally_tricks": "0", "matadors": "0", "premiers": "y", "vole": "none", "favourite": "hearts",
                "spadille": PLAYERS[3], "giver": PLAYERS[3], "action": "preview"})
            if "premiers" in {b.get("name") for b in main_of(page, language).iter("input")}:
                assert premiers.status_code == 422
                lines = said_where_it_points(premiers.get_data(as_text=True), language)
                assert [href for href, _ in lines] == ["#premiers"] and "3" in lines[0][1]
        hombre = rng.choice(PLAYERS)
        sent.update({"hombre": hombre, "trumps": rng.choice(SUITS), "called": rng.choice(CARDS),
                     "ally": rng.choice([p for p in PLAYERS if p != hombre]), "hombre_tricks": str(rng.randint(3, 8)),
                     "ally_tricks": rng.choice(["0", "1", "2"]), "matadors": rng.choice(["0", "3"]), "vole": "none",
                     "favourite": rng.choice(SUITS), "spadille": rng.choice(PLAYERS), "giver": rng.choice(PLAYERS),
                     "action": "preview"})
        answer = client.post(url, data=sent)
        preview = answer.get_data(as_text=True)
        if answer.status_code == 422:  # the core refuses this deal: it says why, beside the field
            said_where_it_points(preview, language)
            continue
        assert answer.status_code == 200
        shown = main_of(preview, language)
        heading = next(text(h) for h in shown.iter("h1"))
        assert hombre in heading and str(len(recorded) + 1) in heading
        changes = nets(shown)
        assert list(changes) == list(PLAYERS)
        assert_links_to_rules(shown, anchors)
        assert [text(li) for li in shown.iter("li")]  # who pays whom, in sentences
        chosen = {name: [value for value, _, checked in choices if checked] for name, (_, choices) in radio_groups(shown).items()}
        assert chosen["hombre"] == [hombre] and chosen["hombre_tricks"] == [sent["hombre_tricks"]]
        assert ("action", "record") in {(b.get("name"), b.get("value")) for b in shown.iter("button")}
        sent.update(HIDDEN.findall(preview))
        assert client.post(url, data={**sent, "action": "record"}).status_code == 302
        recorded.append((contract, {name: sent[name] for name in groups if name in sent}, changes))
        balances = {p: balances[p] + changes[p] for p in PLAYERS}

    assert recorded, "no deal of the profile was recorded"
    main = main_of(client.get(f"/t/{token}").get_data(as_text=True), language)
    assert standing(main) == balances
    with app.app_context():
        table = table_by_token(get_db(), token)
        assert table is not None
        kept = ledger(get_db(), table).final.balances
    assert [balances[p] for p in PLAYERS] == [float(b) for b in kept]  # the figures shown are the store's own
    assert nets(main) == recorded[-1][2]  # the last deal, as it was previewed
    assert f"/t/{token}/undo" in {a.get("href") for a in main.iter("a")}
    assert_links_to_rules(main, anchors)

    contract, taps, _ = recorded[0]
    main = main_of(client.get(f"/t/{token}/audit/1/amend/{contract}").get_data(as_text=True), language)
    groups = radio_groups(main)
    chosen = {name: [value for value, _, checked in choices if checked] for name, (_, choices) in groups.items()}
    assert chosen["hombre"] == [taps["hombre"]] and chosen["hombre_tricks"] == [taps["hombre_tricks"]]
    assert [value for value, _, _ in groups["by"][1]] == list(PLAYERS)  # who is correcting
    assert any(b.get("type") == "submit" and text(b) for b in main.iter("button"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_new_table_and_settings_forms_say_their_fields_and_refusals(app: Flask, language: str) -> None:
    """The new-table page, refused (a player without a name, 41 deals) with what was typed kept; its dealer step
    (the first dealer tapped by name); a table's settings, with its profile and deals as they are."""
    client = phone(app, language)
    page = client.get("/new").get_data(as_text=True)
    main = main_of(page, language)
    ids = by_id(main)
    for field in ("player_1", "player_2", "player_3", "player_4", "deals_agreed"):
        labels = [text(label) for label in main.iter("label") if label.get("for") == field]
        assert ids[field].tag == "input" and labels and labels[0], field
    assert {value for value, _, _ in radio_groups(main)["profile"][1]} == set(PROFILES)
    assert "by-name" in {value for value, _, _ in radio_groups(main)["first_dealer"][1]}

    sent = {**dict(HIDDEN.findall(page)), "player_1": PLAYERS[0], "player_2": PLAYERS[1], "player_3": PLAYERS[2],
            "player_4": "", "first_dealer": "3", "deals_agreed": "41", "profile": "mediateur"}
    answer = client.post("/new", data=sent)
    assert answer.status_code == 422
    refused = answer.get_data(as_text=True)
    main = main_of(refused, language)
    assert SAYS[language]["not started"] in text(main)
    lines = said_where_it_points(refused, language)
    assert [href for href, _ in lines] == ["#player_4", "#deals_agreed"] and "41" in lines[1][1]
    ids = by_id(main)
    assert [ids[f"player_{n}"].get("value") for n in (1, 2, 3)] == list(PLAYERS[:3])  # what was typed is kept
    assert [value for value, _, checked in radio_groups(main)["profile"][1] if checked] == ["mediateur"]

    answer = client.post("/new", data={**sent, "player_4": PLAYERS[3], "deals_agreed": "40", "first_dealer": "by-name"})
    assert answer.status_code == 200
    main = main_of(answer.get_data(as_text=True), language)
    dealers = [(b.get("value"), text(b)) for b in main.iter("button") if b.get("name") == "first_dealer"]
    assert dealers == [(str(n), name) for n, name in enumerate(PLAYERS, 1)]

    with app.app_context():
        token = create_table(get_db(), PLAYERS, PLAYERS[0], HouseRules.of("britannica"), 40, None, "").token
    main = main_of(client.get(f"/t/{token}/settings").get_data(as_text=True), language)
    assert [value for value, _, checked in radio_groups(main)["profile"][1] if checked] == ["britannica"]
    assert by_id(main)["deals_agreed"].get("value") == "40"
    selects = list(main.iter("select"))
    assert selects and all(any(label.get("for") == s.get("id") and text(label) for label in main.iter("label")) for s in selects)
    assert any(b.get("type") == "submit" for b in main.iter("button")) or any(
        i.get("type") == "submit" for i in main.iter("input"))
