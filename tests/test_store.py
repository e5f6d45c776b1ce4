"""The store: every command goes through the one write path, and the cached ledger always equals a fold of the log from scratch."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from helpers.deals import valid_deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.core import DealError, HouseRules, ImpossibleDeal
from scorer.core.ledger.log import Amend, Record, Refused, Restore, Undo, fold
from scorer.web.db import connect, migrate
from scorer.store import LEDGERS, create_table, ledger, read_lines, run

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


def from_scratch(db, table):  # type: ignore[no-untyped-def]
    lines, unreadable = read_lines(db.conn, table.id)
    assert unreadable is None
    return fold(table.evening(), lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_cached_ledger_equals_a_full_fold_after_any_commands(tmp_path: Path, data: st.DataObject) -> None:
    db = connect(str(tmp_path / f"store-{data.draw(st.integers(0, 10**9))}.sqlite"))
    migrate(db)
    rules = HouseRules.of(data.draw(st.sampled_from(["quadrille", "mediateur", "penguin_points", "britannica"])))
    table = create_table(db, PLAYERS, "Ann", rules, 40, None, "")
    for _ in range(data.draw(st.integers(1, 25))):
        current = ledger(db, table)
        played = len(current.settlements)
        operation = data.draw(st.sampled_from(["record", "record", "record", "undo", "amend", "restore"]))
        try:
            if operation == "record" and played < 40:
                run(db, table, Record(played + 1, data.draw(valid_deal(current.final, rules))))
            elif operation == "undo" and played:
                run(db, table, Undo(played))
            elif operation == "amend" and played:
                number = data.draw(st.integers(1, played))
                before = current.settlements[number - 1].before
                candidate = replace(data.draw(valid_deal(before, rules)), dealer=current.deals[number - 1].dealer)
                run(db, table, Amend(number, candidate, "Ann", None, current.seq))
            elif operation == "restore" and played:
                number = data.draw(st.integers(1, played))
                run(db, table, Restore(number, current.versions_of(number)[0].seq, "Bea", None, current.seq))
        except (Refused, DealError, ImpossibleDeal):
            pass  # refused, with nothing written: a correction that breaks a later deal, a version standing already
        assert ledger(db, table) == from_scratch(db, table)
        assert ledger(db, table).damage is None
    LEDGERS.clear()
    assert ledger(db, table) == from_scratch(db, table)
    db.conn.close()


def test_the_ledger_cache_is_bounded_by_the_deals_it_holds(tmp_path: Path) -> None:
    from scorer.core import Contract, Deal, Suit
    from scorer.store import LedgerCache

    db = connect(str(tmp_path / "cache.sqlite"))
    migrate(db)
    tables = []
    for _ in range(3):
        table = create_table(db, PLAYERS, "Ann", HouseRules.of(), 40, None, "")
        dealer = "Ann"
        for number in range(1, 11):
            run(db, table, Record(number, Deal(dealer, "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)))
            dealer = PLAYERS[(PLAYERS.index(dealer) + 1) % 4]
        tables.append(table)
    cache = LedgerCache(max_deals=25)  # room for two tables of 10 deals (11 each, counting the table itself)
    for table in tables:
        assert len(cache.get(db.conn, table)[0].settlements) == 10
    assert [cache.tables.get(t.token) is not None for t in tables] == [False, True, True]  # the least recently read went first
    assert cache.tables.weight == 22 <= cache.tables.bound
    cache.get(db.conn, tables[1])  # read again: now the most recent
    cache.get(db.conn, tables[0])
    assert [cache.tables.get(t.token) is not None for t in tables] == [True, True, False]
