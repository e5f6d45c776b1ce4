"""A circle's Check page (issue 14): ``/c/<token>/check`` says whether the circle's own log and each of its
evenings' logs hold, and where one first breaks. Each kind of damage is written straight into SQLite, as a
hand edit would leave it. flaskr-style web tests on a temporary database."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.browser import ARTIFACTS as BROWSER_ARTIFACTS
from helpers.browser import Phone, fresh
from helpers.web import csrf_token, next_evening, play_evening, start_circle, text

import scorer.store

ARTIFACTS = BROWSER_ARTIFACTS.parent / "browser-circle-check"


@dataclass(frozen=True)
class Season:
    circle: str
    first: str
    second: str


@pytest.fixture
def season(client: FlaskClient) -> Iterator[Season]:
    """A circle's log of three lines: evening 1 started, Fay added, evening 2 started; evening 1 played."""
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 6 6 6")
    added = client.post(f"/c/{circle}/member", data={"new_member": "Fay", "csrf_token": csrf_token(client, f"/c/{circle}")})
    assert added.status_code == 302, text(added)[-1500:]
    second = next_evening(client, circle, ("Bea", "Cat", "Fay", "Eve"))
    yield Season(circle, first, second)
    scorer.store.LEDGERS.clear()


@contextmanager
def database(app: Flask) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def check_page(client: FlaskClient, circle: str) -> str:
    response = client.get(f"/c/{circle}/check")
    assert response.status_code == 200 and response.mimetype == "text/html"
    return re.sub(r"\s+", " ", text(response))


def test_a_sound_circle_holds_and_so_does_each_evening(client: FlaskClient, season: Season) -> None:
    page = check_page(client, season.circle)
    assert "The circle's log holds: all 3 lines are as they were written, the last on" in page
    assert "Evening 1 (Ann, Bea, Cat, Dan) holds: its 4 lines are as written and every deal settles." in page
    assert "Evening 2 (Bea, Cat, Fay, Eve) holds: no deal recorded yet." in page
    assert "broken" not in page and 'role="alert"' not in page


def test_the_circle_page_links_to_its_check_page(client: FlaskClient, season: Season) -> None:
    assert f'href="/c/{season.circle}/check"' in text(client.get(f"/c/{season.circle}"))
    assert "/check" not in text(client.get(watch_link(client, season.circle)))  # the watch-only page has no Check page


def watch_link(client: FlaskClient, circle: str) -> str:
    found = re.search(r'href="[^"]*?(/cs/[^"]+)"', text(client.get(f"/c/{circle}")))
    assert found
    return found.group(1)


def test_a_line_of_the_circle_s_log_changed_in_the_database_is_named(app: Flask, client: FlaskClient,
                                                                     season: Season) -> None:
    with database(app) as conn:  # the data changed, the hash left as it was
        changed = conn.execute("update circle_events set data = replace(data, 'Fay', 'Fey') where seq = 2")
        assert changed.rowcount == 1
    page = check_page(client, season.circle)
    assert "The circle's log is broken: line 2 of the circle's log was changed after it was written." in page
    assert "Line 1 is as it was written; from line 2 on, the circle's record cannot be trusted" in page
    assert "Evening 1 (Ann, Bea, Cat, Dan) holds" in page  # each evening is checked on its own


def test_a_line_deleted_from_the_circle_s_log_is_reported_missing(app: Flask, client: FlaskClient,
                                                                   season: Season) -> None:
    with database(app) as conn:
        assert conn.execute("delete from circle_events where seq = 2").rowcount == 1
    page = check_page(client, season.circle)
    assert "The circle's log is broken: line 2 of the circle's log is missing." in page


def test_an_evening_whose_table_log_was_tampered_with_is_named_with_a_link(app: Flask, client: FlaskClient,
                                                                           season: Season) -> None:
    with database(app) as conn:
        changed = conn.execute("update events set created_at = '2020-01-01T00:00:00+00:00' where seq = 2 and "
                               "table_id = (select id from tables where token = ?)", [season.first])
        assert changed.rowcount == 1
    page = check_page(client, season.circle)
    assert "The circle's log holds: all 3 lines" in page
    assert "Evening 1 (Ann, Bea, Cat, Dan) is broken: line 2 (deal 2) was changed after it was written." in page
    assert f"href=\"/t/{season.first}/verify\"" in text(client.get(f"/c/{season.circle}/check"))
    assert "Evening 2 (Bea, Cat, Fay, Eve) holds" in page


def test_an_evening_whose_chain_holds_but_whose_deal_no_longer_settles_is_named(app: Flask, client: FlaskClient,
                                                                                season: Season) -> None:
    """A deal of evening 1 edited in SQLite into one that cannot have happened (premiers with four tricks), the
    table's hash chain recomputed so that only settling every deal again can tell: the circle's Check page
    names the evening, the line and the deal, and why, as the table's own Check page does."""
    from scorer.store import genesis, link, table_from_row

    with database(app) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute("select * from tables where token = ?", [season.first]).fetchone()
        seq = conn.execute("select seq from events where table_id = ? and number = 2", [row["id"]]).fetchone()[0]
        deal = json.loads(conn.execute("select deal from events where table_id = ? and seq = ?", [row["id"], seq]).fetchone()[0])
        deal.update(contract="solo", called=None, ally=None, tricks={"hombre": 4, "ally": None}, premiers=True)
        conn.execute("update events set deal = ? where table_id = ? and seq = ?", [json.dumps(deal, sort_keys=True), row["id"], seq])
        previous = genesis(table_from_row(dict(row)))
        for event in conn.execute("select * from events where table_id = ? order by seq", [row["id"]]).fetchall():
            previous = link(previous, dict(event))
            conn.execute("update events set hash = ? where id = ?", [previous, event["id"]])
    scorer.store.LEDGERS.clear()
    page = check_page(client, season.circle)
    assert "The circle's log holds: all 3 lines" in page
    assert "was changed after it was written" not in page  # the chain holds: only the replay can tell
    assert re.search(r"Evening 1 \(Ann, Bea, Cat, Dan\) is broken: it cannot be replayed past [^.]*deal 2[^.]*: the deal "
                     r"cannot be settled: premiers are the first six tricks, but the contracting side took only 4", page), page
    assert f"href=\"/t/{season.first}/verify\"" in text(client.get(f"/c/{season.circle}/check"))
    assert "Evening 2 (Bea, Cat, Fay, Eve) holds" in page


def test_an_unreadable_circle_gets_a_clear_page_not_a_500(app: Flask, client: FlaskClient, season: Season) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with database(app) as conn:
        conn.execute("update circles set members = 'not a list'")
    page = check_page(client, season.circle)
    assert "This circle cannot be read" in page and "the circle cannot be read" in page
    assert "Nothing has been changed or deleted" in page


@pytest.mark.parametrize("damage", ["update circles set members = 'not a list'",
                                    "update circle_events set data = '{' where seq = 2"])
def test_every_page_of_an_unreadable_circle_says_so_and_keeps_what_is_stored(app: Flask, client: FlaskClient,
                                                                             season: Season, damage: str) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    watch = re.findall(r'href="[^"]*?(/cs/[^"]+)"', text(client.get(f"/c/{season.circle}")))[0]
    with database(app) as conn:
        conn.execute(damage)
    scorer.store.LEDGERS.clear()
    for url in (f"/c/{season.circle}", f"/c/{season.circle}/tally.pdf", watch, f"/t/{season.first}", f"/t/{season.second}"):
        response = client.get(url)
        assert response.status_code == 200 and "This circle cannot be read" in text(response), url
    page = text(client.get(f"/c/{season.circle}"))
    assert f'href="/c/{season.circle}/export.json"' in page and f'href="/c/{season.circle}/check"' in page
    assert "export.json" not in text(client.get(watch))  # the watch-only link offers nothing more
    raw = client.get(f"/c/{season.circle}/export.json")
    assert raw.status_code == 200
    stored = raw.get_json()
    assert stored["format"] == "scorer-raw-circle/1" and len(stored["log"]) == 3
    assert [e["table"]["token"] for e in stored["evenings"]] == [season.first, season.second]
    assert len(stored["evenings"][0]["log"]) == 4  # every deal of evening 1, as stored


def test_an_unreadable_circle_log_line_gets_a_clear_page(app: Flask, client: FlaskClient, season: Season) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with database(app) as conn:
        conn.execute("update circle_events set data = '{' where seq = 2")
    assert "This circle cannot be read" in check_page(client, season.circle)


def test_an_unreadable_evening_table_gets_a_clear_page(app: Flask, client: FlaskClient, season: Season) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with database(app) as conn:
        conn.execute("update tables set profile = 'klondike' where token = ?", [season.second])
    page = check_page(client, season.circle)
    assert "The logs could not be checked: an evening's table cannot be read" in page and "klondike" in page


def test_a_circle_that_does_not_exist_is_a_404(client: FlaskClient) -> None:
    assert client.get("/c/no-such-circle/check").status_code == 404


def test_the_circle_import_is_linked_from_home_and_the_new_circle_page(client: FlaskClient) -> None:
    assert 'href="/c/import"' in text(client.get("/"))
    assert 'href="/c/import"' in text(client.get("/c/new"))


# --- on a phone, in a real browser (the server and axe of tests/conftest.py, tests/helpers/browser.py's phone) ---


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    fresh(ARTIFACTS)
    return chromium


class CheckPhone(Phone):
    artifacts = ARTIFACTS


@pytest.mark.browser
def test_the_check_page_fits_the_phone(server: str, browser: Any, axe: Any) -> None:
    phone = CheckPhone(browser, axe, "ann")
    page = phone.page
    try:
        phone.go(f"{server}/c/new")
        page.fill("#name", "The Thursday evening club of Annabella")
        for i, name in enumerate(["Annabella Longname", "Beatrice", "Catherine", "Daniella"], start=1):
            page.fill(f"#member_{i}", name)
        phone.tap_and_wait("button.primary")
        circle = page.url
        phone.tap_and_wait("text=Start evening 1")
        phone.go(circle)
        phone.tap_and_wait("text=Check the circle's record")
        main = page.inner_text("main")
        assert "The circle's log holds: its one line is as it was written, on" in main, main
        assert "Evening 1 (Annabella Longname, Beatrice, Catherine, Daniella) holds" in main, main
        phone.check("circle-check")
        assert not phone.problems, "\n".join(phone.problems)
    finally:
        phone.close()
