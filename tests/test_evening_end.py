"""The end of an evening and the pool a circle carries (issue 30, points 2, 3 and 6), as worked examples.

After the last deal the table's page says who dealt it and leads with the money: who pays whom (in money when a chip
has a value), the tally next; a circle's evening names its circle's settle-up. A new circle carries its pool unless
its members choose otherwise, and its page says what each evening's close does with the pool. An evening that began
with chips carried in shows that pool before its first deal on every page, in its export, and in ``scorer settle
--close`` of that export."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from helpers.markup import parse, text as element_text
from helpers.web import csrf_token, next_evening, play_evening, record, start_circle, start_table, text

from scorer.cli import main
from scorer.core import Contract, Deal, Evening, HouseRules, Suit, replay
from scorer.core.words.report import replay_json

SEATED = ("Ann", "Bea", "Cat", "Dan")


def said(client: FlaskClient, url: str, language: str = "en") -> str:
    """The words of a page's <main>, each element's text apart (a term and its value: "Pool 8")."""
    found = re.search(r"<main.*?</main>", text(client.get(url, headers={"Accept-Language": language})), re.S)
    assert found
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


# --- 2. The end of an evening leads to the money ---------------------------------------------------------------------

# Four solos in hearts, Hombre the eldest (Bea, Cat, Dan, Ann), taking 6 5 6 6: Cat ends 40 chips down, Dan 40 up.
@pytest.mark.parametrize("chip_value, language, dealt, pays, tally", [
    ("0.10", "en", "All 4 deals are played: the last, deal 4, was dealt by Dan.", "Cat pays Dan 4.00 €",
     "The tally: each balance, to print and sign"),
    ("", "en", "All 4 deals are played: the last, deal 4, was dealt by Dan.", "Cat pays Dan 40 chips",
     "The tally: each balance, to print and sign"),
    ("0.10", "fr", "Les 4 coups sont joués : le dernier, le coup 4, a été donné par Dan.", "Cat paie 4,00 € à Dan",
     "Le relevé : chaque solde, à imprimer et à signer"),
])
def test_the_last_deal_s_page_says_who_dealt_it_then_who_pays_whom(client: FlaskClient, chip_value: str, language: str,
                                                                   dealt: str, pays: str, tally: str) -> None:
    token = start_table(client, list(SEATED), deals_agreed="4", chip_value=chip_value, currency="€")
    play_evening(client, token, SEATED, "6 5 6 6")
    page = said(client, f"/t/{token}", language)
    assert dealt in page and pays in page and tally in page
    # the money comes first: before the ledger's link (in chips) and the standing
    ledger = "Voir les comptes" if language == "fr" else "See the ledger"
    standing = "Situation, en jetons" if language == "fr" else "Standing, in chips"
    assert page.index(pays) < page.index(tally) < page.index(ledger) < page.index(standing)
    assert ("amounts are in chips" in page) == (chip_value == "")
    link = parse(client.get(f"/t/{token}").get_data(as_text=True)).find(".//section[@class='ending']//a[@class='button primary']")
    assert link is not None and link.get("href") == f"/t/{token}/tally"


@pytest.mark.parametrize("played", [0, 3])
def test_before_the_last_deal_the_page_asks_for_the_next_deal_not_the_money(client: FlaskClient, played: int) -> None:
    token = start_table(client, list(SEATED), deals_agreed="4", chip_value="0.10")
    if played:
        play_evening(client, token, SEATED, "6 5 6")
    page = said(client, f"/t/{token}")
    assert f"Deal {played + 1}: what did Hombre play?" in page and "Who pays whom" not in page
    assert "The evening is over" not in page


def test_even_balances_owe_nothing(client: FlaskClient) -> None:
    token = start_table(client, list(SEATED), deals_agreed="4", chip_value="0.10")
    play_evening(client, token, SEATED, "6 6 6 6")  # each wins one solo: 0 each
    page = said(client, f"/t/{token}")
    assert "Who pays whom Nobody owes anything." in page


def test_a_circle_s_last_deal_names_its_settle_up_first(client: FlaskClient) -> None:
    circle = start_circle(client, SEATED, chip_value="0.10", currency="€")
    first = next_evening(client, circle, SEATED)
    play_evening(client, first, SEATED, "6 5 6 6")
    page = said(client, f"/t/{first}")
    assert "This evening settles with the season of Thursday club: who pays whom is on the circle's page." in page
    links = [(a.get("href"), element_text(a)) for a in
             parse(client.get(f"/t/{first}").get_data(as_text=True)).findall(".//section[@class='ending']//a")]
    assert links == [(f"/c/{circle}#settle", "The settle-up of Thursday club"),
                     (f"/t/{first}/tally", "This evening's tally"),
                     (f"/c/{circle}#next", "Start the next evening of Thursday club")]
    french = said(client, f"/t/{first}", "fr")
    assert "Cette soirée se règle avec la saison du cercle « Thursday club » : qui paie qui est sur la page du cercle." in french


# --- 3. A circle carries the pool unless its members choose otherwise ---------------------------------------------


def _new_circle(client: FlaskClient, **fields: str) -> str:
    data = {"name": "Club", "profile": "quadrille", "deals_agreed": "4", "csrf_token": csrf_token(client, "/c/new"),
            **{f"member_{i}": m for i, m in enumerate(SEATED, start=1)}, **fields}
    response = client.post("/c/new", data=data)
    assert response.status_code == 302, text(response)[-800:]
    return response.headers["Location"].split("/c/")[1]


@pytest.mark.parametrize("fields, sentence", [
    ({}, "At the end of each evening, its pool and whatever else lies on the table (a vole pool, odd chips kept for "
         "Spadille, beasts waiting) go whole into the next evening's first pool (house rule “The pool at the end of the evening”"),
    ({"rule_pool_at_end": "carry_forward"}, "its pool and whatever else lies on the table"),
    ({"rule_pool_at_end": "split_equally"}, "At the end of each evening, its pool is shared out equally among the four who played;"),
    ({"rule_pool_at_end": ""}, "its pool is shared out equally"),  # "as the profile says": the profile's default
    ({"profile": "penguin_points"}, "keeps no pool: nothing is carried from one evening to the next."),
])
def test_a_new_circle_carries_its_pool_unless_its_members_choose_otherwise(client: FlaskClient, fields: dict[str, str],
                                                                           sentence: str) -> None:
    circle = _new_circle(client, **fields)
    assert sentence in said(client, f"/c/{circle}")


def test_the_new_circle_form_offers_the_pool_carried_and_a_new_table_its_profile_s_default(client: FlaskClient) -> None:
    def chosen(url: str) -> str | None:
        select = parse(client.get(url).get_data(as_text=True)).find(".//select[@name='rule_pool_at_end']")
        assert select is not None
        return next((o.get("value") for o in select.iter("option") if o.get("selected") is not None), None)
    assert chosen("/c/new") == "carry_forward"
    assert chosen("/new") == ""


def test_the_circle_page_says_its_pool_rule_in_french(client: FlaskClient) -> None:
    circle = _new_circle(client)
    assert ("À la fin de chaque soirée, sa poule et tout ce qui reste sur la table" in said(client, f"/c/{circle}", "fr"))


# --- 6. An evening before its first deal shows the pool it began with ----------------------------------------------


@pytest.fixture
def second_evening(client: FlaskClient) -> tuple[str, str, int]:
    """A circle whose evening 1 ended on a remise (8 chips left in the pool), and its evening 2, no deal yet."""
    circle = start_circle(client, SEATED, chip_value="0.10", currency="€")
    first = next_evening(client, circle, SEATED)
    play_evening(client, first, SEATED, "6 5 6 5")
    left = re.search(r"<strong>(\d+)</strong> carried to the next evening", text(client.get(f"/c/{circle}")))
    assert left and int(left.group(1)) == 8
    return circle, next_evening(client, circle, SEATED), 8


@pytest.mark.parametrize("page, language, shown", [
    ("/t/{token}", "en", "Pool 8"),
    ("/t/{token}", "en", "This evening begins with a pool of 8, left on the table by the evening before: "
                         "the first deal's pool begins with it."),
    ("/t/{token}", "fr", "Poule 8"),
    ("/t/{token}", "fr", "Cette soirée commence avec une poule de 8"),
    ("/t/{token}/ledger", "en", "0 of 4 deals played. Next to deal: Ann . Pool 8 chips ."),
    ("/t/{token}/ledger", "en", "Now 0 0 0 0 8"),
    ("/t/{token}/tally", "en", "It began with 8 chips carried in from the evening before."),
    ("/t/{token}/tally", "en", "Total 0 0 0 0 8"),
    ("/s/{watch}", "en", "Pool 8 chips ."),
])
def test_an_evening_before_its_first_deal_shows_the_pool_it_began_with(client: FlaskClient, second_evening: tuple[str, str, int],
                                                                     page: str, language: str, shown: str) -> None:
    _, token, _ = second_evening
    watch = re.search(r"/s/([\w-]+)", text(client.get(f"/t/{token}/join")))
    assert watch
    words = said(client, page.format(token=token, watch=watch.group(1)), language)
    assert shown in words
    assert "Pool 0" not in words and "Poule 0" not in words


def test_after_its_first_deal_the_pool_is_that_deal_s(client: FlaskClient, second_evening: tuple[str, str, int]) -> None:
    _, token, carried = second_evening
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    page = said(client, f"/t/{token}")
    assert "This evening begins with" not in page
    assert f"{carried} go from the pool carried from the last evening to the pool" in page  # won: Bea swept the pool
    assert "Pool 0" in page


def test_its_export_and_scorer_settle_close_count_the_pool_it_began_with(client: FlaskClient, tmp_path: Path,
                                                                       second_evening: tuple[str, str, int]) -> None:
    _, token, carried = second_evening
    exported = client.get(f"/t/{token}/export.json").get_data(as_text=True)
    assert json.loads(exported)["carried_in"] == carried
    path = tmp_path / "evening.json"
    path.write_text(exported, encoding="utf-8")
    result = CliRunner().invoke(main, ["settle", "--close", str(path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["pool"] == carried
    closing = report["closing"]
    assert sum(closing["balances"].values()) + closing["pool"] + closing["vole_pool"] + closing["spadille_reserve"] == carried
    shown = CliRunner().invoke(main, ["settle", "--close", "--text", str(path)]).output
    assert "Left on the table for the next evening: the pool carried from the last evening 8" in shown
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{token}/export.csv").get_data(as_text=True))))
    assert [(r["deal"], r["to"], r["amount"], r["reason"]) for r in rows] == [("0", "circle_pool", "8", "carried_in")]


@pytest.mark.parametrize("pool_at_end", ["carry_forward", "split_equally"])
@pytest.mark.parametrize("deals, pool, closed_pool", [
    ((), 12, 12),  # no deal yet: the 12 carried in are the pool; the close shares out no pool no deal has formed
    ((Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6),), 0, 0),  # Bea swept 12 + 4 antes
])
def test_the_report_counts_what_an_evening_began_with(pool_at_end: str, deals: tuple[Deal, ...], pool: int,
                                                      closed_pool: int) -> None:
    evening = Evening(SEATED, HouseRules.of("quadrille", {"pool_at_end": pool_at_end}), deals, 4, carried_in=12)
    replayed = replay(evening)
    assert replayed.final.pool_in_sight == pool
    report = replay_json(replayed, close=True)
    closing = report["closing"]
    assert report["pool"] == pool and closing["pool"] == closed_pool
    assert sum(closing["balances"].values()) + closing["pool"] + closing["vole_pool"] + closing["spadille_reserve"] == 12


@pytest.mark.parametrize(("profile", "said"), [("quadrille", "A chip has no money value at this table: the amounts are in chips."),
                                               ("penguin_points", "A point has no money value at this table: the amounts are in points.")])
def test_the_end_of_an_evening_without_a_chip_value_says_its_own_unit(client: FlaskClient, profile: str, said: str) -> None:
    token = start_table(client, profile=profile, deals_agreed="4")
    for n in range(1, 5):
        assert record(client, token, "solo", n, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6",
                                                 "matadors": "0"}).status_code == 302
    assert said in " ".join(re.sub(r"<[^>]+>", " ", client.get(f"/t/{token}").get_data(as_text=True)).split())
