"""The store: the incremental ledger always equals a full replay of the log."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import valid_deal

from scorer.core import DealError, HouseRules, replay
from scorer.db import connect, migrate
from scorer.store import (
    LEDGERS,
    amend_deal,
    create_table,
    current_deals,
    evening,
    events,
    ledger,
    record_deal,
    restore_version,
    undo_last,
    versions_of,
)

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_cached_ledger_equals_a_full_replay_after_any_operations(tmp_path: Path, data: st.DataObject) -> None:
    db = connect(str(tmp_path / f"store-{data.draw(st.integers(0, 10**9))}.sqlite"))
    migrate(db)
    rules = HouseRules.of(data.draw(st.sampled_from(["quadrille", "mediateur", "penguin_points", "britannica"])))
    table = create_table(db, PLAYERS, "Ann", rules, 40, None, "")
    for _ in range(data.draw(st.integers(1, 25))):
        current = ledger(db, table)
        played = len(current.settlements)
        operation = data.draw(st.sampled_from(["record", "record", "record", "undo", "amend", "restore"]))
        if operation == "record" and played < 40:
            deal = data.draw(valid_deal(current.final, rules))
            record_deal(db, table, deal, played + 1)
        elif operation == "undo" and played:
            undo_last(db, table, played)
        elif operation in ("amend", "restore") and played:
            number = data.draw(st.integers(1, played))
            before = current.settlements[number - 1].before
            candidate = replace(data.draw(valid_deal(before, rules)), dealer=current.evening.deals[number - 1].dealer)
            deals = current.evening.deals
            trial = deals[: number - 1] + (candidate,) + deals[number:]
            try:
                replay(evening(table, trial))
            except DealError:
                continue  # a correction that would make a later deal impossible is refused by the app
            if operation == "amend":
                amend_deal(db, table, number, candidate, "Ann", None)
            else:
                old = versions_of(db, table, number)[0]
                restore_version(db, table, number, old, "Bea", None)
        full = replay(evening(table, current_deals(events(db, table))))
        assert ledger(db, table) == full
    LEDGERS.clear()
    assert ledger(db, table) == replay(evening(table, current_deals(events(db, table))))
    db.conn.close()
