"""The interface every settlement system offers: the core and the web ask it, and never compare its name.

A system turns a checked deal into transfers (:meth:`System.settle`) and answers
what the pages and reports must show in its units. The hooks a pool-based
system needs are the defaults here; a system of another kind (the point score)
overrides them, as python-chess's variants override a few hooks of the board.
It declares the house rules it reads (:attr:`System.reads`). A system is given
the table's rule values (:class:`~scorer.core.rules.RuleValues`), never its
profile: profiles sit above the systems and name theirs (:mod:`scorer.core.systems.profiles`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import replace
from typing import ClassVar

from .. import rules as R
from ..errors import Counted, Said, Words
from ..i18n import N_, _
from ..model import CONTRACT_KINDS, Contract, Deal, Pot, Reason, Settlement, TableState, Transfer
from ..rules import RuleValues

VOLE_POOL = N_("Vole pool")
"""The vole pool's label where the table's standing is shown."""

ENTRY_RULES: frozenset[str] = frozenset({R.OWN_KING, R.OWN_KING_FORCED, R.FORCED_SPADILLE_BONUSES, R.ALLIANCE_REMISE,
                                         R.RENOUNCE_BEAST})
"""The house rules every system of the sources reads: what a deal may say and what it is worth (a King called
by its holder, in an alliance and in a forced spadille; premiers and the vole in a forced spadille), where an
alliance's remise ends, and what a renounce proven by the play costs."""

POOL_RULES: frozenset[str] = frozenset({
    R.ANTES, R.ANTE_BY, R.MATADORS_PAID, R.BONUS_FLOW, R.ALLIANCE_LOSS, R.ALLIANCE_ODD_CHIP, R.REMISE_BEAST,
    R.CODILLE_BEAST, R.CODILLE_INDIVISIBLE, R.POOL_AT_END, R.PAULANS, R.FAVOURITE_SUIT, R.FAVOURITE_DOUBLES,
    R.MEDIATEUR_KING, R.GRANDISSIMO_NEMO, R.BEASTS_TOGETHER,
})
"""The house rules a system played for a pool reads (the hard score and the counters): the antes, the pool
and its beasts, the alliance's flow, the favourite suit and paulans."""


def counted(n: int, units: str, shown: str | None = None) -> str:
    """``n`` of a system's ``units`` ("chips", "points", "counters", as :attr:`System.units` writes them) in the
    reader's language, singular or plural as its language counts: "1 chip", "−3 chips", "1 jeton", "0 jeton";
    a minus sign, not a hyphen. ``shown``: the figure as written instead (a decimal, with its sign), counted as
    ``n``."""
    if units == "points":
        said = Counted("{n} point", "{n} points", abs(n), shown)
    elif units == "counters":
        said = Counted("{n} counter", "{n} counters", abs(n), shown)
    else:
        said = Counted("{n} chip", "{n} chips", abs(n), shown)
    return ("−" if n < 0 and shown is None else "") + str(said)


class System(ABC):
    """A settlement system of the sources: chips (hard score), points (PG), counters (EB), or a later one."""

    name: ClassVar[str]
    """Its name in files and the rules' documents (a profile names its system by it)."""
    units: ClassVar[str]
    """What balances count, in the plural: "chips", "points", "counters" (in files and reports; marked for the
    catalogue, :attr:`units_text` is in the reader's language)."""
    singular: ClassVar[str] = ""
    """One of :attr:`units`, for "A unit is 1 chip" (marked for the catalogue); "" for :attr:`units` without
    its plural's s."""
    reads: ClassVar[frozenset[str]]
    """The house rules it reads (their typed keys, :mod:`scorer.core.rules.rule_values`): a table of a profile it
    settles shows these alone, less those that concern no contract the profile plays."""
    settle_up_message: ClassVar[str] = ""
    """How the settle-up reads this system's figures, when it is not plain balances (the point score), in
    English (marked for the catalogue); :attr:`settle_up_note` is in the reader's language."""
    has_pool: ClassVar[bool] = True
    """Deals are played for a pool carried forward (and shared out per ``pool_at_end``)."""
    asks_matadors: ClassVar[bool] = True
    """Whether the deal form asks for the matadors held."""
    column_title_message: ClassVar[str] = N_("Pool")
    """The ledger's last column: what is carried from deal to deal (in English, marked for the catalogue)."""
    column_help_message: ClassVar[str] = N_("the pool column is what is carried forward")

    def count(self, n: int) -> str:
        """``n`` of :attr:`units`, in the reader's language ("1 chip", "12 jetons")."""
        return counted(n, self.units)

    @property
    def units_text(self) -> str:
        """:attr:`units` in the reader's language, for a sentence ("balances in chips")."""
        return _(self.units)

    @property
    def settle_up_note(self) -> str:
        """:attr:`settle_up_message` in the reader's language ("" when there is none)."""
        return _(self.settle_up_message) if self.settle_up_message else ""

    @property
    def column_title(self) -> str:
        """The ledger's last column's title in the reader's language."""
        return _(self.column_title_message)

    @property
    def column_help(self) -> str:
        """What the ledger's last column is, in the reader's language."""
        return _(self.column_help_message)

    @abstractmethod
    def settle(self, deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
        """The transfers of a deal already checked (:func:`scorer.core.check_deal`), and the state after."""

    def close(self, state: TableState, rules: RuleValues) -> tuple[tuple[Transfer, ...], TableState]:
        """What happens to the pool when the evening ends (house rule ``pool_at_end``).

        Shared equally, the odd chips (and any vole pool or chips reserved for
        Spadille) are carried to the next evening like a pool carried whole."""
        if rules[R.POOL_AT_END] is R.PoolAtEnd.CARRY_FORWARD or state.pool < len(state.players):
            return (), state
        share = state.pool // len(state.players)
        transfers = tuple(
            Transfer(Pot.POOL, player, share, Reason.POOL_SPLIT_AT_END, Words(N_("the pool shared out at the end of the evening")),
                     (R.POOL_AT_END,), "")
            for player in state.players
        )
        closed = replace(state, balances=tuple(b + share for b in state.balances),
                         pool=state.pool - share * len(state.players))
        return transfers, closed

    def final_figures(self, state: TableState, rules: RuleValues) -> tuple[tuple[Transfer, ...], dict[str, int], int]:
        """What the settle-up turns into money: the transfers that close the evening (:meth:`close`),
        each player's figure after them (they sum to minus what stays in the pots), and what stays in
        the pots for the next evening."""
        closing, closed = self.close(state, rules)
        units = dict(zip(closed.players, closed.balances))
        return closing, units, closed.pool + closed.vole_pool + closed.spadille_reserve + sum(closed.beasts_waiting)

    def asks(self, contract: Contract, rules: RuleValues, state: TableState) -> frozenset[str]:
        """The inputs the deal form asks for this contract (deal fields: ``trumps``, ``called``, ``giver``,
        ``matadors``, ``favourite``, ``spadille``, ``vole``, ``premiers``; Hombre and her tricks always)."""
        kind = CONTRACT_KINDS[contract]
        no_bonuses = kind.forced and rules[R.FORCED_SPADILLE_BONUSES] is R.ForcedSpadilleBonuses.NO_PREMIERS_NO_VOLE
        asked = {
            "trumps": kind.trumps,
            "called": kind.calls_king,
            "giver": kind.takes_king,
            "matadors": kind.trumps and self.asks_matadors,
            "favourite": kind.trumps and rules[R.FAVOURITE_SUIT] is R.FavouriteSuit.EACH_DEAL,
            # Also in a forced spadille: if Hombre lost the codille, one of the three winners takes its odd chips (EB).
            "spadille": bool(state.spadille_reserve),
            "vole": not (kind.vole_announced or kind.nemo or no_bonuses),
            "premiers": not (kind.nemo or no_bonuses),
        }
        return frozenset(name for name, yes in asked.items() if yes)

    def column(self, settlement: Settlement) -> str:
        """The ledger's last column after a deal."""
        after = settlement.after
        return f"{after.pool}" + (f"+{after.vole_pool}" if after.vole_pool else "")

    def final_column(self, state: TableState) -> str:
        """The ledger's last column for the standing now (before the first deal, the pool the evening began with)."""
        return str(state.pool_in_sight)

    def balance_note(self, balance: int) -> str:
        """A balance told another way, if the system has one (counters: mils, fish and counters)."""
        return ""

    def standing(self, state: TableState, rules: RuleValues, eldest: str) -> tuple[tuple[Words, Said], ...]:
        """What the table carries into the next deal, as (label, value) pairs, worded when read."""
        shown: list[tuple[Words, Said]] = [(Words(N_("Pool")), str(state.pool_in_sight))]
        if state.vole_pool:
            shown.append((Words(VOLE_POOL), str(state.vole_pool)))
        if state.spadille_reserve:
            shown.append((Words(N_("For Spadille")), str(state.spadille_reserve)))
        if state.beasts_waiting:
            shown.append((Words(N_("Beasts waiting")), ", ".join(str(b) for b in state.beasts_waiting)))
        return tuple(shown)

    def multipliers(self, state: TableState, rules: RuleValues) -> dict[str, int]:
        """What each player's next game counts, where the system multiplies games (else nothing)."""
        return {}

    def summary(self, settlement: Settlement) -> str:
        """One sentence on what the deal was played for, for the text report."""
        return _("Stake {stake}, unit {unit}.").format(stake=settlement.stake, unit=settlement.unit)
