"""A season nothing can break (issue 22): every write to a circle's evening is decided against the whole
season inside its write transaction; an evening ends when the next begins; an evening's settings are its
circle's; a circle edited by hand is read-only and named, never a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlite_utils


from scorer.core import Contract, Deal, HouseRules, Suit
from scorer.core.ledger.log import Amend, ReadOnly, Record, Undo
from scorer.core.ledger.season import EveningClosed, LaterEveningBroken, replay_season
from scorer.web.db import connect, migrate
from scorer.store import (
    LEDGERS, SEASONS, Circle, Table, circle_season, circle_tables, create_circle, ledger, log_size, run, season_fold, start_evening, table_by_token,
)
from scorer.store.backup import check_database
from scorer.store.circles import CircleDamaged, add_member, circle_by_token
from scorer.store.circle_log import circle_genesis, circle_link
from scorer.store.tables import CircleEvening, change_settings

MEMBERS = ("Ann", "Bea", "Cat", "Dan", "Eve")
FIRST = ("Ann", "Bea", "Cat", "Dan")
SECOND = ("Bea", "Cat", "Dan", "Eve")
RULES = HouseRules.of("quadrille", {"pool_at_end": "carry_forward", "codille_indivisible": "odd_to_spadille"})


@pytest.fixture
def db(tmp_path: Path) -> sqlite_utils.Database:
    database = connect(str(tmp_path / "season.sqlite"))
    migrate(database)
    return database


def solo(players: tuple[str, ...], number: int, tricks: int) -> Deal:
    """Deal ``number`` of an evening: the dealer in turn from the first, Hombre the eldest, a solo in hearts."""
    return Deal(players[(number - 1) % 4], players[number % 4], Contract.SOLO, Suit.HEARTS, hombre_tricks=tricks)


def evening(db: sqlite_utils.Database, circle: Circle, players: tuple[str, ...], tricks: list[int]) -> Table:
    table = start_evening(db, circle, players, players[0])
    for number, taken in enumerate(tricks, start=1):
        run(db, table, Record(number, solo(players, number, taken), by=players[0]))
    return table


def two_evenings(db: sqlite_utils.Database, rules: HouseRules = RULES) -> tuple[Circle, Table, Table]:
    """The issue's season: evening 1 a remise (a pool carried), evening 2 a codille, then a game won."""
    circle = create_circle(db, "Thursdays", MEMBERS, rules, 8, 10, "EUR")
    first = evening(db, circle, FIRST, [5])
    second = evening(db, circle, SECOND, [3, 6])
    return circle, first, second


def lines(db: sqlite_utils.Database) -> int:
    return int(db.execute("select count(*) from events").fetchone()[0]) + int(
        db.execute("select count(*) from circle_events").fetchone()[0])


def test_an_evening_ends_when_the_next_begins(db: sqlite_utils.Database) -> None:
    circle, first, second = two_evenings(db)
    before = lines(db)
    with pytest.raises(EveningClosed, match="Evening 1 of the circle ended when evening 2 began.*correct that deal"):
        run(db, first, Record(2, solo(FIRST, 2, 5), by="Ann"))
    with pytest.raises(EveningClosed, match="Evening 1"):
        run(db, first, Undo(1, by="Ann"))
    assert lines(db) == before
    run(db, second, Undo(2, by="Bea"))  # the last evening is open
    assert len(ledger(db, second).deals) == 1


def test_a_correction_that_would_break_a_later_evening_is_refused_naming_it(db: sqlite_utils.Database) -> None:
    circle, first, second = two_evenings(db)
    season = circle_season(db, circle)
    before = lines(db)
    # Evening 1 won instead of a remise: nothing carried, so evening 2's codille leaves an odd chip for
    # Spadille, and its second deal names no holder of Spadille: it cannot settle.
    with pytest.raises(LaterEveningBroken, match=r"evening 2 of the circle unable to settle, at line 2 \(deal 2\)"):
        run(db, first, Amend(1, solo(FIRST, 1, 6), "Ann", "miscounted", log_size(db.conn, first.id)))
    assert lines(db) == before
    assert circle_season(db, circle) == season
    assert season_fold(db, circle).damage is None


def test_a_correction_flows_into_every_later_evening(db: sqlite_utils.Database) -> None:
    circle, first, second = two_evenings(db, HouseRules.of("quadrille", {"pool_at_end": "carry_forward"}))
    carried = circle_season(db, circle).evenings[1].carried_in
    run(db, first, Amend(1, solo(FIRST, 1, 6), "Ann", "she won it", log_size(db.conn, first.id)))
    season = circle_season(db, circle)
    assert season.evenings[1].carried_in == season.evenings[0].carried_out != carried
    assert ledger(db, second).evening.carried_in == season.evenings[1].carried_in
    # the season is the fold of its logs, replayed from nothing
    evenings = [ledger(db, t).evening for t in circle_tables(db, circle)]
    assert season == replay_season(MEMBERS, evenings, [MEMBERS, MEMBERS])
    total = sum(sum(e.results.values()) for e in season.evenings) + season.carried
    assert total == 0


def test_an_evening_of_a_circle_keeps_its_circles_settings(db: sqlite_utils.Database) -> None:
    circle = create_circle(db, "Thursdays", MEMBERS, RULES, 8, 10, "EUR")
    table = start_evening(db, circle, FIRST, "Ann")
    with pytest.raises(CircleEvening, match="plays by its circle's settings"):
        change_settings(db, table, HouseRules.of("penguin_points"), 8, 10, "EUR")
    with pytest.raises(CircleEvening):
        change_settings(db, table, RULES, 12, 10, "EUR")
    row = db.execute("select profile, deals_agreed from tables where id = ?", [table.id]).fetchone()
    assert tuple(row) == ("quadrille", 8)


# --- a circle edited by hand: read-only, named, never a 500 ------------------------------------------------


def rechain(db: sqlite_utils.Database, circle_id: int) -> None:
    """Compute the circle's hash chain again, as somebody editing the database by hand would."""
    row = dict(db.execute("select * from circles where id = ?", [circle_id]).fetchone())
    previous = circle_genesis(row)
    for line in db.execute("select * from circle_events where circle_id = ? order by seq", [circle_id]).fetchall():
        line = dict(line)
        digest = circle_link(previous, line)
        db.execute("update circle_events set hash = ? where circle_id = ? and seq = ?", [digest, circle_id, line["seq"]])
        previous = digest


def _member_is_a_founder(db: sqlite_utils.Database, circle: Circle) -> None:
    db.execute("update circle_events set data = ? where circle_id = ? and kind = 'member'",
               [json.dumps({"name": "Ann"}), circle.id])


def _founders_cut_to_three(db: sqlite_utils.Database, circle: Circle) -> None:
    db.execute("update circles set members = ? where id = ?", [json.dumps(["Ann", "Bea", "Cat"]), circle.id])


def _a_payer_who_is_no_member(db: sqlite_utils.Database, circle: Circle) -> None:
    data = {"first": 1, "last": 1, "payments": [{"payer": "Zed", "payee": "Ann", "cents": 10}]}
    db.execute("insert into circle_events (circle_id, seq, kind, data, created_at, hash) values (?, 99, 'settled', ?, '', '')",
               [circle.id, json.dumps(data)])
    db.execute("update circle_events set seq = (select count(*) from circle_events where circle_id = ?) where seq = 99",
               [circle.id])


def _an_evenings_profile_changed(db: sqlite_utils.Database, circle: Circle) -> None:
    db.execute("update tables set profile = 'penguin_points' where circle_id = ? and circle_evening = 2", [circle.id])


def _an_evening_line_deleted(db: sqlite_utils.Database, circle: Circle) -> None:
    """Evening 2's line deleted and the lines after it numbered again, so that no number is missing."""
    seq = db.execute("select max(seq) from circle_events where circle_id = ? and kind = 'evening'", [circle.id]).fetchone()[0]
    db.execute("delete from circle_events where circle_id = ? and seq = ?", [circle.id, seq])
    db.execute("update circle_events set seq = seq - 1 where circle_id = ? and seq > ?", [circle.id, seq])


@pytest.mark.parametrize("edit, says", [
    (_member_is_a_founder, "adds a member named as a member is or was"),
    (_founders_cut_to_three, "founding members are not four"),
    (_a_payer_who_is_no_member, "payment by or to somebody who is not a member"),
    (_an_evenings_profile_changed, "evening 2: its profile is not the circle's"),
    (_an_evening_line_deleted, "has tables for 2 evenings but its log started 1 evening: a line is missing"),
])
def test_a_circle_edited_by_hand_is_read_only_and_named(db: sqlite_utils.Database, edit: object, says: str) -> None:
    circle, first, second = two_evenings(db)
    add_member(db, circle, "Fay")
    assert callable(edit)
    edit(db, circle)
    rechain(db, circle.id)
    circle = circle_by_token(db, circle.token) or circle
    fold = season_fold(db, circle)
    assert fold.damage is not None and says in fold.damage.message
    before = lines(db)
    with pytest.raises((ReadOnly, CircleDamaged)):
        add_member(db, circle, "Gil")
    second = table_by_token(db, second.token) or second  # as its page reads it now
    with pytest.raises(ReadOnly):
        run(db, second, Record(3, solo(SECOND, 3, 6), by="Bea"))
    assert lines(db) == before
    findings = [f for f in check_database(db) if f.kind == "circle"]
    assert any(f.broken and says in f.text for f in findings), findings


def test_a_deleted_last_line_is_named_and_its_number_never_taken_again(db: sqlite_utils.Database) -> None:
    """The last line deleted leaves no gap in the numbers: the evening it started, with no line, names it."""
    circle, first, second = two_evenings(db)
    db.execute("delete from circle_events where circle_id = ? and seq = (select max(seq) from circle_events where circle_id = ?)",
               [circle.id, circle.id])
    fold = season_fold(db, circle)
    assert fold.damage is not None and "has tables for 2 evenings but its log started 1 evening: a line is missing" in fold.damage.message
    with pytest.raises(CircleDamaged):
        add_member(db, circle, "Fay")
    assert db.execute("select max(seq) from circle_events where circle_id = ?", [circle.id]).fetchone()[0] == 1


# --- a second reading's finds: what a warm fold cannot see is checked again before anything is written -----


def _deal_edited_with_its_chain(db: sqlite_utils.Database, table: Table) -> None:
    """Evening 1's deal 1 edited by hand into one its check refuses (a solo with the vole announced), its chain recomputed."""
    from scorer.store.chain import genesis, link
    row = db.execute("select * from events where table_id = ? and seq = 1", [table.id]).fetchone()
    deal = json.loads(row["deal"])
    deal.update(vole="announced")
    db.execute("update events set deal = ? where id = ?", [json.dumps(deal, sort_keys=True), row["id"]])
    previous = genesis(table)
    for line in db.execute("select * from events where table_id = ? order by seq", [table.id]).fetchall():
        previous = link(previous, dict(line))
        db.execute("update events set hash = ? where id = ?", [previous, line["id"]])


def _circle_line_edited_in_place(db: sqlite_utils.Database, table: Table) -> None:
    """The circle's first line changed in place, its chain not recomputed: no length nor last hash changes."""
    db.execute("update circle_events set created_at = '2020-01-01T00:00:00+00:00' where seq = 1")


@pytest.mark.parametrize("edit, says", [
    (_deal_edited_with_its_chain, "evening 1:"),
    (_circle_line_edited_in_place, "line 1 of the circle's log was changed after it was written"),
])
def test_what_a_warm_fold_cannot_see_refuses_every_write(db: sqlite_utils.Database, edit: object, says: str) -> None:
    circle, first, second = two_evenings(db)
    assert season_fold(db, circle).damage is None  # the fold is warm, kept by what its reads can see
    assert callable(edit)
    edit(db, first)
    LEDGERS.clear()  # the server restarted: its first fold reads the stored logs unchecked
    SEASONS.clear()
    season_fold(db, circle)
    before = lines(db)
    with pytest.raises(CircleDamaged, match=says):
        run(db, second, Record(3, solo(SECOND, 3, 6), by="Bea"))
    with pytest.raises(CircleDamaged, match=says):
        add_member(db, circle, "Fay")
    assert lines(db) == before


def test_a_circle_rows_house_rules_that_are_no_json_answer_with_the_damage(db: sqlite_utils.Database) -> None:
    circle, first, second = two_evenings(db)
    db.execute("update circles set house_rules = 'not json' where id = ?", [circle.id])
    ledger(db, second)  # every evening's page reads it: never a JSONDecodeError
    assert season_fold(db, circle).damage is not None
    with pytest.raises(ReadOnly):
        run(db, second, Record(3, solo(SECOND, 3, 6), by="Bea"))
    assert any(f.broken for f in check_database(db) if f.kind == "circle")


def test_an_evenings_page_never_shows_another_evenings_ledger(db: sqlite_utils.Database) -> None:
    """An evening numbered by hand out of its place is not given the ledger of the table in that place."""
    circle, first, second = two_evenings(db)
    db.execute("update tables set circle_evening = 7 where id = ?", [first.id])
    moved = table_by_token(db, second.token)
    assert moved is not None
    shown = ledger(db, moved)
    assert shown.damage is not None or len(shown.deals) == 2


@pytest.mark.parametrize("change", ["a deal added", "the second deal corrected", "other rules", "nothing"])
def test_a_replay_continued_is_the_replay_from_scratch(change: str) -> None:
    """core.evening.replay_continued keeps what the two evenings share from the start and settles the rest:
    the season's replays of an evening read under a renamed member's new name grow deal by deal."""
    from dataclasses import replace as changed
    from scorer.core import Evening, replay
    from scorer.core.ledger.evening import replay_continued
    before = Evening(FIRST, HouseRules.of("quadrille", {"pool_at_end": "carry_forward"}),
                     tuple(solo(FIRST, n, t) for n, t in enumerate([5, 6, 4], start=1)), 8)
    after = {"a deal added": changed(before, deals=before.deals + (solo(FIRST, 4, 7),)),
             "the second deal corrected": changed(before, deals=(before.deals[0], solo(FIRST, 2, 3), before.deals[2])),
             "other rules": changed(before, rules=RULES),
             "nothing": before}[change]
    assert replay_continued(replay(before), after) == replay(after)
