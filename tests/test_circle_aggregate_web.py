"""A season nothing can break, on the phone (issue 22): the issue's taps over HTTP. A closed evening takes no
deal, a circle evening's settings stay its circle's, a correction shows every later evening, and a circle
edited by hand answers its pages with a sentence, never a 500."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import amend, csrf_token, next_evening, play_evening, record, start_circle, text

import scorer.store
from scorer.cli import main
from scorer.store.seasons import SEASONS
from scorer.web.db import connect

FIRST = ("Ann", "Bea", "Cat", "Dan")
SECOND = ("Bea", "Cat", "Dan", "Eve")


def solo(client: FlaskClient, table: str, number: int, hombre: str, tricks: int) -> int:
    response = record(client, table, "solo", number, {"hombre": hombre, "trumps": "hearts", "hombre_tricks": str(tricks),
                                                       "matadors": "0"})
    return int(response.status_code)


def season(client: FlaskClient) -> tuple[str, str, str]:
    circle = start_circle(client, rule_codille_indivisible="odd_to_spadille", deals_agreed="8")
    first = next_evening(client, circle, FIRST)
    assert solo(client, first, 1, "Bea", 5) == 302  # a remise: the pool is carried
    second = next_evening(client, circle, SECOND)
    assert solo(client, second, 1, "Cat", 3) == 302  # a codille
    assert solo(client, second, 2, "Dan", 6) == 302
    return circle, first, second


def counts(app: Flask) -> tuple[int, ...]:
    db = connect(app.config["DATABASE"])
    return tuple(int(db.execute(f"select count(*) from {t}").fetchone()[0]) for t in ("tables", "events", "circle_events"))


def pages_answer(client: FlaskClient, circle: str, *tables: str) -> None:
    page = client.get(f"/c/{circle}")
    assert page.status_code == 200
    watch = re.search(r'href="[^"]*?(/cs/[^"]+)"', text(page))
    for url in [f"/c/{circle}", f"/c/{circle}/check", f"/c/{circle}/tally.pdf"] + ([watch.group(1)] if watch else []) \
            + [f"/t/{t}" + p for t in tables for p in ("", "/ledger", "/verify", "/settings", "/tally")]:
        assert client.get(url).status_code == 200, url


def test_a_deal_in_a_closed_evening_is_refused_and_the_season_holds(app: Flask, client: FlaskClient) -> None:
    circle, first, second = season(client)
    before = counts(app)
    refused = client.post(f"/t/{first}/deal/solo", data={
        "csrf_token": csrf_token(client, f"/t/{first}"), "contract": "solo", "number": "2", "action": "record",
        "hombre": "Cat", "trumps": "hearts", "hombre_tricks": "5", "matadors": "0"}, follow_redirects=True)
    assert "Evening 1 ended when evening 2 of the circle began" in text(refused)
    assert counts(app) == before
    play = text(client.get(f"/t/{first}"))
    assert "Evening 1 has ended" in play and "Undo deal" not in play
    pages_answer(client, circle, first, second)


def test_a_circle_evenings_settings_are_shown_and_never_changed(app: Flask, client: FlaskClient) -> None:
    circle = start_circle(client)
    evening = next_evening(client, circle, FIRST)
    page = text(client.get(f"/t/{evening}/settings"))
    assert "plays by its circle's settings" in page and 'type="submit"' not in page.split("<main")[1].split("holder")[0]
    changed = client.post(f"/t/{evening}/settings", data={"csrf_token": csrf_token(client, f"/t/{evening}"),
                                                          "profile": "penguin_points", "deals_agreed": "8"})
    assert changed.status_code == 302
    db = connect(app.config["DATABASE"])
    assert tuple(db.execute("select profile, deals_agreed from tables where token = ?", [evening]).fetchone()) == ("quadrille", 4)
    pages_answer(client, circle, evening)


def test_what_a_correction_changes_shows_every_later_evening(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, FIRST)
    assert solo(client, first, 1, "Bea", 5) == 302
    second = next_evening(client, circle, SECOND)
    assert solo(client, second, 1, "Cat", 6) == 302
    preview = client.post(f"/t/{first}/audit/1/amend/solo", data={
        "csrf_token": csrf_token(client, f"/t/{first}/audit/1/amend/solo"), "log_length": "1", "action": "preview", "by": "Ann",
        "hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0", "contract": "solo"})
    shown = text(preview)
    assert preview.status_code == 200, shown[-2000:]
    assert re.search(r"Evening 2 begins with <s>\d+</s> 0 chips carried in: ", shown), shown[shown.find("In the circle"):][:1500]
    assert "season total" in shown
    french = text(client.post(f"/t/{first}/audit/1/amend/solo", headers={"Accept-Language": "fr"}, data={
        "csrf_token": csrf_token(client, f"/t/{first}/audit/1/amend/solo"), "log_length": "1", "action": "preview", "by": "Ann",
        "hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}))
    assert re.search(r"La soirée 2 commence avec <s>\d+</s> 0 jeton reporté\xa0: ", french), french[-2500:]  # 0 is singular


def test_a_circle_edited_by_hand_answers_every_page(app: Flask, client: FlaskClient) -> None:
    circle, first, second = season(client)
    db = connect(app.config["DATABASE"])
    db.execute("update tables set profile = 'penguin_points' where token = ?", [second])  # evening 2 no longer the circle's
    page = client.get(f"/c/{circle}")
    assert page.status_code == 200 and "evening 2: its profile is not the circle's" in text(page)
    check = text(client.get(f"/c/{circle}/check"))
    assert "its profile is not the circle's" in check
    before = counts(app)
    assert client.post(f"/t/{second}/deal/solo", data={
        "csrf_token": csrf_token(client, f"/t/{second}"), "contract": "solo", "number": "3", "action": "record",
        "hombre": "Eve", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}).status_code in (200, 302, 409, 422)
    assert client.post(f"/c/{circle}/member", data={"csrf_token": csrf_token(client, f"/t/{first}"),
                                                   "new_member": "Fay"}).status_code in (200, 409, 422)
    assert counts(app) == before
    pages_answer(client, circle, first, second)
    db.execute("update circles set members = ? where token = ?", [json.dumps(["Ann", "Bea", "Cat"]), circle])
    assert client.get(f"/c/{circle}").status_code == 200
    pages_answer(client, circle, first, second)


def test_the_circles_page_shows_its_last_evenings_and_links_every_evening(client: FlaskClient) -> None:
    """The page costs the same however long the season: the last three evenings in full, the rest a link away."""
    circle = start_circle(client)
    for n in range(5):
        seated = FIRST if n % 2 == 0 else SECOND
        table = next_evening(client, circle, seated)
        assert solo(client, table, 1, seated[1], 6) == 302
    page = text(client.get(f"/c/{circle}"))
    assert [int(n) for n in re.findall(r"Evening (\d+):", page)] == [3, 4, 5]
    assert "The 2 evenings before these: see every evening" in page
    every = client.get(f"/c/{circle}/evenings")
    assert every.status_code == 200 and [int(n) for n in re.findall(r"Evening (\d+):", text(every))] == [1, 2, 3, 4, 5]
    watch = re.search(r'href="[^"]*?/cs/([^"/]+)"', page)
    assert watch and client.get(f"/cs/{watch.group(1)}/evenings").status_code == 200
    assert f"/c/{circle}" not in text(client.get(f"/cs/{watch.group(1)}/evenings"))  # the watch-only page leads nowhere else


# --- damage named where it matters: an evening's table row, or a deal edited by hand --------------------------


def _edit_deal_2(db: sqlite3.Connection, table: str) -> None:
    """Deal 2 of the evening (a solo of 6 tricks) edited to 5 tricks by hand, its chain not computed again:
    it still settles (a remise), so only the chain tells."""
    row = db.execute("select e.id, e.deal from events e join tables t on t.id = e.table_id "
                     "where t.token = ? and e.seq = 2", [table]).fetchone()
    deal = json.loads(row[1])
    deal["tricks"]["hombre"] = 5
    db.execute("update events set deal = ? where id = ?", [json.dumps(deal, sort_keys=True), row[0]])


UNREADABLE_ROWS = [  # (the edit of evening 2's table row, what its table's reading says)
    pytest.param("players = '['", "Expecting value", id="unreadable players"),
    pytest.param("""players = '["Bea", "Cat", "Dan"]'""", "3 players were given", id="three players"),
    pytest.param("deals_agreed = 0", "not 0", id="deals_agreed 0"),
    pytest.param("deals_agreed = 'abc'", "'abc'", id="deals_agreed abc"),
    pytest.param("profile = 'poker'", "no rule profile called 'poker'", id="profile poker"),
    pytest.param("house_rules = '{'", "Expecting property name", id="unreadable house rules"),
]


def restarted(app: Flask) -> FlaskClient:
    """The same database, the process's caches emptied (as after a restart): every fold is made afresh."""
    scorer.store.LEDGERS.clear()
    SEASONS.clear()
    return app.test_client()


@pytest.mark.parametrize(("edit", "why"), UNREADABLE_ROWS)
def test_an_evening_whose_table_cannot_be_read_is_named_by_the_export_verify_and_backup(
        app: Flask, client: FlaskClient, tmp_path: Path, edit: str, why: str) -> None:
    circle, first, second = season(client)
    db = connect(app.config["DATABASE"])
    db.execute(f"update tables set {edit} where token = ?", [second])
    client = restarted(app)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    exported = client.get(f"/c/{circle}/export.json")
    assert exported.status_code == 200
    raw = json.loads(exported.get_data())
    assert raw["format"] == "scorer-raw-circle/1" and [e["table"]["token"] for e in raw["evenings"]] == [first, second]
    assert len(raw["evenings"][1]["log"]) == 2 and len(raw["log"]) == 2  # every line stored, as stored
    page = text(client.get(f"/c/{circle}"))
    assert "evening 2: its table cannot be read" in page and why in page
    before = counts(app)
    started = client.post(f"/c/{circle}/next", data={"csrf_token": csrf_token(client, f"/t/{first}"), "first_dealer": "1",
                                                    **{f"seat_{i}": p for i, p in enumerate(FIRST, start=1)}})
    assert started.status_code < 500 and counts(app) == before
    verified = CliRunner().invoke(main, ["verify", "--db", app.config["DATABASE"]])
    assert verified.exit_code == 1 and isinstance(verified.exception, SystemExit), verified.output  # no traceback
    assert f"table {second}: BROKEN: the table's settings cannot be read" in verified.output
    assert f"circle {circle} (Thursday club): BROKEN: evening 2: its table cannot be read" in verified.output
    assert why in verified.output
    backed = CliRunner().invoke(main, ["backup", str(tmp_path / "backups"), "--db", app.config["DATABASE"]])
    assert backed.exit_code == 1 and isinstance(backed.exception, SystemExit), backed.output
    assert f"circle {circle} (Thursday club): BROKEN: evening 2: its table cannot be read" in backed.output
    assert "does not verify, so it was not kept" in backed.output


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_deal_edited_by_hand_makes_its_evening_and_circle_read_only(app: Flask, client: FlaskClient, tmp_path: Path,
                                                                     lang: str) -> None:
    """Deal 2 of evening 1 edited by hand in a way that still settles, the chain not computed again, then the
    server restarted: the first fold verifies the chain and finds it; both evenings' pages and the circle's
    say so, a record in evening 2 and the start of evening 3 are refused; the export keeps every line; verify
    and backup name it."""
    circle = start_circle(client, deals_agreed="4")
    first = next_evening(client, circle, FIRST)
    play_evening(client, first, FIRST, "6 6 6 6")
    second = next_evening(client, circle, SECOND)
    assert solo(client, second, 1, "Cat", 6) == 302
    db = connect(app.config["DATABASE"])
    _edit_deal_2(db, first)
    client = restarted(app)
    client.get(f"/lang/{lang}")
    said = {"en": ("This table's log is damaged at line 2 (deal 2): it was changed after it was written",
                   "This table is read-only: evening 1 of the circle does not hold (line 2 (deal 2): it was changed after it was written)",
                   "evening 1: line 2 (deal 2): it was changed after it was written"),
            "fr": ("Le journal de cette table est endommagé (ligne 2 (coup 2) : elle a été modifiée après avoir été écrite)",
                   "Cette table est en lecture seule : la soirée 1 du cercle ne tient pas (ligne 2 (coup 2) : elle a été "
                   "modifiée après avoir été écrite)",
                   "soirée 1 : ligne 2 (coup 2) : elle a été modifiée après avoir été écrite")}[lang]

    def shown(url: str) -> str:
        return text(client.get(url)).replace("\xa0", " ")  # French puts a no-break space before a colon

    assert said[0] in shown(f"/t/{first}") and said[0] in shown(f"/t/{first}/ledger")
    assert said[1] in shown(f"/t/{second}")
    assert said[2] in shown(f"/c/{circle}")
    before_first = {"en": ("This table cannot be settled: evening 1 of the circle does not hold",
                           "The log cannot be replayed from its first line: evening 1 of the circle does not hold"),
                    "fr": ("Cette table ne peut pas être réglée : la soirée 1 du cercle ne tient pas",
                           "Aucune ligne du journal ne peut être rejouée : la soirée 1 du cercle ne tient pas")}[lang]
    assert before_first[0] in shown(f"/t/{second}/tally") and before_first[1] in shown(f"/t/{second}/verify")
    before = counts(app)
    csrf = csrf_token(client, "/new")
    recorded = client.post(f"/t/{second}/deal/solo", data={
        "csrf_token": csrf, "contract": "solo", "number": "2", "action": "record", "previewed": "", "once": "a-fresh-one-0123",
        "hombre": "Dan", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}, follow_redirects=True)
    assert recorded.status_code == 200 and {"en": "it can be read and exported, not changed",
                                            "fr": "lecture seule"}[lang] in text(recorded)
    started = client.post(f"/c/{circle}/next", data={"csrf_token": csrf, "first_dealer": "1",
                                                    **{f"seat_{i}": p for i, p in enumerate(FIRST, start=1)}})
    assert started.status_code < 500 and said[2] in text(started).replace("\xa0", " ")
    assert counts(app) == before
    exported = json.loads(client.get(f"/c/{circle}/export.json").get_data())
    assert [len(e["history"]) for e in exported["evenings"]] == [4, 1]  # every line, as stored
    verified = CliRunner().invoke(main, ["verify", "--db", app.config["DATABASE"]])
    assert verified.exit_code == 1
    assert f"table {first} (Ann, Bea, Cat, Dan): BROKEN at line 2 — deal 2: line 2 (deal 2) was changed after it was written" \
        in verified.output
    assert f"circle {circle} (Thursday club): DOES NOT HOLD at evening 1: line 2 (deal 2): it was changed after it was written" \
        in verified.output
    backed = CliRunner().invoke(main, ["backup", str(tmp_path / "backups"), "--db", app.config["DATABASE"]])
    assert backed.exit_code == 1 and "line 2 (deal 2) was changed after it was written" in backed.output


def test_a_circles_writes_hash_no_line_already_verified(app: Flask, client: FlaskClient,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The season folded after a restart verifies every evening's chain once; a deal recorded in evening 2, and a
    correction in evening 1 that changes what evening 2 began with, hash no line of either log again."""
    circle = start_circle(client)
    first = next_evening(client, circle, FIRST)
    assert solo(client, first, 1, "Bea", 5) == 302  # a remise: the pool is carried
    second = next_evening(client, circle, SECOND)
    assert solo(client, second, 1, "Cat", 6) == 302
    client = restarted(app)
    hashed: list[int] = []
    real = scorer.store.chain.link
    monkeypatch.setattr(scorer.store.chain, "link", lambda previous, row: hashed.append(1) or real(previous, row))
    assert client.get(f"/c/{circle}").status_code == 200
    assert len(hashed) == 2  # evening 1's line and evening 2's, once each
    hashed.clear()
    assert solo(client, second, 2, "Dan", 6) == 302
    client.get(f"/c/{circle}")
    client.get(f"/t/{second}/ledger")
    assert hashed == []
    data = {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}  # the remise was a win
    preview = amend(client, first, 1, "solo", data)
    digest = re.search(r'name="previewed" type="hidden" value="([^"]+)"', text(preview))
    assert digest, (preview.status_code, re.findall(r"class=\"error[^>]*>(.*?)<", text(preview)))
    assert amend(client, first, 1, "solo", data, action="save", previewed=digest.group(1)).status_code == 302  # type: ignore[attr-defined]
    client.get(f"/c/{circle}")
    client.get(f"/t/{second}/ledger")
    assert hashed == []
