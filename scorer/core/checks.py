"""What makes a deal impossible: one place, used by every settlement system and the web forms."""

from __future__ import annotations

from dataclasses import replace

from . import rules as R
from .errors import ImpossibleDeal
from .names import listed
from .play import PREMIERS_TRICKS, disagreement_sentence, no_bonuses, referee
from .model import TRICKS, Card, Contract, Deal, Suit, TableState, Vole
from .rules import HouseRules


def _a(label: str) -> str:
    """The label with its indefinite article: "an alliance", "a solo"."""
    return f"{'an' if label[0] in 'aeiou' else 'a'} {label}"


def check_deal(deal: Deal, state: TableState, rules: HouseRules) -> None:
    """Raise :class:`ImpossibleDeal` if the deal could not have happened under these rules."""
    for who, name in (("dealer", deal.dealer), ("hombre", deal.hombre)):
        if name not in state.players:
            raise ImpossibleDeal(f"{name!r} is not one of the players at this table ({', '.join(state.players)})", who)
    expected = state.next_dealer
    if expected is not None and deal.dealer != expected:
        raise ImpossibleDeal(
            f"it is {expected}'s deal, not {deal.dealer}'s: the deal passes to the right, to the player after {state.last_dealer}",
            "dealer",
        )
    if deal.contract not in rules.profile.contracts:
        allowed = ", ".join(c.label for c in rules.profile.contracts)
        raise ImpossibleDeal(f"the {rules.profile.title} profile has no {deal.contract.label} (it plays: {allowed})", "contract")

    _check_trumps(deal, rules)
    _check_partnership(deal, state, rules)
    _check_tricks(deal)
    _check_matadors(deal, rules)
    _check_premiers_and_vole(deal, rules)

    _check_spadille_taker(deal, state)
    if deal.play is not None:
        _check_play(deal, state, rules)


def _check_play(deal: Deal, state: TableState, rules: HouseRules) -> None:
    """A deal kept with its play record says what the play proves (issue 13: the record is the proof),
    in the inputs its settlement system asks for (the point score ignores matadors, PG)."""
    asked = rules.profile.system.asks(deal.contract, rules, state) | {"tricks", "ally"}
    report = referee(deal, state.players, deal.play or (), rules)
    if len(report.tricks) == PREMIERS_TRICKS and not report.derived.premiers:
        why = ("this deal has no premiers to claim" if report.derived.first_six
               else "the contracting side did not take all six")
        raise ImpossibleDeal(f"a play of six tricks is premiers claimed, but {why}: enter all ten tricks", "premiers")
    for disagreement in report.disagreements:
        if disagreement.field in asked:
            raise ImpossibleDeal(disagreement_sentence(disagreement), disagreement.field)


def _check_spadille_taker(deal: Deal, state: TableState) -> None:
    """EB: the odd counters of the last codille "belong to him of the three who shall have spadill or
    the highest trump the next deal": never to the loser of that codille."""
    takers = state.spadille_takers if state.spadille_reserve else ()
    loser_forced = deal.contract is Contract.FORCED_SPADILLE and bool(takers) and deal.hombre not in takers
    if deal.spadille is not None:
        if deal.spadille not in state.players:
            raise ImpossibleDeal(f"{deal.spadille!r} is not one of the players at this table", "spadille")
        if deal.contract is Contract.FORCED_SPADILLE and deal.spadille != deal.hombre and not loser_forced:
            raise ImpossibleDeal("in a forced spadille Hombre is the player who held Spadille", "spadille")
    if not state.spadille_reserve:
        return
    taker = spadille_holder(deal)
    if taker is None or (loser_forced and deal.spadille is None):
        raise ImpossibleDeal(
            f"{state.spadille_reserve} odd chips from the last codille go to whichever of {_names(takers)} holds "
            f"Spadille this deal, or else the highest trump (house rule {R.CODILLE_INDIVISIBLE}): say who", "spadille")
    if takers and taker not in takers:
        raise ImpossibleDeal(
            f"{taker} lost the last codille: its odd chips go to whichever of {_names(takers)} held Spadille, "
            "or else the highest trump (EB: \"him of the three\")", "spadille")


def _names(players: tuple[str, ...]) -> str:
    return listed(players, none="the winners of that codille")


def spadille_holder(deal: Deal) -> str | None:
    """Who takes the odd chips set aside for Spadille: the player the deal names, or in a forced
    spadille Hombre, who held Spadille."""
    if deal.spadille is not None:
        return deal.spadille
    if deal.contract is Contract.FORCED_SPADILLE:
        return deal.hombre
    return None


def _check_trumps(deal: Deal, rules: HouseRules) -> None:
    if deal.kind.trumps and deal.trumps is None:
        raise ImpossibleDeal("which suit was trumps?", "trumps")
    if not deal.kind.trumps and deal.trumps is not None:
        raise ImpossibleDeal(f"{_a(deal.contract.label)} has no trump suit but the two black Aces", "trumps")
    per_deal = rules[R.FAVOURITE_SUIT] is R.FavouriteSuit.EACH_DEAL
    if per_deal and deal.kind.trumps and deal.favourite is None:
        raise ImpossibleDeal(f"which suit is favourite this deal? (house rule {R.FAVOURITE_SUIT})", "favourite")
    if not per_deal and deal.favourite is not None:
        raise ImpossibleDeal(
            f"the favourite suit is not drawn each deal at this table (house rule {R.FAVOURITE_SUIT})", "favourite"
        )


def _check_partnership(deal: Deal, state: TableState, rules: HouseRules) -> None:
    _check_alone(deal)
    if not deal.kind.calls_king:
        if deal.called is not None:
            raise ImpossibleDeal(f"nobody is called in {_a(deal.contract.label)}", "called")
        return
    called = _check_called(deal)
    if deal.kind.takes_king:
        _check_giver(deal, state, called)
    else:
        _check_ally(deal, state, rules, called)


def _check_alone(deal: Deal) -> None:
    """No ally, no ally's tricks and no King given where the contract has none."""
    kind = deal.kind
    label = deal.contract.label
    if not kind.allied and deal.ally is not None:
        raise ImpossibleDeal(f"{_a(label)} is played alone: there is no ally", "ally")
    if not kind.allied and deal.ally_tricks:
        raise ImpossibleDeal(f"{_a(label)} has no ally to take tricks", "tricks")
    if not kind.takes_king and deal.giver is not None:
        raise ImpossibleDeal(f"nobody gives Hombre a King in {_a(label)}", "giver")


def _check_called(deal: Deal) -> Card:
    """The King called (or the Queen), in a contract that calls one; return it."""
    if deal.called is None:
        raise ImpossibleDeal(f"{_a(deal.contract.label)} calls a King: which one?", "called")
    called = deal.called
    if called.rank not in ("K", "Q"):
        raise ImpossibleDeal(f"Hombre calls a King (or a Queen when she holds every King), not the {called.name}", "called")
    # P: the King of trumps may not be called for an ally (the médiateur may be "any King";
    # in casco the ally names trumps after she is called).
    if deal.contract in (Contract.ALLIANCE, Contract.FORCED_SPADILLE) and called.suit is deal.trumps:
        raise ImpossibleDeal(f"the {called.name} is a trump: Hombre may not call a card of the trump suit", "called")
    return called


def _check_giver(deal: Deal, state: TableState, called: Card) -> None:
    """Médiateur: another player gave Hombre the King."""
    if deal.giver is None:
        raise ImpossibleDeal(f"who gave Hombre the {called.name}?", "giver")
    if deal.giver not in state.players:
        raise ImpossibleDeal(f"{deal.giver!r} is not one of the players at this table", "giver")
    if deal.giver == deal.hombre:
        raise ImpossibleDeal("the médiateur King comes from another player's hand, not Hombre's own", "giver")


def _check_ally(deal: Deal, state: TableState, rules: HouseRules, called: Card) -> None:
    """The holder of the King called: a player at the table, or Hombre herself (a secret solo) where allowed."""
    if deal.ally is None:
        raise ImpossibleDeal(f"who held the {called.name}? {_a(deal.contract.label).capitalize()} needs the ally", "ally")
    if deal.ally not in state.players:
        raise ImpossibleDeal(f"{deal.ally!r} is not one of the players at this table", "ally")
    if not deal.is_secret_solo:
        if deal.ally_tricks is None:
            raise ImpossibleDeal(f"how many tricks did {deal.ally} (the ally) take?", "tricks")
        return
    if deal.contract is Contract.CASCO:
        raise ImpossibleDeal("in casco Hombre calls a King she lacks: its holder names trumps and plays with her", "ally")
    if rules[R.OWN_KING] is R.OwnKing.FORBIDDEN:
        raise ImpossibleDeal(
            f"Hombre may not call a King she holds herself at this table (house rule {R.OWN_KING})", "ally"
        )
    if deal.ally_tricks:
        raise ImpossibleDeal("Hombre called her own King: she played alone, so no ally took tricks", "tricks")


def _check_tricks(deal: Deal) -> None:
    for who, tricks in (("Hombre", deal.hombre_tricks), ("the ally", deal.ally_tricks)):
        if tricks is not None and not 0 <= tricks <= TRICKS:
            raise ImpossibleDeal(f"{who} cannot take {tricks} tricks: a deal has 0 to {TRICKS}", "tricks")
    if deal.side_tricks > TRICKS:
        raise ImpossibleDeal(
            f"Hombre's {deal.hombre_tricks} and her ally's {deal.ally_tricks} tricks make {deal.side_tricks}: there are only {TRICKS}",
            "tricks",
        )


def _check_matadors(deal: Deal, rules: HouseRules) -> None:
    m = deal.matadors
    if m < 0 or m in (1, 2):
        raise ImpossibleDeal(
            f"matadors are 0, or the unbroken run of trumps from Spadille of 3 or more; {m} is not one", "matadors"
        )
    if deal.trumps is None:
        if m:
            raise ImpossibleDeal(f"there are no matadors in {_a(deal.contract.label)}: without a trump suit there is no Manille", "matadors")
        return
    trumps: Suit = deal.trumps
    if m > trumps.trump_count:
        raise ImpossibleDeal(f"{trumps.value} have only {trumps.trump_count} trumps, so not {m} matadors", "matadors")
    # A run of four or more in black trumps is held as the player says; where double matadors need
    # Punto (P, PG) it pays as three (house rule double_matadors_suits, see the hard score).


def implied(deal: Deal, rules: HouseRules) -> Deal:
    """The deal with what its tricks say without being told: all ten tricks to the contracting side
    include premiers, the first six, and mean the side played on past them, so undertook the vole
    (P: the vole is undertaken by leading to the seventh trick after premiers), where the contract
    has premiers and a vole and no vole was announced in the bid. Anything else is left as entered
    (and :func:`check_deal` still refuses what cannot be)."""
    if deal.side_tricks != TRICKS or no_bonuses(deal, rules):
        return deal
    vole = deal.vole
    if vole is Vole.NONE and not deal.kind.vole_announced:
        vole = Vole.UNDERTAKEN
    if deal.premiers and vole is deal.vole:
        return deal
    return replace(deal, premiers=True, vole=vole)


def _check_premiers_and_vole(deal: Deal, rules: HouseRules) -> None:
    bonusless = no_bonuses(deal, rules)
    _check_premiers(deal, bonusless)
    _check_vole(deal, rules, bonusless)
    _check_all_tricks(deal, bonusless)


def _check_premiers(deal: Deal, no_bonuses: bool) -> None:
    """Premiers are the first six tricks, and none are paid where the contract (or a house rule) has no bonuses."""
    if not deal.premiers:
        return
    if deal.kind.nemo:
        raise ImpossibleDeal("there are no premiers in nemo: Hombre plays to lose every trick", "premiers")
    if no_bonuses:
        raise ImpossibleDeal(
            f"no premiers are paid in a forced spadille at this table (house rule {R.FORCED_SPADILLE_BONUSES})", "premiers"
        )
    if deal.side_tricks < 6:
        raise ImpossibleDeal(f"premiers are the first six tricks, but the contracting side took only {deal.side_tricks}", "premiers")


def _check_vole(deal: Deal, rules: HouseRules, no_bonuses: bool) -> None:
    """A vole announced only with a contract the profile allows; a vole undertaken only after premiers."""
    if deal.vole.in_the_bid and deal.contract not in rules.profile.vole_bids:
        bids = ", ".join(c.label for c in rules.profile.vole_bids) or "no contract (bid the vole itself)"
        raise ImpossibleDeal(f"{_a(deal.contract.label)} cannot be bid with the vole announced at this table (it can: {bids})", "vole")
    if deal.vole is not Vole.UNDERTAKEN:
        return
    if deal.kind.vole_announced:
        raise ImpossibleDeal("a vole announced is already a vole: do not mark it undertaken as well", "vole")
    if deal.kind.nemo:
        raise ImpossibleDeal("there is no vole in nemo", "vole")
    if no_bonuses:
        raise ImpossibleDeal(
            f"no vole may be undertaken in a forced spadille at this table (house rule {R.FORCED_SPADILLE_BONUSES})", "vole"
        )
    if not deal.premiers:
        raise ImpossibleDeal("a vole can be undertaken only after winning premiers (the first six tricks)", "vole")


def _check_all_tricks(deal: Deal, no_bonuses: bool) -> None:
    """Ten tricks include premiers; a seventh trick led after premiers undertakes the vole."""
    tricks = deal.side_tricks
    if tricks == TRICKS and not deal.premiers and not no_bonuses:
        raise ImpossibleDeal("taking all ten tricks means taking the first six: mark premiers", "premiers")
    if deal.premiers and tricks > 6 and deal.vole is Vole.NONE and not deal.vole_in_the_bid:
        raise ImpossibleDeal(
            "leading to the seventh trick after premiers undertakes the vole: mark the vole undertaken, "
            "or enter 6 tricks if the side claimed at premiers",
            "vole",
        )
