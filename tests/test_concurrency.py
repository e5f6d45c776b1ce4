"""Four phones recording and correcting at once, and a server killed in the middle of writing."""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from test_table import start_table

from scorer import create_app
from scorer.core import HouseRules
from scorer.db import get_db
from scorer.core.log import fold
from scorer.store import LEDGERS, create_table, ledger, read_lines, table_by_token, verify

HIDDEN = re.compile(r'name="(number|once|csrf_token|log_length|previewed)" type="hidden" value="([^"]*)"')


def _post_deal(phone: FlaskClient, token: str, rng: random.Random) -> bool:
    """One phone records the next deal (preview, then record); False if another phone got there first."""
    url = f"/t/{token}/deal/solo"
    fields = dict(HIDDEN.findall(phone.get(url).get_data(as_text=True)))
    fields.update({"contract": "solo", "hombre": rng.choice("Ann Bea Cat Dan".split()), "trumps": "hearts",
                   "hombre_tricks": str(rng.randint(0, 9)), "matadors": "0", "action": "preview"})
    preview = phone.post(url, data=fields)
    if preview.status_code != 200:
        return False  # the deal number moved on before the preview
    fields.update(HIDDEN.findall(preview.get_data(as_text=True)))
    fields["action"] = "record"
    response = phone.post(url, data=fields)
    assert response.status_code == 302
    return response.headers["Location"].endswith(f"/t/{token}")


def _correct(phone: FlaskClient, token: str, number: int, rng: random.Random) -> None:
    url = f"/t/{token}/audit/{number}/amend/solo"
    page = phone.get(url)
    if page.status_code != 200:
        return
    fields = dict(HIDDEN.findall(page.get_data(as_text=True)))
    fields.update({"contract": "solo", "hombre": rng.choice("Ann Bea Cat Dan".split()), "trumps": "diamonds",
                   "hombre_tricks": str(rng.randint(0, 9)), "matadors": "0", "by": "Ann", "action": "preview"})
    preview = phone.post(url, data=fields)
    if preview.status_code != 200:
        return
    fields.update(HIDDEN.findall(preview.get_data(as_text=True)))
    fields["action"] = "save"
    assert phone.post(url, data=fields).status_code in (200, 302)


def test_four_phones_record_and_correct_a_thousand_deals(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "busy.sqlite"), "INSTANCE_PATH": str(tmp_path / "i")})
    target = 1000
    with app.app_context():
        token = create_table(get_db(), ("Ann", "Bea", "Cat", "Dan"), "Ann", HouseRules.of(), target, None, "").token
    errors: list[BaseException] = []

    def phone(seed: int) -> None:
        rng = random.Random(seed)
        client = app.test_client()
        try:
            while True:
                with app.app_context():
                    table = table_by_token(get_db(), token)
                    assert table is not None
                    played = len(ledger(get_db(), table).settlements)
                if played >= target:
                    return
                if played > 5 and rng.random() < 0.1:
                    _correct(client, token, rng.randint(1, played), rng)
                else:
                    _post_deal(client, token, rng)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=phone, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors

    conn = sqlite3.connect(tmp_path / "busy.sqlite")
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    numbers = [n for (n,) in conn.execute("select number from events where kind = 'record' order by seq")]
    assert numbers == list(range(1, target + 1))  # every deal recorded once, in order, none twice
    assert conn.execute("select count(*) from events where kind = 'amend'").fetchone()[0] > 0
    with app.app_context():
        table = table_by_token(get_db(), token)
        assert table is not None
        full = fold(table.evening(), read_lines(get_db().conn, table.id)[0])
        assert ledger(get_db(), table) == full  # the cached ledger agrees with a replay from scratch
        LEDGERS.clear()
        assert ledger(get_db(), table) == full
        assert verify(get_db(), table) is None
        assert full.final.total == 0


WRITER = """
import sys
from scorer import create_app
from scorer.core import Contract, Deal, Suit
from scorer.db import get_db
from scorer.core.log import Record
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
