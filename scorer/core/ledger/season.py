"""A circle's season: the same players, evening after evening, one running ledger each.

A season is nothing but its evenings, in order, each with the four who sat down: :func:`replay_season`
replays them one after the other, and what an evening leaves on the table when it closes (the pool
under house rule ``pool_at_end``: carried whole, or its odd chips; any vole pool, odd chips kept for
Spadille or beasts waiting) is carried into the next evening's first pool (``Evening.carried_in``, a
transfer from the circle's pool with its rule). Nothing carried is stored: a correction in an early
evening changes what it leaves, and every later evening is replayed with it. The sources speak of no
next evening: carrying is the app's reading of ``pool_at_end: carry_forward``.

Chips are conserved over the season: every member's season total plus what the last evening left
on the table is zero. A member who sits out an evening keeps her standing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..errors import Later, ScorerError, Words
from .evening import Evening, Replay, close_evening, left_on_the_table, replay
from ..i18n import N_, english, translating
from .log import Command, Ledger, Line, Record, Refused, Undo, advance, decide_and_advance
from ..model import TableState, Transfer
from .settleup import Payment, fewest_payments, spread


class SeasonError(ScorerError):
    """A season that cannot be: a player at an evening who is not a member, fewer than four members."""


@dataclass(frozen=True)
class SeasonEvening:
    """One evening of the season, replayed with what the last one carried in, and closed."""

    number: int
    """From 1."""
    replay: Replay
    closing: tuple[Transfer, ...]
    """What happened to the pool at the close (house rule pool_at_end)."""
    results: dict[str, int]
    """Each seated player's figure after the close; members who sat out are not in it."""
    carried_in: int
    carried_out: int
    """What stays on the table for the next evening."""
    members: tuple[str, ...] = ()
    """The circle's members when it was played (those who join later have no share in what it left)."""


@dataclass(frozen=True)
class Season:
    members: tuple[str, ...]
    evenings: tuple[SeasonEvening, ...]

    @property
    def carried(self) -> int:
        """What the last evening left on the table for the next."""
        return self.evenings[-1].carried_out if self.evenings else 0

    def totals(self, first: int = 1, last: int | None = None) -> dict[str, int]:
        """Each member's figure summed over evenings ``first`` to ``last`` (numbered from 1; all by default)."""
        chosen = self.evenings[first - 1: last]
        return {m: sum(e.results.get(m, 0) for e in chosen) for m in self.members}

    def running(self) -> list[dict[str, int]]:
        """Each member's running total after each evening (a member who sat out keeps her standing)."""
        totals = dict.fromkeys(self.members, 0)
        out = []
        for evening in self.evenings:
            for member, figure in evening.results.items():
                totals[member] += figure
            out.append(dict(totals))
        return out

    def evening_cents(self, value_cents: int, number: int) -> dict[str, int]:
        """What each member wins or owes on evening ``number`` in cents: her figure (0 if she sat out) at
        ``value_cents`` a chip, and an equal share of what the evening put on the table or took off it
        (what it left for the next evening minus what it carried in), which belongs to the circle's
        members of that evening in common (a member who joined later has no share); the odd cents go to the first members (the app's choice, no source). The
        evening's cents sum to zero, and a range's are the sum of its evenings' (shared evening by
        evening, so that settling evenings one at a time or together comes to the same)."""
        evening = self.evenings[number - 1]
        common = (evening.carried_out - evening.carried_in) * value_cents
        shares = spread(dict.fromkeys(evening.members or self.members, 0), common)
        return {m: evening.results.get(m, 0) * value_cents + shares.get(m, 0) for m in self.members}

    def settle_up(self, value_cents: int, first: int = 1, last: int | None = None) -> tuple[dict[str, int], tuple[Payment, ...]]:
        """What each member wins or owes over evenings ``first`` to ``last`` in cents (the sum of
        :meth:`evening_cents`), and the fewest payments that settle it."""
        cents = dict.fromkeys(self.members, 0)
        for evening in self.evenings[first - 1: last]:
            for member, c in self.evening_cents(value_cents, evening.number).items():
                cents[member] += c
        return cents, fewest_payments(cents)

    def owed(self, value_cents: int, paid: Sequence[Payment], through: int | None = None) -> dict[str, int]:
        """What each member still wins or owes in cents for evenings 1 to ``through`` (all by default)
        once the payments ``paid`` (every past settlement's, under today's names) are made: a deal
        recorded or corrected in an evening already settled shows here as the difference."""
        cents, _ = self.settle_up(value_cents, 1, through)
        for payment in paid:
            cents[payment.payer] += payment.cents
            cents[payment.payee] -= payment.cents
        return cents


def replay_season(members: Sequence[str], evenings: Sequence[Evening],
                  members_then: Sequence[Sequence[str]] | None = None) -> Season:
    """Replay ``evenings`` in order, each starting with what the one before left on the table.

    ``members_then``, if given, holds for each evening the circle's members when it was played (all
    ``members`` by default): they share what it leaves on the table (:meth:`Season.evening_cents`).

    Raises :class:`SeasonError` for a player who is not a member, and the core's
    :class:`~scorer.core.DealError` for an impossible deal."""
    members = _checked_members(members)
    played: list[SeasonEvening] = []
    for number, evening in enumerate(evenings, start=1):
        carried = played[-1].carried_out if played else 0
        _check_seated(members, number, evening, carried)
        played.append(season_evening(members, number, replay(replace(evening, carried_in=carried)), members_then))
    return Season(members, tuple(played))


def season_of(members: Sequence[str], replays: Sequence[Replay], members_then: Sequence[Sequence[str]] | None = None,
              before: Season | None = None) -> Season:
    """The season of evenings already replayed, each with what the one before carried into it
    (``Replay.evening.carried_in``): nothing is settled again. ``before``: a season of the same members and
    ``members_then``, whose evenings of the very same replays are taken as they are. Raises :class:`SeasonError`
    as :func:`replay_season` does, and for an evening that did not start with what the one before left."""
    members = _checked_members(members)
    played: list[SeasonEvening] = []
    for number, replayed in enumerate(replays, start=1):
        carried = played[-1].carried_out if played else 0
        _check_seated(members, number, replayed.evening, carried)
        if replayed.evening.carried_in != carried:
            raise SeasonError(Words(N_("evening {number} began with {began} chips, not the {carried} the evening before left"),
                                    number=number, began=replayed.evening.carried_in, carried=carried))
        kept = before.evenings[number - 1] if before is not None and number <= len(before.evenings) else None
        same = kept is not None and kept.replay is replayed and before is not None and before.members == members
        played.append(kept if same and kept is not None else season_evening(members, number, replayed, members_then))
    return Season(members, tuple(played))


def _checked_members(members: Sequence[str]) -> tuple[str, ...]:
    members = tuple(members)
    if len(members) < 4 or len(set(members)) != len(members):
        raise SeasonError(Words(N_("a circle has four or more members, each named once")))
    return members


def _check_seated(members: tuple[str, ...], number: int, evening: Evening, carried: int) -> None:
    strangers = [p for p in evening.players if p not in members]
    if strangers:
        raise SeasonError(Words(N_("evening {number}: {name} is not a member of the circle"), number=number, name=strangers[0]))
    if carried and not evening.rules.profile.system.has_pool:
        raise SeasonError(Words(N_("evening {number}: {chips} chips are carried, but {profile} has no pool"),
                                number=number, chips=carried, profile=Later(evening.rules.profile, "title")))


def season_evening(members: tuple[str, ...], number: int, replayed: Replay,
                   members_then: Sequence[Sequence[str]] | None = None) -> SeasonEvening:
    """Evening ``number`` of a season, closed: what it leaves on the table, and each seated player's figure."""
    evening = replayed.evening
    closing, closed = close_evening(replayed.final, evening.rules)
    then = tuple(members_then[number - 1]) if members_then is not None else members
    if any(m not in members for m in then) or any(p not in then for p in evening.players):
        raise SeasonError(Words(N_("evening {number}: its members are not the circle's, or not all who sat down"), number=number))
    return SeasonEvening(number, replayed, closing, dict(zip(closed.players, closed.balances)), evening.carried_in,
                         _left_on_the_table(closed), then)


def left_by(ledger: Ledger) -> int:
    """What an evening folded into ``ledger`` leaves on the table for the next when it closes."""
    _, closed = close_evening(ledger.final, ledger.evening.rules)
    return _left_on_the_table(closed)


# --- the write path of a circle: decide, one level up --------------------------------------------------


class EveningClosed(Refused):
    """A new deal, or an undo, in an evening of a circle whose next evening has begun."""


class LaterEveningBroken(Refused):
    """A change to an evening of a circle that would leave a later evening unable to settle."""


def decide_in_season(command: Command, ledgers: Sequence[Ledger], number: int,
                     lines_of: Callable[[int], Sequence[Line]], at: str = "") -> tuple[Line, dict[int, Ledger]]:
    """The line that carries out ``command`` on evening ``number`` of a season whose evenings are folded,
    in order, into ``ledgers`` (each with what the one before carried into it), and every evening's
    ledger it changes: that evening's, and each later one folded afresh, deals checked, with the carry
    the change now produces (``lines_of(k)``: evening ``k``'s log lines). A later evening whose carry
    does not change is not folded again, nor any after it.

    Refused (nothing to write) as :func:`~scorer.core.ledger.log.decide_and_advance` refuses, and:
    :class:`EveningClosed` for a new deal or an undo in an evening whose next evening has begun (an
    evening ends when the next begins: its deals can be corrected, not added or taken back);
    :class:`LaterEveningBroken` when a later evening would no longer settle, naming it and its deal."""
    last = len(ledgers)
    if isinstance(command, (Record, Undo)) and number < last:
        raise EveningClosed(Words(N_("Evening {number} of the circle ended when evening {next} began: no deal can be added "
                                     "to it or taken back. To change one of its deals, correct that deal (Check and correct)."),
                                  number=number, next=number + 1))
    line, after = decide_and_advance(command, ledgers[number - 1], at)
    if after.damage is not None:  # never a line the fold cannot take (decide should not make one)
        raise Refused(Words(N_("This change cannot be written: {why}."), why=after.damage.words))
    changed = {number: after}
    carried = left_by(after)
    for later in range(number + 1, last + 1):
        before = ledgers[later - 1]
        if carried == before.evening.carried_in:
            break  # it begins as it did: it and every evening after it are as they were
        if carried and not before.evening.rules.profile.system.has_pool:
            raise LaterEveningBroken(Words(N_("This change would leave {chips} chips for evening {number}, whose rules have no pool."),
                                           chips=carried, number=later))
        with translating(english):
            folded = advance(Ledger.start(replace(before.evening, carried_in=carried)), lines_of(later), check=True)
        if folded.damage is not None:
            raise LaterEveningBroken(Words(N_("This change would leave evening {number} of the circle unable to settle, "
                                              "at {where}: correct that evening first, or change this deal otherwise."),
                                           number=later, where=folded.damage.words))
        changed[later] = folded
        carried = left_by(folded)
    return line, changed


def _left_on_the_table(closed: TableState) -> int:
    return sum(chips for _, chips in left_on_the_table(closed))
