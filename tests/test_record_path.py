"""The Record tap: a previewed deal recorded only with the taps it was previewed with, the message carried in
the redirect, and the durability of a commit as a setting."""

from __future__ import annotations

import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import previewed_form, start_table
from werkzeug.datastructures import MultiDict

from scorer import create_app
from scorer.web.db import get_db

SOLO = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}


def events(app: Flask) -> list[tuple[str, int, str]]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute("select kind, number, deal from events order by seq").fetchall()
    finally:
        conn.close()


def test_a_previewed_deal_is_recorded_with_its_message_in_the_redirect(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    answer = client.post(f"/t/{token}/deal/solo", data=previewed_form(client, token, data=SOLO))
    assert answer.status_code == 302 and answer.headers["Location"] == f"/t/{token}?recorded=1"
    assert "Set-Cookie" not in answer.headers  # nothing put in the session: no cookie signed again
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert '<p class="flash" role="status">Deal 1 recorded: Bea&#39;s solo, won.</p>' in page
    assert [(kind, number) for kind, number, _deal in events(app)] == [("record", 1)]


def test_a_preview_is_recorded_only_with_the_same_taps(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    fields = previewed_form(client, token, data=SOLO)
    changed = {**fields, "hombre_tricks": "5"}  # a tap changed after the preview: the form reads it and previews again
    answer = client.post(f"/t/{token}/deal/solo", data=changed)
    assert answer.status_code == 200 and "changed since its preview" in answer.get_data(as_text=True)
    assert events(app) == []


def test_a_preview_is_not_recorded_after_the_settings_changed(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    fields = previewed_form(client, token, data=SOLO)
    with app.app_context():
        get_db().execute("update tables set deals_agreed = 12")
    answer = client.post(f"/t/{token}/deal/solo", data=fields)
    assert answer.status_code == 200 and "changed since its preview" in answer.get_data(as_text=True)
    assert events(app) == []


def test_a_double_tap_after_a_preview_records_once(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    fields = previewed_form(client, token, data=SOLO)
    first = client.post(f"/t/{token}/deal/solo", data=fields)
    second = client.post(f"/t/{token}/deal/solo", data=fields, follow_redirects=True).get_data(as_text=True)
    assert first.headers["Location"].endswith("?recorded=1")
    assert "Deal 1 is recorded." in second and len(events(app)) == 1


@pytest.mark.parametrize("shown", ["0", "2", "-1", "x", "<b>hi</b>", "1" * 40, ""])
def test_the_recorded_message_words_only_a_deal_of_the_ledger(app: Flask, client: FlaskClient, shown: str) -> None:
    token = start_table(client)
    client.post(f"/t/{token}/deal/solo", data=previewed_form(client, token, data=SOLO))
    page = client.get(f"/t/{token}", query_string={"recorded": shown}).get_data(as_text=True)
    assert 'class="flash"' not in page and "<b>hi" not in page
    assert "Deal 1 recorded" in client.get(f"/t/{token}?recorded=1").get_data(as_text=True)


@pytest.mark.parametrize(("setting", "pragma"), [(None, 2), ("FULL", 2), ("NORMAL", 1), ("normal", 1)])
def test_synchronous_is_a_setting(tmp_path: Path, setting: str | None, pragma: int) -> None:
    config = {"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "test"}
    if setting is not None:
        config["SYNCHRONOUS"] = setting
    app = create_app(config)
    with app.app_context():
        assert get_db().execute("PRAGMA synchronous").fetchone()[0] == pragma  # 2 is FULL, 1 NORMAL
        assert get_db().execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_synchronous_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCORER_SYNCHRONOUS", "NORMAL")
    monkeypatch.setenv("SCORER_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app()
    with app.app_context():
        assert get_db().execute("PRAGMA synchronous").fetchone()[0] == 1


@pytest.mark.parametrize("wrong", ["OFF", "EXTRA; drop table events", "0", ""])
def test_a_wrong_synchronous_stops_the_app_at_start(tmp_path: Path, wrong: str) -> None:
    with pytest.raises(ValueError, match="SYNCHRONOUS must be FULL or NORMAL"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "w.sqlite"), "SECRET_KEY": "test", "SYNCHRONOUS": wrong})


def test_the_csrf_token_is_checked_on_the_record_tap(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    fields = previewed_form(client, token, data=SOLO)
    answer = client.post(f"/t/{token}/deal/solo", data={**fields, "csrf_token": "forged"})
    assert answer.status_code == 400 and events(app) == []
    assert re.search(r"nothing was recorded", answer.get_data(as_text=True), re.I)


class _PostedInputs(HTMLParser):
    """What a browser posts from a page's deal form: its inputs, radios and boxes as checked."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        seen = dict(attrs)
        if tag == "form" and "/deal/" in (seen.get("action") or ""):
            self.inside = True
        kind = seen.get("type") or "text"
        if tag == "input" and self.inside and seen.get("name") and kind != "submit":
            if kind in ("radio", "checkbox") and "checked" not in seen:
                return
            self.fields.append((str(seen["name"]), seen.get("value") or ("y" if kind == "checkbox" else "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def _posted(page: str) -> list[tuple[str, str]]:
    parser = _PostedInputs()
    parser.feed(page)
    return parser.fields


@pytest.mark.parametrize(("contract", "taps"), [
    ("solo", {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6"}),
    ("alliance", {"hombre": "Cat", "trumps": "spades", "called": "KC", "ally": "Ann", "hombre_tricks": "3",
                   "ally_tricks": "3"}),
])
def test_the_record_tap_of_the_preview_page_as_a_browser_sends_it_records_the_deal(
        app: Flask, client: FlaskClient, contract: str, taps: dict[str, str]) -> None:
    """The preview page posts back the inputs of the deal it previewed, with its digest: the Record tap records it."""
    token = start_table(client)
    url = f"/t/{token}/deal/{contract}"
    fields = dict(_posted(client.get(url).get_data(as_text=True)))
    fields.update(taps, action="preview")
    preview = client.post(url, data=fields)
    assert preview.status_code == 200
    answer = client.post(url, data=MultiDict([*_posted(preview.get_data(as_text=True)), ("action", "record")]))
    assert answer.headers["Location"] == f"/t/{token}?recorded=1" and len(events(app)) == 1


@pytest.mark.parametrize(("column", "value", "refused"), [
    ("players", '["Ann", "Bea", "Cat", "Eve"]', True), ("first_dealer", "Bea", True), ("profile", "penguin_chips", True),
    ("house_rules", '{"pool_at_end": "carry_forward"}', True), ("deals_agreed", 12, True),
    ("chip_value_cents", 10, True), ("currency", "EUR", True),
    ("carried_in", 0, False), ("provenance", "created", False),  # as they were: the command goes on
])
def test_the_write_path_reads_the_table_again(tmp_path: Path, column: str, value: object, refused: bool) -> None:
    """A command is decided against the table's row as it is inside the write transaction: any setting changed
    since the table was read (on another phone, or by hand) refuses it; a row left as it was lets it through."""
    from scorer.core import Contract, Deal, HouseRules, Suit
    from scorer.core.ledger.log import Record, TableChanged
    from scorer.store import create_table, run
    from scorer.store.database import connect, migrate

    db = connect(str(tmp_path / "t.sqlite"))
    migrate(db)
    table = create_table(db, ("Ann", "Bea", "Cat", "Dan"), "Ann", HouseRules.of(), 8, None, "")
    db.conn.execute(f"update tables set {column} = ? where id = ?", [value, table.id])
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)
    if refused:
        with pytest.raises(TableChanged):
            run(db, table, Record(1, deal))
        assert db.conn.execute("select count(*) from events").fetchone()[0] == 0
    else:
        assert run(db, table, Record(1, deal)).line.number == 1
