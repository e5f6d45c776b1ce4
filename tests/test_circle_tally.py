"""A circle's season printed (issue 14): every evening's running totals, the settle-up, the statistics and
the signatures, in one PDF kept in the tally cache until any evening changes."""

from __future__ import annotations

import io
import re

from flask import Flask
from flask.testing import FlaskClient
from helpers.web import next_evening, play_evening, record, start_circle
from pypdf import PdfReader


def words(pdf: bytes) -> str:
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def test_the_season_prints_its_evenings_settle_up_statistics_and_signatures(app: Flask, client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    response = client.get(f"/c/{circle}/tally.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = words(response.data)
    assert "the season of Thursday club" in text and "Running totals after each evening" in text
    assert "Where the season stands" in text and "How the season went" in text and "Agreed by" in text
    assert all(member in text for member in ("Ann", "Bea", "Cat", "Dan", "Eve"))
    assert client.get(f"/c/{circle}/tally.pdf").data == response.data  # from the cache
    assert record(client, second, "solo", 1, {"hombre": "Cat", "trumps": "hearts", "hombre_tricks": "6",
                                              "matadors": "0"}).status_code == 302
    assert client.get(f"/c/{circle}/tally.pdf").data != response.data  # a deal in any evening: a new PDF
    assert client.get(f"/c/{circle}/tally.pdf?paper=legal").status_code == 404
    assert client.get("/c/nosuchcircle/tally.pdf").status_code == 404


def test_a_circle_s_evening_settles_with_the_season_and_its_pdf_follows_what_it_carries_in(
        app: Flask, client: FlaskClient) -> None:
    import re

    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    tally = client.get(f"/t/{second}/tally").get_data(as_text=True)
    assert "This is evening 2 of the circle Thursday club: it settles with the season" in tally
    assert re.search(r"It began with \d+ chips carried in from the evening before", tally)
    before = client.get(f"/t/{second}/tally.pdf").data
    win_the_last_deal_of(client, first)
    assert client.get(f"/t/{second}/tally.pdf").data != before  # evening 2 now starts with another pool


def test_a_circle_s_evening_tally_says_no_money_of_its_own(client: FlaskClient) -> None:
    """An evening of a circle settles with its season: its tally (page and PDF) gives its balances in chips and
    points to the circle's page, never money worked out for the evening alone (which credited a pool the circle
    carries to the four players, and so differed from the season's figures)."""
    circle = start_circle(client, chip_value="0.10", currency="EUR")
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(f"/t/{first}/tally").get_data(as_text=True)))
    printed = " ".join(words(client.get(f"/t/{first}/tally.pdf").data).split())
    for said in (page, printed):
        assert "it settles with the season" in said
        assert re.findall(r"€\d+\.\d\d", said) == ["€0.10"], said  # what a chip is worth, and no sum of money
        assert "credited to the four players" not in said and "Money" not in said
    season = re.sub(r"<[^>]+>", " ", client.get(f"/c/{circle}").get_data(as_text=True))
    assert len(re.findall(r"€\d+\.\d\d", season)) > 4  # the money is the season's


def test_a_deal_previewed_before_an_earlier_evening_changed_its_pool_is_previewed_again(client: FlaskClient) -> None:
    import re

    from helpers.web import post_deal

    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    taps = {"hombre": "Cat", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}
    preview = post_deal(client, second, "solo", 1, taps).get_data(as_text=True)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview)
    assert digest
    # Another phone corrects evening 1: it now leaves nothing, and evening 2's first pool changes.
    win_the_last_deal_of(client, first)
    again = post_deal(client, second, "solo", 1, taps, action="record", previewed=digest.group(1))
    assert again.status_code == 200 and "Record deal 1" in again.get_data(as_text=True)  # shown again, not recorded
    assert client.get(f"/t/{second}/export.json").get_json()["deals"] == []


def win_the_last_deal_of(client: FlaskClient, evening: str) -> None:
    """Correct deal 4 of a four-deal evening of the circle (Ann's remise) into a win, preview then save:
    the evening then leaves nothing on the table."""
    import re

    from helpers.web import csrf_token

    url = f"/t/{evening}/audit/4/amend/solo"
    data = {"csrf_token": csrf_token(client, url), "contract": "solo", "number": "4", "hombre": "Ann", "trumps": "hearts",
            "hombre_tricks": "6", "matadors": "0", "by": "Cat", "reason": "", "log_length": "4", "action": "preview"}
    preview = client.post(url, data=data).get_data(as_text=True)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview)
    once = re.search(r'name="once" type="hidden" value="([^"]+)"', preview)
    assert digest
    data.update(action="save", previewed=digest.group(1), once=once.group(1) if once else "")
    assert client.post(url, data=data).status_code == 302


def test_the_season_prints_what_was_settled_and_what_is_still_owed(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    text = words(client.get(f"/c/{circle}/tally.pdf").data)
    lead = text.split("Running totals after each evening")[0]  # the PDF leads with where the season stands
    settled, still = lead.split("Where the season stands")[1].split("Still to settle")
    assert "Settled already" in settled and "Nothing yet." in settled and " paid " not in settled
    owed = re.findall(r"(\w+) pays (\w+) (\d+) chips", still)
    assert owed and "Evening 1, as it stands:" in still
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    form = {name: value for name, value in re.findall(r'name="(lines|shown|csrf_token)" type="hidden" value="([^"]*)"',
                                                      page.split('id="settle"')[1])}
    assert client.post(f"/c/{circle}/settle", data=form).status_code == 200  # the first tap asks
    assert client.post(f"/c/{circle}/settle", data={**form, "confirm": "yes"}).status_code == 302
    text = words(client.get(f"/c/{circle}/tally.pdf").data)
    lead = text.split("Running totals after each evening")[0]
    settled, still = lead.split("Still to settle")
    assert "evening 1:" in settled and all(f"{payer} paid {payee} {cents} chips" in settled for payer, payee, cents in owed)
    assert "Nothing: the season is settled." in still and " pays " not in text  # never listed as to pay once paid
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    play_evening(client, second, ("Bea", "Cat", "Dan", "Eve"), "6 6 6 6")
    text = words(client.get(f"/c/{circle}/tally.pdf").data)
    owed_now = text.split("Still to settle")[1].split("Running totals after each evening")[0]
    assert " pays " in owed_now and "the season is settled" not in owed_now and "Evening 2, as it stands:" in owed_now


def test_the_tally_of_an_evening_that_carried_a_pool_in_is_shown(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")  # leaves a pool for evening 2
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    play_evening(client, second, ("Bea", "Cat", "Dan", "Eve"), "6 6 6 6")
    assert client.get(f"/t/{second}/tally").status_code == 200
    pdf = client.get(f"/t/{second}/tally.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
