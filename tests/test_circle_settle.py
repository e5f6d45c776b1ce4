"""A circle settles, and its members join and are renamed (issue 14, points 2 and 5): a ``settled`` line
of the circle's log (evenings a to b: who paid whom, as the page showed it), the next settle-up starting
after it, refused when nothing new was played or the page was stale, once when two phones record it
at once; a member added at 0; a member renamed by a ``rename`` line, the evenings keeping the names they
were played with and the season's ledger reading them under the new one; no name used twice; the
circle's log checked after each."""

from __future__ import annotations

import html
import random
import re
import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
import sqlite_utils
from flask import Flask
from flask.testing import FlaskClient
from helpers.store import RESULTS, SEATINGS, circle_of, deals_of, play
from helpers.web import csrf_token, next_evening, play_evening, start_circle
from scorer.store import log_size

from scorer.core import Deal, ImpossibleDeal
from scorer.core.ledger.log import Amend, Record
from scorer.core.ledger.season import Season
from scorer.web.db import connect, get_db, migrate
from scorer.store import (
    circle_by_token,
    circle_season,
    Table,
    circle_tables,
    ledger,
    SettledChange,
    run,
    start_evening,
    table_by_token,
    verify_circle,
)
from scorer.store.circles import (
    Circle,
    CircleRefused,
    add_member,
    owing,
    paid,
    record_settlement,
    rename_member,
    settle_digest,
    take_back_settlement,
)
from scorer.store.circle_log import circle_genesis, circle_link, read_events
from scorer.store.lines import row_where


@pytest.fixture
def db(tmp_path: Path) -> sqlite_utils.Database:
    database = connect(str(tmp_path / "circles.sqlite"))
    migrate(database)
    return database


def to_settle(circle: Circle, season: Season) -> tuple[int, int] | None:
    """The evenings a settlement would settle now (the first and last of :func:`owing`), or None."""
    found = owing(circle, season)
    return None if found is None else (found.first, found.last)


def fresh(db: sqlite_utils.Database, circle: Circle) -> Circle:
    again = circle_by_token(db, circle.token)
    assert again is not None
    return again


def evening(db: sqlite_utils.Database, circle: Circle, n: int, results: str = "6 5 6 5") -> None:
    seated = SEATINGS[n % 3]
    play(db, start_evening(db, circle, seated, seated[0]), results)


def tamper(db: sqlite_utils.Database, seq: int, old: str, new: str) -> None:
    db.conn.execute("update circle_events set data = replace(data, ?, ?) where seq = ?", [old, new, seq])
    db.conn.commit()


# --- settlements in the store ------------------------------------------------------------------------------


def test_a_settlement_is_recorded_and_the_next_settle_up_starts_after_it(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    with pytest.raises(CircleRefused, match="No evening has been played since the last settlement"):
        record_settlement(db, circle, 0)
    evening(db, circle, 0)
    evening(db, circle, 1)
    circle = fresh(db, circle)
    season = circle_season(db, circle)
    assert to_settle(circle, season) == (1, 2)
    _, payments = season.settle_up(10, 1, 2)
    assert payments
    settled = record_settlement(db, circle, circle.lines, settle_digest(1, 2, payments))
    assert [(s.first, s.last, s.payments) for s in settled.settlements] == [(1, 2, payments)]
    assert settled.lines == circle.lines + 1 and fresh(db, circle).settlements == settled.settlements
    assert verify_circle(db, settled) is None
    # nothing new since: refused, and nothing written
    with pytest.raises(CircleRefused, match="No evening has been played since the last settlement"):
        record_settlement(db, settled, settled.lines)
    assert to_settle(settled, circle_season(db, settled)) is None
    # a third evening: the next settle-up is evening 3 alone
    evening(db, settled, 2, "6 6 6 6")
    circle = fresh(db, settled)
    season = circle_season(db, circle)
    assert to_settle(circle, season) == (3, 3)
    cents, payments = season.settle_up(10, 3, 3)
    assert sum(cents.values()) == 0 and payments
    again = record_settlement(db, circle, circle.lines)
    assert [(s.first, s.last) for s in again.settlements] == [(1, 2), (3, 3)] and again.settlements[1].payments == payments
    assert verify_circle(db, again) is None


def test_a_settlement_taken_back_is_to_settle_again(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)
    evening(db, circle, 1)
    circle = record_settlement(db, fresh(db, circle), fresh(db, circle).lines)
    recorded = circle.settlements[0]
    assert to_settle(circle, circle_season(db, circle)) is None
    for seq, reason, lines, why in ((recorded.seq, " ", circle.lines, "Say why the settlement is taken back"),
                                    (recorded.seq, "Bea paid twice", circle.lines - 1, "The circle changed since"),
                                    (recorded.seq - 1, "Bea paid twice", circle.lines, "Only the last settlement standing")):
        with pytest.raises(CircleRefused, match=why):
            take_back_settlement(db, circle, seq, reason, lines)
    with pytest.raises(ImpossibleDeal, match="invisible or control character"):
        take_back_settlement(db, circle, recorded.seq, "Bea\u202e paid", circle.lines)
    back = take_back_settlement(db, circle, recorded.seq, "  Bea  paid twice ", circle.lines)
    assert back.settlements == () and back.settled_to() == 0 and back.settled_mark() == back.lines
    assert [(s.seq, s.first, s.last, s.payments, s.reason) for s in back.taken_back] == [
        (recorded.seq, 1, 2, recorded.payments, "Bea paid twice")]
    assert back.history() == back.taken_back and fresh(db, circle) == back and verify_circle(db, back) is None
    # its evenings are to settle again, as they were: the same payments
    found = owing(back, circle_season(db, back))
    assert found is not None and (found.first, found.last, found.payments) == (1, 2, recorded.payments)
    again = record_settlement(db, back, back.lines, settle_digest(1, 2, found.payments))
    assert [(s.first, s.last) for s in again.settlements] == [(1, 2)] and len(again.history()) == 2
    with pytest.raises(CircleRefused, match="Only the last settlement standing"):
        take_back_settlement(db, again, recorded.seq, "again", again.lines)  # taken back once already
    assert verify_circle(db, again) is None


@pytest.mark.parametrize(("data", "why"), [
    ('{"settlement": 1, "reason": "paid twice"}', "line 3 takes back a settlement that is not the last one standing"),
    ('{"settlement": 2, "reason": ""}', "line 3 takes back a settlement that is not the last one standing, or gives no reason"),
])
def test_a_settlement_taken_back_by_hand_is_found(db: sqlite_utils.Database, data: str, why: str) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)
    circle = record_settlement(db, fresh(db, circle), fresh(db, circle).lines)
    circle = take_back_settlement(db, circle, circle.settlements[0].seq, "paid twice", circle.lines)
    assert [line["kind"] for line in read_events(db.conn, circle.id)] == ["evening", "settled", "unsettled"]
    tamper_chained(db, circle, 3, data)
    broken = verify_circle(db, circle)
    assert broken is not None and why in broken.why


def tamper_chained(db: sqlite_utils.Database, circle: Circle, seq: int, data: str) -> None:
    """Line ``seq``'s data replaced, and the chain computed again from it (a hand edit that knows the chain)."""
    rows = db.conn.execute("select seq, kind, data, created_at from circle_events where circle_id = ? order by seq",
                           [circle.id]).fetchall()
    row = row_where(db.conn, "circles", "id", circle.id)
    assert row is not None
    previous = circle_genesis(row)
    for number, kind, stored, at in rows:
        line = {"seq": number, "kind": kind, "data": data if number == seq else stored, "created_at": at}
        previous = circle_link(previous, line)
        db.conn.execute("update circle_events set data = ?, hash = ? where circle_id = ? and seq = ?",
                        [line["data"], previous, circle.id, number])
    db.conn.commit()


def test_an_evening_started_but_not_played_is_not_settled(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)
    start_evening(db, circle, SEATINGS[1], SEATINGS[1][0])
    circle = fresh(db, circle)
    assert to_settle(circle, circle_season(db, circle)) == (1, 1)
    settled = record_settlement(db, circle, circle.lines)
    assert (settled.settlements[0].first, settled.settlements[0].last) == (1, 1)
    with pytest.raises(CircleRefused, match="No evening has been played"):
        record_settlement(db, settled, settled.lines)


def test_a_stale_settlement_is_refused(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)
    shown = fresh(db, circle)
    evening(db, circle, 1)  # another phone started and played evening 2 since the page was shown
    with pytest.raises(CircleRefused, match="changed since this page was shown"):
        record_settlement(db, shown, shown.lines)
    # the same log, but a deal recorded since: the settle-up shown is no longer the one to record
    now = fresh(db, circle)
    season = circle_season(db, now)
    _, payments = season.settle_up(10, 1, 2)
    stale = settle_digest(1, 2, payments)
    play(db, start_evening(db, now, SEATINGS[2], SEATINGS[2][0]), "5")
    with pytest.raises(CircleRefused):
        record_settlement(db, now, now.lines, stale)  # the log grew: an evening was started
    later = fresh(db, now)
    with pytest.raises(CircleRefused, match="The settle-up changed since this page was shown"):
        record_settlement(db, later, later.lines, stale)
    assert fresh(db, circle).settlements == ()


def test_two_phones_recording_the_same_settlement_record_it_once(tmp_path: Path, db: sqlite_utils.Database) -> None:
    path = str(tmp_path / "circles.sqlite")
    circle = circle_of(db)
    phones = [connect(path), connect(path)]
    for trial in range(3):
        evening(db, circle, trial)
        shown = fresh(db, circle)
        barrier = threading.Barrier(2)
        outcomes: list[object] = [None, None]

        def phone(n: int, shown: Circle = shown, barrier: threading.Barrier = barrier,
                  outcomes: list[object] = outcomes) -> None:
            barrier.wait(timeout=10)
            try:
                outcomes[n] = record_settlement(phones[n], shown, shown.lines)
            except CircleRefused as error:
                outcomes[n] = error

        threads = [threading.Thread(target=phone, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
        recorded = [o for o in outcomes if isinstance(o, Circle)]
        refused = [o for o in outcomes if isinstance(o, CircleRefused)]
        assert len(recorded) == 1 and len(refused) == 1, outcomes
        assert "changed since this page was shown" in refused[0].message
        circle = fresh(db, circle)
        assert [(s.first, s.last) for s in circle.settlements] == [(k, k) for k in range(1, trial + 2)]
    assert verify_circle(db, circle) is None


def paid_net(circle: Circle) -> dict[str, int]:
    """What each member has received (+) or paid (-) over every settlement of the circle."""
    net = dict.fromkeys(circle.members, 0)
    for payment in paid(circle):
        net[payment.payer] -= payment.cents
        net[payment.payee] += payment.cents
    return net


def test_a_correction_in_a_settled_evening_is_settled_next(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)
    evening(db, circle, 1)
    circle = record_settlement(db, fresh(db, circle), fresh(db, circle).lines)
    assert to_settle(circle, circle_season(db, circle)) is None
    # Evening 1's last deal was a win, not a remise: corrected after it was settled.
    first = circle_tables(db, circle)[0]
    corrected = replace(deals_of(first.players, "6 5 6 5")[3], hombre_tricks=6)
    amend = Amend(4, corrected, by="Ann", reason="six tricks", seen=log_size(db.conn, first.id))
    with pytest.raises(SettledChange, match="Evening 1 is covered by a recorded settlement"):
        run(db, first, amend)  # not confirmed against the settlement: nothing written
    assert log_size(db.conn, first.id) == amend.seen
    run(db, first, amend, settled_seen=circle.settled_mark())
    season = circle_season(db, circle)
    found = owing(circle, season)
    assert found is not None and (found.first, found.last) == (3, 2)  # nothing new: only the change
    # The change is what the season now says evenings 1 and 2 come to, less what was paid.
    whole, _ = season.settle_up(10, 1, 2)
    net = paid_net(circle)
    assert found.changed == found.cents == {m: whole[m] - net[m] for m in circle.members}
    assert any(found.cents.values()) and sum(found.cents.values()) == 0
    settled = record_settlement(db, circle, circle.lines, settle_digest(found.first, found.last, found.payments))
    assert (settled.settlements[-1].first, settled.settlements[-1].last) == (3, 2)
    assert verify_circle(db, settled) is None
    # Everything paid now is exactly what the season says evenings 1 and 2 come to.
    assert paid_net(settled) == whole and to_settle(settled, circle_season(db, settled)) is None
    # A third evening, then a correction in evening 2: one settlement takes both.
    evening(db, settled, 2, "6 6 6 5")
    second = circle_tables(db, settled)[1]
    fixed = replace(deals_of(second.players, "6 5 6 5")[1], hombre_tricks=6)
    run(db, second, Amend(2, fixed, by="Bea", reason="six tricks", seen=log_size(db.conn, second.id)),
        settled_seen=settled.settled_mark())
    now = fresh(db, settled)
    found = owing(now, circle_season(db, now))
    assert found is not None and (found.first, found.last) == (3, 3) and any(found.changed.values())
    after = record_settlement(db, now, now.lines)
    assert paid_net(after) == circle_season(db, after).settle_up(10)[0]
    assert verify_circle(db, after) is None


def test_a_member_who_joins_later_has_no_share_in_what_earlier_evenings_left(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)  # ends on a remise: the pool stays on the table, the members' in common
    season = circle_season(db, circle)
    assert season.evenings[0].carried_out > 0
    circle = record_settlement(db, fresh(db, circle), fresh(db, circle).lines)
    joined = add_member(db, circle, "Fay")
    season = circle_season(db, joined)
    assert season.evening_cents(10, 1)["Fay"] == 0
    assert owing(joined, season) is None  # nothing settled has changed by her joining
    evening(db, joined, 1, "5 5 5 5")  # four remises: evening 2 leaves more on the table than it found
    after = circle_season(db, fresh(db, joined))
    assert after.evenings[1].members == (*circle.members, "Fay")
    shared = (after.evenings[1].carried_out - after.evenings[1].carried_in) * 10
    assert sum(after.evening_cents(10, 2).values()) == 0 and shared != 0
    assert after.evening_cents(10, 2)["Fay"] in (shared // 6, shared // 6 + 1)  # she shares in what evening 2 left


def test_settling_evening_by_evening_comes_to_settling_them_together(db: sqlite_utils.Database) -> None:
    one, together = circle_of(db), circle_of(db)
    for n in range(3):
        evening(db, one, n, RESULTS[n])
        one = record_settlement(db, fresh(db, one), fresh(db, one).lines)
        evening(db, together, n, RESULTS[n])
    together = record_settlement(db, fresh(db, together), fresh(db, together).lines)
    assert paid_net(one) == paid_net(together) == circle_season(db, together).settle_up(10)[0]


def test_a_settlement_races_a_deal_recorded_in_the_evening_it_settles(tmp_path: Path, db: sqlite_utils.Database) -> None:
    """Two phones: one records the settlement of the evening under way, the other a deal in it. Either the
    settlement comes first (what it paid is what the page showed, and the deal is settled next time) or
    the deal does (the settlement is refused: the settle-up changed since the page was shown)."""
    path = str(tmp_path / "circles.sqlite")
    phones = [connect(path), connect(path)]
    orders = set()
    for trial in range(6):
        circle = circle_of(db)
        table = start_evening(db, circle, SEATINGS[0], SEATINGS[0][0])
        deals = deals_of(table.players, "6 5 6 5")
        for n, deal in enumerate(deals[:2], start=1):
            run(db, table, Record(n, deal, by="Ann"))
        shown = fresh(db, circle)
        found = owing(shown, circle_season(db, shown))
        assert found is not None
        digest = settle_digest(found.first, found.last, found.payments)
        barrier = threading.Barrier(2)
        outcomes: list[object] = [None, None]

        def settle(outcomes: list[object] = outcomes, barrier: threading.Barrier = barrier, shown: Circle = shown,
                   digest: str = digest) -> None:
            barrier.wait(timeout=10)
            try:
                outcomes[0] = record_settlement(phones[0], shown, shown.lines, digest)
            except CircleRefused as error:
                outcomes[0] = error

        def record(outcomes: list[object] = outcomes, barrier: threading.Barrier = barrier, table: Table = table,
                   deal: Deal = deals[2], trial: int = trial) -> None:
            barrier.wait(timeout=10)
            time.sleep(random.random() * 0.01 if trial % 2 else 0)
            outcomes[1] = run(phones[1], table, Record(3, deal, by="Ann"))

        threads = [threading.Thread(target=settle), threading.Thread(target=record)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
        assert outcomes[1] is not None and not isinstance(outcomes[1], Exception)
        after = fresh(db, circle)
        season = circle_season(db, after)
        assert len(season.evenings[0].replay.settlements) == 3
        if isinstance(outcomes[0], Circle):
            orders.add("settlement first")
            assert after.settlements[0].payments == found.payments  # what the page showed
            later = owing(after, season)
            assert later is not None and any(later.changed.values())  # the third deal, settled next
        else:
            orders.add("deal first")
            assert isinstance(outcomes[0], CircleRefused) and "changed since this page was shown" in outcomes[0].message
            assert after.settlements == ()
        assert verify_circle(db, after) is None
    assert orders, "no trial ran"  # both orders are legal; which happened depends on the machine


def test_the_page_shows_a_settle_up_over_any_range_of_evenings(client: FlaskClient) -> None:
    token = start_circle(client)
    for n in range(3):
        play_evening(client, next_evening(client, token, SEATINGS[n]), SEATINGS[n], RESULTS[n])
    page = html.unescape(client.get(f"/c/{token}?first=2&last=3").get_data(as_text=True))
    assert "Evenings 2 to 3 alone, whatever was settled:" in page
    chosen = re.search(r"alone, whatever was settled:</p>\s*<ol>(.*?)</ol>", page, re.S)
    assert chosen is not None and ("would pay" in chosen.group(1) or "Nobody would owe" in chosen.group(1))
    for query in ("first=3&last=2", "first=0&last=2", "first=2&last=9", "first=x&last=2"):
        response = client.get(f"/c/{token}?{query}")
        assert response.status_code == 200
        assert "Choose a first evening no later than the last" in response.get_data(as_text=True), query


def test_a_circle_holds_at_most_its_limits_of_evenings_and_log_lines(db: sqlite_utils.Database,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.store import circles
    circle = circle_of(db)
    monkeypatch.setattr(circles, "CIRCLE_EVENINGS_MAX", 2)
    evening(db, circle, 0)
    evening(db, circle, 1)
    with pytest.raises(CircleRefused, match="The circle has 2 evenings, as many as a circle may have"):
        start_evening(db, fresh(db, circle), SEATINGS[2], SEATINGS[2][0])
    now = fresh(db, circle)
    monkeypatch.setattr(circles, "CIRCLE_LOG_LINES_MAX", now.lines + 1)
    renamed = rename_member(db, now, "Ann", "Anne")  # the last line the log may take
    for refused in (lambda: rename_member(db, renamed, "Anne", "Annie"), lambda: add_member(db, renamed, "Fay"),
                    lambda: record_settlement(db, renamed, renamed.lines)):
        with pytest.raises(CircleRefused, match="as many as a circle may have"):
            refused()
    assert fresh(db, circle).lines == now.lines + 1 and verify_circle(db, renamed) is None


# --- members in the store ----------------------------------------------------------------------------------


def test_a_member_added_starts_at_0(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)
    grown = add_member(db, circle, "Fay")
    assert grown.members[-1] == "Fay" and verify_circle(db, grown) is None
    season = circle_season(db, grown)
    assert season.running()[-1]["Fay"] == 0 and season.members == grown.members
    play(db, start_evening(db, grown, ("Fay", "Ann", "Bea", "Cat"), "Fay"), "6 6 6 6")
    assert "Fay" in circle_season(db, fresh(db, grown)).evenings[1].results


def test_a_rename_keeps_the_history_and_the_ledger(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)  # Ann, Bea, Cat, Dan
    before = circle_season(db, fresh(db, circle))
    renamed = rename_member(db, circle, "Ann", "Anna")
    assert renamed.members == ("Anna", "Bea", "Cat", "Dan", "Eve") and renamed.renames == (("Ann", "Anna"),)
    assert renamed.founders[0] == "Ann" and verify_circle(db, renamed) is None
    # the evening's table and log keep the name it was played with
    first = circle_tables(db, renamed)[0]
    assert first.players[0] == "Ann" and ledger(db, first).evening.players[0] == "Ann"
    # the season reads it under the new name: the same figures
    after = circle_season(db, renamed)
    assert after.evenings[0].results["Anna"] == before.evenings[0].results["Ann"]
    assert after.running()[-1]["Anna"] == before.running()[-1]["Ann"] and "Ann" not in after.running()[-1]
    assert after.evenings[0].replay.evening.players[0] == "Anna"
    # she plays on under the new name, and the ledger adds both evenings up; renamed again, still one member
    play(db, start_evening(db, renamed, ("Anna", "Bea", "Cat", "Eve"), "Anna"), "6 6 6 6")
    twice = rename_member(db, renamed, "Anna", "Annie")
    season = circle_season(db, twice)
    assert twice.current_names() == {"Ann": "Annie", "Anna": "Annie"}
    assert season.running()[-1]["Annie"] == sum(e.results.get("Annie", 0) for e in season.evenings)
    assert season.evenings[0].results["Annie"] == before.evenings[0].results["Ann"]
    assert sum(season.running()[-1].values()) + season.carried == 0  # chips conserved
    assert verify_circle(db, twice) is None
    with pytest.raises(CircleRefused, match="Anna is not a member"):
        rename_member(db, twice, "Anna", "Nan")


def test_a_name_is_never_used_for_another_person(db: sqlite_utils.Database) -> None:
    circle = rename_member(db, circle_of(db), "Ann", "Anna")
    for attempt in (lambda: add_member(db, circle, "Ann"), lambda: add_member(db, circle, "ann"),
                    lambda: rename_member(db, circle, "Bea", "Ann"), lambda: rename_member(db, circle, "Bea", "Cat")):
        with pytest.raises(ImpossibleDeal):
            attempt()
    assert fresh(db, circle).lines == 1 and verify_circle(db, circle) is None


def test_the_circle_s_log_breaks_on_a_tampered_line(db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)
    circle = record_settlement(db, fresh(db, circle), fresh(db, circle).lines)
    circle = rename_member(db, circle, "Bea", "Beatrix")
    circle = add_member(db, circle, "Fay")
    assert verify_circle(db, circle) is None
    settled = circle.settlements[0]
    payer = settled.payments[0].payer
    tamper(db, 2, f'"cents": {settled.payments[0].cents}', f'"cents": {settled.payments[0].cents + 1}')
    broken = verify_circle(db, circle)
    assert broken is not None and "line 2 of the circle's log was changed" in broken.why
    tamper(db, 2, f'"cents": {settled.payments[0].cents + 1}', f'"cents": {settled.payments[0].cents}')
    assert verify_circle(db, circle) is None and payer
    tamper(db, 3, "Beatrix", "Bee")
    broken = verify_circle(db, circle)
    assert broken is not None and "line 3" in broken.why


# --- on the phone ------------------------------------------------------------------------------------------


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def settle_fields(client: FlaskClient, circle: str) -> dict[str, str]:
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    form = re.search(r'action="/c/[^"]+/settle".*?</form>', page, re.DOTALL)
    assert form, "no settlement form"
    fields = dict(re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', form.group(0)))
    return fields


def confirmed(client: FlaskClient, circle: str) -> dict[str, str]:
    """The circle page's settlement form sent (the first tap): the fields of the confirmation it answers with."""
    shown = client.post(f"/c/{circle}/settle", data=settle_fields(client, circle))
    assert shown.status_code == 200 and "Record this settlement?" in text(shown)
    form = re.search(r'action="/c/[^"]+/settle".*?</form>', shown.get_data(as_text=True), re.DOTALL)
    assert form, "no confirmation form"
    return dict(re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', form.group(0)))


def settle(client: FlaskClient, circle: str) -> None:
    """Record the settlement the circle's page shows: two taps."""
    assert client.post(f"/c/{circle}/settle", data=confirmed(client, circle)).status_code == 302


PAYS = re.compile(r"<li><strong>(\w+)</strong> pays <strong>(\w+)</strong> (\d+) chips</li>")


def stands(page: str) -> tuple[str, str]:
    """A season page's lead (where it stands): what was settled, and what is still to settle."""
    standing = page.split('<section class="standing" id="settle">')[1].split("</section>")[0]
    settled, still = standing.split("Still to settle")
    return settled, still


def test_the_page_records_a_settlement_on_a_second_tap_and_shows_it(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    page = text(client.get(f"/c/{circle}"))
    settled, still = stands(page)
    assert "Nothing yet." in settled and "Record this settlement" in still and "Evening 1, as it stands" in still
    assert page.index("Where the season stands") < page.index("Start the next evening")
    shown = PAYS.findall(still)
    assert shown
    fields = settle_fields(client, circle)
    stale = dict(fields, lines=str(int(fields["lines"]) - 1))
    refused = client.post(f"/c/{circle}/settle", data=stale)
    assert refused.status_code == 409 and "changed since this page was shown" in text(refused)
    # the first tap shows what will be recorded, and records nothing
    asked = client.post(f"/c/{circle}/settle", data=fields)
    asking = text(asked)
    assert asked.status_code == 200 and "Record this settlement?" in asking and "evening 1" in asking
    assert PAYS.findall(asking) == shown and "can be taken back from the circle's page" in asking
    assert "Nothing yet." in stands(text(client.get(f"/c/{circle}")))[0]
    confirm = dict(re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', asked.get_data(as_text=True)))
    assert confirm["confirm"] == "yes" and confirm["lines"] == fields["lines"]
    response = client.post(f"/c/{circle}/settle", data=confirm)
    assert response.status_code == 302
    page = text(client.get(f"/c/{circle}"))
    settled, still = stands(page)
    assert "the circle settled evening 1:" in settled and "Nothing: the season is settled." in still
    assert all(f"{payer} paid {payee} {cents} chips" in settled for payer, payee, cents in shown)
    assert not PAYS.findall(page)  # a payment recorded is never listed as to pay
    again = client.post(f"/c/{circle}/settle", data=confirm)
    assert again.status_code == 409 and "changed since this page was shown" in text(again)
    second = next_evening(client, circle, ("Bea", "Cat", "Dan", "Eve"))
    play_evening(client, second, ("Bea", "Cat", "Dan", "Eve"), "6 6 6 6")
    page = text(client.get(f"/c/{circle}"))
    assert "Evening 2, as it stands" in stands(page)[1] and "the circle settled evening 1:" in stands(page)[0]
    watched = text(client.get(re.findall(r'href="[^"]*?(/cs/[^"]+)"', page)[0]))
    assert "Record this settlement" not in watched and "the circle settled evening 1:" in stands(watched)[0]
    assert "Take it back" not in watched
    evenings = text(client.get(f"/c/{circle}/evenings"))
    assert evenings.index("Where the season stands") < evenings.index("Evening 1:")
    assert "the circle settled evening 1:" in stands(evenings)[0] and "Evening 2, as it stands" in stands(evenings)[1]


def take_back_fields(client: FlaskClient, circle: str) -> dict[str, str]:
    page = client.get(f"/c/{circle}").get_data(as_text=True)
    form = re.search(r'action="/c/[^"]+/take-back[^"]*".*?</form>', page, re.DOTALL)
    assert form, "no form to take a settlement back"
    return dict(re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', form.group(0)))


@pytest.mark.parametrize(("reason", "lines", "why"), [
    ("", 0, "Say why: the reason is kept with the settlement."),
    ("x" * 201, 0, "Field cannot be longer than 200 characters."),
    ("oops\u202e", 0, "invisible or control character"),
    ("Bea had not paid", -1, "The circle changed since this page was shown"),
])
def test_taking_a_settlement_back_is_refused_with_a_reason(client: FlaskClient, reason: str, lines: int, why: str) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    settle(client, circle)
    fields = take_back_fields(client, circle)
    refused = client.post(f"/c/{circle}/take-back", data=dict(fields, reason=reason, lines=str(int(fields["lines"]) + lines)))
    assert refused.status_code == 422 and why in text(refused)
    assert "the circle settled evening 1:" in stands(text(client.get(f"/c/{circle}")))[0]


def test_a_settlement_taken_back_is_to_settle_again_and_stays_struck_out(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    shown = PAYS.findall(stands(text(client.get(f"/c/{circle}")))[1])
    settle(client, circle)
    response = client.post(f"/c/{circle}/take-back", data=dict(take_back_fields(client, circle), reason="Bea had not paid"))
    assert response.status_code == 302
    page = text(client.get(f"/c/{circle}"))
    assert "The settlement of evening 1 is taken back: it is to settle again." in page
    settled, still = stands(page)
    assert "Nothing yet." in settled and re.search(r"<s>[^<]*the circle settled evening 1:.*?</s> Taken back on [^:]+: “Bea had not paid”",
                                                   settled)
    assert PAYS.findall(still) == shown and "Take it back" not in page  # nothing standing to take back
    pdf_text = client.get(f"/c/{circle}/tally.pdf")
    assert pdf_text.status_code == 200
    settle(client, circle)
    settled, still = stands(text(client.get(f"/c/{circle}")))
    assert "the circle settled evening 1:" in settled.split("<s>")[0] and "Nothing: the season is settled." in still


def test_the_page_says_what_changed_in_an_evening_already_settled(app: Flask, client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 5 6 5")
    settle(client, circle)
    with app.app_context():
        db = get_db()
        table = table_by_token(db, first)
        assert table is not None
        book = ledger(db, table)
        settled = circle_by_token(db, circle)
        assert settled is not None
        run(db, table, Amend(4, replace(book.evening.deals[3], hombre_tricks=6), by="Ann", reason="six tricks",
                             seen=log_size(db.conn, table.id)), settled_seen=settled.settled_mark())
    page = text(client.get(f"/c/{circle}"))
    assert re.search(r'Deal <a href="/t/[^"]+/audit/4">4</a> corrected by Ann, <time[^>]*>[^<]+</time>: “six tricks”; '
                     r"the totals below follow it.", page)
    assert "Nothing new was played, but evenings settled before changed since:" in page
    assert "Changed since evening 1 was settled (a deal recorded or corrected there):" in page
    changed = PAYS.findall(stands(page)[1])
    assert changed
    settle(client, circle)
    page = text(client.get(f"/c/{circle}"))
    assert "the circle settled changes to evenings settled before:" in page
    assert all(f"{payer} paid {payee} {cents} chips" in page for payer, payee, cents in changed)
    assert "Nothing: the season is settled." in stands(page)[1]


def test_the_page_adds_and_renames_members(client: FlaskClient) -> None:
    circle = start_circle(client)
    first = next_evening(client, circle, ("Ann", "Bea", "Cat", "Dan"))
    play_evening(client, first, ("Ann", "Bea", "Cat", "Dan"), "6 6 6 6")
    token = csrf_token(client, f"/c/{circle}")
    assert client.post(f"/c/{circle}/member", data={"new_member": "Fay", "csrf_token": token}).status_code == 302
    response = client.post(f"/c/{circle}/rename", data={"member": "Ann", "new_name": "Anna", "csrf_token": token})
    assert response.status_code == 302
    page = text(client.get(f"/c/{circle}"))
    assert "Anna, Bea, Cat, Dan, Eve, Fay" in page and "Ann → Anna" in page and re.search(r"Evening 1: <a [^>]*>Anna, Bea, Cat, Dan</a>", page)
    assert '<th scope="col" class="name" title="Ann">Ann</th>' in text(client.get(f"/t/{first}/ledger"))  # the evening keeps its names
    for url, data in ((f"/c/{circle}/member", {"new_member": "Ann"}), (f"/c/{circle}/rename", {"member": "Bea", "new_name": "Ann"})):
        refused = client.post(url, data={**data, "csrf_token": token})
        assert refused.status_code == 422 and "a name is never used for another person" in text(refused)
    refused = client.post(f"/c/{circle}/rename", data={"member": "Bea", "new_name": "Cat", "csrf_token": token})
    assert refused.status_code == 422 and "already has a member named" in text(refused)
    second = next_evening(client, circle, ("Anna", "Bea", "Cat", "Fay"))
    play_evening(client, second, ("Anna", "Bea", "Cat", "Fay"), "6 6 6 6")
    assert re.search(r"Evening 2: <a [^>]*>Anna, Bea, Cat, Fay</a>", text(client.get(f"/c/{circle}")))


def test_a_tampered_settlement_is_found(tmp_path: Path, db: sqlite_utils.Database) -> None:
    circle = circle_of(db)
    evening(db, circle, 0)
    circle = record_settlement(db, fresh(db, circle), fresh(db, circle).lines)
    conn = sqlite3.connect(str(tmp_path / "circles.sqlite"))
    conn.execute("update circle_events set data = replace(data, '\"last\": 1', '\"last\": 2') where kind = 'settled'")
    conn.commit()
    conn.close()
    broken = verify_circle(db, circle)
    assert broken is not None and "was changed after it was written" in broken.why
