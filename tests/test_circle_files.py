"""A whole circle as one quadrille-circle/1 file (issue 14): export → import → export is byte-identical,
the carried pool folded in; a tampered file, or one over the limits, is refused and nothing is written."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
import sqlite_utils
from flask.testing import FlaskClient
from test_circles_store import MEMBERS, RESULTS, circle_of, deals_of, three_evenings
from test_table import csrf_token

from scorer.core import IMPORT_BYTES_MAX
from scorer.core.evening_json import format_deal
from scorer.core.log import Amend
from scorer.db import connect, migrate
from scorer.store import (
    LEDGERS,
    ImportRefused,
    add_member,
    circle_season,
    circle_tables,
    export_circle,
    import_circle,
    ledger,
    log_size,
    read_circle_file,
    run,
    verify,
    verify_circle,
)
from scorer.store.circle_files import CIRCLE_DEPTH_MAX

KEY = "a secret key for the tests"


@pytest.fixture
def db(tmp_path: Path) -> sqlite_utils.Database:
    LEDGERS.clear()
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
    from test_circles_web import next_evening, play_evening, start_circle

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
