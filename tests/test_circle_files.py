"""A whole circle as one quadrille-circle/1 file (issue 14): export → import → export is byte-identical,
the carried pool folded in; a tampered file, or one over the limits, is refused and nothing is written."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import Any
from dataclasses import replace
from pathlib import Path

import pytest
import sqlite_utils
from flask import Flask
from flask.testing import FlaskClient
from helpers.store import MEMBERS, RESULTS, SEATINGS, circle_of, deals_of, play, three_evenings
from helpers.web import csrf_token

from scorer.core import IMPORT_BYTES_MAX
from scorer.core import EveningFormatError, HouseRules
from scorer.core.limits import CIRCLE_DEALS_MAX, CIRCLE_EVENINGS_MAX, DEALS_AGREED_MAX, circle_evenings_max
from scorer.core.ledger.evening_json import format_deal
from scorer.core.ledger.log import Amend, Record
from scorer.web.db import SCHEMA_VERSION, connect, migrate
from scorer.store import (
    ImportRefused,
    add_member,
    circle_by_token,
    circle_season,
    circle_tables,
    create_circle,
    export_circle,
    export_evening,
    import_circle,
    import_evening,
    ledger,
    log_size,
    read_circle_file,
    read_evening_file,
    run,
    start_evening,
    table_by_token,
    verify,
    verify_circle,
)
from scorer.store.circle_files import CIRCLE_DEPTH_MAX, CIRCLE_LOG_LINES_MAX, PAYMENT_CENTS_MAX
from scorer.store.circles import Circle, record_settlement, rename_member, take_back_settlement

KEY = "a secret key for the tests"


@pytest.fixture
def db(tmp_path: Path) -> sqlite_utils.Database:
    database = connect(str(tmp_path / "circle-files.sqlite"))
    migrate(database)
    return database


def dumped(data: object) -> bytes:
    return json.dumps(data, sort_keys=True, ensure_ascii=False).encode()


def season_file(db: sqlite_utils.Database) -> dict[str, object]:
    """Five members, three evenings under pool_at_end carry_forward, a correction in the first."""
    circle = circle_of(db, "carry_forward")
    first, _, _ = three_evenings(db, circle)
    corrected = replace(deals_of(first.players, RESULTS[0])[2], hombre_tricks=5)
    run(db, first, Amend(3, corrected, by="Ann", reason="five tricks", seen=log_size(db.conn, first.id)))
    assert circle_season(db, circle).evenings[1].carried_in > 0
    return export_circle(db, circle, KEY)


def counts(db: sqlite_utils.Database) -> tuple[int, ...]:
    return tuple(db.execute(f"select count(*) from {t}").fetchone()[0] for t in ("circles", "circle_events", "tables", "events"))


def test_export_import_export_is_byte_identical(db: sqlite_utils.Database) -> None:
    exported = season_file(db)
    original = db.execute("select token from circles").fetchone()[0]
    assert exported["format"] == "quadrille-circle/1" and exported["members"] == list(MEMBERS)
    assert len(exported["evenings"]) == 3 and "signature" in exported  # type: ignore[arg-type]
    assert original not in dumped(exported).decode()  # a circle's link is its key: never in its file
    circle = import_circle(db, read_circle_file(dumped(exported)), KEY)
    assert circle.token != original and circle.members == MEMBERS and circle.evenings == 3
    assert dumped(export_circle(db, circle, KEY)) == dumped(exported)
    assert verify_circle(db, circle) is None
    tables = circle_tables(db, circle)
    assert [t.circle_evening for t in tables] == [1, 2, 3] and all(t.provenance == "signed" for t in tables)
    assert all(verify(db, t) is None for t in tables)
    season = circle_season(db, circle)
    assert season.evenings[1].carried_in > 0
    assert ledger(db, tables[1]).evening.carried_in == season.evenings[1].carried_in
    assert sum(season.totals().values()) + season.carried == 0


def test_a_file_not_signed_here_imports_unverified_and_exports_unsigned(db: sqlite_utils.Database) -> None:
    exported = season_file(db)
    circle = import_circle(db, json.loads(dumped(exported)), "another server's key")
    assert all(t.provenance == "unverified" for t in circle_tables(db, circle))
    again = export_circle(db, circle, KEY)
    assert "signature" not in again and all("signature" not in e for e in again["evenings"])  # type: ignore[attr-defined]


def test_a_tampered_deal_is_refused_and_nothing_is_written(db: sqlite_utils.Database) -> None:
    exported = season_file(db)
    before = counts(db)
    data = json.loads(dumped(exported))
    second = data["evenings"][1]
    deal = deals_of(tuple(second["players"]), RESULTS[1])[0]
    assert deal.hombre_tricks == 5
    changed = format_deal(replace(deal, hombre_tricks=6))
    assert second["deals"][0] != changed
    second["deals"][0] = changed
    line = next(h for h in second["history"] if h["number"] == 1)
    line["deal"] = changed  # the hash is not recomputed
    with pytest.raises(ImportRefused, match="evening 2: the history does not check"):
        import_circle(db, data, KEY)
    assert counts(db) == before


def test_a_tampered_circle_log_is_refused(db: sqlite_utils.Database) -> None:
    data = json.loads(dumped(season_file(db)))
    before = counts(db)
    data["log"][0]["at"] = "2020-01-01T00:00:00+00:00"
    with pytest.raises(ImportRefused, match="line 1 of the circle's log was changed"):
        import_circle(db, data, KEY)
    data = json.loads(dumped(season_file(db)))
    data["log"][1]["data"]["players"] = ["Ann", "Bea", "Cat", "Dan"]
    with pytest.raises(ImportRefused, match="line 2 of the circle's log was changed"):
        import_circle(db, data, KEY)
    for line in data["log"]:
        line["hash"] = None  # a chain left out is recomputed: the log must still start the file's evenings
    with pytest.raises(ImportRefused, match="evening 2: its players"):
        import_circle(db, data, KEY)
    assert counts(db)[0] == before[0] + 1  # only the second season_file's own circle


def test_an_evening_whose_history_does_not_lead_to_its_deals_is_refused(db: sqlite_utils.Database) -> None:
    data = json.loads(dumped(season_file(db)))
    before = counts(db)
    data["evenings"][0]["history"] = data["evenings"][0]["history"][:-1]
    with pytest.raises(ImportRefused, match="evening 1"):
        import_circle(db, data, KEY)
    assert counts(db) == before


def test_a_member_added_later_round_trips(db: sqlite_utils.Database) -> None:
    circle = add_member(db, circle_of(db), "Fay")
    exported = export_circle(db, circle, KEY)
    assert [line["kind"] for line in exported["log"]] == ["member"]  # type: ignore[attr-defined]
    imported = import_circle(db, read_circle_file(dumped(exported)), KEY)
    assert imported.members == (*MEMBERS, "Fay") and imported.founders == MEMBERS
    assert dumped(export_circle(db, imported, KEY)) == dumped(exported)
    data = json.loads(dumped(exported))
    data["log"][0]["data"]["name"] = "Ann"
    data["log"][0]["hash"] = None
    with pytest.raises(ImportRefused, match="line 1 of the circle's log: the circle already has a member named 'Ann'"):
        import_circle(db, data, KEY)


def test_files_over_the_limits_are_refused(db: sqlite_utils.Database) -> None:
    with pytest.raises(ImportRefused, match="too large"):
        read_circle_file(b" " * (IMPORT_BYTES_MAX + 1))
    with pytest.raises(ImportRefused, match=f"at most {CIRCLE_DEPTH_MAX} deep"):
        read_circle_file(b"[" * (CIRCLE_DEPTH_MAX + 1) + b"]" * (CIRCLE_DEPTH_MAX + 1))
    data = json.loads(dumped(season_file(db)))
    before = counts(db)
    data["evenings"][2]["deals"][0]["matadors"] = 10 ** 12
    with pytest.raises(ImportRefused, match="evening 3, deal 1, 'matadors'"):
        read_circle_file(json.dumps(data).encode())
    data = json.loads(dumped(season_file(db)))
    data["members"] = [f"Player {n}" for n in range(13)]
    with pytest.raises(ImportRefused, match="at most 12"):
        import_circle(db, data, KEY)
    data = json.loads(dumped(season_file(db)))
    data["surprise"] = 1
    with pytest.raises(ImportRefused, match="unknown field 'surprise'"):
        import_circle(db, data, KEY)
    assert counts(db)[0] == before[0] + 2


def test_on_the_phone_a_circle_is_exported_and_imported(client: FlaskClient, app: object) -> None:
    from helpers.web import next_evening, play_evening, start_circle

    token = start_circle(client)
    table = next_evening(client, token, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, table, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    page = client.get(f"/c/{token}").get_data(as_text=True)
    assert f"/c/{token}/export.json" in page
    response = client.get(f"/c/{token}/export.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    body = response.get_data()
    assert json.loads(body)["format"] == "quadrille-circle/1"
    assert client.get("/c/import").status_code == 200
    posted = client.post("/c/import", data={"csrf_token": csrf_token(client, "/c/import"),
                                            "circle": (io.BytesIO(body), "circle.json")},
                         content_type="multipart/form-data")
    assert posted.status_code == 302, posted.get_data(as_text=True)[-800:]
    new = posted.headers["Location"].split("/c/")[1]
    assert new != token
    again = client.get(f"/c/{new}/export.json").get_data()
    assert dumped(json.loads(again)) == dumped(json.loads(body))
    bad = json.loads(body)
    bad["evenings"][0]["history"][0]["deal"]["hombre_tricks"] = 3
    refused = client.post("/c/import", data={"csrf_token": csrf_token(client, "/c/import"),
                                             "circle": (io.BytesIO(json.dumps(bad).encode()), "circle.json")},
                          content_type="multipart/form-data")
    assert refused.status_code == 422 and "evening 1" in refused.get_data(as_text=True)
    assert client.post("/c/import", data={"circle": (io.BytesIO(body), "circle.json")},
                       content_type="multipart/form-data").status_code in (400, 422)
    assert client.get("/c/nosuchcircle/export.json").status_code == 404


# --- renames and settlements -------------------------------------------------------------------------


def current(db: sqlite_utils.Database, circle: Circle) -> Circle:
    again = circle_by_token(db, circle.token)
    assert again is not None
    return again


def renamed_season(db: sqlite_utils.Database) -> Circle:
    """Four founders and Eve added; evening 1, settled; Bea renamed Zoe; evenings 2 and 3 (Zoe plays both),
    settled: the log is member, evening, settled, rename, evening, evening, settled."""
    circle = add_member(db, circle_of(db, members=MEMBERS[:4]), "Eve")
    play(db, start_evening(db, circle, SEATINGS[0], "Ann"), RESULTS[0])
    circle = record_settlement(db, circle, current(db, circle).lines)
    circle = rename_member(db, circle, "Bea", "Zoe")
    for players, results in zip([("Zoe", "Cat", "Dan", "Eve"), ("Ann", "Cat", "Dan", "Zoe")], RESULTS[1:]):
        play(db, start_evening(db, circle, players, players[0]), results)
    circle = record_settlement(db, current(db, circle), current(db, circle).lines)
    return current(db, circle)


def renamed_file(db: sqlite_utils.Database) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumped(export_circle(db, renamed_season(db), KEY)))
    return data


def test_a_circle_with_a_rename_and_settlements_round_trips(db: sqlite_utils.Database) -> None:
    circle = renamed_season(db)
    assert circle.renames == (("Bea", "Zoe"),) and [(s.first, s.last) for s in circle.settlements] == [(1, 1), (2, 3)]
    assert all(s.payments for s in circle.settlements)
    exported = export_circle(db, circle, KEY)
    assert [line["kind"] for line in exported["log"]] == [  # type: ignore[attr-defined]
        "member", "evening", "settled", "rename", "evening", "evening", "settled"]
    assert exported["evenings"][0]["players"] == list(SEATINGS[0])  # type: ignore[index]  # played as Bea
    imported = import_circle(db, read_circle_file(dumped(exported)), KEY)
    assert dumped(export_circle(db, imported, KEY)) == dumped(exported)
    again = circle_by_token(db, imported.token)
    assert again == imported and verify_circle(db, imported) is None
    assert (again.members, again.founders, again.renames) == (circle.members, circle.founders, circle.renames)
    assert [(s.first, s.last, s.payments) for s in again.settlements] == [(s.first, s.last, s.payments) for s in circle.settlements]
    assert [t.players for t in circle_tables(db, again)] == [t.players for t in circle_tables(db, circle)]
    assert circle_season(db, again).totals() == circle_season(db, circle).totals()
    assert "Zoe" in circle_season(db, again).totals() and "Bea" not in circle_season(db, again).totals()


def test_a_settlement_of_corrections_alone_round_trips(db: sqlite_utils.Database) -> None:
    circle = renamed_season(db)
    first = circle_tables(db, circle)[0]
    corrected = replace(deals_of(first.players, RESULTS[0])[0], hombre_tricks=5)
    run(db, first, Amend(1, corrected, by="Ann", reason="a remise", seen=log_size(db.conn, first.id)),
        settled_seen=circle.settled_mark())
    circle = record_settlement(db, circle, circle.lines)
    assert (circle.settlements[-1].first, circle.settlements[-1].last) == (4, 3)
    exported = export_circle(db, circle, KEY)
    imported = import_circle(db, read_circle_file(dumped(exported)), KEY)
    assert dumped(export_circle(db, imported, KEY)) == dumped(exported) and verify_circle(db, imported) is None


def test_a_settlement_taken_back_round_trips(db: sqlite_utils.Database) -> None:
    circle = renamed_season(db)
    circle = take_back_settlement(db, circle, circle.settlements[-1].seq, "Zoe had not paid yet", circle.lines)
    exported = export_circle(db, circle, KEY)
    assert exported["log"][-1]["kind"] == "unsettled"  # type: ignore[index]
    assert exported["log"][-1]["data"] == {"settlement": 7, "reason": "Zoe had not paid yet"}  # type: ignore[index]
    imported = import_circle(db, read_circle_file(dumped(exported)), KEY)
    assert [(s.first, s.last) for s in imported.settlements] == [(1, 1)]
    assert [(s.first, s.last, s.reason) for s in imported.taken_back] == [(2, 3, "Zoe had not paid yet")]
    assert dumped(export_circle(db, imported, KEY)) == dumped(exported) and verify_circle(db, imported) is None


@pytest.mark.parametrize(("data", "why"), [
    ({"settlement": 3, "reason": "paid twice"}, '"settlement" must be the line of the last settlement standing'),
    ({"settlement": "7", "reason": "paid twice"}, '"settlement" must be the line of the last settlement standing'),
    ({"settlement": 7, "reason": ""}, '"reason" must be a text of 1 to 200 characters'),
    ({"settlement": 7, "reason": " paid twice"}, "in its normal form"),
    ({"settlement": 7, "reason": "paid\u202etwice"}, "invisible or control character"),
    ({"settlement": 7}, '"data" of a unsettled line has exactly reason, settlement'),
])
def test_a_settlement_taken_back_is_checked_on_import(db: sqlite_utils.Database, data: dict[str, Any], why: str) -> None:
    file = renamed_file(db)
    file["log"].append({"seq": 8, "kind": "unsettled", "data": data, "at": file["log"][-1]["at"], "hash": None})
    with pytest.raises(ImportRefused, match=re.escape(why)):
        import_circle(db, read_circle_file(dumped(file)), KEY)


def unchained(data: dict[str, Any]) -> dict[str, Any]:
    for line in data["log"]:
        line["hash"] = None  # a chain left out is recomputed: only the changed line's own check can refuse it
    return data


RENAME, FIRST, SECOND = 3, 2, 6
"""Indexes in renamed_file's log: the rename line (line 4), the two settled lines (lines 3 and 7)."""


@pytest.mark.parametrize("index, change, says", [
    (RENAME, {"old": "Nobody", "new": "Zoe"}, "line 4 of the circle's log: \"old\" must be the name of a member "
                                              "of the circle at that time, not 'Nobody'"),
    (RENAME, {"old": "Bea", "new": "Cat"}, "line 4 of the circle's log: the circle already has a member named 'Cat'"),
    (RENAME, {"old": "Bea", "new": "cat"}, "line 4 of the circle's log: the circle already has a member named 'Cat'"),
    (RENAME, {"old": "Bea", "new": "Zoe "}, "line 4 of the circle's log: 'Zoe ' is not written in its normal form"),
    (RENAME, {"old": "Bea", "new": "pool"}, "line 4 of the circle's log: .*pot"),
    (RENAME, {"old": "Bea", "new": 7}, "line 4 of the circle's log: a member's name must be a text"),
    (RENAME, {"old": "Bea"}, "line 4 of the circle's log: \"data\" of a rename line has exactly new, old"),
    (FIRST, {"first": 0}, "line 3 of the circle's log: \"first\" must be 1"),
    (FIRST, {"first": True}, "line 3 of the circle's log: \"first\" must be 1"),
    (FIRST, {"last": 2}, "line 3 of the circle's log: \"last\" must be from 0 .* to 1 \\(the evenings started by then\\)"),
    (SECOND, {"first": 3}, "line 7 of the circle's log: \"first\" must be 2"),
    (SECOND, {"last": 0}, "line 7 of the circle's log: \"last\" must be from 1"),
    (SECOND, {"last": 4}, "line 7 of the circle's log: \"last\" must be from 1 .* to 3"),
    (SECOND, {"last": "3"}, "line 7 of the circle's log: \"last\""),
    (SECOND, {"payments": {}}, "line 7 of the circle's log: \"payments\" must be a list of at most 5"),
    (SECOND, {"payments": [{"payer": "Ann", "payee": "Cat", "cents": 1}] * 6}, "at most 5 payments"),
    (SECOND, {"payments": [{"payer": "Bea", "payee": "Cat", "cents": 1}]},  # Bea is Zoe since line 4
     "line 7 of the circle's log, payment 1: \"payer\" and \"payee\" must be two different members"),
    (FIRST, {"payments": [{"payer": "Zoe", "payee": "Cat", "cents": 1}]},  # not yet
     "line 3 of the circle's log, payment 1: \"payer\" and \"payee\""),
    (SECOND, {"payments": [{"payer": "Ann", "payee": "Ann", "cents": 1}]}, "payment 1: \"payer\" and \"payee\""),
    (SECOND, {"payments": [{"payer": "Ann", "payee": "Cat", "cents": 0}]}, "payment 1: \"cents\" must be a whole number from 1"),
    (SECOND, {"payments": [{"payer": "Ann", "payee": "Cat", "cents": -5}]}, "payment 1: \"cents\""),
    (SECOND, {"payments": [{"payer": "Ann", "payee": "Cat", "cents": 2.5}]}, "payment 1: \"cents\""),
    (SECOND, {"payments": [{"payer": "Ann", "payee": "Cat", "cents": True}]}, "payment 1: \"cents\""),
    (SECOND, {"payments": [{"payer": "Ann", "payee": "Cat", "cents": PAYMENT_CENTS_MAX + 1}]},
     f"payment 1: \"cents\" must be a whole number from 1 to {PAYMENT_CENTS_MAX:,}"),
    (SECOND, {"payments": [{"payer": "Ann", "payee": "Cat"}]}, "line 7 of the circle's log, payment 1 must have exactly"),
    (SECOND, {"payments": ["Ann pays Cat"]}, "line 7 of the circle's log, payment 1 must have exactly"),
    (SECOND, {"by": "Ann"}, "line 7 of the circle's log: \"data\" of a settled line has exactly first, last, payments"),
])
def test_a_malformed_rename_or_settlement_is_refused(db: sqlite_utils.Database, index: int, change: dict[str, Any],
                                                     says: str) -> None:
    data = renamed_file(db)
    assert [line["kind"] for line in data["log"]][index] == ("rename" if index == RENAME else "settled")
    before = counts(db)
    line = data["log"][index]
    line["data"] = {**line["data"], **change} if index != RENAME else change
    with pytest.raises(ImportRefused, match=says):
        import_circle(db, unchained(data), KEY)
    assert counts(db) == before


def test_an_old_name_is_never_taken_again(db: sqlite_utils.Database) -> None:
    data = unchained(renamed_file(db))
    before = counts(db)
    later = {"seq": len(data["log"]) + 1, "kind": "member", "data": {"name": "Bea"}, "at": data["log"][-1]["at"], "hash": None}
    with pytest.raises(ImportRefused, match=f"line {later['seq']} of the circle's log: 'Bea' is, or looks like, a name "
                                            "a member of the circle had before"):
        import_circle(db, {**data, "log": [*data["log"], later]}, KEY)
    back = {**later, "kind": "rename", "data": {"old": "Zoe", "new": "Bea"}}
    with pytest.raises(ImportRefused, match="'Bea' is, or looks like, a name a member of the circle had before"):
        import_circle(db, {**data, "log": [*data["log"], back]}, KEY)
    data["log"][4]["data"]["players"][0] = "Bea"  # evening 2 started after Bea became Zoe
    with pytest.raises(ImportRefused, match="line 5 of the circle's log: \"players\" must be four different members"):
        import_circle(db, data, KEY)
    assert counts(db) == before


def test_a_rename_line_changes_who_may_be_renamed_or_seated(db: sqlite_utils.Database) -> None:
    data = unchained(renamed_file(db))
    again = {"seq": len(data["log"]) + 1, "kind": "rename", "data": {"old": "Bea", "new": "Bee"},
             "at": data["log"][-1]["at"], "hash": None}
    with pytest.raises(ImportRefused, match="\"old\" must be the name of a member of the circle at that time, not 'Bea'"):
        import_circle(db, {**data, "log": [*data["log"], again]}, KEY)
    fine = {**again, "data": {"old": "Zoe", "new": "Zia"}}
    circle = import_circle(db, {**data, "log": [*data["log"], fine]}, KEY)
    assert circle.members == ("Ann", "Zia", "Cat", "Dan", "Eve") and verify_circle(db, circle) is None
    assert "Zia" in circle_season(db, circle).totals()


# --- provenance and limits ----------------------------------------------------------------------------


def test_a_circle_file_not_signed_here_exports_unsigned_even_with_no_evenings(db: sqlite_utils.Database) -> None:
    circle = add_member(db, circle_of(db), "Fay")
    exported = export_circle(db, circle, KEY)
    assert "signature" in exported and exported["evenings"] == []
    unsigned = import_circle(db, json.loads(dumped(exported)), "another server's key")
    assert db.execute("select provenance from circles where id = ?", [unsigned.id]).fetchone()[0] == "unverified"
    again = export_circle(db, unsigned, KEY)
    assert "signature" not in again
    assert dumped({k: v for k, v in again.items()}) == dumped({k: v for k, v in exported.items() if k != "signature"})
    twice = import_circle(db, json.loads(dumped(again)), KEY)  # and so on: it never becomes signed
    assert "signature" not in export_circle(db, twice, KEY)
    signed = import_circle(db, json.loads(dumped(exported)), KEY)
    assert db.execute("select provenance from circles where id = ?", [signed.id]).fetchone()[0] == "signed"
    assert dumped(export_circle(db, signed, KEY)) == dumped(exported)
    assert db.execute("select provenance from circles where id = ?", [circle.id]).fetchone()[0] is None  # made here


def test_a_circle_file_changed_in_one_evening_imports_wholly_unverified(db: sqlite_utils.Database) -> None:
    data = renamed_file(db)
    data["evenings"][1].pop("signature")  # the circle's own signature no longer holds either
    circle = import_circle(db, data, KEY)
    assert [t.provenance for t in circle_tables(db, circle)] == ["unverified"] * 3
    assert db.execute("select provenance from circles where id = ?", [circle.id]).fetchone()[0] == "unverified"
    assert "signature" not in export_circle(db, circle, KEY)


def test_a_database_of_schema_6_gains_the_circles_provenance(tmp_path: Path) -> None:
    old = connect(str(tmp_path / "schema6.sqlite"))
    migrate(old)
    old.execute("ALTER TABLE circles DROP COLUMN provenance")  # the database as schema 6 left it
    circle = circle_of(old)
    migrate(old)
    assert "provenance" in old.table("circles").columns_dict
    assert "signature" in export_circle(old, circle, KEY)
    assert old.execute("select value from meta where key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    migrate(old)  # and again, safely


def test_a_circle_of_too_many_evenings_or_log_lines_is_refused(db: sqlite_utils.Database) -> None:
    data = unchained(renamed_file(db))
    before = counts(db)
    with pytest.raises(ImportRefused, match=f"the file holds {CIRCLE_EVENINGS_MAX + 1} evenings; "
                                            f"a circle has at most {CIRCLE_EVENINGS_MAX}"):
        import_circle(db, {**data, "evenings": data["evenings"][:1] * (CIRCLE_EVENINGS_MAX + 1)}, KEY)
    lines = [{**data["log"][0], "seq": n} for n in range(1, CIRCLE_LOG_LINES_MAX + 2)]
    with pytest.raises(ImportRefused, match=f"the circle's log has {CIRCLE_LOG_LINES_MAX + 1} lines; "
                                            f"a circle file may hold at most {CIRCLE_LOG_LINES_MAX}"):
        import_circle(db, {**data, "log": lines}, KEY)
    assert counts(db) == before


# --- an evening of a circle, alone (issue 22, point 9), and a circle's evenings under its settings (points 3, 4)


def test_an_evening_exported_from_its_circle_says_what_it_began_with_and_alone_settles_the_same(
        db: sqlite_utils.Database) -> None:
    first, second, _ = three_evenings(db, circle_of(db, "carry_forward"))
    began = ledger(db, second).evening.carried_in
    assert began > 0  # the first evening ended on a remise
    assert export_evening(db, first, KEY)["carried_in"] == 0  # said, even when it is nothing
    exported = export_evening(db, second, KEY)
    assert exported["carried_in"] == began and "signature" in exported
    alone = import_evening(db, read_evening_file(dumped(exported)), KEY)
    assert alone.circle_id is None and alone.carried_in == began and alone.provenance == "signed"
    again = table_by_token(db, alone.token)
    assert again is not None and again.carried_in == began  # kept in its row
    assert ledger(db, again).evening.carried_in == began
    assert ledger(db, again).final == ledger(db, second).final  # the same balances, pools included
    assert [s.transfers for s in ledger(db, again).settlements] == [s.transfers for s in ledger(db, second).settlements]
    assert dumped(export_evening(db, again, KEY)) == dumped(exported)  # and it says so again


@pytest.mark.parametrize("change", [
    pytest.param(lambda data: data.pop("carried_in"), id="left out"),
    pytest.param(lambda data: data.update(carried_in=data["carried_in"] + 1), id="changed"),
])
def test_an_evening_whose_carried_chips_were_changed_is_not_signed_and_settles_as_its_file_says(
        db: sqlite_utils.Database, change: Callable[[dict[str, Any]], object]) -> None:
    _, second, _ = three_evenings(db, circle_of(db, "carry_forward"))
    data = json.loads(dumped(export_evening(db, second, KEY)))
    change(data)
    alone = import_evening(db, data, KEY)
    assert alone.provenance == "unverified"  # the signature covers what it began with
    assert ledger(db, alone).evening.carried_in == data.get("carried_in", 0)


def test_carried_chips_need_a_pool_and_a_whole_number(db: sqlite_utils.Database) -> None:
    _, second, _ = three_evenings(db, circle_of(db, "carry_forward"))
    data = json.loads(dumped(export_evening(db, second, KEY)))
    with pytest.raises(ImportRefused, match="'carried_in' must be a whole number from 0 to 999999999, not -1"):
        import_evening(db, {**data, "carried_in": -1}, KEY)
    with pytest.raises(EveningFormatError, match="chips cannot be carried into an evening of"):
        import_evening(db, {**data, "profile": "penguin_points", "house_rules": {}, "deals": [], "history": []}, KEY)


def test_a_circle_evening_whose_carried_chips_are_not_what_the_evening_before_leaves_is_refused(
        db: sqlite_utils.Database) -> None:
    data = json.loads(dumped(season_file(db)))
    began = data["evenings"][1]["carried_in"]
    assert began > 0
    before = counts(db)
    data["evenings"][1]["carried_in"] = began + 2
    with pytest.raises(ImportRefused, match=f"evening 2: its file says it began with {began + 2} chips carried in, "
                                            f"but the evening before leaves {began} on the table"):
        import_circle(db, data, KEY)
    del data["evenings"][1]["carried_in"]  # an export made before evenings said so: what the season carries
    import_circle(db, data, KEY)
    assert counts(db)[0] == before[0] + 1


@pytest.mark.parametrize("field, value, says", [
    ("profile", "mediateur", "evening 2: its 'profile' is \"mediateur\", not the circle's \"quadrille\""),
    ("house_rules", {}, "evening 2: its 'house_rules' is {}, not the circle's {\"pool_at_end\": \"carry_forward\"}"),
    ("house_rules", {"pool_at_end": "carry_forward", "solo_premium": "two_units"},
     "evening 2: its 'house_rules' is {\"pool_at_end\": \"carry_forward\", \"solo_premium\": \"two_units\"}, not the circle's"),
    ("chip_value_cents", 25, "evening 2: its 'chip_value_cents' is 25, not the circle's 10"),
    ("chip_value_cents", None, "evening 2: its 'chip_value_cents' is null, not the circle's 10"),
    ("currency", "GBP", "evening 2: its 'currency' is \"GBP\", not the circle's \"EUR\""),
    ("deals_agreed", 8, "evening 2: its 'deals_agreed' is 8, not the circle's 4"),
])
def test_a_circle_evening_with_other_settings_than_the_circle_s_is_refused_naming_the_field(
        db: sqlite_utils.Database, field: str, value: object, says: str) -> None:
    data = json.loads(dumped(season_file(db)))
    before = counts(db)
    data["evenings"][1][field] = value
    with pytest.raises(ImportRefused) as refused:
        import_circle(db, data, KEY)
    assert str(refused.value).startswith(says), str(refused.value)
    assert "each evening of a circle is played with the circle's settings" in str(refused.value)
    assert counts(db) == before


def test_a_circle_holds_at_most_its_limit_of_deals_agreed(db: sqlite_utils.Database) -> None:
    """CIRCLE_DEALS_MAX: 20 evenings of 400 deals import; a 21st is refused, saying the limit."""
    most = circle_evenings_max(DEALS_AGREED_MAX)
    assert most * DEALS_AGREED_MAX == CIRCLE_DEALS_MAX and most < CIRCLE_EVENINGS_MAX
    circle = create_circle(db, "Long nights", MEMBERS[:4], HouseRules.of(), DEALS_AGREED_MAX, None, "")
    for _ in range(most):
        table = start_evening(db, circle, MEMBERS[:4], "Ann")
        run(db, table, Record(1, deals_of(table.players, "6")[0], by="Ann"))
        circle = current(db, circle)
    data = json.loads(dumped(export_circle(db, circle, KEY)))
    assert import_circle(db, data, KEY).evenings == most
    before = counts(db)
    data = unchained(data)
    data["log"].append({**data["log"][-1], "seq": most + 1, "data": {**data["log"][-1]["data"], "evening": most + 1}})
    data["evenings"].append(data["evenings"][-1])
    with pytest.raises(ImportRefused, match=f"the file holds {most + 1} evenings of {DEALS_AGREED_MAX} deals; a circle has "
                                            f"at most {CIRCLE_DEALS_MAX:,} deals agreed in all its evenings, so at most "
                                            f"{most} evenings of {DEALS_AGREED_MAX} deals"):
        import_circle(db, data, KEY)
    assert counts(db) == before


def test_a_row_whose_carried_chips_have_no_pool_reads_as_damaged_not_as_an_error(db: sqlite_utils.Database) -> None:
    _, second, _ = three_evenings(db, circle_of(db, "carry_forward"))
    alone = import_evening(db, read_evening_file(dumped(export_evening(db, second, KEY))), KEY)
    db.execute("update tables set profile = 'penguin_points', house_rules = '{}' where id = ?", [alone.id])  # by hand
    edited = table_by_token(db, alone.token)
    assert edited is not None and edited.carried_in > 0
    damage = ledger(db, edited).damage
    assert damage is not None and "has no pool to carry them into" in damage.message


def test_on_the_phone_an_evening_of_a_circle_imported_alone_is_signed_and_says_what_it_began_with(
        client: FlaskClient, app: Flask) -> None:
    db = connect(app.config["DATABASE"])
    _, second, _ = three_evenings(db, circle_of(db, "carry_forward"))
    began = ledger(db, second).evening.carried_in
    body = client.get(f"/t/{second.token}/export.json").get_data()
    posted = client.post("/import", data={"csrf_token": csrf_token(client, "/import"), "evening": (io.BytesIO(body), "e.json")},
                         content_type="multipart/form-data")
    assert posted.status_code == 302, posted.get_data(as_text=True)[-500:]
    assert "signed by this server, untouched" in client.get(posted.headers["Location"]).get_data(as_text=True)
    token = posted.headers["Location"].split("/t/")[1].split("/")[0]
    tally = client.get(f"/t/{token}/tally").get_data(as_text=True)
    assert f"It began with {began} chips carried in: an evening of a circle, imported alone." in tally
    assert "imported alone" not in client.get(f"/t/{second.token}/tally").get_data(as_text=True)  # in its circle: said there
