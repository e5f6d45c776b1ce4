"""A circle on the phone (issue 14): start one, start its evenings from it, read the season's ledger.
flaskr-style web tests on a temporary database."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, next_evening, play_evening, start_circle, text

MEMBERS = ("Ann", "Bea", "Cat", "Dan", "Eve")


def test_a_season_of_two_evenings_carries_the_pool_and_keeps_one_ledger(client: FlaskClient) -> None:
    circle = start_circle(client)
    page = text(client.get(f"/c/{circle}"))
    assert "Thursday club" in page and "No evening yet" in page
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")  # ends on a remise: a pool is left
    page = text(client.get(f"/c/{circle}"))
    left = re.search(r"<strong>(\d+)</strong> carried to the next evening", page)
    assert left and int(left.group(1)) > 0
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    preview = text(client.post(f"/t/{second}/deal/solo", data={
        "csrf_token": csrf_token(client, f"/t/{second}/deal/solo"), "contract": "solo", "number": "1", "action": "preview",
        "hombre": "Cat", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}))
    carried = re.search(r"(\d+) go from the pool carried from the last evening to the pool", preview)
    assert carried and int(carried.group(1)) == int(left.group(1))
    page = text(client.get(f"/c/{circle}"))
    assert "Evening 1: " in page and "Evening 2: " in page and "(sat out)" in page
    watch = re.search(r'href="[^"]*?(/cs/[^"]+)"', page)
    assert watch and client.get(watch.group(1)).status_code == 200


def test_the_next_evening_needs_four_different_members_and_a_deal_before_it(client: FlaskClient) -> None:
    circle = start_circle(client)
    data = {"seat_1": "Ann", "seat_2": "Ann", "seat_3": "Cat", "seat_4": "Dan", "first_dealer": "1",
            "csrf_token": csrf_token(client, f"/c/{circle}")}
    refused = client.post(f"/c/{circle}/next", data=data)
    assert refused.status_code == 422 and "Four different members sit down." in text(refused)
    next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    data = {"seat_1": "Bea", "seat_2": "Cat", "seat_3": "Dan", "seat_4": "Eve", "first_dealer": "1",
            "csrf_token": csrf_token(client, f"/c/{circle}")}
    again = client.post(f"/c/{circle}/next", data=data)
    assert again.status_code == 422  # the first evening has no deal yet


def test_a_circle_needs_four_members_told_apart(client: FlaskClient) -> None:
    data = {"profile": "quadrille", "deals_agreed": "4", "member_1": "Ann", "member_2": "Bea", "member_3": "ANN",
            "member_4": "Dan", "csrf_token": csrf_token(client, "/c/new")}
    refused = client.post("/c/new", data=data)
    assert refused.status_code == 422 and "same name" in text(refused)
    data.update(member_3="", member_4="")
    assert "four members at least" in text(client.post("/c/new", data=data))
    assert client.get("/c/nosuchcircle").status_code == 404


def test_a_circle_needs_a_name(client: FlaskClient) -> None:
    data = {"profile": "quadrille", "deals_agreed": "4", "csrf_token": csrf_token(client, "/c/new"),
            **{f"member_{i}": m for i, m in enumerate(MEMBERS, start=1)}}
    refused = client.post("/c/new", data=data)
    assert refused.status_code == 422 and "Give the circle a name" in text(refused)
    data["name"] = "x" * 61
    assert client.post("/c/new", data=data).status_code == 422


def test_the_end_of_an_evening_leads_to_the_next(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    assert "Evening 1 of the circle" in text(client.get(f"/t/{first}"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 6 6 6")
    over = text(client.get(f"/t/{first}"))
    assert "The evening is over" in over and f'href="/c/{circle}#next"' in over


def test_scorer_verify_checks_every_circle_s_log(app: Flask, client: FlaskClient) -> None:
    import sqlite3

    from click.testing import CliRunner

    from scorer.cli import main

    circle = start_circle(client)
    next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    database = app.config["DATABASE"]
    result = CliRunner().invoke(main, ["verify", "--db", database])
    assert result.exit_code == 0 and f"circle {circle} (Thursday club): 1 evening, intact" in result.output
    conn = sqlite3.connect(database)
    conn.execute("update circle_events set data = replace(data, 'Ann', 'Zed')")
    conn.commit()
    conn.close()
    result = CliRunner().invoke(main, ["verify", "--db", database])
    assert result.exit_code == 1 and f"circle {circle} (Thursday club): BROKEN at line 1" in result.output


def test_a_correction_in_an_earlier_evening_says_what_it_changes_in_the_circle(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")  # the last deal a remise: a pool left
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    play_evening(client, second, ("Bea", "Cat", "Dan", "Eve"), "6 6 6 6")
    page = text(client.get(f"/c/{circle}"))
    left = re.search(r"(\d+) left on the table", page)
    assert left
    data = {"csrf_token": csrf_token(client, f"/t/{first}/audit/4/amend/solo"), "contract": "solo", "number": "4",
            "hombre": "Ann", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0", "by": "Cat", "reason": "",
            "log_length": "4", "action": "preview"}
    preview = text(client.post(f"/t/{first}/audit/4/amend/solo", data=data))
    assert "In the circle Thursday club" in preview
    assert f"Evening 1 leaves {left.group(1)} 0 on the table, and the 1 later evening is replayed with it" in \
        re.sub(r"<[^>]+>", "", preview)
    assert "season total" in preview


def test_the_circle_page_shows_each_player_s_statistics_and_the_contracts(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")  # Bea, Cat, Dan, Ann each Hombre once
    page = text(client.get(f"/c/{circle}"))
    stats = page.split("How the season went")[1]
    bea = re.search(r"<strong>Bea</strong>: Hombre 1 time \(solo 1; won 1, remise 0, codille 0\) · voles 0 · "
                    r"matadors held 0 · ([+−]?\d+\.\d) chips an evening, best ([+−]?\d+), worst ([+−]?\d+)", stats)
    assert bea, stats[:800]
    assert float(bea.group(1).replace("−", "-")) == int(bea.group(2).replace("−", "-")) == int(bea.group(3).replace("−", "-"))
    assert "<strong>Eve</strong>: has not played yet.</li>" in stats
    assert "The contracts played: solo 4 (won 2)." in stats


def test_a_circle_with_a_chip_value_shows_its_ledger_and_payments_in_money(client: FlaskClient) -> None:
    circle = start_circle(client, chip_value="0.05", currency="EUR")
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    page = text(client.get(f"/c/{circle}"))
    rows = re.findall(r"<li>(\w+) <strong>([+−]?\d+)</strong> <small>\(([+−]?)€(\d+\.\d\d)\)</small>", page)
    assert {m for m, _, _, _ in rows} == {"Ann", "Bea", "Cat", "Dan", "Eve"}
    for member, chips, sign, money in rows:  # each total in chips, and in money at 5 cents a chip
        assert round(float(money) * 100) * (-1 if sign == "−" else 1) == int(chips.replace("−", "-")) * 5, member
    payments = re.findall(r"<li><strong>(\w+)</strong> pays <strong>(\w+)</strong> €(\d+\.\d\d)</li>", page)
    assert payments and all(float(cents) > 0 for _, _, cents in payments)
    french = text(client.get(f"/c/{circle}", headers={"Accept-Language": "fr"}))
    assert re.search(r"\d+,\d\d\u00a0€", french)  # as French writes money
