"""Find your table again: the home page lists the tables this phone opened (a signed cookie, no accounts)."""

from __future__ import annotations

import html
import io
import re
import sqlite3
from datetime import datetime
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import PLAYERS, csrf_token, next_evening, play_evening, record, start_circle, start_table
from itsdangerous import URLSafeSerializer

from scorer.core import RECENT_TABLES_MAX
from scorer.web.common import qr_svg
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


# --- circles: one entry each, its evenings under it ------------------------------------------------------


def entries(client: FlaskClient, language: str = "en") -> list[str]:
    """Each entry of the home page's list as a player reads it: its lines of text, joined by " | "."""
    page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    if 'class="cards recent-tables">' not in page:
        return []
    listed_part = page.split('class="cards recent-tables">', 1)[1].split("</ul>\n<p", 1)[0]
    items = re.split(r'\n  <li(?: class="recent-circle")?>', listed_part)[1:]
    told = []
    for item in items:
        item = re.sub(r"<form.*?</form>", "", item, flags=re.S)
        lines = [html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in re.split(r"</a>|</span>", item)]
        told.append(" | ".join(line for line in lines if line))
    return told


def _circle_with_two_evenings(app: Flask, client: FlaskClient) -> tuple[str, list[str]]:
    circle = start_circle(client)
    tables = [next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))]
    play_evening(client, tables[0], ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    tables.append(next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve")))
    _made_at(app, tables[0], "2026-11-19T20:00:00+00:00")  # a Thursday, then the next one
    _made_at(app, tables[1], "2026-11-26T20:00:00+00:00")
    for token in tables:
        client.get(f"/t/{token}")
    return circle, tables


@pytest.mark.parametrize("language, circle_entry, evenings", [
    ("en", "Thursday club | circle of Ann, Bea, Cat, Dan, Eve · 2 evenings",
     [r"Evening 2: Bea, Cat, Dan, Eve \| started Thu 26 Nov( 2026)? · 0 of 4 deals played",
      r"Evening 1: Ann, Bea, Cat, Dan \| started Thu 19 Nov( 2026)? · 4 of 4 deals played"]),
    ("fr", "Thursday club | cercle d'Ann, Bea, Cat, Dan, Eve · 2 soirées",
     [r"Soirée 2\u00a0: Bea, Cat, Dan, Eve \| commencée le jeu\. 26 nov\.( 2026)? · 0 coup joué sur 4",
      r"Soirée 1\u00a0: Ann, Bea, Cat, Dan \| commencée le jeu\. 19 nov\.( 2026)? · 4 coups joués sur 4"]),
])
def test_a_circle_is_one_entry_with_its_evenings_under_it_by_date(app: Flask, client: FlaskClient, language: str,
                                                                  circle_entry: str, evenings: list[str]) -> None:
    """Issue 30: the list showed a circle's evenings as entries of their own, never the circle, two identical
    "Ann, Bea, Cat, Dan" told apart only by their deal counts."""
    alone = start_table(client, ["Ann", "Bea", "Cat", "Dan"])
    client.get(f"/t/{alone}")
    circle, tables = _circle_with_two_evenings(app, client)
    shown = entries(client, language)
    assert len(shown) == 2, shown  # the circle (opened last), then the table alone
    head, *under = shown[0].split(" | ", 2)
    assert " | ".join([head, under[0]]) == circle_entry
    told = under[1].split(" | ")
    assert len(told) == 4 and re.fullmatch(evenings[0], " | ".join(told[:2])) and re.fullmatch(evenings[1], " | ".join(told[2:]))
    assert shown[1].startswith("Ann, Bea, Cat, Dan | ")
    page = client.get("/").get_data(as_text=True)
    assert f'href="/c/{circle}"' in page
    assert listed(client) == [*reversed(tables), alone]  # each evening still opens its own table


def test_a_circle_opened_before_its_first_evening_is_listed(app: Flask, client: FlaskClient) -> None:
    circle = start_circle(client)
    assert entries(client) == []  # not yet opened: its creation answers with a redirect
    assert client.get(f"/c/{circle}").status_code == 200
    assert entries(client) == ["Thursday club | circle of Ann, Bea, Cat, Dan, Eve · 0 evenings"]
    client.get(f"/cs/{_watch_token(client, circle)}")  # the watch-only page is not remembered
    assert len(entries(client)) == 1


def _watch_token(client: FlaskClient, circle: str) -> str:
    found = re.search(r'href="[^"]*/cs/([A-Za-z0-9_-]+)"', client.get(f"/c/{circle}").get_data(as_text=True))
    assert found
    return found.group(1)


def test_forgetting_a_circle_forgets_its_evenings_and_nothing_else(app: Flask, client: FlaskClient) -> None:
    alone = start_table(client)
    client.get(f"/t/{alone}")
    circle, tables = _circle_with_two_evenings(app, client)
    page = client.get("/").get_data(as_text=True)
    form = re.search(r'<form[^>]*class="forget">(?:(?!</form>).)*name="circle" value="' + circle + '".*?</form>', page, re.S)
    assert form, "no Forget for the circle"
    assert sorted(re.findall(r'name="token" value="([^"]+)"', form.group(0))) == sorted(tables)
    fields = dict(re.findall(r'name="(csrf_token|circle)" (?:type="hidden" )?value="([^"]+)"', form.group(0)))
    response = client.post("/recent/forget", data={**fields, "token": tables})
    assert response.status_code == 302
    assert listed(client) == [alone] and len(entries(client)) == 1
    assert client.get(f"/c/{circle}").status_code == 200  # the circle itself is untouched


@pytest.mark.parametrize("language, told", [
    ("en", [r"Ann, Bea, Cat, Dan \| started Mon 23 Nov( 2026)?, 21:30 · 0 of 8 deals played",
            r"Eve, Fay, Gus, Hal \| started Mon 23 Nov( 2026)? · 0 of 8 deals played",
            r"Ann, Bea, Cat, Dan \| started Mon 23 Nov( 2026)?, 19:00 · 0 of 8 deals played",
            r"Ann, Bea, Cat, Dan \| started Tue 24 Nov( 2026)? · 0 of 8 deals played"]),
    ("fr", [r"Ann, Bea, Cat, Dan \| commencée le lun\. 23 nov\.( 2026)?, 21:30 · 0 coup joué sur 8",
            r"Eve, Fay, Gus, Hal \| commencée le lun\. 23 nov\.( 2026)? · 0 coup joué sur 8",
            r"Ann, Bea, Cat, Dan \| commencée le lun\. 23 nov\.( 2026)?, 19:00 · 0 coup joué sur 8",
            r"Ann, Bea, Cat, Dan \| commencée le mar\. 24 nov\.( 2026)? · 0 coup joué sur 8"]),
])
def test_tables_of_the_same_players_begun_the_same_day_are_told_apart_by_the_hour(
        app: Flask, client: FlaskClient, language: str, told: list[str]) -> None:
    started = [("2026-11-24T20:00:00+00:00", PLAYERS), ("2026-11-23T19:00:00+00:00", PLAYERS),
               ("2026-11-23T20:00:00+00:00", ["Eve", "Fay", "Gus", "Hal"]), ("2026-11-23T21:30:00+00:00", PLAYERS)]
    for stamp, players in started:
        token = start_table(client, players)
        _made_at(app, token, stamp)
        client.get(f"/t/{token}")
    shown = entries(client, language)
    assert len(shown) == 4
    for entry, expected in zip(shown, told):
        assert re.fullmatch(expected, entry), entry


def test_circles_and_tables_share_the_lists_bound(app: Flask, client: FlaskClient) -> None:
    circles = [start_circle(client, name=f"Club {n}") for n in range(RECENT_TABLES_MAX)]
    table = start_table(client)
    client.get(f"/t/{table}")
    for circle in circles:
        client.get(f"/c/{circle}")
    shown = entries(client)
    assert len(shown) == RECENT_TABLES_MAX and listed(client) == []  # the table, opened first, fell off
    assert [e.split(" | ")[0] for e in shown] == [f"Club {n}" for n in reversed(range(RECENT_TABLES_MAX))]
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None and len(cookie.value) < 1300


@pytest.mark.parametrize("payload, shown", [
    ([["TABLE", 0, "c"]], 0),  # a table's token said to be a circle's: no such circle, dropped
    ([["CIRCLE", 0]], 0),  # a circle's token said to be a table's: no such table, dropped
    ([["CIRCLE", 0, "x"]], 0), ([["CIRCLE", 0, "c", 1]], 0), ([["CIRCLE", "0", "c"]], 0), ([["CIRCLE", True, "c"]], 0),
    ([["CIRCLE", 0, None]], 0), ([["../../etc", 0, "c"]], 0), ([["CIRCLE", 1.5, "c"]], 0),
    ([["CIRCLE", 10**30, "c"], ["CIRCLE", -1, "c"]], 1),  # an odd day is only a day: listed once
    ([["CIRCLE", 0, "c"]] * 50, 1),
])
def test_a_hostile_circle_entry_never_gives_a_500(app: Flask, client: FlaskClient, payload: list[list[object]],
                                                  shown: int) -> None:
    circle, table = start_circle(client), start_table(client)
    names = {"TABLE": table, "CIRCLE": circle}
    value = [[names.get(item[0], item[0]) if isinstance(item[0], str) else item[0], *item[1:]] for item in payload]
    client.set_cookie(COOKIE, URLSafeSerializer("test", salt="scorer.recent-tables").dumps(value))
    response = client.get("/")
    assert response.status_code == 200
    assert entries(client) == ["Thursday club | circle of Ann, Bea, Cat, Dan, Eve · 0 evenings"] * shown
    assert forget(client, table) == 302


# --- the circle's page: its members' link in full, with its QR code ---------------------------------------


@pytest.mark.parametrize("language, heading, said", [
    ("en", "The members' link", "Members: scan this code or open the link on each phone, and keep it"),
    ("fr", "Le lien des membres", "Membres\u00a0: scannez ce code ou ouvrez le lien sur chaque téléphone, et gardez-le"),
])
def test_the_circle_page_gives_its_members_link_with_its_qr_code(client: FlaskClient, language: str, heading: str,
                                                                 said: str) -> None:
    circle = start_circle(client)
    page = html.unescape(client.get(f"/c/{circle}", headers={"Accept-Language": language}).get_data(as_text=True))
    assert f'<h2 id="link">{heading}</h2>' in page and said in page
    links = re.findall(r'<figure class="qr">(.*?)<figcaption><a href="([^"]+)">\2</a></figcaption></figure>', page, re.S)
    assert [urlsplit(link).path for _, link in links] == [f"/c/{circle}", f"/cs/{_watch_token(client, circle)}"]
    untitled = re.compile(r"<title>.*?</title>")
    assert untitled.sub("", links[0][0]) == untitled.sub("", str(qr_svg(links[0][1])))
    assert re.fullmatch(r"https?://[^/]+/c/[A-Za-z0-9_-]+", links[0][1])
    watched = client.get(f"/cs/{_watch_token(client, circle)}").get_data(as_text=True)
    assert "The members' link" not in watched and f"/c/{circle}" not in watched


@pytest.mark.parametrize("language, said", [
    ("en", "The circle is ready. Keep its link, at the foot of this page with its QR code"),
    ("fr", "Le cercle est prêt. Gardez son lien, au bas de cette page avec son code QR"),
])
def test_a_new_circle_says_where_its_link_is(client: FlaskClient, language: str, said: str) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language  # the flash is said in the language of the form sent
    circle = start_circle(client)
    page = html.unescape(client.get(f"/c/{circle}").get_data(as_text=True))
    assert said in page


@pytest.mark.parametrize("damage", ["update circles set house_rules = 'not json'", "update circles set deals_agreed = 'abc'"])
def test_an_evening_whose_circle_cannot_be_read_is_listed_alone(app: Flask, client: FlaskClient, damage: str) -> None:
    circle, tables = _circle_with_two_evenings(app, client)
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute(damage)
    response = client.get("/")
    assert response.status_code == 200
    shown = entries(client)
    assert [e.split(" | ")[0] for e in shown] == ["Bea, Cat, Dan, Eve", "Ann, Bea, Cat, Dan"]
    assert f"/c/{circle}" not in response.get_data(as_text=True)
    kept = client.get_cookie(COOKIE)
    assert kept is not None and circle in str(URLSafeSerializer("test", salt="scorer.recent-tables").loads(kept.value))
