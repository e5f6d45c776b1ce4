"""A form sent with an expired or missing CSRF token: the deal (or correction) is shown again with every tap kept, nothing written."""

from __future__ import annotations

import re
import sqlite3

from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, record, start_table

TAPS = {"contract": "solo", "number": "1", "hombre": "Cat", "trumps": "hearts", "hombre_tricks": "7", "matadors": "3",
        "action": "record", "previewed": "whatever"}


def lines(app: Flask) -> int:
    return int(sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from events").fetchone()[0])


def test_an_expired_token_on_a_deal_form_shows_the_form_again_with_every_tap(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    url = f"/t/{token}/deal/solo"
    client.get(url)
    response = client.post(url, data={**TAPS, "csrf_token": "expired-or-forged"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "nothing was recorded" in page
    assert 'value="Cat"' in page and re.search(r'value="Cat"[^>]*checked|checked[^>]*value="Cat"', page)
    assert re.search(r'value="7"[^>]*checked|checked[^>]*value="7"', page)
    assert re.search(r'value="hearts"[^>]*checked|checked[^>]*value="hearts"', page)
    assert lines(app) == 0
    # The page carries a fresh token: preview and record go through from it.
    fresh = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert fresh
    taps = {k: v for k, v in TAPS.items() if k not in ("action", "previewed")}
    preview = client.post(url, data={**taps, "csrf_token": fresh.group(1), "action": "preview"})
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview.get_data(as_text=True))
    assert digest
    done = client.post(url, data={**taps, "csrf_token": fresh.group(1), "action": "record", "previewed": digest.group(1)})
    assert done.status_code == 302 and lines(app) == 1


def test_a_phone_whose_session_was_lost_keeps_its_taps(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    url = f"/t/{token}/deal/solo"
    stale = csrf_token(client, url)
    other = app.test_client()  # the phone's session cookie is gone: its old token cannot be checked
    response = other.post(url, data={**TAPS, "csrf_token": stale})
    assert response.status_code == 400 and "nothing was recorded" in response.get_data(as_text=True)
    assert lines(app) == 0


def test_a_correction_sent_with_a_lost_token_is_shown_again_not_saved(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    url = f"/t/{token}/audit/1/amend/solo"
    client.get(url)
    response = client.post(url, data={"contract": "solo", "hombre": "Bea", "trumps": "hearts", "hombre_tricks": "7",
                                      "matadors": "0", "by": "Ann", "log_length": "1", "action": "save",
                                      "csrf_token": "expired"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and "nothing was saved" in page
    assert lines(app) == 1


def test_any_other_form_with_a_lost_token_says_nothing_was_saved(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    for url in (f"/t/{token}/settings", f"/t/{token}/undo", f"/t/{token}/me", "/new", "/import"):
        response = client.post(url, data={"csrf_token": "expired", "deals_agreed": "12"})
        assert response.status_code == 400, url
        assert "Nothing was saved" in response.get_data(as_text=True), url
    assert lines(app) == 0
