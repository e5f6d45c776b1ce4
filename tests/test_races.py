"""Two phones at once, through the real views and the real store: the races of issue 10.

Each trial starts a fresh table on the test's one database, plays a few deals
straight through the store, prepares two forms on two phones (GET, and the
preview POST where the form has one), then sends the two final POSTs from two
threads released together by a :class:`threading.Barrier`, each thread a
server thread with its own SQLite connection. One of the two POSTs is delayed
by a random fraction of a request, so that across the trials both orders and
every overlap in between happen.

After each trial the log must be one of the few that can legally follow (listed
in each test), each phone must have been told what became of its form, the log
must fold from scratch without damage into exactly the cached ledger, its hash
chain must verify, the chips must balance, and every page of the table must
answer 200. The last test runs the same four races against the store alone. The harness (two threads at a
barrier) and its evidence rule are tests/helpers/racing.py, shared with the circle's races.

Each test fails against the bug it guards against, put back by hand in a copy of
the app: the correction and restoration checks left to the view (the store's
``seen`` and "deal stands" checks taken out of ``decide`` and the fold-before-
append check out of ``run``: ``record 3, undo 3, amend 3`` within a few trials,
and two corrections written from forms made against the same log), and the
frozen-rules check made before the settings' transaction (the chain broken at
line 1 within a few trials).

The bugs these guard against (issue 10): the checks of a correction or a
restoration ran in the view, outside the write transaction, so an undo
slipping in between left ``record 3, undo 3, amend 3`` and the table answered
500 for good; and the "frozen rules" check of the settings ran before its write,
so the rules changed after deal 1 was recorded and the chain broke at line 1.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.racing import (
    Race, amend_form, both_orders_happened, check_table, fine_interleaving, hidden, record_form, refused_or,
    settings_now, undo_form,
)
from helpers.store import solo
from werkzeug.test import TestResponse

from scorer import create_app
from scorer.core import Contract, Deal, HouseRules, Suit
from scorer.core.ledger.log import Amend, Command, Line, Record, Refused, Restore, TableChanged, Undo
from scorer.web.db import connect, get_db
from scorer.store import (
    Outcome,
    RulesFrozen,
    Table,
    change_settings,
    create_table,
    ledger,
    read_lines,
    run,
)

STORE_TRIALS = 32
"""Trials of the four races against the store, taking turns: at least 8 each (36 at most, 144 in all)."""
PLAYERS = ("Ann", "Bea", "Cat", "Dan")
FLASH = re.compile(r'<p class="flash" role="status">([^<]*)</p>')


# --- the app, its tables, and two phones ----------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """One database for the whole test; every trial plays at a fresh table on it."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "races.sqlite"), "INSTANCE_PATH": str(tmp_path / "i"),
                      "SECRET_KEY": "races"})
    with fine_interleaving():
        yield app


@pytest.fixture
def race() -> Iterator[Race]:
    racing = Race(seed=10)
    yield racing
    racing.close()
    racing.check_overlap()


def new_table(app: Flask, deals_agreed: int = 4) -> Table:
    with app.app_context():
        return create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), deals_agreed, None, "")


def play(app: Flask, table: Table, deals: int) -> None:
    """Record ``deals`` deals straight through the store (the set-up, not the race)."""
    with app.app_context():
        db = get_db()
        for number in range(1, deals + 1):
            run(db, table, Record(number, solo(ledger(db, table), table, PLAYERS[number % 4], 5 + number % 3)))


def lines_of(app: Flask, table: Table) -> list[Line]:
    with app.app_context():
        lines, unreadable = read_lines(get_db().conn, table.id)
    assert unreadable is None
    return lines


def told(phone: FlaskClient, response: TestResponse) -> str:
    """What the phone was told: the flashed messages of the page it is sent to (or of the page itself).
    A deal undone meanwhile has no audit page: its 404 page shows them, or else the next page does."""
    page = phone.get(response.headers["Location"]) if response.status_code == 302 else response
    if page.status_code == 404 and not FLASH.findall(page.get_data(as_text=True)):
        page = phone.get(response.headers.get("Location", "").split("/audit/")[0] or "/")
    return " ".join(html.unescape(m) for m in FLASH.findall(page.get_data(as_text=True)))


def restore_form(phone: FlaskClient, token: str, number: int, seq: int, by: str) -> Callable[[], TestResponse]:
    url = f"/t/{token}/audit/{number}/restore/{seq}"
    page = phone.get(url)
    assert "What this changes" in page.get_data(as_text=True)
    fields = {**hidden(page), "by": by, "reason": "as it was"}
    return lambda: phone.post(url, data=fields)


def settings_form(phone: FlaskClient, token: str, changes: dict[str, str]) -> Callable[[], TestResponse]:
    url = f"/t/{token}/settings"
    fields = {**hidden(phone.get(url)), **changes}
    return lambda: phone.post(url, data=fields)


def shape(lines: list[Line]) -> list[tuple[str, int]]:
    return [(line.kind.value, line.number) for line in lines]


# --- the races, through the views ----------------------------------------------------------------------


def test_undo_races_a_correction_of_the_last_deal(app: Flask, race: Race) -> None:
    """Legal: the undo first, and the correction refused (the deal is gone, or the log changed since
    its form); or the correction first, then the undo of the corrected deal (or the undo refused).
    Never a correction written after the deal it corrects was undone."""
    reader = app.test_client()
    outcomes: Counter[str] = Counter()
    for trial in race.rounds(lambda: all(outcomes[o] for o in ("undo first", "correction first"))):
        table = new_table(app)
        play(app, table, 3)
        base = len(lines_of(app, table))
        ann, bea = app.test_client(), app.test_client()
        undo = undo_form(ann, table.token)
        amend = amend_form(bea, table.token, 3, {"hombre": "Dan", "trumps": "clubs", "hombre_tricks": str(trial % 3 + 3)},
                           "Bea", f"trial {trial}")
        undone, amended = race(undo, amend)

        _, lines, book = check_table(app, reader, table.token)
        after = lines[base:]
        said_undo, said_amend = told(ann, undone), told(bea, amended)
        if shape(after) == [("undo", 3)]:
            outcomes["undo first"] += 1
            assert "Deal 3 undone" in said_undo and "corrected" not in said_amend, (said_undo, said_amend)
            assert len(book.deals) == 2
        elif shape(after) in ([("amend", 3)], [("amend", 3), ("undo", 3)]):
            outcomes["correction first"] += 1
            assert after[0].deal is not None and after[0].deal.hombre == "Dan" and after[0].reason == f"trial {trial}"
            assert "Deal 3 corrected by Bea" in said_amend, said_amend
            assert ("Deal 3 undone" in said_undo) == (len(after) == 2), said_undo
        else:
            pytest.fail(f"trial {trial}: an undo and a correction left {shape(after)}")
        # a refused correction is sent back to the deal (302), or finds it gone (404)
        assert undone.status_code == 302 and amended.status_code in (302, 404), (undone.status_code, amended.status_code)
    both_orders_happened(outcomes, "undo first", "correction first")


def test_undo_races_a_restoration_of_the_last_deal(app: Flask, race: Race) -> None:
    """Deal 3 stands in two versions (recorded, then corrected); one phone restores the recorded
    version while another undoes deal 3. Legal: the undo first, and the restoration refused; or the
    restoration first, then the undo (or the undo refused)."""
    reader = app.test_client()
    outcomes: Counter[str] = Counter()
    for trial in race.rounds(lambda: all(outcomes[o] for o in ("undo first", "restoration first"))):
        table = new_table(app)
        play(app, table, 3)
        ann, bea = app.test_client(), app.test_client()
        amend_form(ann, table.token, 3, {"hombre": "Dan", "trumps": "clubs", "hombre_tricks": "7"}, "Ann", "set-up")()
        lines = lines_of(app, table)
        assert shape(lines[-2:]) == [("record", 3), ("amend", 3)]
        recorded, base = lines[-2], len(lines)
        restore = restore_form(bea, table.token, 3, recorded.seq, "Bea")
        undo = undo_form(ann, table.token)
        restored, undone = race(restore, undo)

        _, lines, book = check_table(app, reader, table.token)
        after = lines[base:]
        said_undo, said_restore = told(ann, undone), told(bea, restored)
        if shape(after) == [("undo", 3)]:
            outcomes["undo first"] += 1
            assert "Deal 3 undone" in said_undo and "restored" not in said_restore, (said_undo, said_restore)
            assert len(book.deals) == 2
        elif shape(after) in ([("restore", 3)], [("restore", 3), ("undo", 3)]):
            outcomes["restoration first"] += 1
            assert after[0].restores == recorded.seq and after[0].deal == recorded.deal
            assert f"Deal 3 restored to version {recorded.seq} by Bea" in said_restore, said_restore
            assert ("Deal 3 undone" in said_undo) == (len(after) == 2), said_undo
        else:
            pytest.fail(f"trial {trial}: an undo and a restoration left {shape(after)}")
        assert undone.status_code == 302 and restored.status_code in (302, 404), (undone.status_code, restored.status_code)
    both_orders_happened(outcomes, "undo first", "restoration first")


NEW_RULES = ("penguin_chips", 8, 25, "EUR")
"""The settings another phone saves: another profile, another length, a chip value and a currency."""
SETTINGS_FORM = {"profile": "penguin_chips", "deals_agreed": "8", "chip_value": "0.25", "currency": "EUR"}


def test_settings_race_the_first_deal(app: Flask, race: Race) -> None:
    """On a fresh table one phone records deal 1 while another saves new house rules (profile,
    length, chip value). Legal: deal 1 first, and the settings refused (frozen: the table keeps
    exactly the settings it had); or the settings first, and deal 1 either refused (its form was
    previewed under other rules: refused, or shown again to preview) or recorded under the new
    settings. Either way the chain starts from the settings that stand, so it verifies."""
    reader = app.test_client()
    outcomes: Counter[str] = Counter()
    for trial in race.rounds(lambda: bool(outcomes["deal 1 first"] and (outcomes["settings first, deal refused"]
                                                                  + outcomes["settings first, deal recorded under them"]))):
        table = new_table(app)
        ann, bea = app.test_client(), app.test_client()
        record = record_form(ann, table.token, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6"})
        settings = settings_form(bea, table.token, SETTINGS_FORM)
        recorded, saved = race(record, settings)

        now, lines, _ = check_table(app, reader, table.token)
        said_record, said_settings = told(ann, recorded), told(bea, saved)
        changed = settings_now(now) == NEW_RULES
        if shape(lines) == [("record", 1)] and not changed:
            outcomes["deal 1 first"] += 1
            assert now.settings == table.settings  # frozen: exactly the settings it had
            assert "frozen" in said_settings and "Deal 1 recorded" in said_record, (said_settings, said_record)
        elif changed and shape(lines) == []:
            outcomes["settings first, deal refused"] += 1
            assert "House rules saved" in said_settings, said_settings
            assert "Nothing was recorded" in said_record or "changed since its preview" in said_record, said_record
        elif changed and shape(lines) == [("record", 1)]:
            outcomes["settings first, deal recorded under them"] += 1
            assert "House rules saved" in said_settings and "Deal 1 recorded" in said_record, (said_settings,
                                                                                             said_record)
        else:
            pytest.fail(f"trial {trial}: settings {'changed' if changed else 'kept'} and a log of {shape(lines)}")
        if lines:
            assert lines[0].deal is not None and lines[0].deal.hombre == "Bea"
        # a deal form sent under settings changed since its preview is refused (302) or shown again (200)
        assert recorded.status_code in (200, 302) and saved.status_code == 302, (recorded.status_code, saved.status_code)
    both_orders_happened(outcomes, "deal 1 first")
    assert outcomes["settings first, deal refused"] + outcomes["settings first, deal recorded under them"], outcomes


def test_two_phones_correct_the_same_deal(app: Flask, race: Race) -> None:
    """Two phones save different corrections of one deal, both prepared against the same log.
    Legal: exactly one correction written, the other refused (the log changed since its form)."""
    reader = app.test_client()
    outcomes: Counter[str] = Counter()
    for trial in race.rounds(lambda: all(outcomes[o] for o in ("Ann", "Bea"))):
        table = new_table(app)
        play(app, table, 3)
        number = trial % 3 + 1
        base = len(lines_of(app, table))
        ann, bea = app.test_client(), app.test_client()
        a = amend_form(ann, table.token, number, {"hombre": "Cat", "trumps": "clubs", "hombre_tricks": "8"}, "Ann", "Ann's")
        b = amend_form(bea, table.token, number, {"hombre": "Dan", "trumps": "spades", "hombre_tricks": "3"}, "Bea",
                       "Bea's")
        first, second = race(a, b)

        _, lines, book = check_table(app, reader, table.token)
        after = lines[base:]
        assert shape(after) == [("amend", number)], f"trial {trial}: two corrections left {shape(after)}"
        winner = after[0].by
        assert winner in ("Ann", "Bea") and after[0].reason == f"{winner}'s"
        outcomes[winner] += 1
        assert book.deals[number - 1] == after[0].deal and book.versions_of(number)[-1] == after[0]
        said = {"Ann": told(ann, first), "Bea": told(bea, second)}
        loser = "Bea" if winner == "Ann" else "Ann"
        assert f"Deal {number} corrected by {winner}" in said[winner], said
        assert "corrected by" not in said[loser] and "changed on another phone" in said[loser], said
        assert first.status_code == 302 and second.status_code == 302, (first.status_code, second.status_code)
    both_orders_happened(outcomes, "Ann", "Bea")


# --- the same races against the store alone -------------------------------------------------------------


def test_the_store_alone_keeps_every_race_legal(app: Flask, race: Race) -> None:
    """The four races again, calling :func:`scorer.store.run` and ``change_settings`` straight from two
    threads with their own connections, with commands as stale as a view could send them (prepared
    against the log before the race): the views' own early checks are not what keeps the log legal.
    The four races take turns, 32 to 144 trials in all (8 to 36 each), until most of the eight orders happened
    and the threads raced enough."""
    reader = app.test_client()
    ours, theirs = connect(app.config["DATABASE"]), connect(app.config["DATABASE"])
    outcomes: Counter[str] = Counter()
    for trial in race.rounds(lambda: len(outcomes) >= 6, STORE_TRIALS, 144):
        table = new_table(app)
        kind = ("undo vs amend", "undo vs restore", "settings vs record", "amend vs amend")[trial % 4]
        if kind == "settings vs record":
            with app.app_context():
                deal = solo(ledger(get_db(), table), table, "Bea", 6)
            rules = HouseRules.of("penguin_chips")
            recorded, changed = race(lambda: refused_or(lambda: run(ours, table, Record(1, deal))),
                                     lambda: refused_or(lambda: change_settings(theirs, table, rules, 8, 25, "EUR")))
            now, lines, _ = check_table(app, reader, table.token)
            if isinstance(recorded, Outcome):
                assert isinstance(changed, RulesFrozen) and now.settings == table.settings, changed
                outcomes[f"{kind}: deal 1 first"] += 1
            else:  # the record was prepared under the old settings: refused, never written under the new
                assert isinstance(recorded, TableChanged) and changed is None and lines == [], (recorded, changed)
                assert settings_now(now) == NEW_RULES
                outcomes[f"{kind}: settings first"] += 1
            continue
        play(app, table, 3)
        with app.app_context():
            book = ledger(get_db(), table)
        seen, dealer = book.seq, book.deals[2].dealer
        ann = Amend(3, Deal(dealer, "Cat", Contract.SOLO, Suit.CLUBS, hombre_tricks=8), "Ann", "Ann's", seen)
        bea: Command = Amend(3, Deal(dealer, "Dan", Contract.SOLO, Suit.SPADES, hombre_tricks=3), "Bea", "Bea's", seen)
        if kind == "undo vs restore":
            with app.app_context():
                run(get_db(), table, ann)  # deal 3 in two versions: restore the recorded one
            bea, seen = Restore(3, seen, "Bea", "Bea's", seen + 1), seen + 1
        first: Command = ann if kind == "amend vs amend" else Undo(3)
        left, right = race(lambda: refused_or(lambda: run(ours, table, first)),
                           lambda: refused_or(lambda: run(theirs, table, bea)))
        _, lines, _ = check_table(app, reader, table.token)
        after = shape(lines[seen:])
        written = "restore" if kind == "undo vs restore" else "amend"
        if kind == "amend vs amend":
            assert after == [("amend", 3)], f"trial {trial}: {kind} left {after}"
            assert {type(left), type(right)} == {Outcome, TableChanged}, (left, right)
            outcomes[f"{kind}: {lines[-1].by} first"] += 1
        elif after == [("undo", 3)]:
            assert isinstance(left, Outcome) and isinstance(right, TableChanged), (left, right)
            outcomes[f"{kind}: undo first"] += 1
        else:
            assert after in ([(written, 3)], [(written, 3), ("undo", 3)]), f"trial {trial}: {kind} left {after}"
            assert isinstance(right, Outcome) and isinstance(left, Outcome if len(after) == 2 else Refused), (left, right)
            outcomes[f"{kind}: {written} first"] += 1
    ours.conn.close()
    theirs.conn.close()
    assert len(outcomes) >= 6, outcomes  # most of the eight orders happened
