"""No 500, anywhere (issue 22, point 7): every route of the app (a test fails when one is added without its
entry here), every field of its forms and every field a view reads by hand, every query parameter, every
variable part of a path, the cookies and every place of an uploaded file, sent hostile values: control and
invisible characters, whitespace, digits that are not ASCII, NaN, huge and out-of-range numbers and dates,
odd zones, a lone surrogate, 100 KB. The world they are sent to: a fresh table, a table with a corrected
deal and a play record, and a circle of two evenings (one settled).

Every answer is below 500. The app runs under ``TESTING``: an exception in a view reaches the test client
(no error page hides it) and is reported with the request that raised it; a status of 500 or more is one too.
A request writes only when it is a legitimate write: its page redirected (the form was accepted), nothing it
stored holds a control or invisible character or a text of 1,000 characters, and every page of what it wrote
answers below 500 (checked once for each shape of what is written, see :func:`_shape`).

Each field is sent each value alone, the others as the page sends them, so that the value reaches what the
view does with it once the form is accepted. To keep the whole under half a minute: a value is first sent in
every field the form checks on its own at once, and a field whose check refused it there is not sent it alone
again; fields declared alike and read in one loop (:data:`TWINS`) are sent it alone in the first of them only;
the CSRF token, checked the same way before every view, gets every value where the answer to a refused one is
made (:data:`CSRF_FEW`); a 100 KB part of a path is sent in one route per kind of part (:data:`LONG`); each
place of a file gets a few of the values, in turn (:data:`PER_PLACE`). No randomness: every run sends the same.

Each route's case is its own test. Each starts from the same database (built once for the module, kept in
memory) and a new client, and every write is undone before the next request: the tests pass in any order.
The PDF routes render their HTML template, not WeasyPrint's PDF of it (a second a page; tests/test_tally.py
prints real PDFs).
"""

from __future__ import annotations

import functools
import inspect
import io
import itertools
import json
import re
import shutil
import sqlite3
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus, urlsplit

import pytest
from flask import Flask
from helpers.plays import RENOUNCE, play
from helpers.web import csrf_token, next_evening, play_evening, record, start_circle, start_table
from itsdangerous import URLSafeSerializer
from werkzeug.test import TestResponse
from wtforms import HiddenField
from wtforms.form import BaseForm
from wtforms.fields.core import UnboundField  # type: ignore[import-not-found]

import scorer.web.pages.circles
import scorer.web.pages.tables
import scorer.web.pages.tally
from scorer.web import forms
from scorer import create_app
from scorer.web.pages.exchange import CircleImportForm
from scorer.core import HOUSE_RULES
from scorer.core.names import ignorable
from scorer.web.pages.exchange import ImportForm
from scorer.web.i18n import COOKIE as LANGUAGE_COOKIE
from scorer.web.pages.recent import COOKIE as RECENT_COOKIE
from scorer.store import LEDGERS, SEASONS

HOSTILE: dict[str, str] = {
    "empty": "",
    "space": " ",
    "tab": "\t",
    "crlf": "\r\n",
    "nul": "\x00",
    "right-to-left-override": "\u202e",
    "zero-width-space": "\u200b",
    "hangul-filler": "\u115f",
    "byte-order-mark": "\ufeff",
    "lone-surrogate": "\ud800",  # sent as the bytes ED A0 80 (no UTF-8): the server reads U+FFFD
    "100KB-text": "é" * 50_000,
    "100KB-digits": "9" * 100_000,
    "minus-one": "-1",
    "zero": "0",
    "10**30": str(10**30),
    "1e9": "1e9",
    "NaN": "NaN",
    "inf": "inf",
    "arabic-indic-3": "\u0663",
    "superscript-2": "\u00b2",
    "fullwidth-8": "\uff18",
    "dot-dot-slash": "../../etc/passwd",
    "percent-00": "%00",
    "year-1": "0001-01-01",
    "year-9999-minus-14": "9999-12-31T23:59:59-14:00",
    "zone-past-24-hours": "2026-11-21T21:04:00+25:00",
    "zone-with-seconds": "2026-11-21T21:04:00.5-23:59:59.999999",
}
"""The values sent in every field, query parameter and part of a path (a field is also sent absent)."""
ABSENT = "(absent)"

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
ONCE = "fuzz-once-0123456789ab"
"""A one-time token of the store's shape: a base write is written with it."""
CODES = "".join(card.code for trick in play(RENOUNCE) for card in trick)
DEAL_3 = {"hombre": "Dan", "trumps": "spades", "called": "KH", "ally": "Ann", "hombre_tricks": "4", "ally_tricks": "3",
          "matadors": "0", "favourite": "hearts"}
"""Deal 3 of the played table, an alliance (the form's most inputs), recorded by the deal route's base request."""
DEAL_2 = {"hombre": "Cat", "trumps": "clubs", "called": "KD", "ally": "Bea", "hombre_tricks": "2", "ally_tricks": "3",
          "matadors": "0", "favourite": "clubs"}
DEAL_2_CORRECTED = {**DEAL_2, "hombre_tricks": "3", "ally_tricks": "3"}


# --- the world: built once, copied for each test ------------------------------------------------------


@dataclass
class World:
    """The database every test starts from, and what its pages need to be sent back."""

    pristine: Path
    memory: sqlite3.Connection
    """The same database in memory, copied into a test's file after each write."""
    folder: Path
    fresh: str
    """A table with no deal (its settings can still change)."""
    played: str
    """A table of 8 deals with two recorded: deal 1 corrected with a play record (two versions), deal 2 plain."""
    circle: str
    evenings: tuple[str, ...]
    tokens: dict[str, str] = field(default_factory=dict)
    """Each table's and circle's players' link token -> its watch-only token."""
    digests: dict[str, str] = field(default_factory=dict)
    """What the base writes' previews gave (the deal's and the correction's digests) and the circle's settle-up."""
    log_sizes: dict[str, int] = field(default_factory=dict)
    exports: dict[str, bytes] = field(default_factory=dict)


def make_app(database: Path, instance: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "fuzz", "INSTANCE_PATH": str(instance),
                       "RATELIMIT_ENABLED": False, "SYNCHRONOUS": "NORMAL"})  # a commit need not wait for the disk here


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page)
    assert found, f"no hidden {name}"
    return unescape(found.group(1))


def preview_digest(response: TestResponse) -> str:
    page = response.get_data(as_text=True)
    assert response.status_code == 200, re.findall(r'class="error"[^>]*>([^<]*)', page)
    return hidden(page, "previewed")


def build(app: Flask, folder: Path) -> World:
    client = app.test_client()
    fresh = start_table(client)
    played = start_table(client, rule_favourite_suit="each_deal", chip_value="0.25", currency="GBP")
    assert record(client, played, "solo", 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "10", "matadors": "3",
                                              "favourite": "hearts"}).status_code == 302
    token = csrf_token(client, "/import")
    # deal 1 corrected with what its play proves (Check the play's "Use this play"): a second version, a play record
    url = f"/t/{played}/audit/1/amend/solo"
    filled = client.get(url, query_string={"play": CODES}).get_data(as_text=True)
    correction = {**scraped(filled), "by": "Ann", "csrf_token": token}
    correction["previewed"] = preview_digest(client.post(url, data=correction))
    assert client.post(url, data={**correction, "action": "save"}).status_code == 302
    assert record(client, played, "alliance", 2, DEAL_2).status_code == 302
    circle = start_circle(client)
    first = next_evening(client, circle, PLAYERS)
    play_evening(client, first, PLAYERS, "6 5 6 5")
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    assert client.post(f"/c/{circle}/settle", data={"csrf_token": token, "lines": hidden(page, "lines"),
                                                     "shown": hidden(page, "shown"), "confirm": "yes"}).status_code == 302
    seated = ("Bea", "Cat", "Dan", "Eve")
    second = next_evening(client, circle, seated)
    play_evening(client, second, seated, "5 6 7 4")
    world = World(folder / "pristine.sqlite", sqlite3.connect(":memory:", check_same_thread=False), folder, fresh, played,
                  circle, (first, second))
    conn = sqlite3.connect(app.config["DATABASE"])
    for table in ("tables", "circles"):
        world.tokens.update(dict(conn.execute(f"select token, spectator_token from {table}").fetchall()))
    pristine = sqlite3.connect(world.pristine)
    conn.backup(pristine)
    pristine.execute("pragma journal_mode = wal")  # as the app opens it: each copy is ready to use
    pristine.backup(world.memory)
    pristine.close()
    conn.close()
    world.log_sizes[played] = 3
    deal = {**DEAL_3, "number": "3", "once": ONCE, "csrf_token": token}
    world.digests["deal"] = preview_digest(client.post(f"/t/{played}/deal/alliance", data=deal))
    amend = {**DEAL_2_CORRECTED, "by": "Bea", "log_length": "3", "once": ONCE, "csrf_token": token}
    world.digests["amend"] = preview_digest(client.post(f"/t/{played}/audit/2/amend/alliance", data=amend))
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    world.digests["lines"], world.digests["shown"] = hidden(page, "lines"), hidden(page, "shown")
    world.digests["settlement"] = hidden(page, "settlement")
    world.exports["evening"] = client.get(f"/t/{played}/export.json").get_data()
    world.exports["circle"] = client.get(f"/c/{circle}/export.json").get_data()
    return world


def scraped(page: str) -> dict[str, str]:
    """What the page's form sends as it is shown: its hidden and text inputs, its checked boxes and radios."""
    sent: dict[str, str] = {}
    for tag in re.findall(r"<input\b[^>]*>", page):
        attrs = {k: unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag)}
        kind, name = attrs.get("type", "text"), attrs.get("name")
        if name and (kind not in ("radio", "checkbox") or re.search(r"\schecked\b", tag)):
            sent.setdefault(name, attrs.get("value", "on" if kind == "checkbox" else ""))
    for name, options in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option[^>]*selected[^>]*value="([^"]*)"|<option[^>]*value="([^"]*)"[^>]*selected', options)
        first = re.search(r'<option[^>]*value="([^"]*)"', options)
        sent[name] = unescape(next(g for g in chosen.groups() if g is not None)) if chosen else \
            unescape(first.group(1)) if first else ""
    return sent


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app for the module's tests: it builds the world, then each test starts it on its own copy of it."""
    folder = tmp_path_factory.mktemp("fuzz-world")
    app = make_app(folder / "build.sqlite", folder / "instance")
    app.config["WORLD"] = build(app, folder)
    saved = [(module, name, getattr(module, name)) for module, name in PATCHED]
    for module, name, made in saved:
        setattr(module, name, _rendered_html if name == "render_pdf" else _noting_refusals(made))
    yield app
    for module, name, made in saved:
        setattr(module, name, made)
    app.config["WORLD"].memory.close()


PATCHED = [(scorer.web.pages.tally, "render_pdf"), (scorer.web.pages.circles, "render_pdf"), (BaseForm, "validate")]
"""What the module's app does otherwise under the fuzz: a PDF's HTML is not printed (see :func:`_rendered_html`),
and the fields each form refused are noted (see :data:`REFUSED`)."""


REFUSED: set[str] = set()
"""The fields whose own check refused what they were sent, in the forms validated since it was last emptied."""


def _noting_refusals(validate: Callable[..., bool]) -> Callable[..., bool]:
    """WTForms' check of every field of a form, noting in :data:`REFUSED` the fields it refused."""
    def noting(form: BaseForm, *args: Any, **kwargs: Any) -> bool:
        valid = validate(form, *args, **kwargs)
        REFUSED.update(field.name for field in form if field.errors)
        return valid
    return noting


def _rendered_html(html: str) -> bytes:
    """The PDF's HTML, made by its template (where data from the table is shown), in place of WeasyPrint's PDF."""
    assert isinstance(html, str) and html
    return b"%PDF-fuzz " + html.encode()


# --- sending, and what every answer is held to ----------------------------------------------------------


def encoded(pairs: list[tuple[str, str]]) -> str:
    """A form body or a query string; a lone surrogate goes as the bytes Python would give it (not UTF-8)."""
    return "&".join(f"{_quoted(name)}={_quoted(value)}" for name, value in pairs)


@functools.lru_cache(maxsize=256)
def _quoted(text: str) -> str:
    return quote_plus(text, encoding="utf-8", errors="surrogatepass")


def multipart(value: str) -> str:
    """A value as a multipart form can carry it: the test client encodes it in UTF-8, which has no lone
    surrogate; the server would read U+FFFD in its place."""
    return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def in_path(value: str) -> str:
    """A value as one part of a path (a slash in it too, percent-encoded; the server decodes it)."""
    return quote(value, safe="", encoding="utf-8", errors="surrogatepass")


COPIES = itertools.count(1)


class Fuzzer:
    """A client on a fresh copy of the world's database, which sends requests and checks each answer."""

    def __init__(self, app: Flask, world: World) -> None:
        self.app, self.world = app, world
        self.failures: list[str] = []
        self.checked_pages: set[str] = set()
        self.checked_writes: set[str] = set()
        """The shapes of what the writes checked so far wrote (see :func:`_shape`): each is checked once."""
        self.sent = 0
        self.writes = 0
        live = world.folder / f"live-{next(COPIES)}.sqlite"  # this test's own copy (the app connects on its next request)
        shutil.copyfile(world.pristine, live)
        app.config["DATABASE"] = str(live)
        self.observer = sqlite3.connect(live)
        self.restore()
        self.before = self.snapshot()
        self.client = app.test_client()
        self.csrf = csrf_token(self.client, "/import")

    def restore(self) -> None:
        """The world's database again (copied page by page into this test's file) and nothing kept from what
        was written: the ledgers, the season folds, the PDFs."""
        self.world.memory.backup(self.observer)
        LEDGERS.clear()
        SEASONS.clear()
        self.app.extensions.pop("scorer.printer", None)
        self.version = self._data_version()

    def _data_version(self) -> int:
        """Changes whenever another connection (the app's) commits a change to the database."""
        return int(self.observer.execute("pragma data_version").fetchone()[0])

    def fail(self, case: str, why: str) -> None:
        self.failures.append(f"{case}: {why}")

    def send(self, case: str, method: str, path: str, body: bytes | None = None, content_type: str | None = None,
             data: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> TestResponse | None:
        """Send one request; a 500 (or an exception) is a failure, and so is a write that is not legitimate.
        Every write is undone before the next request."""
        self.sent += 1
        try:
            if data is not None:
                response = self.client.open(path, method=method, data=data, content_type="multipart/form-data",
                                            headers=headers)
            else:
                response = self.client.open(path, method=method, data=body, content_type=content_type, headers=headers)
        except Exception as error:  # the app raised: what a user would get as a 500
            self.fail(case, f"{method} {path[:120]!r} raised {type(error).__name__}: {str(error)[:300]}")
            self.restore()
            return None
        if response.status_code >= 500:
            self.fail(case, f"{method} {path[:120]!r} answered {response.status_code}")
        if self._data_version() != self.version:
            self.writes += 1
            self._check_write(case, method, path, response)
            self.restore()
        elif response.status_code in (301, 302, 303, 307, 308):
            self._follow(case, response)
        return response

    def _follow(self, case: str, response: TestResponse) -> None:
        """A redirect leads to a page that answers too (once per page)."""
        target = urlsplit(response.headers.get("Location", ""))
        if target.netloc or not target.path or target.path in self.checked_pages:
            return
        self.checked_pages.add(target.path)
        self.page(case, target.path + (f"?{target.query}" if target.query else ""))

    def page(self, case: str, path: str) -> None:
        """GET a page, which must answer below 500 (it may be a 404, or a page saying it cannot be shown)."""
        self.sent += 1
        try:
            status = self.client.get(path).status_code
        except Exception as error:
            self.fail(case, f"then GET {path!r} raised {type(error).__name__}: {str(error)[:300]}")
            return
        if status >= 500:
            self.fail(case, f"then GET {path!r} answered {status}")

    def snapshot(self) -> dict[str, tuple[str, str]]:
        """Each table's and circle's rows, by link token: as they are, and but for what a write makes anew
        each time (ids, tokens, the time written, hashes)."""
        conn = self.observer
        kept: dict[str, tuple[str, str]] = {}
        for kind, table, lines, owner in (("t", "tables", "events", "table_id"), ("c", "circles", "circle_events", "circle_id")):
            for row in _rows(conn, f"select * from {table}", []):
                events = _rows(conn, f"select * from {lines} where {owner} = ? order by seq", [row["id"]])
                kept[f"{kind}/{row['token']}"] = (repr((row, events)), repr((kind, _shape(row), _shape(events))))
        return kept

    def _check_write(self, case: str, method: str, path: str, response: TestResponse) -> None:
        """A write is legitimate only if it was answered with a redirect (the form was accepted), stored
        nothing hostile, and left every page of what it wrote answering below 500."""
        if response.status_code not in (302, 303):
            self.fail(case, f"{method} {path[:120]!r} answered {response.status_code} but wrote to the database")
        after = self.snapshot()
        changed = sorted(k for k in after if after[k][0] != self.before.get(k, ("", ""))[0])
        for key in changed:
            kind, token = key.split("/")
            why = self._stored(kind, token)
            if why:
                self.fail(case, f"{method} {path[:120]!r} stored {why}")
            if after[key][1] not in self.checked_writes:  # pages of what was written, once for each shape of it
                self.checked_writes.add(after[key][1])
                for page in (self.table_pages(token) if kind == "t" else self.circle_pages(token)):
                    self.page(case, page)

    def _stored(self, kind: str, token: str) -> str | None:
        """What is hostile in a table's or circle's rows (its own, its log's), if anything."""
        table, lines, owner = ("tables", "events", "table_id") if kind == "t" else ("circles", "circle_events", "circle_id")
        for row in _rows(self.observer, f"select * from {table} where token = ?", [token]):
            for stored in (row, *_rows(self.observer, f"select * from {lines} where {owner} = ?", [row["id"]])):
                why = next((why for why in map(_hostile_stored, stored.values()) if why), None)
                if why:
                    return why
        return None

    def table_pages(self, token: str) -> list[str]:
        conn = self.observer
        row = conn.execute("select id, spectator_token from tables where token = ?", [token]).fetchone()
        numbers = [n for (n,) in conn.execute("select distinct number from events where table_id = ? and number > 0 "
                                             "order by number", [row[0]])]
        pages = [f"/t/{token}", f"/t/{token}/ledger", f"/s/{row[1]}", f"/t/{token}/tally", f"/t/{token}/tally.pdf",
                 f"/t/{token}/verify", f"/t/{token}/export.json", f"/t/{token}/export.csv", f"/t/{token}/join",
                 f"/t/{token}/settings", f"/t/{token}/undo", f"/t/{token}/deal/solo", "/"]
        return pages + [f"/t/{token}/audit/{n}{end}" for n in numbers[:3] for end in ("", "/play")]

    def circle_pages(self, token: str) -> list[str]:
        row = self.observer.execute("select spectator_token from circles where token = ?", [token]).fetchone()
        return [f"/c/{token}", f"/cs/{row[0]}", f"/c/{token}/evenings", f"/cs/{row[0]}/evenings", f"/c/{token}/check",
                f"/c/{token}/tally.pdf", f"/c/{token}/export.json"]

    def report(self) -> None:
        """Every failure of the test at once (the first 60), each with its request."""
        assert self.sent, "nothing was sent"
        assert not self.failures, f"{len(self.failures)} of {self.sent} requests failed:\n" + "\n".join(self.failures[:60])


def _rows(conn: sqlite3.Connection, sql: str, parameters: list[object]) -> list[dict[str, object]]:
    cursor = conn.execute(sql, parameters)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


VOLATILE = frozenset({"id", "token", "spectator_token", "hash", "once", "table_id", "circle_id"})


def _shape(value: object, key: str = "") -> object:
    """What a stored value is, as far as the pages that show it care: a text (but an empty one), a number's sign,
    a time (but one of the first or the last year, shown as it is), the same of each item of a JSON text and the
    shapes found in a list (not how many of each); no id, token or hash."""
    if isinstance(value, dict):
        return {k: _shape(v, k) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return sorted({repr(_shape(v)) for v in value})  # the shapes of its items, however many have each
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return (type(value).__name__, (value > 0) - (value < 0))
    text = str(value)
    if key in ("created_at", "at"):  # a time: its own text where a zone may move it out of the years 1 to 9999
        try:
            return "a time" if 1 < datetime.fromisoformat(text).year < 9999 else text
        except ValueError:
            return text
    if text[:1] in ("[", "{"):
        try:
            return _shape(json.loads(text))
        except ValueError:
            pass
    return "text" if text else ""


def _hostile_stored(value: object) -> str | None:
    """Why a value stored in the database is not one a legitimate write stores, if it is not."""
    if isinstance(value, float):
        return f"a number that is not a whole one: {value!r}"
    if not isinstance(value, str):
        return None
    if value[:1] in "[{":
        try:
            decoded = json.loads(value)
        except ValueError:
            decoded = None
        if decoded is not None:
            return next((why for why in map(_hostile_stored, _texts(decoded)) if why), None)
    if len(value) > 1000:
        return f"a text of {len(value)} characters: {value[:40]!r}..."
    if value.isascii() and value.isprintable():
        return None
    for char in value:
        if unicodedata.category(char).startswith("C") or ignorable(char):
            return f"{value[:60]!r} holds U+{ord(char):04X}"
    return None


def _texts(data: object) -> Iterator[object]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _texts(value)
    elif isinstance(data, list):
        for item in data:
            yield from _texts(item)
    else:
        yield data


@pytest.fixture
def fuzzer(fuzz_app: Flask) -> Iterator[Fuzzer]:
    made = Fuzzer(fuzz_app, fuzz_app.config["WORLD"])
    yield made
    made.observer.close()


# --- the routes -------------------------------------------------------------------------------------------


@dataclass
class Route:
    """One route and method of the app, as the fuzz sends it: a path that reaches it, and for a form,
    the form that the page itself would send (``base``, accepted) and the fields it is read from."""

    rule: str
    method: str
    path: Callable[[World], str]
    base: Callable[[World, str], dict[str, str]] | None = None
    """The form the page sends (given the world and a CSRF token); None for a GET."""
    form: type | None = None
    """The view's form class."""
    extra: tuple[str, ...] = ()
    """The fields the view reads by hand."""
    query: tuple[str, ...] = ()
    """The query parameters the view reads."""
    writes: bool = False
    """The base request is a write (the fuzz checks that it does write, so the fields reach the write path)."""
    file: str | None = None
    """The upload's field, for an import (its file is the world's export)."""

    @property
    def name(self) -> str:
        return f"{self.method} {self.rule}"

    @property
    def fields(self) -> tuple[str, ...]:
        """Every field the view reads: the form's (its CSRF token included), and those it reads by hand."""
        return (*(form_fields(self.form) if self.form else ()), *self.extra)

    def checked_alone(self, name: str) -> bool:
        """Whether the form checks the field on its own, whatever the others hold: a field of the form that is
        not hidden (a hidden one is not checked, the view compares it), whose check in the form, if it has
        one, reads no other field."""
        unbound = getattr(self.form, name, None)
        own_check = getattr(self.form, f"validate_{name}", None)
        return (isinstance(unbound, UnboundField) and unbound.field_class is not HiddenField
                and (own_check is None or "self." not in inspect.getsource(own_check)))


def form_fields(form: type) -> tuple[str, ...]:
    """Every field of a form class, its CSRF token included."""
    names = sorted((value.creation_counter, name) for name in dir(form)
                   if isinstance(value := getattr(form, name), UnboundField))
    return ("csrf_token", *(name for _, name in names))


def _settings(world: World, token: str) -> dict[str, str]:
    return {"csrf_token": token, "profile": "quadrille", "deals_agreed": "12", "chip_value": "0.10", "currency": "EUR",
            **{f"rule_{rule.name}": "" for rule in HOUSE_RULES}}


def _new_table(world: World, token: str) -> dict[str, str]:
    return {**_settings(world, token), **{f"player_{i}": p for i, p in enumerate(PLAYERS, start=1)}, "first_dealer": "1"}


def _new_circle(world: World, token: str) -> dict[str, str]:
    members = {f"member_{i}": m for i, m in enumerate(("Ann", "Bea", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"), start=1)}
    return {**_settings(world, token), "name": "Thursday club", **members}


def _deal(world: World, token: str) -> dict[str, str]:
    return {**DEAL_3, "csrf_token": token, "contract": "alliance", "number": "3", "once": ONCE, "action": "record",
            "previewed": world.digests["deal"]}


def _amend(world: World, token: str) -> dict[str, str]:
    return {**DEAL_2_CORRECTED, "csrf_token": token, "contract": "alliance", "number": "2", "by": "Bea", "reason": "miscount",
            "log_length": str(world.log_sizes[world.played]), "once": ONCE, "action": "save",
            "previewed": world.digests["amend"]}


def _restore(world: World, token: str) -> dict[str, str]:
    return {"csrf_token": token, "by": "Cat", "reason": "", "log_length": str(world.log_sizes[world.played]), "once": ONCE}


PLAYED_TABLE_GETS = ("/t/<token>", "/t/<token>/join", "/t/<token>/ledger", "/t/<token>/tally", "/t/<token>/tally.pdf",
                     "/t/<token>/verify", "/t/<token>/export.csv", "/t/<token>/export.json", "/t/<token>/undo",
                     "/t/<token>/settings")


def _of_the_played_table(rule: str) -> Callable[[World], str]:
    return lambda world: rule.replace("<token>", world.played)


def routes() -> list[Route]:
    table: list[Route] = [
        Route("/", "GET", lambda w: "/"),
        Route("/rules", "GET", lambda w: "/rules"),
        Route("/healthz", "GET", lambda w: "/healthz"),
        Route("/favicon.ico", "GET", lambda w: "/favicon.ico"),
        Route("/static/<path:filename>", "GET", lambda w: "/static/style.css"),
        Route("/lang/<code>", "GET", lambda w: "/lang/fr", query=("next",)),
        Route("/new", "GET", lambda w: "/new"),
        Route("/import", "GET", lambda w: "/import"),
        Route("/c/new", "GET", lambda w: "/c/new"),
        Route("/c/import", "GET", lambda w: "/c/import"),
        Route("/t/<token>", "GET", lambda w: f"/t/{w.played}", query=("recorded",)),
        Route("/s/<token>", "GET", lambda w: f"/s/{w.tokens[w.played]}", query=("page",)),
        Route("/t/<token>/ledger", "GET", lambda w: f"/t/{w.played}/ledger", query=("page",)),
        Route("/t/<token>/tally.pdf", "GET", lambda w: f"/t/{w.played}/tally.pdf", query=("paper", "place", "name")),
        Route("/t/<token>/audit/<int:number>/play", "GET", lambda w: f"/t/{w.played}/audit/1/play",
              query=("c", "k", "notation", "r")),
        Route("/t/<token>/audit/<int:number>/amend/<contract>", "GET", lambda w: f"/t/{w.played}/audit/1/amend/solo",
              query=("play", "revealed")),
        Route("/t/<token>/audit/<int:number>", "GET", lambda w: f"/t/{w.played}/audit/1"),
        Route("/t/<token>/audit/<int:number>/restore/<int:seq>", "GET", lambda w: f"/t/{w.played}/audit/1/restore/1"),
        Route("/t/<token>/deal/<contract>", "GET", lambda w: f"/t/{w.played}/deal/alliance"),
        Route("/c/<token>", "GET", lambda w: f"/c/{w.circle}", query=("first", "last")),
        Route("/cs/<token>", "GET", lambda w: f"/cs/{w.tokens[w.circle]}", query=("first", "last")),
        Route("/c/<token>/evenings", "GET", lambda w: f"/c/{w.circle}/evenings", query=("first", "last")),
        Route("/cs/<token>/evenings", "GET", lambda w: f"/cs/{w.tokens[w.circle]}/evenings", query=("first", "last")),
        Route("/c/<token>/check", "GET", lambda w: f"/c/{w.circle}/check"),
        Route("/c/<token>/export.json", "GET", lambda w: f"/c/{w.circle}/export.json"),
        Route("/c/<token>/tally.pdf", "GET", lambda w: f"/c/{w.circle}/tally.pdf", query=("paper",)),
        *(Route(rule, "GET", _of_the_played_table(rule)) for rule in PLAYED_TABLE_GETS),
        Route("/new", "POST", lambda w: "/new", _new_table, form=forms.NewTableForm, extra=("back",), writes=True),
        Route("/c/new", "POST", lambda w: "/c/new", _new_circle, form=forms.CircleForm, writes=True),
        Route("/t/<token>/settings", "POST", lambda w: f"/t/{w.fresh}/settings", _settings,
              form=forms.TableSettingsForm, writes=True),
        Route("/t/<token>/deal/<contract>", "POST", lambda w: f"/t/{w.played}/deal/alliance", _deal,
              form=forms.DealForm, extra=("action",), writes=True),
        Route("/t/<token>/audit/<int:number>/amend/<contract>", "POST", lambda w: f"/t/{w.played}/audit/2/amend/alliance",
              _amend, form=forms.CorrectionForm, extra=("action",), writes=True),
        Route("/t/<token>/audit/<int:number>/restore/<int:seq>", "POST", lambda w: f"/t/{w.played}/audit/1/restore/1",
              _restore, form=forms.RestoreForm, writes=True),
        Route("/t/<token>/undo", "POST", lambda w: f"/t/{w.played}/undo",
              lambda w, t: {"csrf_token": t, "number": "2", "once": ONCE}, form=forms.ConfirmForm, writes=True),
        Route("/t/<token>/me", "POST", lambda w: f"/t/{w.played}/me",
              lambda w, t: {"csrf_token": t, "me": "Bea"}, form=forms.ConfirmForm, extra=("me",)),
        Route("/recent/forget", "POST", lambda w: "/recent/forget",
              lambda w, t: {"csrf_token": t, "token": w.played, "circle": w.circle}, extra=("csrf_token", "token", "circle")),
        Route("/c/<token>/next", "POST", lambda w: f"/c/{w.circle}/next",
              lambda w, t: {"csrf_token": t, "seat_1": "Eve", "seat_2": "Ann", "seat_3": "Bea", "seat_4": "Cat",
                            "first_dealer": "2", "once": ONCE}, form=forms.NextEveningForm, writes=True),
        Route("/c/<token>/member", "POST", lambda w: f"/c/{w.circle}/member",
              lambda w, t: {"csrf_token": t, "new_member": "Fay"}, form=forms.AddMemberForm, writes=True),
        Route("/c/<token>/rename", "POST", lambda w: f"/c/{w.circle}/rename",
              lambda w, t: {"csrf_token": t, "member": "Eve", "new_name": "Zoe"}, form=forms.RenameMemberForm,
              writes=True),
        Route("/c/<token>/settle", "POST", lambda w: f"/c/{w.circle}/settle",
              lambda w, t: {"csrf_token": t, "lines": w.digests["lines"], "shown": w.digests["shown"], "confirm": "yes"},
              form=forms.SettleForm, writes=True),
        Route("/c/<token>/take-back", "POST", lambda w: f"/c/{w.circle}/take-back",
              lambda w, t: {"csrf_token": t, "settlement": w.digests["settlement"], "lines": w.digests["lines"],
                            "reason": "Bea had not paid"}, form=forms.TakeBackForm, writes=True),
        Route("/import", "POST", lambda w: "/import", lambda w, t: {"csrf_token": t}, form=ImportForm,
              writes=True, file="evening"),
        Route("/c/import", "POST", lambda w: "/c/import", lambda w, t: {"csrf_token": t}, form=CircleImportForm,
              writes=True, file="circle"),
    ]
    return table


ROUTES = routes()


def test_the_fuzz_covers_every_route_of_the_app(fuzz_app: Flask) -> None:
    """A route added to the app must be added here too: every rule and method of ``app.url_map``."""
    made = {(rule.rule, method) for rule in fuzz_app.url_map.iter_rules() for method in rule.methods or ()
            if method not in ("HEAD", "OPTIONS")}
    assert made == {(r.rule, r.method) for r in ROUTES}


SOURCES = Path(__file__).resolve().parent.parent / "scorer" / "web"


def test_the_fuzz_sends_every_parameter_a_view_reads_by_hand() -> None:
    """Every ``request.form`` / ``request.args`` name read in the app's views is fuzzed on some route."""
    read = set()
    for source in SOURCES.rglob("*.py"):  # the views are in scorer/web/pages/
        read.update(re.findall(r"request\.(?:form|args|values)(?:\.get|\.getlist)?[(\[]\"(\w+)\"", source.read_text()))
    fuzzed = {name for r in ROUTES for name in (*r.fields, *r.query)}
    assert read and read <= fuzzed, read - fuzzed


def test_every_form_class_is_fuzzed() -> None:
    """Every WTForms form of the app is the form of some route above (a new form gets its route's entry)."""
    from flask_wtf import FlaskForm

    made = {cls for module in (forms, scorer.web.pages.exchange) for cls in vars(module).values()
            if isinstance(cls, type) and issubclass(cls, FlaskForm) and cls.__module__ == module.__name__
            and any(isinstance(v, UnboundField) for v in vars(cls).values())}
    fuzzed_fields = {name for r in ROUTES for name in r.fields}
    assert forms.CircleForm in made and ImportForm in made
    for cls in made:  # (CorrectionFields, a mixin, is fuzzed through CorrectionForm and RestoreForm)
        assert set(form_fields(cls)) <= fuzzed_fields, cls


# --- the fuzz ----------------------------------------------------------------------------------------------


def _values() -> list[tuple[str, str]]:
    return list(HOSTILE.items())


def _post_form(fuzzer: Fuzzer, route: Route, data: dict[str, str], case: str) -> TestResponse | None:
    path = route.path(fuzzer.world)
    if route.file is not None:
        upload = (io.BytesIO(fuzzer.world.exports[route.file]), f"{route.file}.json")
        return fuzzer.send(case, "POST", path, data={**{k: multipart(v) for k, v in data.items() if k != route.file},
                                                     route.file: upload})
    return fuzzer.send(case, "POST", path, body=encoded(list(data.items())).encode(),
                       content_type="application/x-www-form-urlencoded")


GROUPED = {f"rule_{rule.name}": "rule_*" for rule in HOUSE_RULES}
"""The house rules' choice fields (one a rule), each a select of its rule's values: the fuzz sends a value in all of them
at once (each is checked on its own, as the form checks every field)."""


TWINS = {**{f"player_{n}": "player_1" for n in (2, 3)}, **{f"member_{n}": "member_1" for n in (2, 3, 5, 6, 7, 8)},
         **{f"seat_{n}": "seat_1" for n in (2, 3)}}
"""Fields declared alike and read by the form in one loop, the same way (``players()``, ``members()``,
``seated()``): each is sent every value with the others of the batch; only the first of them is also sent each
value alone. (The fourth of each is checked against the others, and sent every value alone.)"""


def test_the_twins_are_declared_alike() -> None:
    def declared(form: type, name: str) -> tuple[object, ...]:
        unbound = getattr(form, name)
        kwargs = {k: v for k, v in unbound.kwargs.items() if k not in ("label", "validators", "filters")}
        return (unbound.field_class, repr(kwargs), [type(v) for v in unbound.kwargs.get("validators") or ()],
                unbound.kwargs.get("filters"), hasattr(form, f"validate_{name}"))

    for form in (forms.NewTableForm, forms.CircleForm, forms.NextEveningForm):
        for twin, first in TWINS.items():
            if hasattr(form, twin):
                assert declared(form, twin) == declared(form, first), twin


def _groups(fields: tuple[str, ...]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for name in fields:
        groups.setdefault(GROUPED.get(name, name), []).append(name)
    return groups


CSRF_FEW = (ABSENT, "empty", "nul", "lone-surrogate", "100KB-digits")
"""The CSRF token is checked before any view, the same way for every form: it is sent every value where the
answer to a refused token is made (each form shown again with its taps kept, see ``scorer.web.pages.tables.csrf_lost``,
and one form of each blueprint), and these values elsewhere."""


def _endpoint(app: Flask, route: Route) -> str:
    return next(str(rule.endpoint) for rule in app.url_map.iter_rules()
                if rule.rule == route.rule and route.method in (rule.methods or ()))


def _csrf_answered_here(app: Flask, route: Route) -> bool:
    """Whether the route is where its blueprint's answer to a refused CSRF token is fuzzed: the form shown again
    with its taps kept, or else the blueprint's form of fewest fields (its answer is the same for each of them)."""
    endpoint = _endpoint(app, route)
    if endpoint == "table.deal" or endpoint in scorer.web.pages.tables.CSRF_RESHOWN:
        return True
    others = [r for r in ROUTES if r.base is not None and _endpoint(app, r).split(".")[0] == endpoint.split(".")[0]
              and _endpoint(app, r) not in ("table.deal", *scorer.web.pages.tables.CSRF_RESHOWN)]
    return min(others, key=lambda r: len(r.fields)) is route


@pytest.mark.parametrize("route", [r for r in ROUTES if r.base is not None], ids=lambda r: r.name)
def test_no_form_field_gives_a_500_or_a_hostile_write(fuzzer: Fuzzer, route: Route) -> None:
    """Each field of the form (each house rule's at once), sent every hostile value and sent absent, the
    others as the page sends them (twins, see :data:`TWINS`, with the others of the batch).

    To keep it quick, each value is first sent at once in every field that the form checks on its own (its
    check reads no other field): those whose check refused it there refuse it alone too, and the page drew
    the value in each of them. Each field that did not refuse it, and every other field (hidden, read by
    hand, checked against the others), is then sent the value alone, the others as the page sends them, to
    reach what the view does with it."""
    assert route.base is not None
    base = route.base(fuzzer.world, fuzzer.csrf)
    fuzzer.send(f"{route.name} as the page sends it", "GET", route.path(fuzzer.world))  # (a 405 for a POST-only route)
    writes_before = fuzzer.writes
    _post_form(fuzzer, route, base, f"{route.name} as the page sends it")
    assert (fuzzer.writes > writes_before) == route.writes, f"{route.name}: the form as the page sends it " + \
        ("wrote nothing" if route.writes else "wrote") + f" {fuzzer.failures}"
    groups = {group: names for group, names in _groups(route.fields).items() if group != route.file}
    together = [name for names in groups.values() for name in names if route.checked_alone(name)]
    for label, value in [(ABSENT, ""), *_values()]:
        refused: set[str] = set()
        if together and label != ABSENT:
            REFUSED.clear()
            sent = _post_form(fuzzer, route, {**base, **dict.fromkeys(together, value)}, f"{route.name} every field={label}")
            if sent is not None:
                refused = REFUSED & set(together)
        for group, names in groups.items():
            if set(names) <= refused or (group in TWINS and label != ABSENT):
                continue
            if group == "csrf_token" and label not in CSRF_FEW and not _csrf_answered_here(fuzzer.app, route):
                continue
            data = {k: v for k, v in base.items() if k not in names} if label == ABSENT else \
                {**base, **dict.fromkeys(names, value)}
            _post_form(fuzzer, route, data, f"{route.name} {group}={label}")
    fuzzer.report()


@pytest.mark.parametrize("route", [r for r in ROUTES if r.query], ids=lambda r: r.name)
def test_no_query_parameter_gives_a_500(fuzzer: Fuzzer, route: Route) -> None:
    path = route.path(fuzzer.world)
    for name in route.query:
        for label, value in _values():
            fuzzer.send(f"{route.name} ?{name}={label}", route.method, f"{path}?{encoded([(name, value)])}")
        fuzzer.send(f"{route.name} ?{name} twice", route.method, f"{path}?{encoded([(name, '1'), (name, '')])}")
    fuzzer.report()


LONG = 1000
"""A path part longer than this is sent in the first route of each method with such a part only: the test client
reads a 300 KB address a hundred times slower than a short one, and the views do with a part what they do with
any other value of it."""


def _path_cases() -> list[tuple[Route, int, str, bool]]:
    """Each route (a POST whose GET is here, once), each variable part of its path (its index), and whether
    the long values are sent there."""
    cases, long_sent = [], set()
    read = {r.rule for r in ROUTES if r.method == "GET"}
    for route in ROUTES:
        if route.method == "POST" and route.rule in read:
            continue  # the view reads its path as the GET does (its first line), then checks the form
        for i, part in enumerate(route.rule.split("/")):
            if part.startswith("<"):
                key = (route.method, part)
                cases.append((route, i, part, key not in long_sent))
                long_sent.add(key)
    return cases


@pytest.mark.parametrize("route, index, part, long", _path_cases(), ids=lambda c: c.name if isinstance(c, Route) else str(c))
def test_no_part_of_a_path_gives_a_500(fuzzer: Fuzzer, route: Route, index: int, part: str, long: bool) -> None:
    """Every variable part of every route's path (a token, a deal's number, a contract...) sent every hostile
    value, and a link of the wrong kind (a watch-only link, a circle's link for a table's, an evening's)."""
    world = fuzzer.world
    wrong = {"watch-only link": world.tokens[world.played], "circle's link": world.circle, "table's link": world.played,
             "evening's link": world.evenings[0]}
    concrete = route.path(world).split("?")[0].split("/")
    base = route.base(world, fuzzer.csrf) if route.base else None
    for label, value in [*_values(), *wrong.items()]:
        if len(value) > LONG and not long:
            continue
        changed = "/".join([*concrete[:index], in_path(value), *concrete[index + 1:]])
        case = f"{route.name} {part}={label}"
        if base is None:
            fuzzer.send(case, route.method, changed)
        else:
            fuzzer.send(case, route.method, changed, body=encoded(list(base.items())).encode(),
                        content_type="application/x-www-form-urlencoded")
    fuzzer.report()


def test_no_page_of_any_table_or_circle_gives_a_500(fuzzer: Fuzzer) -> None:
    """Every page of every table of the world (the fresh one, the played one, each evening of the circle)
    and of the circle, each of its watch-only pages included."""
    world = fuzzer.world
    for token in (world.fresh, world.played, *world.evenings):
        for path in fuzzer.table_pages(token):
            fuzzer.page(f"pages of {token}", path)
    for path in fuzzer.circle_pages(world.circle):
        fuzzer.page("pages of the circle", path)
    fuzzer.report()


@pytest.mark.filterwarnings("ignore:The '.*' cookie is too large")
def test_no_cookie_or_header_gives_a_500(fuzzer: Fuzzer) -> None:
    """The language cookie, the recent tables' cookie (unsigned, or signed with what it should never hold)
    and the Accept-Language header, hostile on the home page."""
    world = fuzzer.world
    signer = URLSafeSerializer("fuzz", salt="scorer.recent-tables")
    signed = [[[world.played, 10**30]], [[world.played, -1]], [[world.played, "today"]], [[world.played]], {"a": 1},
              [[world.played, 0]] * 50, [["../../x", 1]], "text", None]
    cookies = [(LANGUAGE_COOKIE, v) for _, v in _values()] + [(RECENT_COOKIE, v) for _, v in _values()] + \
        [(RECENT_COOKIE, signer.dumps(payload)) for payload in signed]
    for name, value in cookies:  # the home page reads both (a table's page reads the language the same way)
        fuzzer.client.set_cookie(name, value.encode("utf-8", "surrogatepass").decode("latin-1"))
        fuzzer.send(f"cookie {name}={value[:30]!r}", "GET", "/")
        fuzzer.client.delete_cookie(name)
    for label, value in _values():
        header = value.encode("utf-8", "surrogatepass").decode("latin-1").replace("\r", "").replace("\n", "")
        fuzzer.send(f"Accept-Language: {label}", "GET", "/", headers={"Accept-Language": header})
    fuzzer.report()


# --- the files uploaded --------------------------------------------------------------------------------------

JSON_HOSTILE: list[tuple[str, object]] = [
    ("null", None), ("true", True), ("minus-one", -1), ("zero", 0), ("10**30", 10**30), ("1e9", 1e9),
    ("NaN", float("nan")), ("Infinity", float("inf")), ("minus-zero", -0.0), ("2.5", 2.5),
    *((label, text) for label, text in HOSTILE.items() if label != "100KB-digits"), ("list", []), ("object", {}),
    ("list of texts", ["Ann", "\u202e"]), ("object of a name", {"Ann": 1}),
]
"""What a JSON file can put where the app reads a value: every type, and every hostile text."""
TIMES = [value for label, value in HOSTILE.items() if label.startswith(("year", "zone"))] + \
    ["2026-11-21T21:04:00Z", "2026-11-21", "2026-11-21T21:04", "21:04:00", "2026-W47-6", "20261121T210400"]
"""Times a file may give a line (``at``): out of range once shown in the app's zone, odd zones, odd forms."""
PER_PLACE = 3
"""Values sent in each place of a file: place ``i`` gets the ``PER_PLACE`` values of :data:`JSON_HOSTILE` from
``i * PER_PLACE`` on (round the list), so that every value goes to several places and every place gets several."""


def _places(data: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """Where a file holds a value, down to :data:`PLACES_DEPTH` deep: every key of an object, and in a list its
    first item, or of a list of lines (each with its ``kind``) the first line of each kind."""
    if len(path) >= PLACES_DEPTH:
        return
    if isinstance(data, dict):
        items: list[tuple[object, object]] = [(k, v) for k, v in data.items() if k != "signature"]
    elif isinstance(data, list):
        kinds: dict[object, int] = {}
        for index, item in enumerate(data):
            kinds.setdefault(item.get("kind") if isinstance(item, dict) else None, index)
        items = [(index, data[index]) for index in sorted(kinds.values())]
    else:
        return
    for key, value in items:
        yield (*path, key)
        yield from _places(value, (*path, key))


PLACES_DEPTH = 4


def _unsigned(export: bytes) -> dict[str, Any]:
    """The export without its signature and with its hashes left out (the import recomputes them): a value
    changed in it is read as any file's, not refused for its chain."""
    data: dict[str, Any] = json.loads(export)
    data.pop("signature", None)
    for lines in [data.get("history") or [], data.get("log") or [],
                  *((e.get("history") or []) for e in data.get("evenings") or [])]:
        for line in lines:
            line["hash"] = None
    return data


def _changed(data: object, path: tuple[object, ...], value: object) -> object:
    copy = json.loads(json.dumps(data))
    where = copy
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = value
    return copy


def _lines(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield from data.get("history") or []
    yield from data.get("log") or []
    for evening in data.get("evenings") or []:
        yield from evening.get("history") or []


RAW_FILES = [
    ("empty", b""), ("nul bytes", b"\x00" * 10), ("not UTF-8", b"\xff\xfe{}"), ("a list", b"[]"), ("null", b"null"),
    ("NaN", b"NaN"), ("1e999", b"1e999"), ("deep", b"[" * 100_000), ("a huge number", b"9" * 5000),
    ("duplicate keys", b'{"format": "x", "format": "y"}'), ("a lone surrogate", b'{"format": "\\ud800"}'),
    ("100 KB of spaces", b" " * 100_000),
]


@pytest.mark.parametrize("kind", ["evening", "circle"])
def test_no_uploaded_file_gives_a_500_or_a_hostile_write(fuzzer: Fuzzer, kind: str) -> None:
    """A file of each kind: bytes that are no such file, every place of a real export (unsigned) given values of
    every type and hostile texts, and every line's time given odd times. A file that imports must leave every
    page of what it made answering below 500 (an imported time of year 1 once made a deal's page a 500)."""
    route = next(r for r in ROUTES if r.file == kind)
    path = route.path(fuzzer.world)
    data = _unsigned(fuzzer.world.exports[kind])

    def upload(case: str, body: bytes) -> TestResponse | None:
        return fuzzer.send(f"{route.name} {case}", "POST", path,
                           data={"csrf_token": fuzzer.csrf, kind: (io.BytesIO(body), f"{kind}.json")})

    writes = fuzzer.writes
    upload("the export, unsigned", json.dumps(data).encode())
    assert fuzzer.writes == writes + 1, fuzzer.failures
    for label, body in RAW_FILES:
        upload(label, body)
    for i, place in enumerate(_places(data)):
        for j in range(PER_PLACE):
            label, value = JSON_HOSTILE[(i * PER_PLACE + j) % len(JSON_HOSTILE)]
            body = json.dumps(_changed(data, place, value)).encode()  # a lone surrogate as its JSON escape
            upload(f"{'.'.join(map(str, place))}={label}", body)
    for at in TIMES:
        timed = json.loads(json.dumps(data))
        for line in _lines(timed):
            line["at"] = at
        upload(f"every line at {at}", json.dumps(timed).encode())
    fuzzer.report()


# --- the 500s issue 22 found, each as a worked example -------------------------------------------------------


def test_the_fuzz_sees_a_500_as_an_error_not_a_page(tmp_path: Path) -> None:
    """Under TESTING a view's exception reaches the test client (no error page hides it), and the app has no
    handler that would turn any exception, or every 500, into a page."""
    app = make_app(tmp_path / "raising.sqlite", tmp_path / "instance")

    @app.route("/raises")
    def raises() -> str:
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        app.test_client().get("/raises")
    handled = [cls for scope in app.error_handler_spec.values() for code, handlers in scope.items() for cls in handlers
               if code == 500 or code is None and issubclass(ValueError, cls)]
    assert handled == []


@pytest.mark.parametrize("stamp, zone, shown", [
    ("0001-01-01", "Europe/London", "0001-01-01"),  # London is 1 minute 15 s behind UTC in year 1: year 0
    ("0001-01-01T00:00:00+14:00", "UTC", "0001-01-01T00:00:00+14:00"),
    ("9999-12-31T23:59:59-14:00", "UTC", "9999-12-31T23:59:59-14:00"),  # year 10000 in UTC
    ("9999-12-31T23:59:59-14:00", "Etc/GMT+14", "9999-12-31T23:59:59-14:00"),  # unknown zone: UTC
    ("9999-12-31T23:59:59+14:00", "UTC", "Fri 31 Dec 9999, 09:59"),
    ("0001-01-02", "Europe/London", "Mon 1 Jan 1, 23:58"),
    ("2026-11-21T21:04:00.5-23:59:59.999999", "UTC", "Sun 22 Nov 2026, 21:04"),  # no such zone in life: still a time
    ("2026-11-21T21:04:00+25:00", "UTC", "2026-11-21T21:04:00+25:00"),  # no such offset: not a time, shown as written
])
def test_a_time_past_the_years_a_zone_can_show_is_shown_as_written(fuzz_app: Flask, stamp: str, zone: str,
                                                                    shown: str) -> None:
    from scorer.web.i18n import local_time

    with fuzz_app.test_request_context("/"):
        assert local_time(stamp, zone).replace(" 2026,", ",") == shown.replace(" 2026,", ",")


def _imported(fuzzer: Fuzzer, kind: str, at: str) -> str:
    """The world's export of ``kind``, every line of it written ``at``, imported: the new table's or circle's link."""
    data = _unsigned(fuzzer.world.exports[kind])
    for line in _lines(data):
        line["at"] = at
    response = fuzzer.client.post("/import" if kind == "evening" else "/c/import", data={
        "csrf_token": fuzzer.csrf, kind: (io.BytesIO(json.dumps(data).encode()), f"{kind}.json")})
    assert response.status_code == 302, response.get_data(as_text=True)[-2000:]
    return response.headers["Location"].split("/")[2]


@pytest.mark.parametrize("at", ["0001-01-01", "9999-12-31T23:59:59-14:00"])
def test_an_imported_time_out_of_range_is_shown_as_written(fuzzer: Fuzzer, at: str) -> None:
    """A deal's versions on its audit page, and a circle's settlement on its page and in its PDF: each was a 500
    for good once such a time was imported (OverflowError when shown in the app's zone)."""
    table = _imported(fuzzer, "evening", at)
    page = fuzzer.client.get(f"/t/{table}/audit/1")
    assert page.status_code == 200 and f'<time datetime="{at}">{at}</time>' in page.get_data(as_text=True)
    circle = _imported(fuzzer, "circle", at)
    page = fuzzer.client.get(f"/c/{circle}")
    assert page.status_code == 200 and f"{at}: the circle settled evening 1:" in page.get_data(as_text=True)
    pdf = fuzzer.client.get(f"/c/{circle}/tally.pdf")
    assert pdf.status_code == 200 and f"{at}, evening 1:" in pdf.get_data(as_text=True)  # the PDF's HTML, see above
    assert fuzzer.client.get(f"/c/{circle}/check").status_code == 200


INVISIBLE = ["\x00", "\u202e", "\u200b", "\u115f", "\ufeff"]


@pytest.mark.parametrize("character", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("field, says", [
    ("name", "A circle's name cannot hold an invisible or control character"),
    ("currency", ""),  # either of the currency's two sentences, below
])
def test_a_new_circle_with_an_invisible_character_is_refused_with_a_sentence(fuzzer: Fuzzer, character: str, field: str,
                                                                             says: str) -> None:
    data = _new_circle(fuzzer.world, fuzzer.csrf)
    data[field] = {"name": "Thursday", "currency": "EU"}[field] + character + "R"
    response = fuzzer.client.post("/c/new", data=data)
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    errors = re.findall(rf'id="{field}-error\d+">([^<]+)<', page)
    assert errors and (says in errors[0] if says else errors[0] in (
        "Write the currency in letters, such as EUR.",
        f"The currency cannot hold an invisible or control character (U+{ord(character):04X} "
        f"{unicodedata.name(character, 'unnamed')})."))
    assert fuzzer._data_version() == fuzzer.version  # nothing written


@pytest.mark.parametrize("value", [" ", "\t", "\r\n", "\u00a0"], ids=repr)
@pytest.mark.parametrize("field", ["trumps", "called", "vole", "favourite"])
@pytest.mark.parametrize("form", ["deal", "correction"])
def test_whitespace_in_a_tapped_choice_is_refused_as_a_tampered_tap(fuzzer: Fuzzer, value: str, field: str,
                                                                    form: str) -> None:
    """A radio group sent whitespace was read as no tap, then as a suit, card or vole: a 500. It is a tampered
    tap, refused beside the group (the vole group is shown for a solo: the deal form is sent as a solo)."""
    world = fuzzer.world
    solo = {"hombre": "Dan", "trumps": "spades", "hombre_tricks": "6", "matadors": "0", "favourite": "hearts", "vole": "none"}
    if field == "called":
        data, path = {**(_deal if form == "deal" else _amend)(world, fuzzer.csrf), field: value}, \
            f"/t/{world.played}/deal/alliance" if form == "deal" else f"/t/{world.played}/audit/2/amend/alliance"
    elif form == "deal":
        data, path = {**_deal(world, fuzzer.csrf), **solo, "contract": "solo", field: value}, f"/t/{world.played}/deal/solo"
    else:
        data, path = {**_amend(world, fuzzer.csrf), **solo, "contract": "solo", field: value}, \
            f"/t/{world.played}/audit/2/amend/solo"
    response = fuzzer.client.post(path, data=data)
    assert response.status_code == 422
    assert re.findall(rf'id="{field}-error\d+">([^<]+)<', response.get_data(as_text=True)) == ["Tap one of the choices shown."]
    assert fuzzer._data_version() == fuzzer.version


@pytest.mark.parametrize("confirmed, held", [("\u00b2", False), ("\u0663", False), ("\uff18", False), ("31", True),
                                            ("", False), ("-1", False), ("9" * 100, False)])
def test_a_play_check_s_confirmed_count_is_read_in_ascii_digits_only(fuzzer: Fuzzer, confirmed: str, held: bool) -> None:
    """``k`` (the cards the table confirmed) in other digits was int()'s ValueError ("²"), a 500; it is read
    as none confirmed. With Dan's 6♥ of the 31st card proving a renounce, 31 confirmed lets the play go on."""
    codes = CODES[:62]
    response = fuzzer.client.get(f"/t/{fuzzer.world.played}/audit/1/play", query_string={"c": codes, "k": confirmed})
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert ("Was 6♥ really played now?" in page) is not held


def test_an_imported_version_corrected_since_names_only_players(fuzzer: Fuzzer) -> None:
    """A version that no longer stands is not settled again by the import's fold: it could bring any text into
    the log (a 50,000-character ally, found by the fuzz). Every name it gives must be a player's."""
    data = _unsigned(fuzzer.world.exports["evening"])
    assert data["history"][0]["kind"] == "record" and data["history"][1]["kind"] == "amend"  # deal 1, corrected
    for role, name in [("ally", "é" * 900), ("hombre", "Zed"), ("giver", "\u202e"), ("spadille", "Nobody"), ("dealer", "Ann\u200b")]:
        data["history"][0]["deal"][role] = name
        response = fuzzer.client.post("/import", data={"csrf_token": fuzzer.csrf,
                                                       "evening": (io.BytesIO(json.dumps(data).encode()), "e.json")})
        assert response.status_code == 422
        assert f'line 1 of the history: the deal&#39;s &#34;{role}&#34; must be one of the players' in \
            response.get_data(as_text=True) or f"line 1 of the history: the deal's \"{role}\" must be one of the players" \
            in unescape(response.get_data(as_text=True)), role
        assert fuzzer._data_version() == fuzzer.version
        data = _unsigned(fuzzer.world.exports["evening"])
    data["history"][0]["deal"]["ally"] = "é" * 50_000  # longer than any text a file may hold: refused as it is read
    response = fuzzer.client.post("/import", data={"csrf_token": fuzzer.csrf,
                                                   "evening": (io.BytesIO(json.dumps(data).encode()), "e.json")})
    assert response.status_code == 422 and "a text of more than 1000 characters" in unescape(response.get_data(as_text=True))
    assert fuzzer._data_version() == fuzzer.version


@pytest.mark.parametrize("field, route", [("reason", "amend"), ("currency", "settings"), ("name", "circle")])
def test_free_text_too_long_is_refused_for_its_length_alone(fuzzer: Fuzzer, field: str, route: str) -> None:
    """Free text past its length is refused for that, and not read character by character for invisible ones
    as well (each character's check cost 3 µs: a field of megabytes, seconds)."""
    world, long = fuzzer.world, "\u202e" * 100_000
    data, path = {"amend": (_amend(world, fuzzer.csrf), f"/t/{world.played}/audit/2/amend/alliance"),
                  "settings": (_settings(world, fuzzer.csrf), f"/t/{world.fresh}/settings"),
                  "circle": (_new_circle(world, fuzzer.csrf), "/c/new")}[route]
    response = fuzzer.client.post(path, data={**data, field: long})
    errors = re.findall(rf'id="{field}-error\d+">([^<]+)<', unescape(response.get_data(as_text=True)))
    assert response.status_code == 422 and len(errors) == 1 and "characters" in errors[0] and "invisible" not in errors[0]
