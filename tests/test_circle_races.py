"""Every command on a circle raced against every other (issue 14, with the habit of issue 10): two phones,
each with its own SQLite connection, released together by a barrier, one of them delayed by a random
fraction of a millisecond or two so that both orders and the overlaps happen.

The commands: record a settlement (as the page showed it), start the next evening, add a member, rename
one, record a deal in the evening under way, correct a deal in the first evening. After each race, each
command either happened or was refused with a message (never an exception of another kind), a command
raced against itself happened once, and the circle is sound: its log and every evening's log verify,
the circle reads back, its season replays, the chips balance, and what a settlement recorded is what
its page showed.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import sqlite_utils
from test_circles_store import MEMBERS, deals_of

from scorer.core import HouseRules, ImpossibleDeal
from scorer.core.log import Amend, Record, Refused
from scorer.db import connect, migrate
from scorer.store import (
    LEDGERS,
    Circle,
    Table,
    circle_by_token,
    circle_season,
    circle_tables,
    create_circle,
    ledger,
    log_size,
    run,
    start_evening,
    verify,
    verify_circle,
)
from scorer.store.circles import add_member, owing, record_settlement, rename_member, settle_digest

TRIALS = 3
COMMANDS = ("settle", "start", "member", "rename", "record", "correct")
FIRST, SECOND, THIRD = ("Ann", "Bea", "Cat", "Dan"), ("Bea", "Cat", "Dan", "Eve"), ("Bea", "Cat", "Dan", "Eve")


@dataclass(frozen=True)
class Scene:
    """A circle with evening 1 played and evening 2 under way (two deals of four), as a page showed it."""

    circle: Circle
    first: Table
    second: Table
    digest: str
    seen_first: int


def scene(db: sqlite_utils.Database) -> Scene:
    circle = create_circle(db, "Races", MEMBERS, HouseRules.of("quadrille", {"pool_at_end": "carry_forward"}), 4, 10, "EUR")
    first = start_evening(db, circle, FIRST, FIRST[0])
    for n, deal in enumerate(deals_of(FIRST, "6 5 6 5"), start=1):
        run(db, first, Record(n, deal, by="Ann"))
    second = start_evening(db, circle, SECOND, SECOND[0])
    for n, deal in enumerate(deals_of(SECOND, "6 5 6 5")[:2], start=1):
        run(db, second, Record(n, deal, by="Bea"))
    shown = circle_by_token(db, circle.token)
    assert shown is not None
    found = owing(shown, circle_season(db, shown))
    assert found is not None
    return Scene(shown, first, second, settle_digest(found.first, found.last, found.payments), log_size(db.conn, first.id))


def command(name: str, phone: sqlite_utils.Database, s: Scene) -> Callable[[], object]:
    """The command ``name`` as a phone that saw the scene sends it."""
    calls: dict[str, Callable[[], object]] = {
        "settle": lambda: record_settlement(phone, s.circle, s.circle.lines, s.digest),
        "start": lambda: start_evening(phone, s.circle, THIRD, THIRD[0], number=3),
        "member": lambda: add_member(phone, s.circle, "Fay"),
        "rename": lambda: rename_member(phone, s.circle, "Ann", "Anne"),
        "record": lambda: run(phone, s.second, Record(3, deals_of(SECOND, "6 5 6 5")[2], by="Bea")),
        "correct": lambda: run(phone, s.first, Amend(4, replace(deals_of(FIRST, "6 5 6 5")[3], hombre_tricks=6),
                                                     by="Ann", reason="six tricks", seen=s.seen_first)),
    }
    return calls[name]


def race(calls: list[Callable[[], object]]) -> list[object]:
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]
    late = random.randrange(2)

    def phone(n: int) -> None:
        barrier.wait(timeout=10)
        if n == late:
            time.sleep(random.random() * 0.002)
        try:
            outcomes[n] = calls[n]()
        except (Refused, ImpossibleDeal) as refused:  # what a phone is told
            outcomes[n] = refused
        except Exception as error:  # noqa: BLE001 - any other failure is the test's finding
            outcomes[n] = ("crashed", error)

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def sound(db: sqlite_utils.Database, s: Scene) -> Circle:
    LEDGERS.clear()  # fold every evening from the database, as after a restart
    circle = circle_by_token(db, s.circle.token)
    assert circle is not None
    assert verify_circle(db, circle) is None
    for table in circle_tables(db, circle):
        assert verify(db, table) is None
        assert ledger(db, table).damage is None
    season = circle_season(db, circle)
    assert sum(season.totals().values()) + season.carried == 0
    if circle.settlements:
        assert settle_digest(circle.settlements[0].first, circle.settlements[0].last,
                             circle.settlements[0].payments) == s.digest
    return circle


@pytest.mark.parametrize(("one", "other"), list(itertools.combinations_with_replacement(COMMANDS, 2)))
def test_two_circle_commands_at_once_leave_the_circle_sound(tmp_path: Path, one: str, other: str) -> None:
    path = str(tmp_path / "races.sqlite")
    db = connect(path)
    migrate(db)
    phones = [connect(path), connect(path)]
    for _ in range(TRIALS):
        s = scene(db)
        outcomes = race([command(one, phones[0], s), command(other, phones[1], s)])
        crashed = [o for o in outcomes if isinstance(o, tuple)]
        assert not crashed, crashed
        done = [not isinstance(o, (Refused, ImpossibleDeal)) for o in outcomes]
        assert any(done), outcomes  # one of two phones always gets through
        if one == other:
            assert done.count(True) == 1, outcomes  # the same command from two phones happens once
        for outcome in outcomes:
            if isinstance(outcome, (Refused, ImpossibleDeal)):
                assert outcome.message.strip(), outcome
        circle = sound(db, s)
        # What happened is in the database, and what was refused is not.
        assert ("Fay" in circle.members) == ("member" in (one, other) and any(
            d for d, name in zip(done, (one, other)) if name == "member"))
        assert (circle.renames == (("Ann", "Anne"),)) == any(d for d, name in zip(done, (one, other)) if name == "rename")
        assert (circle.evenings == 3) == any(d for d, name in zip(done, (one, other)) if name == "start")
        assert (len(circle.settlements) == 1) == any(d for d, name in zip(done, (one, other)) if name == "settle")
