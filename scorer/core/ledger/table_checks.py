"""A deal checked at its table: against the house rule values (:mod:`scorer.core.game.checks`), the contracts its
profile plays and the inputs its settlement system asks for, with a kept play refereed under them. Above the
profiles and the systems, as a table's :class:`~scorer.core.systems.profiles.HouseRules` are."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.checks import card_placeholders, check_entries, check_seated, check_seats, contract_placeholders, labels
from ..errors import ImpossibleDeal, Later, Words
from ..i18n import N_
from ..model import Card, Deal, TableState
from ..names import listed_words
from ..game.play import PREMIERS_TRICKS, AllyShown, PlayReport, disagreement_words, judge_play
from ..systems.profiles import HouseRules


def check_deal(deal: Deal, state: TableState, rules: HouseRules) -> None:
    """Raise :class:`ImpossibleDeal` if the deal could not have happened under these rules."""
    check_seats(deal, state)
    profile = rules.profile
    if deal.contract not in profile.contracts:
        raise ImpossibleDeal(Words(N_("the {profile} profile has no {contract} (it plays: {allowed})"),
                                   profile=Later(profile, "title"), contract=Later(deal.contract, "label"),
                                   allowed=labels(profile.contracts)), "contract")
    check_entries(deal, state, rules, profile.vole_bids)
    if deal.revealed_ally is not None:
        _check_revealed(deal, state)
    if deal.play is not None:
        _check_play(deal, state, rules)


def _check_revealed(deal: Deal, state: TableState) -> None:
    """Who revealed herself as the ally at a claim is part of a record of six tricks in a contract with an ally."""
    if deal.play is None or len(deal.play) != PREMIERS_TRICKS:
        raise ImpossibleDeal(Words(N_("an ally reveals herself at a claim after six tricks: name her only with "
                                      "a play record of those six tricks")), "ally")
    if not deal.kind.allied:
        raise ImpossibleDeal(Words(N_("{a_contract} is played alone: there is no ally"),
                                   **contract_placeholders(deal.contract)), "ally")
    check_seated(deal.revealed_ally, state, "ally")


def _check_play(deal: Deal, state: TableState, rules: HouseRules) -> None:
    """A deal kept with its play record says what the play proves (the record is the proof),
    in the inputs its system asks for (the point score ignores matadors, PG). A record of six tricks is a
    claim of premiers (P), by Hombre or, in an alliance, by Hombre and her ally, whoever held the called card."""
    asked = rules.profile.system.asks(deal.contract, rules, state) | {"tricks", "ally"}
    report = referee(deal, state.players, deal.play or (), rules)
    if deal.revealed_ally is not None and report.derived.ally_shown is AllyShown.CARD:
        holder = next(pc for t in report.tricks for pc in t.cards if pc.card == deal.called)
        raise ImpossibleDeal(Words(N_("{player} played the {card}: the play shows who held it, so nobody was "
                                      "revealed at the claim"), player=holder.player,
                                   **card_placeholders(holder.card)), "ally")
    if len(report.tricks) == PREMIERS_TRICKS:
        _check_claim(deal, report)
    for disagreement in report.disagreements:
        if disagreement.field in asked:
            raise ImpossibleDeal(disagreement_words(disagreement), disagreement.field)


def _check_claim(deal: Deal, report: PlayReport) -> None:
    """A record of six tricks is a claim: the side took them all (P: "if they take the first six between them"),
    there were premiers to claim, and the record shows who the side was. Each refusal asks only for what can
    exist: after a claim there are no more tricks to enter; without one, the play went on to the tenth."""
    derived = report.derived
    if not derived.first_six:
        raise ImpossibleDeal(_not_claimed(deal, report), "premiers")
    if not derived.premiers:
        raise ImpossibleDeal(Words(N_("a play of six tricks is premiers claimed, but {a_contract} has no premiers to "
                                      "claim here: keep the play with all ten tricks if they were played, or record "
                                      "the deal without its play"), **contract_placeholders(deal.contract)),
                             "premiers")
    if derived.ally_unknown and deal.called is not None:
        raise ImpossibleDeal(Words(N_("Hombre took the first six tricks and the {card} was not played: say who held "
                                      "it, as she revealed herself at the claim"),
                                   **card_placeholders(deal.called)), "ally")


def _not_claimed(deal: Deal, report: PlayReport) -> Words:
    """Why six tricks were no claim: a player outside the side took one of them, so the play went on."""
    derived = report.derived
    if derived.ally_unknown:
        return Words(N_("a play of six tricks is premiers claimed, but {players} each took one of the first six: "
                        "Hombre and one ally did not take them all, so nobody claimed and the play went on: enter "
                        "all ten tricks"), players=listed_words(derived.strangers))
    stranger = derived.strangers[0]
    trick = next(t.number for t in report.tricks if t.winner == stranger)
    if derived.ally_shown is AllyShown.CLAIM and deal.revealed_ally is not None:
        return Words(N_("a play of six tricks is premiers claimed, but {player} took trick {trick}, and {ally} was "
                        "revealed as the ally: say who was revealed, or, if nobody claimed, enter all ten tricks"),
                     player=stranger, trick=trick, ally=deal.revealed_ally)
    return Words(N_("a play of six tricks is premiers claimed, but {player} took trick {trick}: the contracting "
                    "side did not take the first six, so nobody claimed and the play went on: enter all ten "
                    "tricks"), player=stranger, trick=trick)


def referee(deal: Deal, players: Sequence[str], tricks: Sequence[Sequence[Card]], rules: HouseRules) -> PlayReport:
    """Check a play record (as :func:`scorer.core.game.play.parse_tricks` returns it) against ``deal`` at a table
    of ``players`` (in the order of play) under ``rules``: who led and took each trick, each hand, the
    renounces and privileges, and the deal's inputs as the play proves them (premiers and the vole
    only where the contract has them, the matadors only where the table's system pays them),
    compared with the deal recorded (:func:`scorer.core.game.play.judge_play`)."""
    return judge_play(deal, players, tricks, rules, rules.profile.system.asks_matadors)  # PG's point score ignores them
