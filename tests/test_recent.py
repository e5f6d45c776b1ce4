"""Find your table again: the home page lists the tables this phone opened (a signed cookie, no accounts)."""

from __future__ import annotations

import html
import io
import re
import sqlite3
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, record, start_table
from itsdangerous import URLSafeSerializer

from scorer.core import RECENT_TABLES_MAX
from scorer.web.pages import recent
from scorer.web.pages.recent import COOKIE, visit_day


def listed(client: FlaskClient) -> list[str]:
    """The tokens of the tables the home page lists, in order."""
    page = client.get("/").get_data(as_text=True)
    return re.findall(r'class="recent-link" href="/t/([^"]+)"', page)


def forget(client: FlaskClient, token: str) -> int:
    response = client.post("/recent/forget", data={"csrf_token": csrf_token(client, "/new"), "token": token})
    return response.status_code


def test_a_visited_table_is_listed_with_its_players_date_and_deals(app: Flask, client: FlaskClient) -> None:
    assert listed(client) == [] and "Tables opened on this phone" not in client.get("/").get_data(as_text=True)
    token = start_table(client, ["Ann", "Bea", "Cat", "Dan"])
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    assert client.get(f"/t/{token}").status_code == 200
    page = client.get("/").get_data(as_text=True)
    assert listed(client) == [token]
    assert "Ann, Bea, Cat, Dan" in page and "1 of 8 deals played" in page
    assert re.search(r"started (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}", page)


def _import_copy(client: FlaskClient, token: str) -> str:
    """The table's export imported again: a copy, with its own link."""
    body = client.get(f"/t/{token}/export.json").get_data()
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import"),
                                            "evening": (io.BytesIO(body), "evening.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    return response.headers["Location"].split("/t/")[1].split("/")[0]


def _made_at(app: Flask, token: str, stamp: str) -> None:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("update tables set created_at = ? where token = ?", [stamp, token])


@pytest.mark.parametrize("language, original, copy", [
    # an import on Friday 27 November at 14:05 in London (UTC in winter); the year is shown only when not this year's
    ("en", r"started Mon 23 Nov( 2026)? · 1 of 8 deals played",
     r"imported copy, Fri 27 Nov( 2026)?, 14:05 · 1 of 8 deals played"),
    ("fr", r"commencée le lun\. 23 nov\.( 2026)? · 1 coup joué sur 8",
     r"copie importée le ven\. 27 nov\.( 2026)?, 14:05 · 1 coup joué sur 8"),
])
def test_an_imported_copy_is_told_from_its_original(app: Flask, client: FlaskClient, language: str, original: str,
                                                     copy: str) -> None:
    """Issue 25: the original and its imported copy were two identical entries, easy to record on the wrong one."""
    token = start_table(client, ["Ann", "Bea", "Cat", "Dan"])
    record(client, token, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"})
    copied = _import_copy(client, token)
    _made_at(app, token, "2026-11-23T20:00:00+00:00")
    _made_at(app, copied, "2026-11-27T14:05:00+00:00")
    client.get(f"/t/{token}")
    client.get(f"/t/{copied}")
    assert listed(client) == [copied, token]
    page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    entries = re.findall(r'<span class="recent-what">([^<]*)</span>', page)
    assert len(entries) == 2
    assert re.fullmatch(copy, html.unescape(entries[0])), entries[0]
    assert re.fullmatch(original, html.unescape(entries[1])), entries[1]


def test_the_latest_visit_comes_first_and_the_list_is_limited(app: Flask, client: FlaskClient) -> None:
    tokens = [start_table(client) for _ in range(RECENT_TABLES_MAX + 2)]
    for token in tokens:
        client.get(f"/t/{token}/ledger")
    client.get(f"/t/{tokens[-3]}")  # seen again: first
    shown = listed(client)
    assert len(shown) == RECENT_TABLES_MAX
    assert shown[0] == tokens[-3] and shown[1:3] == [tokens[-1], tokens[-2]]
    assert tokens[0] not in shown and tokens[1] not in shown  # the oldest fell off
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None and len(cookie.value) < 1200


def test_forget_removes_one_table_and_needs_the_csrf_token(app: Flask, client: FlaskClient) -> None:
    first, second = start_table(client), start_table(client)
    client.get(f"/t/{first}")
    client.get(f"/t/{second}")
    assert listed(client) == [second, first]
    assert client.post("/recent/forget", data={"token": first}).status_code == 400  # no CSRF token: refused
    assert listed(client) == [second, first]
    assert forget(client, first) == 302
    assert listed(client) == [second]
    assert client.get(f"/t/{first}").status_code == 200  # the table itself is untouched (and remembered again)


def test_a_tampered_or_foreign_cookie_is_ignored(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    client.get(f"/t/{token}")
    good = client.get_cookie(COOKIE)
    assert good is not None
    for value in (good.value[:-2] + "xx", "garbage", "", "a" * 4000,
                  URLSafeSerializer("another key", salt="scorer.recent-tables").dumps([[token, 0]]),
                  URLSafeSerializer("test", salt="scorer.recent-tables").dumps({"not": "a list"}),
                  URLSafeSerializer("test", salt="scorer.recent-tables").dumps([["../../etc", 0], [token, "x"], 7])):
        client.set_cookie(COOKIE, value)
        response = client.get("/")
        assert response.status_code == 200, value
        assert listed(client) == []
        assert forget(client, token) == 302


def test_a_table_no_longer_found_is_dropped_silently(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    client.set_cookie(COOKIE, URLSafeSerializer("test", salt="scorer.recent-tables").dumps(
        [["NoSuchTable0123456789x", 0], [token, 0]]))
    response = client.get("/")
    assert response.status_code == 200 and listed(client) == [token]
    kept = client.get_cookie(COOKIE)
    assert kept is not None and "NoSuchTable" not in URLSafeSerializer("test", salt="scorer.recent-tables").loads(kept.value)[0][0]


def test_only_pages_answered_are_remembered(app: Flask, client: FlaskClient) -> None:
    assert client.get("/t/NoSuchTable0123456789x").status_code == 404
    token = start_table(client)
    client.get(f"/t/{token}/export.json")  # not a page
    assert listed(client) == []
    spectator = re.search(r"/s/([A-Za-z0-9_-]+)", client.get(f"/t/{token}/join").get_data(as_text=True))
    assert spectator
    client.delete_cookie(COOKIE)
    client.get(f"/s/{spectator.group(1)}")  # a watch-only link is not remembered
    assert listed(client) == []


def _unix(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


@pytest.mark.parametrize("at, day", [
    # a week, one visit a day at 21:04 UTC, then the edges of a day, a month and a year (UTC days, whatever the zone)
    ("2026-11-23T21:04:00+00:00", "2026-11-23T00:00:00+00:00"),  # Monday
    ("2026-11-24T21:04:00+00:00", "2026-11-24T00:00:00+00:00"),
    ("2026-11-25T21:04:00+00:00", "2026-11-25T00:00:00+00:00"),
    ("2026-11-26T21:04:00+00:00", "2026-11-26T00:00:00+00:00"),  # Thursday
    ("2026-11-27T21:04:00+00:00", "2026-11-27T00:00:00+00:00"),
    ("2026-11-28T21:04:00+00:00", "2026-11-28T00:00:00+00:00"),
    ("2026-11-29T21:04:00+00:00", "2026-11-29T00:00:00+00:00"),  # Sunday
    ("2026-11-30T23:59:59+00:00", "2026-11-30T00:00:00+00:00"),
    ("2026-12-01T00:00:00+00:00", "2026-12-01T00:00:00+00:00"),
    ("2026-12-31T23:59:59.999+00:00", "2026-12-31T00:00:00+00:00"),
    ("2027-01-01T00:00:00+00:00", "2027-01-01T00:00:00+00:00"),
    ("2028-02-29T12:00:00+00:00", "2028-02-29T00:00:00+00:00"),
    ("2027-01-01T00:30:00+01:00", "2026-12-31T00:00:00+00:00"),  # still 31 December in UTC
])
def test_a_visit_is_kept_with_its_utc_day(at: str, day: str) -> None:
    assert visit_day(_unix(at)) == _unix(day)


def test_a_table_visited_again_the_same_day_sends_no_new_cookie_and_the_next_day_does(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    serializer = URLSafeSerializer("test", salt="scorer.recent-tables")
    token = start_table(client)
    for at, sends in (("2026-11-26T00:00:00+00:00", True), ("2026-11-26T23:59:59+00:00", False),
                      ("2026-11-27T00:00:00+00:00", True), ("2026-11-27T12:00:00+00:00", False)):
        monkeypatch.setattr(recent, "clock", lambda at=at: _unix(at))
        response = client.get(f"/t/{token}")
        assert response.status_code == 200
        assert any(COOKIE in header for header in response.headers.getlist("Set-Cookie")) == sends, at
        kept = client.get_cookie(COOKIE)
        assert kept is not None and serializer.loads(kept.value) == [[token, visit_day(_unix(at))]]
