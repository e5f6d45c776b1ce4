"""The pages a player signs or reads (issue 25, point 3), without a browser: a vole undertaken after premiers and
lost worded as what happened (the game won, the vole failed) in the ledger, the tally and its PDF, an announced
one still lost; the corrected deals marked on the tally and its PDF with their version in force; eight (and
twelve) lines of a chart told apart by colour and by line style; the chart's labels drawn at least at the
page's text size; the season's PDF linked from the circle's page. The phone's view of these pages (390×844,
names never broken inside a word) is tests/test_browser_tally.py."""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import amend, csrf_token, import_table, next_evening, start_circle, ten_deal_table
from pypdf import PdfReader

from scorer.core import Contract, Deal, Result, Suit, Vole, result_label
from scorer.core.i18n import translating
from scorer.web.chart import COLOURS, SCREEN, balance_chart, line_style

CATALOGUE = Path(__file__).parent.parent / "scorer" / "translations"

# --- "vole lost": what happened --------------------------------------------------------------------------

UNDERTAKEN = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=8, premiers=True, vole=Vole.UNDERTAKEN)
ANNOUNCED = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=8, premiers=True, vole=Vole.ANNOUNCED)
WON = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)


@pytest.mark.parametrize("deal, result, english, french", [
    # P: a vole undertaken after premiers and lost "does not bar Hombre from winning the game stake"
    (UNDERTAKEN, Result.VOLE_LOST, "won, the vole failed", "gagné, la vole manquée"),
    # P: a vole announced and lost: Hombre "neither wins the game stake nor doubles it" (issue 24: lost)
    (ANNOUNCED, Result.VOLE_LOST, "vole lost", "vole perdue"),
    (WON, Result.WON, "won", "gagné"),
    (WON, Result.REMISE, "remise", "remise"),
])
def test_a_result_is_named_as_what_happened(deal: Deal, result: Result, english: str, french: str) -> None:
    assert str(result_label(deal, result)) == english
    with translating(gettext.translation("messages", localedir=str(CATALOGUE), languages=["fr"]).gettext):
        assert str(result_label(deal, result)) == french


def pdf_text(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages).split())


def test_the_ledger_tally_and_pdf_say_the_game_was_won_and_the_vole_failed(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)  # deal 10: Cat's solo, premiers, the vole undertaken, 8 tricks
    ledger = client.get(f"/t/{token}/ledger").get_data(as_text=True)
    assert "10. Cat, solo: won, the vole failed</td>" in ledger and "vole lost" not in ledger
    tally = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert "Cat, solo in diamonds: won, the vole failed</td>" in tally
    assert "won, the vole failed" in pdf_text(client, f"/t/{token}/tally.pdf")
    assert "won, the vole failed" in client.get(f"/t/{token}/audit/10").get_data(as_text=True)  # its audit's heading


def test_an_announced_vole_lost_is_still_worded_lost(app: Flask, client: FlaskClient) -> None:
    vole_bid = {"dealer": "Ann", "hombre": "Bea", "contract": "solo", "trumps": "hearts", "called": None, "ally": None,
                "tricks": {"hombre": 8, "ally": None}, "matadors": 0, "premiers": True, "vole": "announced"}
    token = import_table(client, "mediateur", [vole_bid])
    ledger = client.get(f"/t/{token}/ledger").get_data(as_text=True)
    assert "1. Bea, solo: vole lost</td>" in ledger and "the vole failed" not in ledger


# --- corrected deals on the tally and its PDF -------------------------------------------------------------


def correct(client: FlaskClient, token: str, number: int, data: dict[str, str], by: str) -> None:
    page = amend(client, token, number, "solo", data, by=by)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', page.get_data(as_text=True))  # type: ignore[attr-defined]
    assert digest
    assert amend(client, token, number, "solo", data, by=by, action="save",  # type: ignore[attr-defined]
                 previewed=digest.group(1)).status_code == 302


def restore_first(client: FlaskClient, token: str, number: int, by: str) -> None:
    audit = client.get(f"/t/{token}/audit/{number}").get_data(as_text=True)
    url = re.search(rf'href="(/t/[^"]+/audit/{number}/restore/\d+)"', audit).group(1)  # type: ignore[union-attr]
    length = re.search(r'name="log_length" type="hidden" value="(\d+)"', client.get(url).get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    assert client.post(url, data={"csrf_token": csrf_token(client, url), "by": by, "reason": "", "log_length": length}).status_code == 302


def test_the_tally_and_its_pdf_mark_each_corrected_deal_with_its_version_in_force(app: Flask, client: FlaskClient) -> None:
    token = ten_deal_table(client)
    tally = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert "corrected:" not in tally and "†" not in pdf_text(client, f"/t/{token}/tally.pdf")  # nothing corrected yet
    correct(client, token, 2, {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "6", "matadors": "0"}, by="Dan")
    correct(client, token, 4, {"hombre": "Ann", "trumps": "diamonds", "hombre_tricks": "6", "matadors": "0"}, by="Bea")
    restore_first(client, token, 4, by="Cat")
    tally = client.get(f"/t/{token}/tally").get_data(as_text=True)
    marked = re.findall(r'<tr class="what corrected"><td colspan="6">(.*?)</td></tr>', tally)
    assert [re.sub(r"<[^>]+>", "", m).split(" · ")[1] for m in marked] == [
        "corrected: version 2 of 2", "restored: version 3 of 3"]
    assert f'href="/t/{token}/audit/2#versions">corrected: version 2 of 2</a>' in tally  # to the deal's versions
    assert "2 deals were corrected after they were recorded" in tally
    text = pdf_text(client, f"/t/{token}/tally.pdf")
    assert "2†" in text and "4†" in text and "3†" not in text
    assert ("† corrected after it was recorded: the sheet counts the version in force (deal 2, corrected: version 2 "
            "of 2, by Dan; deal 4, restored: version 3 of 3, by Cat).") in text


# --- the chart: every line its own, the labels at the text's size -----------------------------------------


@pytest.mark.parametrize("members", [8, 12])
def test_every_line_of_a_chart_is_told_apart_in_colour_and_in_black_and_white(app: Flask, members: int) -> None:
    names = tuple(f"M{i}" for i in range(members))
    with app.test_request_context():
        chart, key = str(balance_chart(names, [[0, i, -i] for i in range(members)], step="evening")).split("</svg>", 1)
    drawn = re.findall(r'<polyline fill="none" stroke="(#\w+)" stroke-width="2"(?: stroke-dasharray="([^"]+)")?', chart)
    assert len(drawn) == members
    if members <= len(COLOURS):
        assert len(set(drawn)) == members  # (colour, dash): no two the same
        assert len({colour for colour, _ in drawn}) == members  # and each its own colour
    styles = [line_style(i) for i in range(members)]
    assert len({(s.dash, s.mark) for s in styles}) == members  # in black and white too: dash and mark
    assert chart.count("<circle") == 4 * 3 and chart.count("<rect") == (4 * 3 if members > 8 else 0)  # marks at points
    assert re.findall(r'<span class="name">([^<]+)</span>', key) == list(names)  # the key, a name a line


def test_the_chart_s_labels_are_drawn_at_least_at_the_page_s_text_size(app: Flask) -> None:
    # at a phone's 366 px of content, a unit of the chart is at least a pixel; the page's text is 17 px
    assert SCREEN.width <= 366 and SCREEN.text >= 17
    with app.test_request_context():
        chart = str(balance_chart(("Ann", "Bea", "Cat", "Dan"), [[0, 5], [0, -5], [0, 0], [0, 0]]))
    assert set(re.findall(r'font-size="(\d+)"', chart)) == {str(SCREEN.text)}


# --- the season's PDF, from the circle's page -------------------------------------------------------------


def test_the_circle_s_page_links_its_season_pdf(app: Flask, client: FlaskClient) -> None:
    circle = start_circle(client)
    next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    assert re.search(rf'<a class="button secondary" href="/c/{circle}/tally.pdf">Print the season(&#39;|&#x27;|\')s tally \(PDF\)</a>', page)
    assert f'href="/c/{circle}/tally.pdf?paper=letter"' in page
    assert client.get(f"/c/{circle}/tally.pdf").mimetype == "application/pdf"
    watch = re.search(r'href="(?:https?://[^/"]+)?(/cs/[^"]+)"', page).group(1)  # type: ignore[union-attr]  # given in full
    assert "tally.pdf" not in client.get(watch).get_data(as_text=True)  # a spectator gets no link to print the season
