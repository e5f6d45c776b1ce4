"""Circles in the store (issue 14): the schema and its migration, members, the next evening started once
by two phones at once, the pool one evening leaves carried into the next (never stored, so a correction
flows on), the season, and the circle's hash-chained log."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path

import pytest
import sqlite_utils
from helpers.store import MEMBERS, RESULTS, SEATINGS, circle_of, deals_of, play, three_evenings

from scorer.core import Evening, HouseRules, ImpossibleDeal, Reason
from scorer.core.ledger.log import Amend, Record, fold
from scorer.core.ledger.season import replay_season
from scorer.web.db import connect, migrate
from scorer.store import (
    LEDGERS,
    CircleRefused,
    Table,
    add_member,
    circle_by_spectator_token,
    circle_by_token,
    circle_season,
    circle_tables,
    create_table,
    ledger,
    log_size,
    read_lines,
    run,
    start_evening,
    table_by_token,
    verify,
    verify_circle,
)


@pytest.fixture
def db(tmp_path: Path) -> sqlite_utils.Database:
    database = connect(str(tmp_path / "circles.sqlite"))
    migrate(database)
    return database


# --- schema ----------------------------------------------------------------------------------------------


def test_an_existing_database_gains_circles_and_keeps_its_tables(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "old.sqlite"))
    migrate(db)
    for sql in ("DROP INDEX tables_circle_evening", "ALTER TABLE tables DROP COLUMN circle_evening",
                "ALTER TABLE tables DROP COLUMN circle_id", "DROP TABLE circle_events", "DROP TABLE circles"):
        db.execute(sql)  # the database as schema 5 left it
    old = create_table(db, SEATINGS[0], "Ann", HouseRules.of(), 4, None, "")
    migrate(db)
    assert {"circle_id", "circle_evening"} <= set(db.table("tables").columns_dict)
    assert db["circles"].exists() and db["circle_events"].exists()
    again = table_by_token(db, old.token)
    assert again is not None and again.circle_id is None and again.circle_evening is None
    migrate(db)  # and again, safely


# --- members -------------------------------------------------------------------------------------------


def test_a_circle_and_its_links(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    assert circle.members == MEMBERS and circle.evenings == 0 and circle.rules.changes() == {"pool_at_end": "carry_forward"}
    assert len({circle.token, circle.spectator_token}) == 2 and len(circle.token) == 22
    assert circle_by_token(db, circle.token) == circle == circle_by_spectator_token(db, circle.spectator_token)
    assert circle_by_token(db, circle.spectator_token) is None
    assert verify_circle(db, circle) is None


@pytest.mark.parametrize("members, says", [
    (("Ann", "Bea", "Cat"), "4 to 12 members"),
    (tuple(f"P{n}" for n in range(13)), "4 to 12 members"),
    (("Ann", "Bea", "Cat", "ANN"), "already has a member named 'Ann'"),
    (("Ann", "Bea", "Cat", "Ａｎｎ"), "already has a member named 'Ann'"),
    (("Capa", "Bea", "Cat", "Сара"), "looks like 'Capa'"),
    (("Ann", "Bea", "Cat", " Dan"), "normal form"),
    (("Ann", "Bea", "Cat", "pool"), "names a pot"),
])
def test_members_are_four_to_twelve_names_no_two_alike(db: sqlite_utils.Database, members: tuple[str, ...], says: str) -> None:
    with pytest.raises(ImpossibleDeal, match=says):
        circle_of(db, members=members)
    assert db.execute("select count(*) from circles").fetchone()[0] == 0


def test_a_member_added_later_starts_at_nought_and_a_name_is_never_reused(db: sqlite_utils.Database) -> None:
    circle = circle_of(db, members=MEMBERS[:4])
    play(db, start_evening(db, circle, SEATINGS[0], "Ann"), RESULTS[0])
    circle = add_member(db, circle, "Eve")
    assert circle.members == MEMBERS and circle_by_token(db, circle.token) == circle
    assert circle_season(db, circle).totals()["Eve"] == 0
    for name, says in [("Eve", "already has a member named 'Eve'"), ("bea", "already has a member named 'Bea'"),
                       ("Еve", "looks like 'Eve'")]:
        with pytest.raises(ImpossibleDeal, match=says):
            add_member(db, circle, name)
    for n in range(7):
        circle = add_member(db, circle, f"Guest {n}")
    with pytest.raises(CircleRefused, match="12 members"):
        add_member(db, circle, "One more")
    assert verify_circle(db, circle) is None


# --- evenings --------------------------------------------------------------------------------------------


def test_the_next_evening_is_four_members_after_an_evening_with_a_deal(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    for seated, dealer, says in [(("Ann", "Bea", "Cat", "Zed"), "Ann", "Zed is not a member"),
                                 (("Ann", "Bea", "Cat", "Ann"), "Ann", "same name"),
                                 (("Ann", "Bea", "Cat"), "Ann", "played by four"),
                                 (SEATINGS[0], "Eve", "first dealer must be one of the four")]:
        with pytest.raises(CircleRefused, match=says):
            start_evening(db, circle, seated, dealer)
    first = start_evening(db, circle, SEATINGS[0], "Bea")
    assert (first.circle_id, first.circle_evening, first.first_dealer) == (circle.id, 1, "Bea")
    assert (first.rules, first.deals_agreed, first.chip_value_cents, first.currency) == (circle.rules, 4, 10, "EUR")
    with pytest.raises(CircleRefused, match="Evening 1 has no deal recorded yet"):
        start_evening(db, circle, SEATINGS[1], "Bea")
    run(db, first, Record(1, deals_of(("Bea", "Cat", "Dan", "Ann"), "6")[0]))
    with pytest.raises(CircleRefused, match="Evening 1 was just started on another phone"):
        start_evening(db, circle, SEATINGS[1], "Bea", number=1)
    second = start_evening(db, circle, SEATINGS[1], "Bea", number=2)
    assert second.circle_evening == 2 and circle_tables(db, circle) == [first, second]
    assert circle_by_token(db, circle.token).evenings == 2  # type: ignore[union-attr]
    assert verify_circle(db, circle) is None


def test_two_phones_starting_the_next_evening_at_once_start_it_once(tmp_path: Path, db: sqlite_utils.Database) -> None:
    path = str(tmp_path / "circles.sqlite")
    circle = circle_of(db)
    phones = [connect(path), connect(path)]
    for trial in range(15):
        barrier = threading.Barrier(2)
        outcomes: list[object] = [None, None]
        seated = SEATINGS[trial % 3]

        def phone(n: int) -> None:
            barrier.wait(timeout=10)
            try:
                outcomes[n] = start_evening(phones[n], circle, seated, seated[n])
            except CircleRefused as refused:
                outcomes[n] = refused

        threads = [threading.Thread(target=phone, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
        started = [o for o in outcomes if isinstance(o, Table)]
        refused = [o for o in outcomes if isinstance(o, CircleRefused)]
        assert len(started) == 1 and len(refused) == 1, outcomes
        assert f"Evening {trial + 1} has no deal recorded yet" in refused[0].message
        tables = circle_tables(db, circle)
        assert [t.circle_evening for t in tables] == list(range(1, trial + 2)) and tables[-1] == started[0]
        run(db, tables[-1], Record(1, deals_of(seated[tables[-1].players.index(tables[-1].first_dealer):] +
                                                seated[:tables[-1].players.index(tables[-1].first_dealer)], "6")[0]))
    assert verify_circle(db, circle) is None


# --- the carried pool ------------------------------------------------------------------------------------


def core_season(pool_at_end: str, results: list[str]) -> list[Evening]:
    rules = HouseRules.of("quadrille", {"pool_at_end": pool_at_end})
    return [Evening(p, rules, tuple(deals_of(p, r)), 4) for p, r in zip(SEATINGS, results)]


@pytest.mark.parametrize("pool_at_end", ["carry_forward", "split_equally"])
def test_three_evenings_carry_their_pool_as_the_core_replays_them(db: sqlite_utils.Database, pool_at_end: str) -> None:
    circle = circle_of(db, pool_at_end)
    tables = three_evenings(db, circle)
    expected = replay_season(MEMBERS, core_season(pool_at_end, RESULTS))
    season = circle_season(db, circle)
    assert season == expected
    for table, evening in zip(tables, expected.evenings):
        assert ledger(db, table).evening.carried_in == evening.carried_in
        assert ledger(db, table).final == evening.replay.final
    assert sum(season.totals().values()) + season.carried == 0
    if pool_at_end == "carry_forward":
        assert expected.evenings[1].carried_in > 0


def test_a_correction_in_the_first_evening_flows_into_the_later_ones(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    first, second, third = three_evenings(db, circle)
    before = circle_season(db, circle)
    assert ledger(db, second).evening.carried_in == before.evenings[0].carried_out > 0  # cached now
    stake_before = ledger(db, second).settlements[0].stake
    corrected = replace(deals_of(first.players, RESULTS[0])[3], hombre_tricks=6)
    run(db, first, Amend(4, corrected, by="Ann", reason="six tricks, not five", seen=log_size(db.conn, first.id)))
    after = circle_season(db, circle)
    assert after.evenings[0].carried_out != before.evenings[0].carried_out
    # Evening 2 starts with the new pool: its cached ledger is folded afresh.
    second_ledger = ledger(db, second)
    assert second_ledger.evening.carried_in == after.evenings[0].carried_out
    carried = [t for t in second_ledger.settlements[0].transfers if t.reason is Reason.POOL_CARRIED_IN]
    assert [t.chips for t in carried] == ([after.evenings[0].carried_out] if after.evenings[0].carried_out else [])
    assert second_ledger.settlements[0].stake != stake_before
    assert ledger(db, third).evening.carried_in == after.evenings[1].carried_out
    # The circle's season is the core's season of the same deals, and every chip is accounted for.
    results = [RESULTS[0][:-1] + "6", *RESULTS[1:]]
    assert after == replay_season(MEMBERS, core_season("carry_forward", results))
    assert sum(after.totals().values()) + after.carried == 0
    # The write path folds with the same carried pool: a correction in evening 3 written now is what a
    # fold from scratch gives, and nothing in the cache differs from it.
    run(db, third, Amend(4, replace(deals_of(third.players, RESULTS[2])[3], hombre_tricks=5), by="Ann",
                         reason="a remise", seen=log_size(db.conn, third.id)))
    cached = ledger(db, third)
    lines, damage = read_lines(db.conn, third.id)
    scratch = fold(replace(third.evening(), carried_in=after.evenings[1].carried_out), lines, damage, check=True)
    assert cached.final == scratch.final and cached.damage is None
    LEDGERS.clear()
    assert ledger(db, third).final == cached.final
    assert circle_season(db, circle) == replay_season(MEMBERS, core_season("carry_forward", [results[0], results[1], "6 6 6 5"]))
    for table in (first, second, third):
        assert verify(db, table) is None


# --- the circle's log ------------------------------------------------------------------------------------


def test_a_tampered_circle_log_is_found(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    three_evenings(db, circle)
    circle = add_member(db, circle, "Fay")
    assert verify_circle(db, circle) is None
    rows = db.execute("select seq, data from circle_events where circle_id = ? order by seq", [circle.id]).fetchall()
    assert [json.loads(d).get("evening") for _, d in rows] == [1, 2, 3, None]
    data = json.loads(rows[1][1])
    data["players"] = ["Ann", "Bea", "Cat", "Dan"]
    with db.conn:
        db.execute("update circle_events set data = ? where circle_id = ? and seq = 2",
                   [json.dumps(data, sort_keys=True), circle.id])
    found = verify_circle(db, circle)
    assert found is not None and found.seq == 2 and "changed after it was written" in found.why
    db.execute("update circle_events set data = ? where circle_id = ? and seq = 2", [rows[1][1], circle.id])
    assert verify_circle(db, circle) is None
    db.execute("delete from circle_events where circle_id = ? and seq = 3", [circle.id])
    found = verify_circle(db, circle)
    assert found is not None and found.seq == 3 and "missing" in found.why
    # A settings row changed breaks the chain at its first line.
    db.execute("delete from circle_events where circle_id = ? and seq = 4", [circle.id])
    db.execute("update circles set name = 'Fridays' where id = ?", [circle.id])
    found = verify_circle(db, circle)
    assert found is not None and found.seq == 1
