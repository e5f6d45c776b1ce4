"""A damaged log never answers 500 (issue 10, point 2).

Each kind of damage is written straight into SQLite with the sqlite3 module, as a hand edit or
an older build would leave it; then a fresh app opens the same database (as after a restart, the
ledger cache emptied). Every page of the table answers 200, the Check page says which line and deal
break and why, the pages show the deals before the break, every write is refused without changing
the database, the JSON export keeps every stored line, and ``scorer verify`` exits 1 naming the line.
"""

from __future__ import annotations

import html
import io
import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.web import TEN_DEALS, csrf_token, fingerprint, record, start_table
from pypdf import PdfReader
from flask import Flask
from flask.testing import FlaskClient

import scorer.store
from scorer import create_app
from scorer.cli import main
from scorer.core import Contract, Deal, Suit
from scorer.core.ledger.log import Amend, Record, Refused, Restore, Undo
from scorer.web.db import get_db
from scorer.store import RulesFrozen, change_settings, genesis, ledger, link, run, table_by_token, table_from_row

RECORDED = 4
"""Deals recorded on the pristine table (of 8 agreed); then deal 1 is corrected: a log of 5 lines."""


def make_app(database: Path, instance: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "damaged",
                       "INSTANCE_PATH": str(instance), "RATELIMIT_ENABLED": False})


def ledger_rows(client: FlaskClient, token: str) -> list[str]:
    """Each deal's line of the ledger page, and its balances, and the totals."""
    page = client.get(f"/t/{token}/ledger").get_data(as_text=True)
    body = re.search(r"<tbody>(.*)</tfoot>", page, re.S)
    assert body, page
    return re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)


@dataclass(frozen=True)
class Pristine:
    path: Path
    token: str
    spectator: str
    snapshots: dict[int, list[str]]
    """The ledger page's rows when the log had n lines."""


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Pristine:
    """One table: deals 1-4 recorded from phones, then deal 1 corrected (line 5)."""
    folder = tmp_path_factory.mktemp("pristine")
    app = make_app(folder / "pristine.sqlite", folder / "instance")
    client = app.test_client()
    token = start_table(client)
    snapshots = {0: ledger_rows(client, token)}
    for number, (contract, data) in enumerate(TEN_DEALS[:RECORDED], start=1):
        assert record(client, token, contract, number, data).status_code == 302
        snapshots[number] = ledger_rows(client, token)
    with app.app_context():
        db = get_db()
        table = table_by_token(db, token)
        assert table is not None
        first = ledger(db, table).deals[0]
        run(db, table, Amend(1, replace(first, matadors=0), "Dan", "no matadors after all", seen=RECORDED))
        spectator = table.spectator_token
    snapshots[RECORDED + 1] = ledger_rows(client, token)
    assert snapshots[RECORDED + 1] != snapshots[RECORDED]
    scorer.store.LEDGERS.clear()
    return Pristine(folder / "pristine.sqlite", token, spectator, snapshots)


# --- the damage, written straight into SQLite ------------------------------------------------------------


def rehash(conn: sqlite3.Connection) -> None:
    """Recompute the whole hash chain, so that only the replay can tell what is wrong."""
    row = conn.execute("select * from tables").fetchone()
    previous = genesis(table_from_row(dict(row)))
    for event in conn.execute("select * from events order by seq").fetchall():
        previous = link(previous, dict(event))
        conn.execute("update events set hash = ? where id = ?", [previous, event["id"]])


def deal_json(conn: sqlite3.Connection, seq: int) -> dict[str, object]:
    return json.loads(conn.execute("select deal from events where seq = ?", [seq]).fetchone()[0])  # type: ignore[no-any-return]


def set_deal(conn: sqlite3.Connection, seq: int, text: str) -> None:
    conn.execute("update events set deal = ? where seq = ?", [text, seq])


def premiers_with_four_tricks(conn: sqlite3.Connection) -> None:
    deal = deal_json(conn, 3)
    deal.update(contract="solo", called=None, ally=None, tricks={"hombre": 4, "ally": None}, premiers=True)
    set_deal(conn, 3, json.dumps(deal, sort_keys=True))


def append(conn: sqlite3.Connection, seq: int, kind: str, number: int, deal: str | None = None,
           restores: int | None = None) -> None:
    conn.execute("insert into events (table_id, seq, kind, number, deal, by, restores, created_at, hash) "
                 "values (1, ?, ?, ?, ?, 'Ann', ?, '2026-11-21T21:04:00+00:00', '')", [seq, kind, number, deal, restores])


@dataclass(frozen=True)
class Damage:
    name: str
    edit: Callable[[sqlite3.Connection], object]
    rehashed: bool
    """Whether the chain was recomputed after the edit (so that the chain holds and only the replay breaks)."""
    seq: int
    number: int | None
    why: str
    chain: str | None
    """What the hash chain says (``None``: it holds)."""
    folded: int = 2
    """The lines the fold took in before it stopped: the deals shown stand as the pristine table's did then."""
    played: int = 2
    """The deals shown: those of them that settle."""
    rechecked: bool = False
    """Found only when every deal is checked again (the Check page, ``scorer verify``): a stored log is
    folded unchecked (it was checked when written), so until then the deal settles as it stands."""

    def __str__(self) -> str:
        return self.name


DAMAGES = [
    Damage("impossible deal, chain recomputed", premiers_with_four_tricks, True, 3, 3,
           "the deal cannot be settled: premiers are the first six tricks, but the contracting side took only 4", None, 5,
           rechecked=True),
    # the chain not computed again: found as the log is folded, on every page, without the Check page
    Damage("impossible deal, chain not recomputed", premiers_with_four_tricks, False, 3, 3,
           "it was changed after it was written", "line 3 (deal 3) was changed after it was written"),
    Damage("a deal that still settles, chain not recomputed",
           lambda c: set_deal(c, 3, json.dumps({**deal_json(c, 3), "hombre": "Cat"}, sort_keys=True)), False, 3, 3,
           "it was changed after it was written", "line 3 (deal 3) was changed after it was written"),
    Damage("unknown kind", lambda c: c.execute("update events set kind = 'shuffle' where seq = 3"), True, 3, 3,
           "its kind 'shuffle' is not one of record, undo, amend, restore", "line 3 has an unknown kind 'shuffle'"),
    Damage("deal not JSON", lambda c: set_deal(c, 3, '{"dealer": "Cat", premiers: yes'), True, 3, 3,
           "its deal cannot be read", None),
    Damage("deal not JSON, chain not recomputed", lambda c: set_deal(c, 3, "\x00not json at all"), False, 3, 3,
           "its deal cannot be read", "line 3 (deal 3) was changed after it was written"),
    Damage("JSON that is not a deal", lambda c: set_deal(c, 3, "[1, 2, 3]"), True, 3, 3, "its deal cannot be read", None),
    Damage("deal nested too deep to parse", lambda c: set_deal(c, 3, "[" * 100_000 + "]" * 100_000), True, 3, 3,
           "its deal cannot be read", None),
    Damage("a deal naming someone not at the table",
           lambda c: set_deal(c, 3, json.dumps({**deal_json(c, 3), "hombre": "Zed"})), True, 3, 3,
           "the deal cannot be settled", None, 5),
    Damage("a deal number that is not a number", lambda c: c.execute("update events set number = 'three' where seq = 3"),
           True, 3, None, "its deal number is not a whole number", None),
    Damage("undo of a deal that does not stand", lambda c: append(c, 6, "undo", 2), True, 6, 2,
           "it undoes deal 2, which is not the last deal standing", None, 5, 4),
    Damage("undo of a deal that does not stand, chain not recomputed", lambda c: append(c, 6, "undo", 2), False, 6, 2,
           "it was changed after it was written", "line 6 (deal 2) was changed after it was written", 5, 4),
    Damage("restore of a version that differs", lambda c: append(c, 6, "restore", 1, c.execute(
        "select deal from events where seq = 2").fetchone()[0], restores=1), True, 6, 1,
        "the deal it restores differs from line 1", None, 5, 4),
    Damage("missing line", lambda c: c.execute("delete from events where seq = 3"), False, 3, None,
           "line 3 of the log is missing", "line 3 of the log is missing"),
    Damage("missing line, chain recomputed", lambda c: c.execute("delete from events where seq = 3"), True, 3, None,
           "line 3 of the log is missing", "line 3 of the log is missing"),
]


@dataclass
class Damaged:
    app: Flask
    client: FlaskClient
    token: str
    spectator: str
    database: str
    damage: Damage
    pristine: Pristine

    def rows(self) -> list[dict[str, object]]:
        conn = sqlite3.connect(self.database)
        conn.row_factory = sqlite3.Row
        rows = [dict(r) for r in conn.execute("select * from events order by seq")]
        conn.close()
        return rows


def damaged_copy(pristine: Pristine, tmp_path: Path, edit: Callable[[sqlite3.Connection], object], rehashed: bool) -> str:
    """A copy of the pristine database with ``edit`` made to it, committed, then closed."""
    database = str(tmp_path / "damaged.sqlite")
    source, target = sqlite3.connect(pristine.path), sqlite3.connect(database)
    source.backup(target)
    source.close()
    target.row_factory = sqlite3.Row
    edit(target)
    if rehashed:
        rehash(target)
    target.commit()
    target.close()
    return database


@pytest.fixture(params=DAMAGES, ids=str)
def damaged(request: pytest.FixtureRequest, pristine: Pristine, tmp_path: Path) -> Iterator[Damaged]:
    damage: Damage = request.param
    database = damaged_copy(pristine, tmp_path, damage.edit, damage.rehashed)
    scorer.store.LEDGERS.clear()  # a restart: nothing in memory
    app = make_app(Path(database), tmp_path / "instance")
    if damage.rechecked:  # settled as stored until the Check page checks every deal again
        client = app.test_client()
        assert "damaged" not in text(client.get(f"/t/{pristine.token}"))
        assert "The table is read-only" in text(client.get(f"/t/{pristine.token}/verify"))
    yield Damaged(app, app.test_client(), pristine.token, pristine.spectator, database, damage, pristine)
    scorer.store.LEDGERS.clear()  # the next copy has the same link tokens


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


# --- reading ---------------------------------------------------------------------------------------------


def table_pages(token: str, spectator: str, played: int) -> list[str]:
    pages = [f"/t/{token}", f"/t/{token}/join", f"/t/{token}/ledger", f"/t/{token}/ledger?page=1", f"/t/{token}/verify",
             f"/t/{token}/tally", f"/t/{token}/tally.pdf", f"/t/{token}/export.json",
             f"/t/{token}/export.csv", f"/s/{spectator}", f"/t/{token}/settings", f"/t/{token}/undo",
             f"/t/{token}/deal/solo", f"/t/{token}/deal/alliance", f"/t/{token}/deal/vole"]
    for number in range(1, played + 1):
        pages += [f"/t/{token}/audit/{number}", f"/t/{token}/audit/{number}/amend/solo",
                  f"/t/{token}/audit/{number}/restore/{number}", f"/t/{token}/audit/1/restore/1"]
    return pages


def test_every_page_of_a_damaged_table_answers_200(damaged: Damaged) -> None:
    d = damaged
    for url in table_pages(d.token, d.spectator, d.damage.played):
        response = d.client.get(url, follow_redirects=True)  # a form of a damaged table leads to its Check page
        assert response.status_code == 200, (url, response.status_code)
    for number in range(d.damage.played + 1, RECORDED + 2):
        # a deal past the break is shown as stored, unsettled, if the log still holds it; else there is none
        response = d.client.get(f"/t/{d.token}/audit/{number}")
        assert response.status_code in (200, 404), number
        assert (response.status_code == 200) == ("stored, not settled" in response.get_data(as_text=True))


def test_the_check_page_names_the_line_the_deal_and_why(damaged: Damaged) -> None:
    d = damaged
    page = text(d.client.get(f"/t/{d.token}/verify"))
    deal = f" (deal {d.damage.number})" if d.damage.number is not None else ""
    assert f"The log cannot be replayed past line {d.damage.seq}{deal}: " in page
    assert d.damage.why in page
    assert "The table is read-only" in page
    if d.damage.chain is None:
        assert "are intact" in page and "The log is broken" not in page
    else:
        assert f"The log is broken: {d.damage.chain}" in page


BANNER_PAGES = [
    pytest.param("/t/{token}", id="play"),
    pytest.param("/t/{token}/ledger", id="ledger"),
    pytest.param("/s/{spectator}", id="spectator"),
]


@pytest.mark.parametrize("url", BANNER_PAGES)
def test_a_banner_says_where_the_log_is_damaged(pristine: Pristine, tmp_path: Path, url: str) -> None:
    damage = next(d for d in DAMAGES if not d.rechecked)
    database = damaged_copy(pristine, tmp_path, damage.edit, damage.rehashed)
    scorer.store.LEDGERS.clear()
    client = make_app(Path(database), tmp_path / "instance").test_client()
    page = text(client.get(url.format(token=pristine.token, spectator=pristine.spectator)))
    scorer.store.LEDGERS.clear()
    assert f"This table's log is damaged at line 3 (deal 3): {damage.why}" in page


def figures(row: str) -> list[str]:
    return re.findall(r"<td>([^<]*)</td>", row)


def test_the_pages_show_the_deals_before_the_break(damaged: Damaged) -> None:
    d = damaged
    played = d.damage.played
    then = d.pristine.snapshots[d.damage.folded]  # two rows a deal, then the totals
    rows = ledger_rows(d.client, d.token)
    assert rows[:-1] == then[: 2 * played]
    assert figures(rows[-1]) == figures(then[2 * played - 1])  # the totals are the balances after the last deal shown
    spectator = text(d.client.get(f"/s/{d.spectator}"))
    assert f"{played} of 8 deals played" in spectator
    assert spectator.count('<tr class="what">') == played
    for number in range(1, played + 1):
        assert d.client.get(f"/t/{d.token}/audit/{number}").status_code == 200
    after = d.client.get(f"/t/{d.token}/audit/{played + 1}")  # past the break: as stored, or none
    assert after.status_code == 404 or "stored, not settled" in after.get_data(as_text=True)
    exported = json.loads(d.client.get(f"/t/{d.token}/export.json").get_data())
    assert len(exported["deals"]) == played
    assert f"Deal {played + 1} cannot be recorded" in text(d.client.get(f"/t/{d.token}"))
    tally = text(d.client.get(f"/t/{d.token}/tally"))
    assert all(f"<tr><td>{n}</td>" in tally for n in range(1, played + 1)) and f"<tr><td>{played + 1}</td>" not in tally


def test_export_json_keeps_every_stored_line(damaged: Damaged) -> None:
    d = damaged
    response = d.client.get(f"/t/{d.token}/export.json")
    assert response.status_code == 200
    history = json.loads(response.get_data())["history"]
    stored = d.rows()
    assert len(history) == len(stored)
    for line, row in zip(history, stored):
        try:
            deal = None if row["deal"] is None else json.loads(str(row["deal"]))
        except (ValueError, RecursionError):
            deal = row["deal"]  # a deal that cannot be read is given as its text
        assert line == {"seq": row["seq"], "kind": row["kind"], "number": row["number"], "deal": deal, "by": row["by"],
                        "reason": row["reason"], "restores": row["restores"], "at": row["created_at"], "hash": row["hash"]}


def test_scorer_verify_exits_1_and_names_the_line(damaged: Damaged) -> None:
    d = damaged
    scorer.store.LEDGERS.clear()
    result = CliRunner().invoke(main, ["verify", "--db", d.database])
    assert result.exit_code == 1, result.output
    deal = f" (deal {d.damage.number})" if d.damage.number is not None else ""
    assert f"CANNOT BE REPLAYED at line {d.damage.seq}{deal}: {d.damage.why}" in result.output
    if d.damage.chain is None:
        assert "BROKEN" not in result.output
    else:
        assert f"BROKEN at line {d.damage.seq}" in result.output


# --- writing ---------------------------------------------------------------------------------------------


def posts(d: Damaged) -> list[tuple[str, dict[str, str]]]:
    """Every write a phone can send to the table, each as it would be sent (with a valid CSRF token)."""
    token = d.token
    csrf = csrf_token(d.client, "/new")
    solo = {"hombre": "Ann", "trumps": "hearts", "hombre_tricks": "6", "matadors": "0"}
    return [
        (f"/t/{token}/deal/solo", {"csrf_token": csrf, "contract": "solo", "number": "3", "action": "record",
                                   "previewed": "", "once": "a-fresh-one", **solo}),
        (f"/t/{token}/deal/solo", {"csrf_token": csrf, "contract": "solo", "number": "5", "action": "record",
                                   "previewed": "", "once": "another", **solo}),
        (f"/t/{token}/undo", {"csrf_token": csrf, "number": "2", "once": "undo-2"}),
        (f"/t/{token}/undo", {"csrf_token": csrf, "number": "4", "once": "undo-4"}),
        (f"/t/{token}/audit/1/amend/solo", {"csrf_token": csrf, "contract": "solo", "number": "1", "by": "Ann",
                                            "reason": "", "log_length": "5", "action": "save", "previewed": "", **solo}),
        (f"/t/{token}/audit/1/restore/1", {"csrf_token": csrf, "by": "Ann", "reason": "", "log_length": "5"}),
        (f"/t/{token}/audit/1/restore/5", {"csrf_token": csrf, "by": "Ann", "reason": "", "log_length": "5"}),
        (f"/t/{token}/settings", {"csrf_token": csrf, "profile": "quadrille", "deals_agreed": "12", "chip_value": "",
                                  "currency": ""}),
    ]


def test_every_write_from_a_phone_is_refused_and_changes_nothing(damaged: Damaged) -> None:
    d = damaged
    before = fingerprint(d.database)
    for url, data in posts(d):
        response = d.client.post(url, data=data)
        assert response.status_code < 500, (url, response.status_code)
        assert fingerprint(d.database) == before, url
        landing = d.client.get(response.headers["Location"]) if response.status_code == 302 else response
        assert landing.status_code == 200, url


def test_the_write_path_itself_refuses_every_command(damaged: Damaged) -> None:
    """Not only the views: the one write path refuses a command on a damaged log, inside its transaction."""
    d = damaged
    before = fingerprint(d.database)
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)
    with d.app.app_context():
        db = get_db()
        table = table_by_token(db, d.token)
        assert table is not None
        book = ledger(db, table)
        assert book.damage is not None and book.damage.seq == d.damage.seq
        standing = len(book.deals)
        commands = [Record(standing + 1, deal, "Ann"), Undo(standing, "Ann"), Amend(1, deal, "Ann", None, book.seq),
                    Restore(1, 1, "Ann", None, book.seq)]
        for command in commands:
            with pytest.raises(Refused, match="damaged"):
                run(db, table, command)
        with pytest.raises(RulesFrozen):
            change_settings(db, table, table.rules, 12, None, "")
    assert fingerprint(d.database) == before


# --- a settings row that cannot be read ------------------------------------------------------------------


@pytest.fixture
def unreadable(pristine: Pristine, tmp_path: Path) -> Iterator[Damaged]:
    database = damaged_copy(pristine, tmp_path, lambda c: c.execute("update tables set profile = 'klondike'"), False)
    scorer.store.LEDGERS.clear()
    app = make_app(Path(database), tmp_path / "instance")
    damage = Damage("unknown profile", lambda c: None, False, 0, None, "klondike", None)
    yield Damaged(app, app.test_client(), pristine.token, pristine.spectator, database, damage, pristine)
    scorer.store.LEDGERS.clear()


def test_a_table_whose_settings_cannot_be_read_answers_200_on_every_page(unreadable: Damaged) -> None:
    d = unreadable
    for url in table_pages(d.token, d.spectator, RECORDED):
        if url.startswith("/s/"):
            continue  # see the next test
        response = d.client.get(url, follow_redirects=True)
        assert response.status_code == 200, (url, response.status_code)
        if "export" not in url:
            page = text(response)
            assert "This table cannot be read" in page and "klondike" in page, url


def test_the_spectator_page_of_an_unreadable_table_answers_200(unreadable: Damaged) -> None:
    d = unreadable
    d.app.config["PROPAGATE_EXCEPTIONS"] = False
    response = d.client.get(f"/s/{d.spectator}")
    assert response.status_code == 200
    assert "This table cannot be read" in text(response)


def test_an_unreadable_table_exports_everything_stored_and_refuses_every_write(unreadable: Damaged) -> None:
    d = unreadable
    raw = json.loads(d.client.get(f"/t/{d.token}/export.json").get_data())
    assert raw["format"] == "scorer-raw-table/1"
    assert raw["table"]["profile"] == "klondike"
    assert raw["log"] == d.rows()
    before = fingerprint(d.database)
    for url, data in posts(d):
        response = d.client.post(url, data=data)
        assert response.status_code == 200 and "This table cannot be read" in text(response), url
    assert fingerprint(d.database) == before


def test_scorer_verify_names_an_unreadable_table(unreadable: Damaged) -> None:
    d = unreadable
    result = CliRunner().invoke(main, ["verify", "--db", d.database])
    assert result.exit_code == 1
    assert f"table {d.token}: BROKEN: the table's settings cannot be read" in result.output and "klondike" in result.output


def test_the_tally_of_a_damaged_table_is_not_offered_as_a_final_account(damaged: Damaged) -> None:
    d = damaged
    page = text(d.client.get(f"/t/{d.token}/tally"))
    assert "Not a final account" in page and "Agreed by" not in page
    pdf = d.client.get(f"/t/{d.token}/tally.pdf")
    words = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "Not a final account" in words and "Agreed by" not in words


def test_a_damaged_table_offers_no_undo_and_no_correction(damaged: Damaged) -> None:
    d = damaged
    assert "Undo deal" not in text(d.client.get(f"/t/{d.token}"))
    if d.damage.played:
        assert "Correct this deal" not in text(d.client.get(f"/t/{d.token}/audit/1"))


def test_pages_about_a_table_that_cannot_be_read_are_html(unreadable: Damaged) -> None:
    d = unreadable
    for url in (f"/t/{d.token}", f"/s/{d.spectator}"):
        response = d.client.get(url)
        assert response.status_code == 200 and response.mimetype == "text/html", url


def test_a_page_that_does_not_exist_is_the_apps_own(app: Flask, client: FlaskClient) -> None:
    response = client.get("/t/no-such-table")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "Nothing here" in response.get_data(as_text=True) and 'name="viewport"' in response.get_data(as_text=True)


@pytest.mark.parametrize("damage", [d for d in DAMAGES if d.rechecked], ids=str)
def test_a_write_rechecks_a_log_read_unchecked_inside_its_transaction(pristine: Pristine, tmp_path: Path,
                                                                    damage: Damage) -> None:
    """Nobody opened the Check page: the pages show the edited deal as stored, but the first write
    checks every deal of the log it folded unchecked, inside its transaction, and is refused; after
    the cache forgets the table, the next write checks again."""
    database = damaged_copy(pristine, tmp_path, damage.edit, damage.rehashed)
    scorer.store.LEDGERS.clear()
    app = make_app(Path(database), tmp_path / "instance")
    before = fingerprint(database)
    assert "damaged" not in text(app.test_client().get(f"/t/{pristine.token}"))
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)
    with app.app_context():
        db = get_db()
        table = table_by_token(db, pristine.token)
        assert table is not None
        for _ in range(2):
            standing = len(ledger(db, table).deals)
            with pytest.raises(Refused, match="damaged"):
                run(db, table, Record(standing + 1, deal, "Ann"))
            scorer.store.LEDGERS.clear()  # forgotten: folded unchecked again on the next read
    assert fingerprint(database) == before
    scorer.store.LEDGERS.clear()


# --- the chain verified as the fold advances ------------------------------------------------------------------


def test_a_deal_edited_so_that_it_still_settles_is_found_by_the_chain_alone(pristine: Pristine, tmp_path: Path) -> None:
    """The same edit with its chain computed again settles: nothing but the chain could tell it."""
    still = next(d for d in DAMAGES if d.name == "a deal that still settles, chain not recomputed")
    database = damaged_copy(pristine, tmp_path, still.edit, rehashed=True)
    scorer.store.LEDGERS.clear()
    result = CliRunner().invoke(main, ["verify", "--db", database])
    scorer.store.LEDGERS.clear()
    assert result.exit_code == 0 and "5 lines, intact" in result.output, result.output


@pytest.mark.parametrize(("deals", "hashed_first"), [(4, 5), (6, 7)])
def test_each_line_is_hashed_once_when_first_folded_never_on_each_write(
        pristine: Pristine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deals: int, hashed_first: int) -> None:
    """After a restart the first read verifies the whole chain (every line hashed once); each write and the reads
    after it hash nothing more of the log: how far the chain was verified is kept with the fold."""
    database = damaged_copy(pristine, tmp_path, lambda c: None, rehashed=False)
    scorer.store.LEDGERS.clear()
    app = make_app(Path(database), tmp_path / "instance")
    client = app.test_client()
    for number in range(RECORDED + 1, deals + 1):
        assert record(client, pristine.token, TEN_DEALS[number - 1][0], number, TEN_DEALS[number - 1][1]).status_code == 302
    scorer.store.LEDGERS.clear()  # a restart
    hashed: list[int] = []
    real = scorer.store.chain.link
    monkeypatch.setattr(scorer.store.chain, "link", lambda previous, row: hashed.append(1) or real(previous, row))
    assert "damaged" not in text(client.get(f"/t/{pristine.token}/ledger"))
    assert len(hashed) == hashed_first  # every line of the log, once
    for number in range(deals + 1, deals + 3):
        hashed.clear()
        assert record(client, pristine.token, TEN_DEALS[number - 1][0], number, TEN_DEALS[number - 1][1]).status_code == 302
        client.get(f"/t/{pristine.token}/ledger")
        assert hashed == []  # the new line chained by the write path to the last, verified before
    scorer.store.LEDGERS.clear()
