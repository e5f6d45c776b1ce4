"""Settling one deal: check it, then ask the table's settlement system.

``settle(deal, state, rules)`` checks the deal (:func:`scorer.core.check_deal`),
then its profile's system (:mod:`scorer.core.systems`) moves the chips, points
or counters. Nothing is settled from a deal that fails its checks.
"""

from __future__ import annotations

from ..model import Deal, Settlement, TableState
from ..systems.profiles import HouseRules
from .table_checks import check_deal


def settle(deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int = 40, *, checked: bool = False) -> Settlement:
    """Settle one deal: check it, then return its transfers and the table's state after.

    ``deals_agreed`` is the length of the evening, needed only for paulans.
    Raises :class:`ImpossibleDeal` (and settles nothing) for a deal that could
    not have happened or that the house rules forbid.
    """
    if not checked:  # ``checked``: this deal was checked against this very state already (the write path)
        check_deal(deal, state, rules)
    return rules.profile.system.settle(deal, state, rules, deals_agreed)


