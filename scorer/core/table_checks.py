"""A deal checked at its table: against the house rule values (:mod:`scorer.core.checks`), the contracts its
profile plays and the inputs its settlement system asks for, with a kept play refereed under them. Above the
profiles and the systems, as a table's :class:`~scorer.core.profiles.HouseRules` are."""

from __future__ import annotations

from collections.abc import Sequence

from .checks import check_entries, check_seats, labels
from .errors import ImpossibleDeal, Later, Words
from .i18n import N_
from .model import Card, Deal, TableState
from .play import PREMIERS_TRICKS, PlayReport, disagreement_words, judge_play
from .profiles import HouseRules


def check_deal(deal: Deal, state: TableState, rules: HouseRules) -> None:
    """Raise :class:`ImpossibleDeal` if the deal could not have happened under these rules."""
    check_seats(deal, state)
    profile = rules.profile
    if deal.contract not in profile.contracts:
        raise ImpossibleDeal(Words(N_("the {profile} profile has no {contract} (it plays: {allowed})"),
                                   profile=Later(profile, "title"), contract=Later(deal.contract, "label"),
                                   allowed=labels(profile.contracts)), "contract")
    check_entries(deal, state, rules, profile.vole_bids)
    if deal.play is not None:
        _check_play(deal, state, rules)


def _check_play(deal: Deal, state: TableState, rules: HouseRules) -> None:
    """A deal kept with its play record says what the play proves (issue 13: the record is the proof),
    in the inputs its settlement system asks for (the point score ignores matadors, PG)."""
    asked = rules.profile.system.asks(deal.contract, rules, state) | {"tricks", "ally"}
    report = referee(deal, state.players, deal.play or (), rules)
    if len(report.tricks) == PREMIERS_TRICKS and not report.derived.premiers:
        why = (Words(N_("this deal has no premiers to claim")) if report.derived.first_six
               else Words(N_("the contracting side did not take all six")))
        raise ImpossibleDeal(Words(N_("a play of six tricks is premiers claimed, but {why}: enter all ten tricks"), why=why),
                             "premiers")
    for disagreement in report.disagreements:
        if disagreement.field in asked:
            raise ImpossibleDeal(disagreement_words(disagreement), disagreement.field)


def referee(deal: Deal, players: Sequence[str], tricks: Sequence[Sequence[Card]], rules: HouseRules) -> PlayReport:
    """Check a play record (as :func:`scorer.core.play.parse_tricks` returns it) against ``deal`` at a table
    of ``players`` (in the order of play) under ``rules``: who led and took each trick, each hand, the
    renounces and privileges, and the deal's inputs as the play proves them (premiers and the vole
    only where the contract has them, the matadors only where the table's system pays them),
    compared with the deal recorded (:func:`scorer.core.play.judge_play`)."""
    return judge_play(deal, players, tricks, rules, rules.profile.system.asks_matadors)  # PG's point score ignores them
