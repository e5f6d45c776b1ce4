"""The core's write path: decide (is this command still valid against the log?) and the one fold of a log (advance).

Domain tests: no database, no fixtures."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers.deals import valid_deal
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core import Contract, Deal, DealError, Evening, HouseRules, ImpossibleDeal, Suit
from scorer.core.limits import LOG_LINES_PER_DEAL
from scorer.core.ledger.log import (
    Amend,
    DealTaken,
    Ledger,
    LimitReached,
    Line,
    LineKind,
    ReadOnly,
    Record,
    Refused,
    Restore,
    TableChanged,
    Undo,
    Command,
    advance,
    decide_and_advance,
    fold,
    recheck,
)

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
EVENING = Evening(PLAYERS, HouseRules.of(), (), 8)
DEALERS = ["Ann", "Bea", "Cat", "Dan"] * 2


def decide(command: Command, book: Ledger, at: str = "") -> Line:
    """The line the write path decides for ``command`` (:func:`decide_and_advance`, its ledger left aside)."""
    return decide_and_advance(command, book, at)[0]


def solo(n: int, tricks: int = 6) -> Deal:
    return Deal(DEALERS[n - 1], "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=tricks)


def ledger_of(*kinds: str) -> Ledger:
    """A ledger built from a short log written as words: r (record the next deal), u (undo), a<k> (amend deal k)."""
    book = Ledger.start(EVENING)
    for word in kinds:
        if word == "r":
            line = decide(Record(len(book.deals) + 1, solo(len(book.deals) + 1)), book)
        elif word == "u":
            line = decide(Undo(len(book.deals)), book)
        else:
            k = int(word[1:])
            line = decide(Amend(k, solo(k, tricks=7 if book.deals[k - 1].hombre_tricks == 6 else 6), "Ann", None, book.seq), book)
        book = advance(book, [line])
        assert book.damage is None
    return book


@pytest.mark.parametrize(
    "log, command, refusal",
    [
        ("r r r", Record(3, solo(3)), DealTaken),  # another phone recorded deal 3 first
        ("r r r", Record(5, solo(5)), DealTaken),
        ("r r r", Undo(2), TableChanged),  # deal 2 is not the last any more
        ("", Undo(1), TableChanged),
        ("r r r u", Amend(3, solo(3, 7), "Ann", None, 4), TableChanged),  # the undo raced the correction: deal 3 is gone
        ("r r r", Amend(3, solo(3, 7), "Ann", None, 2), TableChanged),  # the form saw a shorter log
        ("r r r", Amend(2, solo(2), "Ann", None, 3), Refused),  # no change
        ("r r r a3", Restore(3, 2, "Ann", None, 4), TableChanged),  # line 2 is deal 2's, not a version of deal 3
        ("r r r a3", Restore(3, 4, "Ann", None, 4), Refused),  # the version standing already
        ("r r r a3 u", Restore(3, 3, "Ann", None, 5), TableChanged),  # undone since: deal 3 does not stand
        ("r r r", Record(4, Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=11)), ImpossibleDeal),
        ("r r r", Record(4, Deal("Bea", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6)), ImpossibleDeal),  # wrong dealer
    ],
)
def test_a_command_the_log_has_moved_past_is_refused(log: str, command: Record | Undo | Amend | Restore,
                                                     refusal: type[Exception]) -> None:
    book = ledger_of(*log.split())
    with pytest.raises(refusal):
        decide(command, book)


@pytest.mark.parametrize(
    "log, command, kind",
    [
        ("", Record(1, solo(1)), LineKind.RECORD),
        ("r r r", Record(4, solo(4)), LineKind.RECORD),
        ("r r r", Undo(3), LineKind.UNDO),
        ("r r r", Amend(2, solo(2, 7), "Ann", "miscounted", 3), LineKind.AMEND),
        ("r r r a3", Restore(3, 3, "Bea", None, 4), LineKind.RESTORE),
        ("r r r u r", Undo(3), LineKind.UNDO),
    ],
)
def test_a_command_that_still_holds_becomes_the_next_line(log: str, command: Record | Undo | Amend | Restore,
                                                          kind: LineKind) -> None:
    book = ledger_of(*log.split())
    line = decide(command, book, at="2026-11-22T00:00:00+00:00")
    assert (line.seq, line.kind, line.number) == (book.seq + 1, kind, command.number)
    assert advance(book, [line]).damage is None


def test_a_correction_that_makes_a_later_deal_impossible_is_refused_with_its_number() -> None:
    # Deal 2's dealer follows from deal 1's; a corrected deal 1 with another dealer makes deal 2 impossible.
    book = ledger_of("r", "r")
    moved = replace(solo(1), dealer="Bea")
    with pytest.raises(DealError) as refused:
        decide(Amend(1, moved, "Ann", None, book.seq), book)
    assert refused.value.number == 2


def test_a_damaged_ledger_takes_no_command() -> None:
    book = advance(ledger_of("r"), [Line(2, LineKind.UNDO, 5)])
    assert book.damage is not None and book.damage.seq == 2
    with pytest.raises(ReadOnly):
        decide(Record(2, solo(2)), book)


def test_a_deal_changed_too_often_reaches_its_limit() -> None:
    book = ledger_of("r", *["a1"] * (LOG_LINES_PER_DEAL - 1))
    with pytest.raises(LimitReached):
        decide(Amend(1, solo(1, 9), "Ann", None, book.seq), book)


@pytest.mark.parametrize(
    "lines, seq, number, why",
    [
        ([Line(1, LineKind.UNDO, 1)], 1, 1, "not the last deal standing"),
        ([Line(1, LineKind.RECORD, 2, solo(2))], 1, 2, "when 0 deals stand"),
        ([Line(1, LineKind.RECORD, 1, solo(1)), Line(3, LineKind.RECORD, 2, solo(2))], 2, None, "line 2 of the log is missing"),
        ([Line(1, LineKind.AMEND, 1, solo(1))], 1, 1, "does not stand"),
        ([Line(1, LineKind.RECORD, 1, solo(1)), Line(2, LineKind.RESTORE, 1, solo(1), restores=7)], 2, 1, "not a version"),
        ([Line(1, LineKind.RECORD, 9, solo(1))], 1, None, "outside the 8 deals agreed"),
        ([Line(1, LineKind.RECORD, 1, None)], 1, 1, "carries no deal"),
        ([Line(1, LineKind.RECORD, 1, Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=4, premiers=True))], 1, 1,
         "cannot be settled"),
    ],
)
def test_a_log_that_does_not_fold_is_damaged_where_it_breaks(lines: list[Line], seq: int, number: int | None, why: str) -> None:
    book = fold(EVENING, lines)
    assert book.damage is not None
    assert (book.damage.seq, book.damage.number) == (seq, number)
    assert why in book.damage.why
    assert len(book.settlements) <= len(book.deals)


def test_the_deals_before_a_break_still_stand_and_settle() -> None:
    lines = [decide(Record(1, solo(1)), Ledger.start(EVENING), at="t")]
    lines.append(Line(2, LineKind.RECORD, 2, Deal("Bea", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=4, premiers=True)))
    book = fold(EVENING, lines)
    assert book.damage is not None and book.damage.number == 2
    assert len(book.settlements) == 1 and book.replay.evening.deals == (solo(1),)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_decided_lines_always_fold_and_one_fold_equals_many(data: st.DataObject) -> None:
    """Every line decide makes folds without damage, and folding a log at once equals folding it line by line."""
    rules = HouseRules.of(data.draw(st.sampled_from(["quadrille", "mediateur", "penguin_points", "britannica"])))
    evening = Evening(PLAYERS, rules, (), 12)
    book = Ledger.start(evening)
    lines: list[Line] = []
    for _ in range(data.draw(st.integers(1, 30))):
        played = len(book.deals)
        choice = data.draw(st.sampled_from(["record", "record", "undo", "amend", "restore"]))
        try:
            if choice == "record":
                command: Record | Undo | Amend | Restore = Record(played + 1, data.draw(valid_deal(book.final, rules)))
            elif choice == "undo":
                command = Undo(played)
            elif choice == "amend" and played:
                k = data.draw(st.integers(1, played))
                deal = replace(data.draw(valid_deal(book.settlements[k - 1].before, rules)), dealer=book.deals[k - 1].dealer)
                command = Amend(k, deal, "Ann", None, book.seq)
            elif choice == "restore" and played:
                k = data.draw(st.integers(1, played))
                command = Restore(k, book.versions_of(k)[0].seq, "Bea", None, book.seq)
            else:
                continue
            line = decide(command, book)
        except (Refused, DealError, ImpossibleDeal):
            continue
        written, after = decide_and_advance(command, book)  # the write path's one call: the same line, the same ledger
        book = advance(book, [line])
        assert book.damage is None
        assert written == line and after == book
        lines.append(line)
    assert fold(evening, lines) == book
    assert book.final.total == 0


def test_a_deal_is_checked_once_when_written_and_a_stored_log_is_not_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """decide checks the deal it records; folding that line in, or reading the log back (check=False),
    settles it unchecked; an import (check=True) and recheck (the Check page) check every deal."""
    import sys

    calls: list[Deal] = []
    real = sys.modules["scorer.core.ledger.table_checks"].check_deal
    for module in ("scorer.core.ledger.settle", "scorer.core.ledger.log"):  # each binds the name (scorer.core.ledger.settle is also a function)
        monkeypatch.setattr(sys.modules[module], "check_deal", lambda deal, *a: (calls.append(deal), real(deal, *a))[1])
    book = ledger_of("r", "r")
    calls.clear()
    line = decide(Record(3, solo(3)), book)
    assert len(calls) == 1
    after = advance(book, [line], check=False)
    assert len(calls) == 1  # not checked again
    lines = [*(v for vs in book.versions for v in vs), line]
    stored = fold(EVENING, lines, check=False)
    assert len(calls) == 1 and stored == after  # read back: trusted, settled the same
    assert fold(EVENING, lines) == after and len(calls) == 4  # an import: all three checked
    assert recheck(stored) is stored and len(calls) == 7  # the Check page: all three checked again


def test_the_write_path_settles_a_recorded_deal_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """decide_and_advance keeps the settlement that checked the deal: the system settles it once, not
    once to check it and again to fold it (issue 16), and the ledger is the one decide then advance make."""
    book = ledger_of("r", "r")
    system = book.evening.rules.profile.system
    settled: list[Deal] = []
    real = type(system).settle
    monkeypatch.setattr(type(system), "settle", lambda self, deal, *a: (settled.append(deal), real(self, deal, *a))[1])
    line, after = decide_and_advance(Record(3, solo(3)), book)
    assert settled == [solo(3)]
    assert after == advance(book, [decide(Record(3, solo(3)), book)], check=False) and after.seq == line.seq == 3
    settled.clear()
    line, after = decide_and_advance(Amend(2, solo(2, tricks=7), "Ann", None, book.seq), book)  # a correction replays
    assert settled[0] == solo(2, tricks=7) and after.deals[1] == solo(2, tricks=7) and after.damage is None


def planted(deal: Deal) -> list[Line]:
    """A stored log of three deals, the second edited in the database into ``deal``."""
    return [Line(1, LineKind.RECORD, 1, solo(1)), Line(2, LineKind.RECORD, 2, deal), Line(3, LineKind.RECORD, 3, solo(3))]


def test_a_stored_deal_that_only_its_check_refuses_settles_until_it_is_rechecked() -> None:
    """Premiers with four tricks: the system can pay it, only check_deal refuses it. A stored log is not
    checked again, so it settles as stored; recheck finds it, as an import of the same lines does."""
    lines = planted(replace(solo(2, tricks=4), premiers=True))
    stored = fold(EVENING, lines, check=False)
    assert stored.damage is None and len(stored.settlements) == 3
    found = recheck(stored)
    assert found.damage is not None and (found.damage.seq, found.damage.number) == (2, 2)
    assert "premiers are the first six tricks" in found.damage.why
    assert found == fold(EVENING, lines)  # as the checked fold leaves it
    assert len(found.replay.settlements) == 1 and found.final == stored.settlements[0].after


def test_a_stored_deal_the_system_cannot_settle_damages_the_log_with_its_check_s_reason() -> None:
    """A deal naming a stranger makes the unchecked settlement fail: the fold names why, as the check does."""
    lines = planted(replace(solo(2), hombre="Zed"))
    stored = fold(EVENING, lines, check=False)
    assert stored.damage is not None and stored.damage.number == 2
    assert stored.damage == fold(EVENING, lines).damage
    assert "Zed" in stored.damage.why
