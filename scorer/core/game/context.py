"""What every settlement system needs to know about a deal, worked out once.

:class:`DealContext` is built from the deal, the table's state, the house rules
and the length of the evening before any chip moves: the deal's number, whether
paulans doubles it, whether it is played in the favourite suit, its result, the
contracting side and its opponents (in the order they settle), and who gives or
is exempt for the médiateur King. The systems read it and never repeat that set-up.
"""

from __future__ import annotations

from typing import NamedTuple

from .. import rules as R
from ..model import Deal, Result, TableState
from .outcome import in_favourite, result_of
from ..rules import RuleValues


def doubled_by(number: int, deals_agreed: int, paulans: R.Paulans) -> bool:
    """Paulans: the last deal (EB) or the last round (FR) is played double (house rule paulans)."""
    if paulans is _NO_PAULANS:
        return False
    if paulans is R.Paulans.LAST_DEAL:
        return number == deals_agreed
    return deals_agreed - 4 < number <= deals_agreed  # the last round


_NO_PAULANS = R.Paulans.NONE
"""Read once: Python 3.11 reads an attribute of an Enum class (``R.Paulans.NONE``) through the hook of
EnumType.__getattr__, several times slower than a module's global, and this is read for every deal settled."""


def pairs(members: tuple[str, ...], opponents: tuple[str, ...], rules: RuleValues) -> tuple[tuple[str, str], ...]:
    """Who settles with whom: (side member, opponent) pairs.

    Alone, Hombre settles with each opponent. An alliance settles one to
    one (P: the first opponent after Hombre with Hombre, the other with her
    ally) or each to each (PG).
    """
    if len(members) == 1:
        return tuple((members[0], o) for o in opponents)
    if rules[R.BONUS_FLOW] is R.BonusFlow.EACH_TO_EACH:
        return tuple((m, o) for m in members for o in opponents)
    return tuple(zip(members, opponents))


class Seats(NamedTuple):
    """Who plays with and against whom in a deal: what :class:`DealContext` keeps of the seating."""

    side: tuple[str, ...]
    opponents: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    flow: tuple[str, ...]


def seats_of(deal: Deal, state: TableState, rules: RuleValues) -> Seats:
    """Hombre's side, its opponents from Hombre's right, who settles with whom, and (bonus_flow,) for an alliance.
    Depends on the table's players, Hombre, her ally and the house rules alone."""
    side = deal.side
    players = state.players
    after_hombre = state.seat(deal.hombre) + 1  # from Hombre's right (seat raises for a stranger)
    opponents = tuple(p for p in players[after_hombre:] + players[:after_hombre] if p not in side)
    return Seats(side, opponents, pairs(side, opponents, rules), (R.BONUS_FLOW,) if len(side) == 2 else ())


def _giver(deal: Deal, rules: RuleValues) -> tuple[str | None, str | None]:
    """Who gave the médiateur King: (paid a fish for it, exempt from its premium), per house rule mediateur_king."""
    if not deal.kind.takes_king or deal.giver is None:
        return None, None
    king = rules[R.MEDIATEUR_KING]
    return (deal.giver if king is R.MediateurKing.GIVER_PAID_A_FISH else None,
            deal.giver if king is R.MediateurKing.GIVER_EXEMPT else None)


_new_context = tuple.__new__
"""Builds a :class:`DealContext` from its fields in order, without the named tuple's own ``__new__`` (a Python function)."""


class DealContext(NamedTuple):
    """One deal as the settlement systems see it, before any chip moves.

    A named tuple rather than a frozen dataclass: one is made for every deal
    settled, and a tuple is built several times faster (a frozen dataclass
    sets each of its sixteen fields through ``object.__setattr__``)."""

    deal: Deal
    state: TableState
    """The table before the deal."""
    rules: RuleValues
    number: int
    """The deal's number in the evening, from 1."""
    paulans: int
    """2 when paulans doubles this deal (house rule paulans), else 1."""
    doubling: tuple[str, ...]
    """The rule that doubled the deal, for the transfers it touches: (paulans,) or nothing."""
    favourite: bool
    """Trumps are the favourite suit (house rule favourite_suit)."""
    favourite_rules: tuple[str, ...]
    """(favourite_suit,) when the deal is in favourite, else nothing."""
    result: Result
    side: tuple[str, ...]
    """Hombre and her ally, if she has one."""
    opponents: tuple[str, ...]
    """The others, from Hombre's right."""
    pairs: tuple[tuple[str, str], ...]
    """Who settles with whom (house rule bonus_flow)."""
    flow: tuple[str, ...]
    """(bonus_flow,) when an alliance settles, else nothing."""
    fish_to: str | None
    """Who gave the médiateur King and is paid a fish for it (EB, H47), if anyone."""
    exempt: str | None
    """Who gave the médiateur King and neither pays nor is paid its premium (P), if anyone."""
    beast_doubled_by: tuple[str, ...]
    """The rules that double a lost game's beast (a favourite suit that doubles everything: H47, PG as the app reads them)."""

    @classmethod
    def of(cls, deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> DealContext:
        """The deal's context."""
        number = state.deals_played + 1
        paulans = 2 if doubled_by(number, deals_agreed, rules[R.PAULANS]) else 1
        favourite = in_favourite(deal, rules)
        side, opponents, paired, flow = seats_of(deal, state, rules)
        fish_to, exempt = _giver(deal, rules)
        everything = favourite and rules[R.FAVOURITE_DOUBLES] is R.FavouriteDoubles.EVERYTHING
        return _new_context(cls, (deal, state, rules, number, paulans, (R.PAULANS,) if paulans == 2 else (), favourite,
                                  (R.FAVOURITE_SUIT,) if favourite else (), result_of(deal, rules), side, opponents, paired,
                                  flow, fish_to, exempt, (R.FAVOURITE_SUIT, R.FAVOURITE_DOUBLES) if everything else ()))

    @property
    def favourite_factor(self) -> int:
        """2 in the favourite suit, else 1."""
        return 2 if self.favourite else 1
