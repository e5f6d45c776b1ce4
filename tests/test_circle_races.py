"""Every command on a circle raced against every other (issue 22, point 10; issue 14 before it), with the
harness and the evidence rule of the table races (tests/helpers/racing.py): two phones, each a thread with its own
SQLite connection, released together at a barrier, one delayed by a random fraction of a call; each pair
goes on until the two calls overlapped in a fifth of the trials (or in ten of them) and every order that
leaves a different circle happened.

The commands, on a circle whose evening 1 is played (deal 3 corrected) and evening 2 under way (one deal,
a remise, so that what evening 1 leaves flows on): on the evenings, record (deal 2 of evening 2, the
last), undo (evening 2's only deal), a correction of evening 1 (deal 4: it changes what evening 1 leaves)
and of evening 2, a restoration in evening 1 (deal 3 back to its recorded version), new settings for
evening 2 (always refused: an evening plays by its circle's); on the circle, start the next evening, add
a member, rename one (who sits in every evening, and in the next), record the settlement the page showed.
Each is sent as a phone that saw the circle before the race sends it. And on a second circle, a
correction of evening 1 and a deal of evening 2 that cannot both stand (a Spadille chip).

What a race may leave: exactly what the two commands leave run one after the other, in one order or the
other, from the same circle (each refused, or not, as it then is, by the same refusal), computed for each
pair before it races. Never both written when one order refuses one, never a season that does not hold.
After every trial the circle holds: its log's and every evening's hash chain verify, its fold has no
damage, the fold it keeps (what every page reads) is the fold of its logs from scratch (fresh caches), its
season the core's replay_season of each evening's standing deals with what each carried into the next,
chips are conserved (every member's season total plus what is left on the table is 0), and a settlement
recorded is the one its page showed. Every page of the circle answers 200 (its page and its spectators',
each also with every evening, its Check page, each evening's page, ledger and Check page) after each trial
that really raced (the two calls overlapped) and after the first trial of each order: a trial that did not
overlap is that order run again, and the fold the pages read is checked after every one.

The key pairs race through the real views too, over the test client, the pages checked as above (and the
tally PDF after the first trial): each phone prepares its form (GET, and the preview where the form has
one), and the two final POSTs race. A view may also refuse a form that went stale (a deal previewed under
another carry is shown again, and the phone is told): what it leaves must then be what one command alone
leaves.

The bug these guard against (issue 22): a command on an evening of a circle was decided against that
evening alone, so a correction in evening 1 and a record in evening 2 raced were both written, the record
settled with what evening 1 carried before the correction, and the season did not hold (8 of 12 trials).
The write path now loses none of these races. What they and the reading of the read path around them found,
each played out step by step at the end (too narrow or too rare a window for a few trials to hit):
an evening's page read its log's length after its fold (a correction form carried a length its deal did
not show, and was written over another phone's correction); the next evening's form did not say which
evening its page offered (sent after that evening started and its first deal was recorded, it started the
one after and closed it); the circle's pages read the circle before folding its season (a rename written
between: a 500, which the races of a rename against a settlement or the next evening hit when raced longer);
an export read an evening's deals and then its history, or a circle's evenings and then its log (a deal
recorded or an evening started between: a file its own import refused).
"""

from __future__ import annotations

import html
import itertools
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import pytest
import sqlite_utils
from flask import Flask
from flask.testing import FlaskClient
from helpers.racing import HIDDEN, Race, amend_form, fine_interleaving, hidden, record_form, undo_form
from helpers.store import deals_of
from helpers.web import csrf_token
from werkzeug.test import TestResponse

from scorer import create_app
from scorer.core import HouseRules, ImpossibleDeal
from scorer.core.ledger.log import Amend, Line, Record, Refused, Restore, Undo, fold
from scorer.core.ledger.season import Season, replay_season
from scorer.web.db import connect, get_db
from scorer.store import (
    Circle,
    LedgerCache,
    Table,
    change_settings,
    circle_by_token,
    circle_tables,
    create_circle,
    fold_circle,
    log_size,
    read_lines,
    run,
    start_evening,
    verify,
    verify_circle,
)
from scorer.store.circle_log import read_events
from scorer.store.circles import add_member, owing, record_settlement, rename_member, settle_digest
from scorer.store.seasons import SeasonCache, renamed_evening

MEMBERS = ("Ann", "Bea", "Cat", "Dan", "Eve")
FIRST, SECOND, THIRD = ("Ann", "Bea", "Cat", "Dan"), ("Bea", "Cat", "Dan", "Eve"), ("Ann", "Bea", "Dan", "Eve")
RULES = HouseRules.of("quadrille", {"pool_at_end": "carry_forward"})
FIRST_DEALS = deals_of(FIRST, "6 5 6 5")
"""Evening 1: deal 3 is then corrected to 5 tricks, so that a restoration has a version to put back; the
evening ends on remises, and leaves a pool for evening 2."""
SECOND_DEALS = deals_of(SECOND, "5 5")
"""Evening 2: its first deal is played before the race, its second is the deal a phone records."""
LEAST = 5
"""Trials of each pair at least (then on, up to 150, until the evidence is in: :meth:`Race.rounds`)."""
WEB_LEAST = 6


# --- a circle, as a page showed it ------------------------------------------------------------------------


@dataclass(frozen=True)
class Scene:
    """A circle with evening 1 played and evening 2 under way, as the phones saw it before the race."""

    circle: Circle
    first: Table
    second: Table
    digest: str
    """The settle-up its page showed (:func:`settle_digest`)."""
    seen_first: int
    seen_second: int
    """Each evening's log length when the phones' forms were made."""
    recorded_3: int
    """The line of evening 1 that recorded deal 3 (the version a restoration puts back)."""


def shown(db: sqlite_utils.Database, circle: Circle, first: Table, second: Table, recorded_3: int = 0) -> Scene:
    """The scene as the phones' pages showed it, the settle-up of evenings 1 and 2 among it."""
    page = circle_by_token(db, circle.token)
    assert page is not None
    folded = fold_circle(db.conn, circle.id)
    assert folded is not None and folded[1].season is not None
    found = owing(page, folded[1].season)
    assert found is not None and (found.first, found.last) == (1, 2)
    return Scene(page, first, second, settle_digest(found.first, found.last, found.payments),
                 log_size(db.conn, first.id), log_size(db.conn, second.id), recorded_3)


def carry_scene(db: sqlite_utils.Database) -> Scene:
    """Evening 1 played, its deal 3 corrected, and evening 2 under way (one deal, a remise)."""
    circle = create_circle(db, "Races", MEMBERS, RULES, 4, 10, "EUR")
    first = start_evening(db, circle, FIRST, FIRST[0])
    for n, deal in enumerate(FIRST_DEALS, start=1):
        run(db, first, Record(n, deal, by="Ann"))
    run(db, first, Amend(3, replace(FIRST_DEALS[2], hombre_tricks=5), "Ann", "five tricks", log_size(db.conn, first.id)))
    second = start_evening(db, circle, SECOND, SECOND[0])
    run(db, second, Record(1, SECOND_DEALS[0], by="Bea"))
    return shown(db, circle, first, second, recorded_3=3)


CORRECTED_4 = replace(FIRST_DEALS[3], hombre_tricks=6)
"""Evening 1's deal 4 won instead of a remise: evening 1 leaves another pool for evening 2."""
CORRECTED_SECOND_1 = replace(SECOND_DEALS[0], hombre_tricks=6)
NEW_SETTINGS = (HouseRules.of("penguin_chips"), 8, 25, "EUR")

Command = Callable[[sqlite_utils.Database, Scene], Callable[[], object]]
CARRY: dict[str, Command] = {
    "record": lambda phone, s: lambda: run(phone, s.second, Record(2, SECOND_DEALS[1])),
    "undo": lambda phone, s: lambda: run(phone, s.second, Undo(1)),
    "correct 1": lambda phone, s: lambda: run(phone, s.first, Amend(4, CORRECTED_4, "Ann", "six tricks", s.seen_first)),
    "correct 2": lambda phone, s: lambda: run(phone, s.second, Amend(1, CORRECTED_SECOND_1, "Dan", "six tricks",
                                                                     s.seen_second)),
    "restore 1": lambda phone, s: lambda: run(phone, s.first, Restore(3, s.recorded_3, "Bea", "as recorded", s.seen_first)),
    "settings": lambda phone, s: lambda: change_settings(phone, s.second, *NEW_SETTINGS),
    "start": lambda phone, s: lambda: start_evening(phone, s.circle, THIRD, THIRD[0], number=3),
    "member": lambda phone, s: lambda: add_member(phone, s.circle, "Fay"),
    "rename": lambda phone, s: lambda: rename_member(phone, s.circle, "Bea", "Beatrix"),
    "settle": lambda phone, s: lambda: record_settlement(phone, s.circle, s.circle.lines, s.digest),
}
"""Each command as a phone that saw the carry scene sends it to the store."""

SPADILLE_RULES = HouseRules.of("quadrille", {"pool_at_end": "carry_forward", "codille_indivisible": "odd_to_spadille"})
SPADILLE_FIRST, SPADILLE_SECOND = deals_of(FIRST, "5"), deals_of(SECOND, "3 6")


def spadille_scene(db: sqlite_utils.Database) -> Scene:
    """Evening 1 a remise (a pool carried), evening 2 a codille: with what evening 1 carries, its chips divide
    evenly. Corrected to a game won, evening 1 carries nothing, evening 2's codille leaves an odd chip for
    Spadille (house rule codille_indivisible), and a next deal that names no holder of Spadille cannot settle."""
    circle = create_circle(db, "Spadille", MEMBERS, SPADILLE_RULES, 4, 10, "EUR")
    first = start_evening(db, circle, FIRST, FIRST[0])
    run(db, first, Record(1, SPADILLE_FIRST[0], by="Ann"))
    second = start_evening(db, circle, SECOND, SECOND[0])
    run(db, second, Record(1, SPADILLE_SECOND[0], by="Bea"))
    return shown(db, circle, first, second)


SPADILLE: dict[str, Command] = {
    "correct 1": lambda phone, s: lambda: run(phone, s.first, Amend(1, replace(SPADILLE_FIRST[0], hombre_tricks=6), "Ann",
                                                                    "six tricks", s.seen_first)),
    "record": lambda phone, s: lambda: run(phone, s.second, Record(2, SPADILLE_SECOND[1])),
}
"""A correction in evening 1 and a deal of evening 2 that cannot both stand: one order refuses the record
(it no longer settles), the other the correction (it would leave evening 2 unable to settle)."""


@dataclass(frozen=True)
class Play:
    """A circle set up before each trial, and the commands its phones send."""

    scene: Callable[[sqlite_utils.Database], Scene]
    commands: dict[str, Command]


PLAYS = {"carry": Play(carry_scene, CARRY), "spadille": Play(spadille_scene, SPADILLE)}


def outcome(call: Callable[[], object]) -> str:
    """``done``, or the refusal the phone is told (its kind); any other exception is the test's finding."""
    try:
        call()
    except (Refused, ImpossibleDeal) as refused:
        assert refused.message.strip(), refused
        return type(refused).__name__
    except Exception as error:  # noqa: BLE001 - reported as the outcome, so that the race's check names it
        return f"crashed: {error!r}"
    return "done"


State = tuple[object, ...]


def state(conn: sqlite3.Connection, circle: Circle) -> State:
    """Everything a command can change, without times and links: the circle's log, each evening's settings and log."""
    events = tuple((e["kind"], e["data"]) for e in read_events(conn, circle.id))
    rows = conn.execute("select id from tables where circle_id = ? order by circle_evening", [circle.id]).fetchall()
    evenings = []
    for (table_id,) in rows:
        settings = conn.execute("select players, first_dealer, profile, house_rules, deals_agreed, chip_value_cents, "
                                "currency, circle_evening from tables where id = ?", [table_id]).fetchone()
        lines, unreadable = read_lines(conn, table_id)
        assert unreadable is None
        evenings.append((tuple(settings), tuple(shape(line) for line in lines)))
    return events, tuple(evenings)


def shape(line: Line) -> tuple[object, ...]:
    return (line.kind.value, line.number, line.deal, line.by, line.reason, line.restores)


@dataclass(frozen=True)
class Serial:
    """What two commands leave run one after the other, in each order: each one's outcome, and the circle."""

    orders: dict[str, tuple[tuple[str, str], State]]
    """``"<one> first"`` and ``"<other> first"``: the two outcomes (in the pair's order), and the state."""
    alone: dict[str, State]
    """Each command run alone from the scene (what a view that refuses the other, stale, leaves)."""
    untouched: State


def serial(db: sqlite_utils.Database, play: Play, one: str, other: str, alone_too: bool = False) -> Serial:
    """Run the two commands one after the other on fresh circles, in each order (and, ``alone_too``, each alone)."""
    orders: dict[str, tuple[tuple[str, str], State]] = {}
    for label, names in (("one first", (one, other)), ("other first", (other, one))):
        s = play.scene(db)
        results = [outcome(play.commands[name](db, s)) for name in names]
        orders[label] = ((results[0], results[1]) if label == "one first" else (results[1], results[0]), state(db.conn, s.circle))
    for (a, b), _ in orders.values():
        assert not a.startswith("crashed") and not b.startswith("crashed"), orders
    if not alone_too:
        return Serial(orders, {}, ())
    alone: dict[str, State] = {}
    for name in (one, other):
        s = play.scene(db)
        outcome(play.commands[name](db, s))
        alone[name] = state(db.conn, s.circle)
    return Serial(orders, alone, state(db.conn, play.scene(db).circle))


# --- the circle after a race ------------------------------------------------------------------------------


def season_from_scratch(conn: sqlite3.Connection, circle: Circle, tables: list[Table]) -> Season:
    """The core's season of the circle's logs read back: each evening's log folded by the core, its deals
    standing replayed in order with what the one before left (replay_season), under today's names."""
    names = circle.current_names()
    evenings = []
    for table in tables:
        lines, unreadable = read_lines(conn, table.id)
        assert unreadable is None
        book = fold(table.evening(), lines)
        evenings.append(renamed_evening(replace(table.evening(), deals=tuple(book.deals)), names))
    then = [tuple(names.get(m, m) for m in members) for members in circle.evening_members]
    return replay_season(circle.members, evenings, then)


def circle_pages(circle: Circle, tables: list[Table]) -> list[str]:
    c, cs = f"/c/{circle.token}", f"/cs/{circle.spectator_token}"
    return [c, cs, f"{c}/evenings", f"{cs}/evenings", f"{c}/check"] + [
        f"/t/{t.token}{page}" for t in tables for page in ("", "/ledger", "/verify")]


def check_circle(app: Flask, reader: FlaskClient, s: Scene, pages: bool = True, pdf: bool = False) -> Circle:
    """The circle after a race holds (the module's docstring), and, ``pages``, every page of it answers 200
    (the tally PDF too, ``pdf``); returns it as stored."""
    with app.app_context():
        db = get_db()
        circle = circle_by_token(db, s.circle.token)
        assert circle is not None
        assert verify_circle(db, circle) is None
        tables = circle_tables(db, circle)
        for table in tables:
            assert verify(db, table) is None
        folded = fold_circle(db.conn, circle.id)
        assert folded is not None
        kept = folded[1]
        assert kept.damage is None, kept.damage.message
        fresh = fold_circle(db.conn, circle.id, LedgerCache(), SeasonCache())
        assert fresh is not None and fresh[1].damage is None
        # the caches hold the logs' fold, and the log lengths the pages' forms carry are the fold's
        assert (kept.ledgers, kept.season, kept.sizes) == (fresh[1].ledgers, fresh[1].season, fresh[1].sizes)
        season = kept.season
        assert season is not None
        assert season == season_from_scratch(db.conn, circle, tables)
        assert sum(season.totals().values()) + season.carried == 0  # chips conserved
        for settlement in circle.settlements:  # what was recorded is what the page showed
            assert settle_digest(settlement.first, settlement.last, settlement.payments) == s.digest
    for url in (circle_pages(circle, tables) if pages else []) + ([f"/c/{circle.token}/tally.pdf"] if pdf else []):
        assert reader.get(url).status_code == 200, url
    return circle


# --- the races through the store ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One database for the module: every trial plays a fresh circle on it."""
    path = tmp_path_factory.mktemp("circle_races")
    app = create_app({"TESTING": True, "DATABASE": str(path / "races.sqlite"), "INSTANCE_PATH": str(path / "i"),
                      "SECRET_KEY": "races", "SYNCHRONOUS": "NORMAL"})
    with fine_interleaving():
        yield app


@pytest.fixture
def phones(app: Flask) -> Iterator[tuple[sqlite_utils.Database, sqlite_utils.Database]]:
    two = connect(app.config["DATABASE"], "NORMAL"), connect(app.config["DATABASE"], "NORMAL")
    yield two
    for phone in two:
        phone.conn.close()


@pytest.fixture
def race() -> Iterator[Race]:
    racing = Race(seed=22)
    yield racing
    racing.close()
    racing.check_overlap()


PAIRS = [("carry", one, other) for one, other in itertools.combinations_with_replacement(CARRY, 2)] + [
    ("spadille", "correct 1", "record")]


def pair_id(play: str, one: str, other: str) -> str:
    return f"{play}:{one}-{other}".replace(" ", "")


@pytest.mark.parametrize(("play", "one", "other"), PAIRS, ids=[pair_id(*pair) for pair in PAIRS])
def test_two_commands_on_a_circle_leave_what_one_order_leaves(app: Flask, phones: tuple[sqlite_utils.Database, ...],
                                                               race: Race, play: str, one: str, other: str) -> None:
    reader = app.test_client()
    how = PLAYS[play]
    with app.app_context():
        reference = serial(get_db(), how, one, other)
    legal = {outcomes_state: name for name, outcomes_state in reference.orders.items()}
    happened: Counter[str] = Counter()
    for trial in race.rounds(lambda: all(happened[name] for name in legal.values()), least=LEAST):
        with app.app_context():
            s = how.scene(get_db())
        a, b = race(lambda: outcome(how.commands[one](phones[0], s)), lambda: outcome(how.commands[other](phones[1], s)))
        with app.app_context():
            left = state(get_db().conn, s.circle)
        name = legal.get(((a, b), left))
        assert name is not None, (f"trial {trial}: {one} and {other} at once answered {a}, {b}, and left a circle "
                                  f"that neither order leaves ({', '.join(f'{k}: {v[0]}' for k, v in reference.orders.items())})")
        happened[name] += 1
        # every page after each trial that really raced, and after the first of each order (a trial that did
        # not overlap is the order it took, run again): the fold the pages read is checked after every trial
        check_circle(app, reader, s, pages=race.last_overlapped or happened[name] == 1)
    assert all(happened[name] for name in legal.values()), happened  # each order that leaves another circle happened


@pytest.mark.parametrize(("play", "one", "other", "orders"), [
    ("carry", "correct 1", "record", {("done", "done")}),
    ("spadille", "correct 1", "record", {("done", "ImpossibleDeal"), ("LaterEveningBroken", "done")}),
    ("carry", "settings", "start", {("CircleEvening", "done")}),
    ("carry", "undo", "start", {("done", "CircleRefused"), ("EveningClosed", "done")}),
    ("carry", "record", "start", {("done", "done"), ("EveningClosed", "done")}),
    # settled first, the correction (its page showed no settlement) asks first: refused, nothing written (issue 30)
    ("carry", "correct 1", "settle", {("done", "CircleRefused"), ("SettledChange", "done")}),
    ("carry", "record", "rename", {("done", "done")}),
    ("carry", "correct 1", "correct 2", {("done", "done")}),
    ("carry", "correct 1", "restore 1", {("done", "TableChanged"), ("TableChanged", "done")}),
    ("carry", "start", "start", {("done", "CircleRefused"), ("CircleRefused", "done")}),
])
def test_the_pairs_of_the_issue_end_as_each_order_says(app: Flask, play: str, one: str, other: str,
                                                       orders: set[tuple[str, str]]) -> None:
    """The pairs the issue names are raced, and what each order leaves is the rule: an evening closes when the
    next begins (no deal added or taken back), a settlement is of the settle-up shown, a correction that breaks
    a later evening is refused, a deal that no longer settles is refused, and never both of two that cannot stand."""
    assert (play, one, other) in PAIRS or (play, other, one) in PAIRS  # raced above
    with app.app_context():
        reference = serial(get_db(), PLAYS[play], one, other)
    assert {outcomes for outcomes, _ in reference.orders.values()} == orders


# --- the key pairs through the views ---------------------------------------------------------------------------


TOLD = re.compile(r'<p class="flash" role="status">(.*?)</p>|<p class="error" role="alert">(.*?)</p>'
                  r'|<div id="errors" class="error" role="alert"[^>]*>(.*?)</div>', re.DOTALL)


def said(phone: FlaskClient, response: TestResponse) -> str:
    """What the phone was told: the flashes and errors of the page it is sent to (or of the page itself)."""
    page = phone.get(response.headers["Location"]) if response.status_code == 302 else response
    found = TOLD.findall(page.get_data(as_text=True))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", "".join(parts))).strip() for parts in found)


def circle_form(phone: FlaskClient, s: Scene, action: str, fields: dict[str, str]) -> Callable[[], TestResponse]:
    """A form of the circle's page (``next``, ``rename``, ``settle``) as the phone's page showed it."""
    page = phone.get(f"/c/{s.circle.token}")
    found = dict(HIDDEN.findall(page.get_data(as_text=True)))
    data = {"csrf_token": found["csrf_token"], **fields}
    if action == "next" and "number" in found:
        data["number"] = found["number"]  # the evening the page offered to start
    if action == "settle":
        shown = re.findall(r'name="(lines|shown)" type="hidden" value="([^"]*)"', page.get_data(as_text=True))
        data.update(shown)
        assert data["shown"] == s.digest and data["lines"] == str(s.circle.lines)
        data["confirm"] = "yes"  # the second tap, on the page that showed what it records
    return lambda: phone.post(f"/c/{s.circle.token}/{action}", data=data)


def settings_post(phone: FlaskClient, token: str) -> Callable[[], TestResponse]:
    """New house rules for an evening of a circle: its settings page has no form (they are its circle's), so the
    phone sends them as a page of another build would, with its session's CSRF token."""
    fields = {"csrf_token": csrf_token(phone, f"/t/{token}"), "profile": "penguin_chips", "deals_agreed": "8",
              "chip_value": "0.25", "currency": "EUR"}
    return lambda: phone.post(f"/t/{token}/settings", data=fields)


Form = Callable[[FlaskClient, Scene], Callable[[], TestResponse]]
WEB: dict[str, dict[str, Form]] = {"carry": {
    "record": lambda phone, s: record_form(phone, s.second.token, {"hombre": "Dan", "trumps": "hearts", "hombre_tricks": "5"}),
    "undo": lambda phone, s: undo_form(phone, s.second.token),
    "correct 1": lambda phone, s: amend_form(phone, s.first.token, 4, {"hombre": "Ann", "trumps": "hearts", "hombre_tricks": "6"},
                                             "Ann", "six tricks"),
    "correct 2": lambda phone, s: amend_form(phone, s.second.token, 1, {"hombre": "Cat", "trumps": "hearts",
                                                                       "hombre_tricks": "6"}, "Dan", "six tricks"),
    "settings": lambda phone, s: settings_post(phone, s.second.token),
    "start": lambda phone, s: circle_form(phone, s, "next", {**{f"seat_{i}": p for i, p in enumerate(THIRD, start=1)},
                                                             "first_dealer": "1"}),
    "rename": lambda phone, s: circle_form(phone, s, "rename", {"member": "Bea", "new_name": "Beatrix"}),
    "member": lambda phone, s: circle_form(phone, s, "member", {"new_member": "Fay"}),
    "settle": lambda phone, s: circle_form(phone, s, "settle", {}),
}, "spadille": {
    "correct 1": lambda phone, s: amend_form(phone, s.first.token, 1, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6"},
                                             "Ann", "six tricks"),
    "record": lambda phone, s: record_form(phone, s.second.token, {"hombre": "Dan", "trumps": "hearts", "hombre_tricks": "6"}),
}}
"""Each command as a phone's form sends it (the same command as :data:`CARRY` and :data:`SPADILLE`)."""

WEB_PAIRS = {
    ("carry", "correct 1", "record"): [{"correct 1", "record"}, {"correct 1"}],
    ("spadille", "correct 1", "record"): [{"correct 1"}, {"record"}],
    ("carry", "settings", "start"): [{"start"}],
    ("carry", "undo", "start"): [{"undo"}, {"start"}],
    ("carry", "record", "start"): [{"record", "start"}, {"start"}],
    ("carry", "correct 1", "settle"): [{"settle"}, {"correct 1"}],
    ("carry", "record", "rename"): [{"rename", "record"}],
    ("carry", "correct 1", "correct 2"): [{"correct 1", "correct 2"}],
    ("carry", "rename", "settle"): [{"rename", "settle"}, {"rename"}],
    ("carry", "rename", "start"): [{"rename", "start"}, {"rename"}],
    ("carry", "member", "settle"): [{"member", "settle"}, {"member"}],
    ("carry", "rename", "rename"): [{"rename"}],
}
"""The key pairs, and what each must be seen to leave (which commands written) at least once: each order's.
(A deal previewed before a correction of evening 1 changed what it settles is shown again, not recorded.)"""


def written(reference: Serial, one: str, other: str, left: State) -> frozenset[str] | None:
    """Which of the two commands the circle shows written, if it is what some order of them leaves."""
    if left == reference.untouched:
        return frozenset()
    done = {name: outcomes for name, (outcomes, end) in reference.orders.items() if end == left}
    if done:
        a, b = next(iter(done.values()))
        return frozenset(name for name, o in ((one, a), (other, b)) if o == "done")
    return next((frozenset({name}) for name, end in reference.alone.items() if end == left), None)


@pytest.mark.parametrize(("play", "one", "other"), list(WEB_PAIRS), ids=[pair_id(*pair) for pair in WEB_PAIRS])
def test_two_phones_on_a_circle_leave_what_one_order_leaves(app: Flask, race: Race, play: str, one: str, other: str) -> None:
    reader = app.test_client()
    how = PLAYS[play]
    with app.app_context():
        reference = serial(get_db(), how, one, other, alone_too=True)
    expected = [frozenset(names) for names in WEB_PAIRS[(play, one, other)]]
    happened: Counter[frozenset[str]] = Counter()
    for trial in race.rounds(lambda: all(happened[names] for names in expected), least=WEB_LEAST):
        with app.app_context():
            s = how.scene(get_db())
        ann, bea = app.test_client(), app.test_client()
        first, second = WEB[play][one](ann, s), WEB[play][other](bea, s)
        a, b = race(first, second)
        assert a.status_code in (200, 302, 409, 422) and b.status_code in (200, 302, 409, 422), (a.status_code, b.status_code)
        with app.app_context():
            left = state(get_db().conn, s.circle)
        names = written(reference, one, other, left)
        assert names is not None, f"trial {trial}: the phones' {one} and {other} left a circle no order of them leaves"
        happened[names] += 1
        for phone, response, name in ((ann, a, one), (bea, b, other)):
            if name not in names:  # refused: the phone was told why
                assert said(phone, response).strip(), (name, response.status_code)
        check_circle(app, reader, s, pages=race.last_overlapped or happened[names] == 1, pdf=trial == 0)
    assert all(happened[names] for names in expected), happened


# --- an interleaving found racing, played out step by step -----------------------------------------------------


def test_a_correction_form_carries_the_length_of_the_log_it_shows(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Phone A opens the correction of deal 1 of evening 2 just as phone B's correction of that deal is written:
    between the fold A's page shows and the log length its form carries. The form must carry the length of
    the log it shows, so that saving it is refused (the table changed while correcting) instead of writing over
    B's correction, which A never saw. (The fold was read in one snapshot and the log's length after it: the
    form carried B's length under A's deal, and A's correction was written over B's.)"""
    from scorer.store import seasons

    with app.app_context():
        s = carry_scene(get_db())
    real = seasons.fold_circle
    bea = connect(app.config["DATABASE"], "NORMAL")

    def bea_writes_right_after(conn: sqlite3.Connection, circle_id: int, *args: object, **kwargs: object) -> object:
        folded = real(conn, circle_id, *args, **kwargs)  # type: ignore[arg-type]
        monkeypatch.setattr(seasons, "fold_circle", real)
        run(bea, s.second, Amend(1, CORRECTED_SECOND_1, "Bea", "Bea's", s.seen_second))
        return folded

    ann = app.test_client()
    url = f"/t/{s.second.token}/audit/1/amend/solo"
    monkeypatch.setattr(seasons, "fold_circle", bea_writes_right_after)
    fields = hidden(ann.get(url))
    assert seasons.fold_circle is real  # Bea's correction was written while Ann's form was made
    bea.conn.close()
    fields.update({"contract": "solo", "matadors": "0", "hombre": "Cat", "trumps": "hearts", "hombre_tricks": "7",
                   "by": "Dan", "reason": "Ann's", "action": "preview"})
    answer = ann.post(url, data=fields)  # Ann checks what her correction changes, then saves it
    if answer.status_code == 200:
        fields.update(hidden(answer))
        answer = ann.post(url, data={**fields, "action": "save"})
    told = said(ann, answer)
    with app.app_context():
        lines, _ = read_lines(get_db().conn, s.second.id)
    assert [(line.kind.value, line.reason) for line in lines[s.seen_second:]] == [("amend", "Bea's")], told
    assert "changed on another phone" in told
    check_circle(app, app.test_client(), s)


def test_a_next_evening_form_starts_the_evening_its_page_offered(app: Flask) -> None:
    """Ann's and Bea's pages both offer to start evening 3. Bea starts it, and its first deal is recorded; then
    Ann's form arrives. It is refused (evening 3 was just started), and evening 3 stays open: a form sent from
    a page that offered evening 3 never starts evening 4, closing the evening just begun. (The form did not
    say which evening it started: Ann's started evening 4, and evening 3 ended after one deal.)"""
    with app.app_context():
        s = carry_scene(get_db())
    ann, bea = app.test_client(), app.test_client()
    seats = {**{f"seat_{i}": p for i, p in enumerate(THIRD, start=1)}, "first_dealer": "1"}
    ann_starts, bea_starts = circle_form(ann, s, "next", seats), circle_form(bea, s, "next", seats)
    started = bea_starts()
    assert started.status_code == 302, said(bea, started)
    third = started.headers["Location"].split("/t/")[1].split("/")[0]
    assert record_form(bea, third, {"hombre": "Bea", "trumps": "hearts", "hombre_tricks": "6"})().status_code == 302
    answer = ann_starts()
    assert answer.status_code == 422 and "Evening 3 was just started on another phone." in said(ann, answer)
    circle = check_circle(app, app.test_client(), s)
    assert circle.evenings == 3
    assert bea.get(f"/t/{third}/deal/solo").status_code == 200  # evening 3 is open: its next deal can be recorded


@pytest.mark.parametrize(("module", "reads", "page"), [
    ("circles", "circle_by_token", "/c/{token}"),
    ("circles", "circle_by_spectator_token", "/cs/{spectator}"),
    ("circles", "circle_by_token", "/c/{token}/evenings"),
    ("circles", "circle_by_spectator_token", "/cs/{spectator}/evenings"),
    ("circles", "circle_by_token", "/c/{token}/tally.pdf"),
    ("circles", "circle_by_token", "/c/{token}/check"),
    ("exchange", "circle_by_token", "/c/{token}/export.json"),
])
def test_a_page_of_the_circle_reads_one_circle_when_a_member_is_renamed_meanwhile(
        app: Flask, monkeypatch: pytest.MonkeyPatch, module: str, reads: str, page: str) -> None:
    """A member is renamed on another phone just after a page of the circle read the circle, before it folded
    its season: the page answers 200, as the circle is after the rename or before it, never a mix of both. (A
    page built its chart and settle-up from the circle it read and the season folded after it: the season's
    members were called by their new names and the circle's by their old, and the page answered 500. The races
    of a rename against a settlement and against the next evening hit it: their refusals show the page.)"""
    import importlib

    views = importlib.import_module(f"scorer.web.pages.{module}")
    with app.app_context():
        s = carry_scene(get_db())
    real = getattr(views, reads)
    bea = connect(app.config["DATABASE"], "NORMAL")

    def renamed_right_after(db: sqlite_utils.Database, token: str) -> object:
        read = real(db, token)
        monkeypatch.setattr(views, reads, real)
        rename_member(bea, s.circle, "Bea", "Beatrix")
        return read

    monkeypatch.setattr(views, reads, renamed_right_after)
    answer = app.test_client().get(page.format(token=s.circle.token, spectator=s.circle.spectator_token))
    bea.conn.close()
    assert getattr(views, reads) is real  # the rename was written while the page was made
    assert answer.status_code == 200
    assert check_circle(app, app.test_client(), s).renames == (("Bea", "Beatrix"),)


@pytest.mark.parametrize(("module", "reads", "what"), [
    ("files", "ledger", "evening"),
    ("circle_files", "circle_tables", "circle"),
])
def test_an_export_made_as_the_circle_changes_is_one_moment_of_it(
        app: Flask, monkeypatch: pytest.MonkeyPatch, module: str, reads: str, what: str) -> None:
    """Another phone records a deal of evening 2 just after an export of the evening read its deals, or starts
    evening 3 just after an export of the circle read its evenings: the file is the evening or the circle as it
    was at one moment, so it imports (as a backup must). (The export read its parts one after the other: the
    evening's deals from before the deal and its history from after, or the circle's evenings from before the
    new one and its log from after; the file was refused on import.)"""
    import importlib

    from scorer.store import import_circle, import_evening, ledger, read_circle_file, read_evening_file

    store = importlib.import_module(f"scorer.store.{module}")
    with app.app_context():
        s = carry_scene(get_db())
    real = getattr(store, reads)
    bea = connect(app.config["DATABASE"], "NORMAL")
    change: Callable[[], object] = {"evening": lambda: run(bea, s.second, Record(2, SECOND_DEALS[1])),
                                    "circle": lambda: start_evening(bea, s.circle, THIRD, THIRD[0])}[what]

    def changed_right_after(db: sqlite_utils.Database, *args: object) -> object:
        read = real(db, *args)
        monkeypatch.setattr(store, reads, real)
        change()
        return read

    monkeypatch.setattr(store, reads, changed_right_after)
    url = f"/t/{s.second.token}/export.json" if what == "evening" else f"/c/{s.circle.token}/export.json"
    answer = app.test_client().get(url)
    bea.conn.close()
    assert getattr(store, reads) is real and answer.status_code == 200  # the change was written as the file was made
    with app.app_context():
        if what == "evening":
            imported = import_evening(get_db(), read_evening_file(answer.data), "races")
            assert len(ledger(get_db(), imported).deals) in (1, 2)
        else:
            circle = import_circle(get_db(), read_circle_file(answer.data), "races")
            assert circle.evenings in (2, 3)
    check_circle(app, app.test_client(), s)
