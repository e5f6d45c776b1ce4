"""A table's log and the one write path that grows it: decide, then evolve.

A table is its log: an append-only list of :class:`Line` s (a deal recorded, the
last deal undone, a deal corrected, an earlier version restored). Everything a
page shows is derived from it by two pure functions:

- :func:`advance` folds new lines into a :class:`Ledger` (the deals standing,
  every version of each, and the settlements replayed from them). It is the
  only fold of a log in the app: the ledger cache, imports and tests all use
  it. A line it cannot accept (a deal undone that does not stand, a version
  that does not exist, a deal that cannot be settled) does not raise: the
  ledger keeps everything before it and says where and why it broke
  (:class:`Damage`), so a damaged table can still be read.
- :func:`decide_and_advance` checks a :class:`Command` against the ledger *as
  the log is now* and returns the line to append (with the ledger after it),
  or raises a :class:`Refused` saying why. The store calls it inside the write
  transaction, after bringing the ledger up to the log's last line, so nothing
  is checked that could change before the line is written.

Model: the "decider" of event sourcing (decide / evolve / initial state).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from ..errors import ImpossibleDeal, Said, ScorerError, Words
from .evening import Evening, Replay, replay_from
from ..limits import LOG_LINES_MAX, LOG_LINES_PER_DEAL, REASON_MAX
from ..model import Deal, Settlement, TableState
from ..systems.profiles import HouseRules
from ..i18n import N_, english, translating
from ..names import check_note
from .table_checks import check_deal
from .settle import settle


class LineKind(str, Enum):
    RECORD = "record"
    """Deal ``number`` is recorded: the next deal."""
    UNDO = "undo"
    """Deal ``number``, the last standing, is taken back."""
    AMEND = "amend"
    """Deal ``number`` is replaced by a corrected version."""
    RESTORE = "restore"
    """Deal ``number`` is put back as it was in the version written by line ``restores``."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a table's log."""

    seq: int
    """Its place in the log, from 1, with no gaps."""
    kind: LineKind
    number: int
    """The deal it is about."""
    deal: Deal | None = None
    """The deal as recorded, corrected or restored; ``None`` for an undo."""
    by: str | None = None
    """Who did it, as the phone said (or ``None``)."""
    reason: str | None = None
    """Why, for a correction or a restoration (optional)."""
    restores: int | None = None
    """For a restoration: the line whose version is put back."""
    at: str = ""
    """When it was written (UTC, ISO 8601)."""


@dataclass(frozen=True, slots=True)
class Damage:
    """Where a log stops making sense, and why: the ledger holds everything before it."""

    seq: int
    """The line at fault."""
    number: int | None
    """The deal it is about, if known."""
    said: Said
    """Why, kept language-neutral (English, or :class:`~scorer.core.errors.Words` worded when read): a
    damaged ledger is kept in the cache every reader shares."""

    @property
    def why(self) -> str:
        """A sentence for the table's Check page, in the current reader's language."""
        return str(self.said)

    @property
    def message(self) -> str:
        return str(self.words)

    @property
    def words(self) -> Words:
        """:attr:`message`, worded when read."""
        if self.number is not None:
            return Words(N_("line {seq} (deal {number}): {why}"), seq=self.seq, number=self.number, why=self.said)
        return Words(N_("line {seq}: {why}"), seq=self.seq, why=self.said)


@dataclass(frozen=True)
class Ledger:
    """A table's log folded: the deals standing, their versions, and their settlements."""

    evening: Evening
    """The table's players, house rules and length, with the deals standing (up to any damage)."""
    seq: int = 0
    """The last line of the log folded in."""
    deals: tuple[Deal, ...] = ()
    """The deals standing, in order (all of them, even past a deal that cannot be settled)."""
    versions: tuple[tuple[Line, ...], ...] = ()
    """For each deal standing, the lines that gave it a version since it was last recorded, oldest first."""
    mentions: tuple[int, ...] = ()
    """For each deal number, how many lines of the whole log name it (see LOG_LINES_PER_DEAL)."""
    settlements: tuple[Settlement, ...] = ()
    """One per deal standing, up to the first that cannot be settled."""
    damage: Damage | None = None
    """Where the log broke, if it did; a damaged table is read-only."""
    _replay: list[Replay] = field(default_factory=list, repr=False, compare=False)

    @classmethod
    def start(cls, evening: Evening) -> Ledger:
        """The ledger of an empty log (``evening`` gives the players, rules and length; its deals are ignored)."""
        return cls(replace(evening, deals=()))

    @property
    def final(self) -> TableState:
        return self.settlements[-1].after if self.settlements else self.evening.start()

    @property
    def replay(self) -> Replay:
        """The settled deals as the core's :class:`Replay` (made once, then kept)."""
        if not self._replay:
            self._replay.append(Replay(self.evening, self.settlements, self.final))
        return self._replay[0]

    def versions_of(self, number: int) -> tuple[Line, ...]:
        return self.versions[number - 1] if 1 <= number <= len(self.versions) else ()

    def recorded_by(self, number: int) -> str | None:
        """Who recorded deal ``number`` as it stands (its first version), if it stands."""
        versions = self.versions_of(number)
        return versions[0].by if versions else None


class _Unfoldable(ScorerError):
    """A line the fold cannot take: the :class:`Damage` it leaves, raised inside the fold and caught there."""

    def __init__(self, seq: int, number: int | None, why: Said) -> None:
        super().__init__(why)
        self.damage = Damage(seq, number, why)


@dataclass
class _Folding:
    """The deals, versions and per-deal line counts of a log being folded (lists, changed in place)."""

    deals: list[Deal]
    versions: list[tuple[Line, ...]]
    mentions: list[int]
    deals_agreed: int


def _fold_line(line: Line, expected_seq: int, folding: _Folding) -> int:
    """Apply one line to the deals and versions (in place); return the first deal number it changes.
    Raise :class:`_Unfoldable` if the line cannot follow the log before it."""
    _check_place(line, expected_seq, folding)
    if (line.kind is LineKind.UNDO) != (line.deal is None):
        raise _Unfoldable(line.seq, line.number, Words(N_("an undo carries no deal, and every other line carries one")))
    if (line.kind is LineKind.RESTORE) != (line.restores is not None):
        raise _Unfoldable(line.seq, line.number, Words(N_("only a restoration names the version it puts back")))
    _FOLDS[line.kind](line, folding)
    return line.number


def _check_place(line: Line, expected_seq: int, folding: _Folding) -> None:
    """The line's place in the log and the limits on it; counts it against its deal."""
    seq, number = line.seq, line.number
    if seq != expected_seq:
        raise _Unfoldable(expected_seq, None, Words(N_("line {seq} of the log is missing"), seq=expected_seq))
    if seq > LOG_LINES_MAX:
        raise _Unfoldable(seq, number, Words(N_("the log is longer than {most} lines"), most=LOG_LINES_MAX))
    if number < 1 or number > folding.deals_agreed:
        raise _Unfoldable(seq, None, Words(N_("it names deal {number}, outside the {agreed} deals agreed"),
                                           number=number, agreed=folding.deals_agreed))
    mentions = folding.mentions
    mentions.extend([0] * (number - len(mentions)))
    mentions[number - 1] += 1
    if mentions[number - 1] > LOG_LINES_PER_DEAL:
        raise _Unfoldable(seq, number, Words(N_("more than {most} lines of the log name this deal"),
                                             most=LOG_LINES_PER_DEAL))


def _fold_record(line: Line, folding: _Folding) -> None:
    standing = len(folding.deals)
    if line.number != standing + 1:
        raise _Unfoldable(line.seq, line.number, Words(N_("it records deal {number} when {standing} deals stand"),
                                                       number=line.number, standing=standing))
    assert line.deal is not None
    folding.deals.append(line.deal)
    folding.versions.append((line,))


def _fold_undo(line: Line, folding: _Folding) -> None:
    if line.number != len(folding.deals) or not folding.deals:
        raise _Unfoldable(line.seq, line.number,
                          Words(N_("it undoes deal {number}, which is not the last deal standing"), number=line.number))
    folding.deals.pop()
    folding.versions.pop()


def _fold_version(line: Line, folding: _Folding) -> None:
    """An amendment or a restoration: a new version of a deal standing."""
    seq, number = line.seq, line.number
    if not 1 <= number <= len(folding.deals):
        raise _Unfoldable(seq, number, Words(N_("it corrects deal {number}, which does not stand"), number=number))
    if line.kind is LineKind.RESTORE:
        restored = next((v for v in folding.versions[number - 1] if v.seq == line.restores), None)
        if restored is None:
            raise _Unfoldable(seq, number, Words(N_("it restores line {line}, which is not a version of this deal"),
                                                 line=line.restores))
        if restored.deal != line.deal:
            raise _Unfoldable(seq, number, Words(N_("the deal it restores differs from line {line}"), line=line.restores))
    assert line.deal is not None
    if line.deal == folding.deals[number - 1]:
        raise _Unfoldable(seq, number, Words(N_("it puts back the very deal that stands")))
    folding.deals[number - 1] = line.deal
    folding.versions[number - 1] = folding.versions[number - 1] + (line,)


_FOLDS = {LineKind.RECORD: _fold_record, LineKind.UNDO: _fold_undo, LineKind.AMEND: _fold_version,
          LineKind.RESTORE: _fold_version}


def advance(ledger: Ledger, lines: Sequence[Line], unreadable: Damage | None = None, *, check: bool = True,
            settled: Settlement | None = None) -> Ledger:
    """The ledger after ``lines`` (the lines that follow ``ledger.seq``, in order).

    ``unreadable`` is a line after them that could not even be read (the store
    could not parse it); it damages the ledger like a line that does not fold.
    A damaged ledger takes no further lines.

    ``check`` says whether each deal settled is first checked
    (:func:`~scorer.core.check_deal`). A deal is checked once, when it is
    written: :func:`decide_and_advance` checks the deal of a command, an import checks its
    whole file. A log read back is hash-chained and was checked when written,
    so it is folded with ``check=False``: a deal that then fails to settle (a
    row edited in the database) still damages the ledger, named as its check
    names it, and :func:`recheck` (the Check page, ``scorer verify``) checks
    every deal again.

    ``settled`` is a settlement :func:`decide_and_advance` already made: it is taken for its deal, settled from the
    same state, instead of settling it again."""
    if ledger.damage is not None or (not lines and unreadable is None):
        return ledger
    deals_agreed = ledger.evening.deals_agreed
    folding = _Folding(list(ledger.deals), list(ledger.versions), list(ledger.mentions), deals_agreed)
    deals, versions, mentions = folding.deals, folding.versions, folding.mentions
    first_changed = len(deals) + 1
    seq = ledger.seq
    damage = None
    for line in lines:
        try:
            changed = _fold_line(line, seq + 1, folding)
        except _Unfoldable as bad:
            damage = bad.damage
            break
        first_changed = min(first_changed, changed)
        seq = line.seq
    if damage is None:
        damage = unreadable
    with translating(english):  # what the ledger keeps, every reader shares: nothing worded for one of them
        settlements, refused = _resettle(ledger, deals, min(first_changed, len(ledger.settlements) + 1), check, settled)
    if damage is None and refused is not None:
        broken = len(settlements) + 1
        damage = Damage(versions[broken - 1][-1].seq, broken, _cannot_settle(refused))
    evening = replace(ledger.evening, deals=tuple(deals[: len(settlements)]))
    return Ledger(evening, seq, tuple(deals), tuple(versions), tuple(mentions), tuple(settlements), damage)


def _cannot_settle(error: ImpossibleDeal) -> Words:
    return Words(N_("the deal cannot be settled: {message}"), message=error.said)


def _resettle(ledger: Ledger, deals: list[Deal], first: int, check: bool,
              settled: Settlement | None = None) -> tuple[list[Settlement], ImpossibleDeal | None]:
    """The settlements of ``deals``: those before deal ``first`` kept, the rest settled again,
    stopping at the first deal that cannot be settled (and saying why)."""
    settlements = list(ledger.settlements[: first - 1])
    evening = ledger.evening
    rules, agreed = evening.rules, evening.deals_agreed
    system_settle = rules.profile.system.settle  # looked up once, each deal settled from the last's state
    state = settlements[-1].after if settlements else evening.start()
    append = settlements.append
    for deal in deals[first - 1:]:
        if settled is not None and settled.deal is deal and settled.before is state:
            append(settled)  # decide settled this very deal from this very state (decide_and_advance)
            state = settled.after
            continue
        try:
            if check:
                check_deal(deal, state, rules)
            settlement = system_settle(deal, state, rules, agreed)
        except ImpossibleDeal as error:
            return settlements, _checked_error(deal, state, rules, error)
        except Exception:  # a stored deal the system cannot settle: its check says why (or, if it passes, the bug shows)
            check_deal(deal, state, rules)
            raise
        append(settlement)
        state = settlement.after
    return settlements, None


def _checked_error(deal: Deal, state: TableState, rules: HouseRules, error: ImpossibleDeal) -> ImpossibleDeal:
    """Why a stored deal cannot be settled, as its check names it (else as the system said)."""
    try:
        check_deal(deal, state, rules)
    except ImpossibleDeal as checked:
        return checked
    return error


def fold(evening: Evening, lines: Sequence[Line], unreadable: Damage | None = None, *, check: bool = True) -> Ledger:
    """A whole log folded from the start (see :func:`advance` for ``check``)."""
    return advance(Ledger.start(evening), lines, unreadable, check=check)


def recheck(ledger: Ledger) -> Ledger:
    """The ledger with every deal standing checked again against the state it was settled from:
    the same ledger if all pass, else one damaged at the first that fails.

    A stored log is folded unchecked (:func:`advance`); this is the Check
    page's and ``scorer verify``'s second look, which finds a deal edited in
    the database with its hash chain recomputed."""
    rules = ledger.evening.rules
    for kept, settlement in enumerate(ledger.settlements):
        try:
            with translating(english):
                check_deal(settlement.deal, settlement.before, rules)
        except ImpossibleDeal as error:
            number = settlement.number
            damage = Damage(ledger.versions[number - 1][-1].seq, number, _cannot_settle(error))
            old = ledger.evening
            evening = replace(old, deals=old.deals[:kept])
            return replace(ledger, evening=evening, settlements=ledger.settlements[:kept], damage=damage, _replay=[])
    return ledger


# --- commands --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """Record ``deal`` as deal ``number`` (the next)."""

    number: int
    deal: Deal
    by: str | None = None
    shown: Settlement | None = field(default=None, compare=False)
    """The settlement the form showed, made by :func:`~scorer.core.settle` under the evening's rules from the state
    it read: kept if the log's last state is still that very state (the deal is settled once), else ignored and
    the deal checked and settled again."""


@dataclass(frozen=True)
class Undo:
    """Take back deal ``number``, which must still be the last."""

    number: int
    by: str | None = None


@dataclass(frozen=True)
class Amend:
    """Replace deal ``number`` by ``deal``; ``seen`` is the log's length when the correction was prepared."""

    number: int
    deal: Deal
    by: str | None
    reason: str | None
    seen: int


@dataclass(frozen=True)
class Restore:
    """Put back the version of deal ``number`` written by line ``version``, as a new version."""

    number: int
    version: int
    by: str | None
    reason: str | None
    seen: int


Command = Record | Undo | Amend | Restore


class Refused(ScorerError):
    """A command that cannot be carried out against the log as it is now; the message says why."""


class DealTaken(Refused):
    """Another phone recorded this deal number first."""

    def __init__(self, number: int, by: str | None) -> None:
        super().__init__(Words(N_("Deal {number} was just recorded by {by} on another phone."), number=number, by=by)
                         if by else Words(N_("Deal {number} was just recorded on another phone."), number=number))
        self.number = number
        self.by = by


class TableChanged(Refused):
    """The log (or the table's settings) changed since the form was shown."""


class ReadOnly(Refused):
    """The table's log is damaged: it can be read and exported, not written."""


class LimitReached(Refused):
    """The command would take the log past one of its limits."""


def decide_and_advance(command: Command, ledger: Ledger, at: str = "") -> tuple[Line, Ledger]:
    """The line that carries out ``command`` on the log folded into ``ledger``, or :class:`Refused`
    (or :class:`DealError` / :class:`ImpossibleDeal` for a deal that cannot be settled); and the
    ledger after that line (:func:`advance`, unchecked: the line's deal was checked here).

    Everything that guards a write is checked here, against the log as it is
    when the line is appended: the deal number is the next, the deal still
    stands and is the last, no other phone changed the log since the form was
    shown, the version exists, the deal settles, and the limits hold. A
    recorded deal is settled once: the settlement that checked it is the one
    the ledger keeps."""
    settled: list[Settlement] = []
    line = _decide(command, ledger, at, settled)
    with translating(english):  # the ledger is kept where every reader shares it, whatever their language
        return line, advance(ledger, [line], check=False, settled=settled[0] if settled else None)


def _decide(command: Command, ledger: Ledger, at: str, settled: list[Settlement]) -> Line:
    """The line of :func:`decide_and_advance`; a recorded deal's settlement goes into ``settled``."""
    _check_who_and_why(command, ledger)
    if ledger.damage is not None:
        raise ReadOnly(Words(N_("This table's log is damaged at {where}; it can be read and exported, not changed."),
                             where=ledger.damage.words))
    if ledger.seq + 1 > LOG_LINES_MAX:
        raise LimitReached(Words(N_("This table's log is full ({most} lines): nothing more can be written to it."),
                                 most=LOG_LINES_MAX))
    if isinstance(command, Record):
        return _decide_record(command, ledger, at, settled)
    if isinstance(command, Undo):
        return _decide_undo(command, ledger, at)
    return _decide_version(command, ledger, at)


def _check_who_and_why(command: Command, ledger: Ledger) -> None:
    if command.by is not None and command.by not in ledger.evening.players:
        raise Refused(Words(N_("{name!r} is not one of the players at this table."), name=command.by))
    if isinstance(command, (Amend, Restore)) and command.reason is not None:
        if len(command.reason) > REASON_MAX:
            raise LimitReached(Words(N_("A reason may be at most {most} characters long."), most=REASON_MAX))
        check_note(command.reason)


def _decide_record(command: Record, ledger: Ledger, at: str, settled: list[Settlement]) -> Line:
    if command.number != len(ledger.deals) + 1:
        raise DealTaken(command.number, ledger.recorded_by(command.number))
    if command.number > ledger.evening.deals_agreed:
        raise Refused(Words(N_("The evening is over: all {agreed} deals are played."), agreed=ledger.evening.deals_agreed))
    _check_mentions(ledger, command.number)
    evening = ledger.evening
    shown = command.shown
    if shown is not None and shown.deal is command.deal and shown.before is ledger.final:
        settled.append(shown)  # checked and settled from this very state: its words are data, in no language
    else:
        with translating(english):  # kept by the ledger every reader shares, as advance settles it
            settled.append(settle(command.deal, ledger.final, evening.rules, evening.deals_agreed))  # raises ImpossibleDeal
    return Line(ledger.seq + 1, LineKind.RECORD, command.number, command.deal, command.by, at=at)


def _decide_undo(command: Undo, ledger: Ledger, at: str) -> Line:
    if not ledger.deals or command.number != len(ledger.deals):
        raise TableChanged(Words(N_("The last deal changed on another phone: check it before undoing.")))
    _check_mentions(ledger, command.number)
    return Line(ledger.seq + 1, LineKind.UNDO, command.number, None, command.by, at=at)


def _decide_version(command: Amend | Restore, ledger: Ledger, at: str) -> Line:
    """A correction or a restoration: the log must be as the form saw it, and the deal still stand."""
    number = command.number
    if command.seen != ledger.seq:
        raise TableChanged(Words(N_("The table changed on another phone while you were correcting: "
                                    "here is the deal as it stands now.")))
    if not 1 <= number <= len(ledger.deals):
        raise TableChanged(Words(N_("Deal {number} does not stand any more."), number=number))
    _check_mentions(ledger, number)
    current = ledger.deals[number - 1]
    if isinstance(command, Amend):
        if command.deal == current:
            raise Refused(Words(N_("This is the deal as it stands: change something to correct it.")))
        replay_from(ledger.replay, number, command.deal)  # raises DealError naming a later deal it breaks
        return Line(ledger.seq + 1, LineKind.AMEND, number, command.deal, command.by, command.reason, at=at)
    version = next((v for v in ledger.versions_of(number) if v.seq == command.version), None)
    if version is None or version.deal is None:
        raise TableChanged(Words(N_("Line {line} is not a version of deal {number}."), line=command.version, number=number))
    if version.deal == current:
        raise Refused(Words(N_("That version is the one standing now.")))
    replay_from(ledger.replay, number, version.deal)
    return Line(ledger.seq + 1, LineKind.RESTORE, number, version.deal, command.by, command.reason, command.version, at=at)


def _check_mentions(ledger: Ledger, number: int) -> None:
    """Deal ``number`` may be named by one more line of the log (LOG_LINES_PER_DEAL)."""
    mentions = ledger.mentions[number - 1] if 1 <= number <= len(ledger.mentions) else 0
    if mentions >= LOG_LINES_PER_DEAL:
        raise LimitReached(Words(N_("Deal {number} has been changed {times} times, the most a log keeps for one deal."),
                                 number=number, times=mentions))


