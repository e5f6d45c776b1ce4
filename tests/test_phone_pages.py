"""Every page right on a phone (issue 12, point 4), as HTML: the undo sentence, "What this changes" and the tally
for every contract of every profile; one minus sign; local, readable times; the ledger and the tally say which
table holds running balances and which holds each deal's changes. (tests/test_browser_pages.py measures them.)"""

from __future__ import annotations

import html
import io
import json
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.deals import evening_deals
from helpers.web import amend, csrf_token, figure, form_data

from scorer import create_app
from scorer.web.chart import balance_chart
from scorer.core import PROFILES, describe, loads, replay
from scorer.web.i18n import local_time

PLAYERS = ["Ann", "Bea", "Cat", "Dan"]


def agreed(deals: list[dict[str, object]]) -> int:
    return max(4, -(-len(deals) // 4) * 4)


def import_evening(client: FlaskClient, profile: str, deals: list[dict[str, object]]) -> str:
    """A table holding ``deals``, made by importing them (the quickest way to a table of any profile)."""
    body = json.dumps({"format": "quadrille-evening/1", "players": PLAYERS, "profile": profile,
                       "deals_agreed": agreed(deals), "deals": deals}).encode()
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                            "evening": (io.BytesIO(body), "e.json")}, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("/t/")[1].split("/")[0]


def text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_undo_page_tells_every_contract_of_the_profile(app: Flask, client: FlaskClient, profile: str) -> None:
    deals = evening_deals(profile)
    token = import_evening(client, profile, deals)
    settlements = replay(loads(json.dumps({"format": "quadrille-evening/1", "players": PLAYERS, "profile": profile,
                                           "deals_agreed": agreed(deals), "deals": deals}))).settlements
    for s in reversed(settlements):  # the undo page shows the last deal: undo them one by one
        page = client.get(f"/t/{token}/undo").get_data(as_text=True)
        told = re.search(r'<p class="deal-told">(.*?)</p>', page, re.S)
        assert told and html.unescape(told.group(1)) == str(describe(s.deal, s.result))
        assert " in :" not in told.group(1) and "None" not in told.group(1)
        form = {"csrf_token": csrf_token(client, f"/t/{token}/undo"), "number": str(s.number),
                "once": re.search(r'name="once" type="hidden" value="([^"]*)"', page).group(1)}  # type: ignore[union-attr]
        assert client.post(f"/t/{token}/undo", data=form).status_code == 302


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_what_this_changes_for_a_correction_into_every_contract(app: Flask, client: FlaskClient, profile: str) -> None:
    deals = evening_deals(profile)
    token = import_evening(client, profile, deals)
    before = replay(loads(json.dumps({"format": "quadrille-evening/1", "players": PLAYERS, "profile": profile,
                                      "deals_agreed": agreed(deals), "deals": deals}))).balances
    last = len(deals)
    for target in deals[:-1]:
        # the last deal corrected into the contract of another deal (that deal's players and tricks)
        page = amend(client, token, last, str(target["contract"]), form_data(target), by="Ann")
        body = page.get_data(as_text=True)  # type: ignore[attr-defined]
        assert page.status_code == 200, re.findall(r'class="error"[^>]*>([^<]*)', body)  # type: ignore[attr-defined]
        assert "What this changes" in body and "Now</th>" not in body
        foot = re.search(r"<tfoot>(.*?)</tfoot>", body, re.S)
        assert foot and "Final balance" in foot.group(1) and "before → after" in foot.group(1) and "move" in foot.group(1)
        moves = [figure(x) for x in re.findall(r"<td>([^<]+)</td>", foot.group(1))]
        finals = re.findall(r'<td class="finals">([^<]+) → ([^<]+)</td>', foot.group(1))
        assert len(moves) == len(finals) == 4
        for player, move, (was, now) in zip(PLAYERS, moves, finals):
            assert figure(was) == before[player] and figure(now) - figure(was) == move
        deals_shown = re.findall(r"Deal (\d+): ", re.search(r"<tbody>(.*?)</tbody>", body, re.S).group(1))  # type: ignore[union-attr]
        assert deals_shown == [str(last)]


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_tally_shows_every_deal_of_every_contract(app: Flask, client: FlaskClient, profile: str) -> None:
    deals = evening_deals(profile)
    token = import_evening(client, profile, deals)
    page = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert '<div class="scroll"' not in page  # nothing to scroll sideways
    assert "Every deal: what it changed" in page and "not the balance itself" in page
    for number, d in enumerate(deals, start=1):
        assert f"<tr><td>{number}</td>" in page
        contract = str(d["contract"]).replace("_", " ").replace("mediateur", "médiateur").replace("vole", "vole announced")
        assert contract in text(page)
    for rule in PROFILES[profile].applicable_rules():
        assert rule.title in text(page)


def test_the_ledger_and_the_tally_say_which_is_which(app: Flask, client: FlaskClient) -> None:
    token = import_evening(client, "quadrille", evening_deals("quadrille"))
    ledger = client.get(f"/t/{token}/ledger").get_data(as_text=True)
    assert "<h1>Ledger: running balances" in ledger and "balance after that deal, counted from the start" in ledger
    tally = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert "Every deal: what it changed" in tally and "The running balances are in the table" in tally
    spectator = re.search(r"/s/([A-Za-z0-9_-]+)", client.get(f"/t/{token}/join").get_data(as_text=True))
    assert spectator
    watched = client.get(f"/s/{spectator.group(1)}").get_data(as_text=True)
    assert "Ledger: running balances" in watched and f"/t/{token}" not in watched  # never the players' link


def test_the_chart_writes_the_minus_sign_of_every_page(app: Flask) -> None:
    with app.test_request_context():
        chart = str(balance_chart(("Ann", "Bea", "Cat", "Dan"), [[0, -163], [0, 55], [0, 54], [0, 54]]))
    assert "−163" in chart and "-163" not in chart


NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)
"""The moment "this year" is judged from here (tests/test_local_times.py tests every day of the week)."""


@pytest.mark.parametrize("stamp, zone, shown", [
    ("2026-11-21T23:43:09+00:00", "Europe/London", "Sat 21 Nov, 23:43"),  # winter: London is UTC
    ("2026-07-04T23:43:09+00:00", "Europe/London", "Sun 5 Jul, 00:43"),   # summer time: the next day
    ("2026-11-21T23:43:09+00:00", "America/New_York", "Sat 21 Nov, 18:43"),
    ("2026-11-21T23:43:09", "Europe/Paris", "Sun 22 Nov, 00:43"),  # no zone: UTC, as the app writes them
    ("2026-11-21T23:43:09+00:00", "No/Such_Zone", "Sat 21 Nov, 23:43"),  # an unknown zone: UTC, never a 500
    ("2025-11-21T23:43:09+00:00", "Europe/London", "Fri 21 Nov 2025, 23:43"),  # not this year: its year shown
    ("not a time", "Europe/London", "not a time"),
])
def test_times_are_local_and_readable(app: Flask, stamp: str, zone: str, shown: str) -> None:
    with app.app_context():
        assert local_time(stamp, zone, now=NOW) == shown


def import_with_times(client: FlaskClient, deals: list[dict[str, object]], times: list[str]) -> str:
    """A table holding ``deals``, each recorded at the time given (an evening file with its history)."""
    history = [{"seq": n, "kind": "record", "number": n, "deal": deal, "at": at}
               for n, (deal, at) in enumerate(zip(deals, times), start=1)]
    body = json.dumps({"format": "quadrille-evening/1", "players": PLAYERS, "profile": "quadrille",
                       "deals_agreed": agreed(deals), "deals": deals, "history": history}).encode()
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                            "evening": (io.BytesIO(body), "e.json")}, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("/t/")[1].split("/")[0]


@pytest.mark.parametrize("zone, language, shown", [
    ("Europe/London", "en", "Thu 26 Nov 2020, 23:30"),
    ("Europe/Paris", "en", "Fri 27 Nov 2020, 00:30"),  # the app's zone: already the next day
    ("Europe/Paris", "fr", "ven. 27 nov. 2020, 00:30"),
    ("America/New_York", "en", "Thu 26 Nov 2020, 18:30"),
])
def test_the_audit_page_shows_versions_at_local_times(tmp_path: Path, zone: str, language: str, shown: str) -> None:
    """A deal recorded at a fixed time (a Thursday of 2020: a year that is never this one, so its year is shown
    whatever day the suite runs) is shown in the app's zone and the reader's language, the ISO time kept for machines."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "test", "TIMEZONE": zone})
    client = app.test_client()
    token = import_with_times(client, evening_deals("quadrille")[:2], ["2020-11-26T21:04:00+00:00", "2020-11-26T23:30:00+00:00"])
    page = client.get(f"/t/{token}/audit/2", headers={"Accept-Language": language}).get_data(as_text=True)
    assert re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', page) == [("2020-11-26T23:30:00+00:00", shown)]
    assert ('<th scope="col">Before</th>' if language == "en" else '<th scope="col">Avant</th>') in page
