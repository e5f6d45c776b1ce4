"""Four phones sending every command at once, and a server killed in the middle of writing.

(The two-phone races of each pair of commands, 30 to 50 trials each, are in test_races.py.)"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from helpers.racing import HIDDEN, check_table, settings_now
from helpers.web import start_table
from werkzeug.test import TestResponse

from scorer import create_app
from scorer.core import HouseRules
from scorer.web.db import get_db
from scorer.core.ledger.log import Ledger, LineKind
from scorer.store import LEDGERS, create_table, ledger, sent_before, table_by_token, verify

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
TARGET = 120
"""Deals in the evening the four phones play: few, but every kind of command is sent many times."""
KINDS = ("undo", "restore", "settings", "amend", "record")
ALLOWED = (200, 302, 404, 409, 422)
"""Every answer a phone may get; 409 is a record that lost its deal to another phone's, shown beside it (issue 25)."""
"""What a phone may be answered: a page, a redirect, a deal that is gone, a form shown again. Never 500."""


class Phone:
    """One player's phone: its own session, and every command a player can send, each sent whole
    (GET, preview, final POST) and sometimes twice (a double tap), or sent again much later."""

    def __init__(self, app: Flask, token: str, seed: int) -> None:
        self.app, self.token, self.seed, self.rng = app, token, seed, random.Random(seed)
        self.name = PLAYERS[seed % 4]
        self.client: FlaskClient = app.test_client()
        self.sent: Counter[str] = Counter()
        """What this phone did: each kind of command, double taps, late resends."""
        self.onces: list[str] = []
        """The one-time token of every record and undo form it sent (each may write one line, at most)."""
        self.reasons: list[str] = []
        """The reason given with every correction and restoration (each unique: at most one line each)."""
        self.settings: list[tuple[object, ...]] = []
        """Every set of settings it tried to save."""
        self.stale: dict[str, tuple[str, dict[str, str]]] = {}
        """The last final form of each kind, kept to be sent again later (a resent page)."""

    def post(self, url: str, fields: dict[str, str], kind: str) -> TestResponse:
        response = self.client.post(url, data=fields)
        assert response.status_code in ALLOWED, (kind, url, response.status_code)
        return response

    def final(self, url: str, fields: dict[str, str], kind: str) -> TestResponse:
        """Send a form's final POST; sometimes twice in a row (a double tap); keep it to resend later.
        The answer to the first sending."""
        answer = self.post(url, fields, kind)
        self.sent[kind] += 1
        if self.rng.random() < 0.2:
            self.post(url, fields, kind)
            self.sent["double tap"] += 1
        self.stale[kind] = (url, dict(fields))
        return answer

    def resend(self, kind: str | None = None) -> None:
        """A page sent again long after (a reload, a phone back from sleep): it must write nothing new.
        ``kind``: that kind's last form, else each kind in turn."""
        if kind is None:
            turn = KINDS[self.seed % len(KINDS):] + KINDS[:self.seed % len(KINDS)]  # each phone starts elsewhere
            kind = min((k for k in turn if k in self.stale), key=lambda k: self.sent[f"late {k}"])
        url, fields = self.stale[kind]
        self.post(url, fields, kind)
        self.sent["late resend"] += 1
        self.sent[f"late {kind}"] += 1

    def record(self) -> None:
        url = f"/t/{self.token}/deal/solo"
        fields = dict(HIDDEN.findall(self.client.get(url).get_data(as_text=True)))
        if "number" not in fields:
            return  # the evening ended meanwhile
        fields.update({"contract": "solo", "hombre": self.rng.choice(PLAYERS), "trumps": "hearts",
                       "hombre_tricks": str(self.rng.randint(0, 9)), "matadors": "0", "action": "preview"})
        preview = self.post(url, fields, "record")
        if preview.status_code != 200:
            return  # the deal number moved on before the preview
        fields.update(HIDDEN.findall(preview.get_data(as_text=True)))
        fields["action"] = "record"
        self.onces.append(fields["once"])
        self.final(url, fields, "record")

    def undo(self) -> None:
        url = f"/t/{self.token}/undo"
        page = self.client.get(url)
        if page.status_code != 200:
            return  # no deal to undo
        fields = dict(HIDDEN.findall(page.get_data(as_text=True)))
        self.onces.append(fields["once"])
        self.final(url, fields, "undo")

    def amend(self, played: int) -> None:
        """A correction of one of the deals; tried again (up to four times in all) when another phone
        changed the log while it was filled in, as a player taps again after "the table changed": with
        four phones recording as fast as they can, a correction is often overtaken, and a restoration
        needs one that was written."""
        for _ in range(4):
            once = self.amend_once(played)
            if once is None or self.written(once):
                return

    def amend_once(self, played: int) -> str | None:
        """One correction, from its page to its final POST; its one-time token (None if it was not sent)."""
        number = self.rng.randint(1, played)
        url = f"/t/{self.token}/audit/{number}/amend/solo"
        page = self.client.get(url)
        if page.status_code != 200:
            return None  # undone meanwhile
        reason = f"{self.name} {len(self.reasons)}"
        fields = dict(HIDDEN.findall(page.get_data(as_text=True)))
        fields.update({"contract": "solo", "hombre": self.rng.choice(PLAYERS), "trumps": "diamonds",
                       "hombre_tricks": str(self.rng.randint(0, 9)), "matadors": "0", "by": self.name,
                       "reason": reason, "action": "preview"})
        preview = self.post(url, fields, "amend")
        if preview.status_code != 200:
            return None  # the same deal, one that makes a later deal impossible, or the deal gone
        fields.update(HIDDEN.findall(preview.get_data(as_text=True)))
        fields["action"] = "save"
        self.reasons.append(reason)
        self.onces.append(fields["once"])  # a correction form carries its one-time token too
        self.final(url, fields, "amend")
        return fields["once"]

    def written(self, once: str) -> bool:
        """Whether the form with this one-time token wrote its line (a refusal of a correction or a
        restoration redirects to the deal's page too: the log tells them apart)."""
        with self.app.app_context():
            table = table_by_token(get_db(), self.token)
            assert table is not None
            return sent_before(get_db(), table, once) is not None

    def restore(self, book: Ledger) -> bool:
        """A restoration of an earlier version; tried again (up to four times in all, from the log as it
        then stands) when another phone moved the log while it was filled in, as for a correction."""
        for attempt in range(4):
            if attempt:
                with self.app.app_context():
                    table = table_by_token(get_db(), self.token)
                    assert table is not None
                    book = ledger(get_db(), table)
            once = self.restore_once(book)
            if once is None:
                return attempt > 0  # nothing to restore (False: the phone sends something else instead)
            if self.written(once):
                return True
        return True

    def restore_if_none_stands(self) -> None:
        """At the end of the evening, a restoration if none was written yet: four phones recording as
        fast as they can overtake every restoration now and then (about one run in five wrote none), and
        a player who meant to restore a version does so once the table is quiet."""
        conn = sqlite3.connect(self.app.config["DATABASE"])
        try:
            restored = conn.execute("select count(*) from events where kind = 'restore'").fetchone()[0]
        finally:
            conn.close()
        if not restored:
            with self.app.app_context():
                table = table_by_token(get_db(), self.token)
                assert table is not None
                self.restore(ledger(get_db(), table))

    def restore_once(self, book: Ledger) -> str | None:
        """One restoration, from its page to its final POST; its one-time token (None if none was sent)."""
        corrected = [n for n in range(1, len(book.deals) + 1) if len(book.versions_of(n)) > 1]
        if not corrected:
            return None
        number = self.rng.choice(corrected)
        older = [v for v in book.versions_of(number) if v.deal != book.deals[number - 1]]
        if not older:
            return None
        url = f"/t/{self.token}/audit/{number}/restore/{self.rng.choice(older).seq}"
        page = self.client.get(url)
        if page.status_code != 200:
            return None  # that version stands again, or the deal was undone meanwhile
        reason = f"{self.name} {len(self.reasons)}"
        fields = {**dict(HIDDEN.findall(page.get_data(as_text=True))), "by": self.name, "reason": reason}
        self.reasons.append(reason)
        self.onces.append(fields["once"])
        self.final(url, fields, "restore")
        return str(fields["once"])

    def settings_form(self) -> tuple[str, dict[str, str]] | None:
        """The settings page filled in with another profile and chip value (the same length, and
        chips: the evening stays 120 deals of chips); None once the rules are frozen (no form)."""
        url = f"/t/{self.token}/settings"
        fields = dict(HIDDEN.findall(self.client.get(url).get_data(as_text=True)))
        if "csrf_token" not in fields:
            return None
        profile, cents = self.rng.choice(("quadrille", "penguin_chips")), self.rng.randint(1, 99)
        fields.update({"profile": profile, "deals_agreed": str(TARGET), "chip_value": f"0.{cents:02d}",
                       "currency": "EUR"})
        self.settings.append((profile, TARGET, cents, "EUR"))
        return url, fields

    def change_settings(self) -> None:
        """Saved only while no deal is recorded; refused after (a form shown before the first deal)."""
        form = self.settings_form()
        if form is not None:
            self.final(*form, "settings")

    def play(self) -> None:
        """Send commands until the evening is over: mostly deals, and every other command now and then.
        The settings page is opened first, as a phone does at the start, and may be sent much later."""
        form = self.settings_form()
        if form is not None:
            self.stale["settings"] = form
        if self.name == "Ann":
            self.change_settings()  # Ann sets the house rules while the others start deal 1
        for _ in range(3000):
            with self.app.app_context():
                table = table_by_token(get_db(), self.token)
                assert table is not None
                book = ledger(get_db(), table)
            played = len(book.deals)
            if played >= TARGET:
                # the evening over, each form this phone never sent again is sent once more (a phone back
                # from sleep): a restoration comes late in the evening, often after the phone's last resend
                for kind in [k for k in self.stale if not self.sent[f"late {k}"]]:
                    self.resend(kind)
                self.restore_if_none_stands()
                return
            r = self.rng.random()
            if r < (0.3 if played == 0 else 0.01):
                self.change_settings()
            elif r < 0.05 and played:
                self.undo()
            elif r < 0.12 and played:
                self.amend(played)
            elif r < 0.20 and self.restore(book):  # a restoration needs a corrected deal to restore: tried more often (one run sent only 4)
                pass
            elif r < 0.25 and self.stale:
                self.resend()
            else:
                self.record()
        raise AssertionError(f"{self.name}'s phone sent 3,000 commands and the evening is not over")


def test_four_phones_send_every_command_at_once(tmp_path: Path) -> None:
    """Four phones play a 120-deal evening at once, each sending every command a table has: deals,
    undos, corrections, restorations, changes of settings (before and after the first deal), double
    taps and pages sent again long after. No answer is a 500, every form writes at most one line, and
    the log comes out whole: every deal standing recorded once per its last record, the SQLite file
    intact, the cached ledger equal to a fold from scratch, the chain intact, the chips conserved, and
    every page of the table readable."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "busy.sqlite"), "INSTANCE_PATH": str(tmp_path / "i"),
                      "SECRET_KEY": "busy"})
    with app.app_context():
        created = create_table(get_db(), PLAYERS, "Ann", HouseRules.of(), TARGET, None, "")
    phones = [Phone(app, created.token, seed) for seed in range(4)]
    errors: list[BaseException] = []

    def play(phone: Phone) -> None:
        try:
            phone.play()
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(phone,)) for phone in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors

    sent = sum((phone.sent for phone in phones), Counter())
    for kind in ("record", "undo", "amend", "restore", "double tap", "late resend"):
        assert sent[kind] >= 5, sent  # every command was sent, many times
    for kind in ("record", "undo", "amend", "restore", "settings"):
        assert sent[f"late {kind}"], sent  # and sent again late
    assert sent["settings"], sent

    conn = sqlite3.connect(tmp_path / "busy.sqlite")
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    kinds = Counter(kind for (kind,) in conn.execute("select kind from events"))
    assert kinds["undo"] and kinds["amend"] and kinds["restore"], kinds
    # every form wrote at most one line: a double tap or a late resend never wrote a second
    written_once = Counter(once for (once,) in conn.execute("select once from events where once is not null"))
    assert set(written_once) <= {o for phone in phones for o in phone.onces} and max(written_once.values()) == 1
    written_reason = Counter(r for (r,) in conn.execute("select reason from events where reason is not null"))
    assert set(written_reason) <= {r for phone in phones for r in phone.reasons} and max(written_reason.values()) == 1

    # the log folds whole, into exactly the cached ledger; chain intact; chips conserved; every page 200
    reader = app.test_client()
    table, _, full = check_table(app, reader, created.token)
    assert reader.get(f"/t/{created.token}/join").status_code == 200
    assert reader.get(f"/t/{created.token}/undo").status_code == 200
    assert len(full.deals) == TARGET
    # every deal standing was recorded once per its last record: the records are the deals and the undos of them
    assert kinds["record"] == TARGET + kinds["undo"]
    assert all(full.versions_of(n)[0].kind is LineKind.RECORD for n in range(1, TARGET + 1))
    assert settings_now(table)[0] in ("quadrille", "penguin_chips")
    tried = {s for phone in phones for s in phone.settings}
    assert table.settings == created.settings or settings_now(table) in tried  # and, by the chain, unchanged since deal 1
    LEDGERS.clear()
    with app.app_context():
        assert ledger(get_db(), table) == full  # and from scratch once more, with nothing cached


WRITER = """
import sys
from scorer import create_app
from scorer.core import Contract, Deal, Suit
from scorer.web.db import get_db
from scorer.core.ledger.log import Record
from scorer.store import ledger, run, table_by_token

app = create_app({"DATABASE": sys.argv[1], "INSTANCE_PATH": sys.argv[2], "SECRET_KEY": "x"})
with app.app_context():
    db = get_db()
    table = table_by_token(db, sys.argv[3])
    while True:
        current = ledger(db, table)
        number = len(current.settlements) + 1
        dealer = current.final.next_dealer or table.first_dealer
        run(db, table, Record(number, Deal(dealer, "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=number % 10)))
        print(number, flush=True)
"""


def test_a_server_killed_while_writing_loses_no_committed_deal(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    token = start_table(client, deals_agreed="400")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    child = subprocess.Popen([sys.executable, "-c", WRITER, app.config["DATABASE"], str(tmp_path / "child"), token],
                             stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdout is not None
    committed = 0
    deadline = time.monotonic() + 60
    while committed < 40 and time.monotonic() < deadline:
        line = child.stdout.readline()
        if line:
            committed = int(line)  # printed only after record_deal returned: committed
    os.kill(child.pid, signal.SIGKILL)  # in the middle of writing the next deals
    child.wait()
    assert committed >= 40

    conn = sqlite3.connect(app.config["DATABASE"])
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    numbers = [n for (n,) in conn.execute("select number from events where kind = 'record' order by seq")]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= committed
    LEDGERS.clear()
    with app.app_context():
        table = table_by_token(get_db(), token)
        assert table is not None
        assert verify(get_db(), table) is None
        assert len(ledger(get_db(), table).settlements) == len(numbers)
    assert client.get(f"/t/{token}/ledger").status_code == 200
