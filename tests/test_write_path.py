"""The write path seen from the phones: what a preview showed is what gets recorded, or nothing is."""

from __future__ import annotations

import re
import sqlite3

from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token, post_deal, start_table

SOLO = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}


def lines(app: Flask) -> int:
    return int(sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from events").fetchone()[0])


def test_house_rules_changed_on_another_phone_after_a_preview_need_a_new_preview(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    preview = post_deal(client, token, "solo", 1, SOLO)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview.get_data(as_text=True))
    assert digest and "Record deal 1" in preview.get_data(as_text=True)
    other = app.test_client()  # another phone doubles the solo premium before deal 1 is recorded
    url = f"/t/{token}/settings"
    changed = other.post(url, data={"csrf_token": csrf_token(other, url), "profile": "quadrille", "deals_agreed": "8",
                                    "rule_solo_premium": "two_units"})
    assert changed.status_code == 302
    again = post_deal(client, token, "solo", 1, SOLO, action="record", previewed=digest.group(1))
    assert again.status_code == 200 and "changed since its preview" in again.get_data(as_text=True)
    assert lines(app) == 0  # nothing recorded under rules the phone never saw


def test_a_settings_form_sent_after_the_first_deal_is_refused_and_changes_nothing(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    url = f"/t/{token}/settings"
    form_token = csrf_token(client, url)  # the settings page is open on one phone ...
    other = app.test_client()
    fields = {"csrf_token": csrf_token(other, f"/t/{token}/deal/solo"), "contract": "solo", "number": "1", **SOLO}
    preview = other.post(f"/t/{token}/deal/solo", data={**fields, "action": "preview"})
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview.get_data(as_text=True))
    assert digest
    assert other.post(f"/t/{token}/deal/solo", data={**fields, "action": "record", "previewed": digest.group(1)}).status_code == 302
    before = sqlite3.connect(app.config["DATABASE"]).execute("select profile, house_rules, deals_agreed from tables").fetchone()
    late = client.post(url, data={"csrf_token": form_token, "profile": "penguin_points", "deals_agreed": "12"},
                       follow_redirects=True)  # ... and is sent after another phone recorded deal 1
    assert "frozen" in late.get_data(as_text=True)
    after = sqlite3.connect(app.config["DATABASE"]).execute("select profile, house_rules, deals_agreed from tables").fetchone()
    assert after == before


def test_the_store_checks_settings_and_log_inside_the_write(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from scorer.core import Contract, Deal, HouseRules, Suit
    from scorer.core.ledger.log import Record, TableChanged
    from scorer.web.db import connect, migrate
    from scorer.store import RulesFrozen, change_settings, create_table, run, table_by_token

    db = connect(str(tmp_path / "w.sqlite"))
    migrate(db)
    seen = create_table(db, ("Ann", "Bea", "Cat", "Dan"), "Ann", HouseRules.of(), 8, None, "")
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)
    change_settings(db, seen, HouseRules.of("quadrille", {"solo_premium": "two_units"}), 8, None, "")
    with pytest.raises(TableChanged):  # the phone's table object predates the change: refused in the write
        run(db, seen, Record(1, deal))
    now = table_by_token(db, seen.token)
    assert now is not None
    run(db, now, Record(1, deal))
    with pytest.raises(RulesFrozen):  # a settings form from before deal 1, sent after it
        change_settings(db, seen, HouseRules.of("penguin_points"), 12, None, "")
    assert table_by_token(db, seen.token) == now


def test_a_correction_sent_twice_is_written_once_and_the_second_tap_is_told_so(app: Flask, client: FlaskClient) -> None:
    from helpers.web import record

    token = start_table(client)
    record(client, token, "solo", 1, SOLO)
    url = f"/t/{token}/audit/1/amend/solo"
    page = client.get(url).get_data(as_text=True)
    hidden = dict(re.findall(r'name="(csrf_token|log_length|once)" type="hidden" value="([^"]*)"', page))
    fields = {**hidden, "contract": "solo", **SOLO, "hombre_tricks": "7", "by": "Ann"}
    preview = client.post(url, data={**fields, "action": "preview"}).get_data(as_text=True)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview)
    assert digest
    save = {**fields, "action": "save", "previewed": digest.group(1)}
    first = client.post(url, data=save)
    second = client.post(url, data=save, follow_redirects=True)
    assert first.status_code == 302
    assert "Deal 1 is corrected by Ann: this form was already sent" in second.get_data(as_text=True)
    kinds = [k for (k,) in sqlite3.connect(app.config["DATABASE"]).execute("select kind from events order by seq")]
    assert kinds == ["record", "amend"]


def test_a_one_time_token_of_another_shape_is_never_stored(app: Flask, client: FlaskClient) -> None:
    token = start_table(client)
    url = f"/t/{token}/deal/solo"
    preview = post_deal(client, token, "solo", 1, SOLO)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', preview.get_data(as_text=True))
    assert digest
    fields = {"csrf_token": csrf_token(client, url), "contract": "solo", "number": "1", "action": "record",
              "previewed": digest.group(1), "once": "x" * 2_000_000, **SOLO}
    assert client.post(url, data=fields).status_code == 302
    row = sqlite3.connect(app.config["DATABASE"]).execute("select once from events").fetchone()
    assert row == (None,)  # recorded, but the huge token was not kept


def test_the_write_path_refuses_a_stranger_and_a_reason_that_hides_text(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from scorer.core import Contract, Deal, HouseRules, ImpossibleDeal, Suit
    from scorer.core.ledger.log import Amend, Record, Refused
    from scorer.web.db import connect, migrate
    from scorer.store import create_table, ledger, run

    db = connect(str(tmp_path / "w.sqlite"))
    migrate(db)
    table = create_table(db, ("Ann", "Bea", "Cat", "Dan"), "Ann", HouseRules.of(), 8, None, "")
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)
    with pytest.raises(Refused):
        run(db, table, Record(1, deal, by="Eve"))
    run(db, table, Record(1, deal, by="Ann"))
    seen = ledger(db, table).seq
    with pytest.raises(ImpossibleDeal):
        run(db, table, Amend(1, Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=7), "Ann", "\u202eok", seen))
    assert ledger(db, table).seq == 1
