"""What makes a deal impossible under a table's house rule values: one place, used by every settlement
system and the web forms. What the table's profile and system add (the contracts it plays, the inputs its
system asks, a kept play refereed) is in :mod:`scorer.core.ledger.table_checks`, whose :func:`check_deal` runs
these checks in turn."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import rules as R
from .describe import the_card
from ..errors import Counted, ImpossibleDeal, Joined, Later, Lazy, Words
from ..i18n import N_
from ..names import listed_words
from .play import SUIT_PLURALS, no_bonuses
from ..model import CONTRACT_KINDS, TRICKS, Card, Contract, Deal, Suit, TableState, Vole
from ..rules import RuleValues


@dataclass(frozen=True, slots=True)
class _A(Lazy):
    """A contract's label with its English indefinite article, worded when read (English sentences only:
    a translation says ``{contract}``, the label alone); ``capital``: "An alliance"."""

    contract: Contract
    capital: bool = False

    def __str__(self) -> str:
        label = self.contract.label
        said = f"{'an' if label[0] in 'aeiou' else 'a'} {label}"  # "an alliance", "a solo"
        return said.capitalize() if self.capital else said


def _rule(name: str) -> Later:
    """A house rule as a sentence names it: its title in quotes, worded when read (“The favourite suit”), never its
    code."""
    return Later(R.house_rule(name), "quoted_title")


def card_placeholders(card: Card) -> dict[str, object]:
    """The placeholders naming a card: ``{card}`` ("King of hearts", English) and ``{the_card}``."""
    return {"card": Later(card, "name"), "the_card": the_card(card)}


def contract_placeholders(contract: Contract) -> dict[str, object]:
    """The placeholders naming a contract: ``{a_contract}`` ("an alliance", English) and ``{contract}``."""
    return {"a_contract": _A(contract), "contract": Later(contract, "label")}


def labels(contracts: tuple[Contract, ...] | list[Contract]) -> Joined:
    """Contracts as a sentence lists them, each by its label, worded when read."""
    return Joined(tuple(Later(c, "label") for c in contracts))


def check_seated(name: str | None, state: TableState, field: str) -> None:
    """``name`` (the deal's ``field``) is one of the players at the table."""
    if name not in state.players:
        raise ImpossibleDeal(Words(N_("{name!r} is not one of the players at this table"), name=name), field)


def check_seats(deal: Deal, state: TableState) -> None:
    """The dealer and Hombre sit at the table, and the deal is the dealer's (it passes to the right)."""
    for who, name in (("dealer", deal.dealer), ("hombre", deal.hombre)):
        if name not in state.players:
            raise ImpossibleDeal(Words(N_("{name!r} is not one of the players at this table ({players})"),
                                       name=name, players=", ".join(state.players)), who)
    expected = state.next_dealer
    if expected is not None and deal.dealer != expected:
        raise ImpossibleDeal(
            Words(N_("it is {expected}'s deal, not {dealer}'s: the deal passes to the right, to the player after {last}"),
                  expected=expected, dealer=deal.dealer, last=state.last_dealer), "dealer")


def check_entries(deal: Deal, state: TableState, rules: RuleValues, vole_bids: tuple[Contract, ...]) -> None:
    """What the deal says could have happened under these house rule values: the trumps, the partnership,
    the tricks, the matadors, premiers and the vole (announced only with one of ``vole_bids``, the contracts
    the table's profile lets a bid announce it with) and who takes the odd chips kept for Spadille."""
    _check_trumps(deal, rules)
    _check_partnership(deal, state, rules)
    _check_tricks(deal)
    _check_matadors(deal, rules)
    bonusless = no_bonuses(deal, rules)
    _check_premiers(deal, bonusless)
    _check_vole(deal, vole_bids, bonusless)
    _check_all_tricks(deal, bonusless)
    _check_spadille_taker(deal, state)


def _check_spadille_taker(deal: Deal, state: TableState) -> None:
    """EB: the odd counters of the last codille "belong to him of the three who shall have spadill or
    the highest trump the next deal": never to the loser of that codille."""
    takers = state.spadille_takers if state.spadille_reserve else ()
    loser_forced = deal.contract is Contract.FORCED_SPADILLE and bool(takers) and deal.hombre not in takers
    if deal.spadille is not None:
        check_seated(deal.spadille, state, "spadille")
        if deal.contract is Contract.FORCED_SPADILLE and deal.spadille != deal.hombre and not loser_forced:
            raise ImpossibleDeal(Words(N_("in a forced spadille Hombre is the player who held Spadille")), "spadille")
    if not state.spadille_reserve:
        return
    taker = spadille_holder(deal)
    if taker is None or (loser_forced and deal.spadille is None):
        raise ImpossibleDeal(
            Words(N_("whichever of {players} holds Spadille this deal, or else the highest trump, takes the last "
                     "codille's {chips} (house rule {rule}): say who"),
                  chips=Counted("{n} odd chip", "{n} odd chips", state.spadille_reserve), players=_names(takers),
                  rule=_rule(R.CODILLE_INDIVISIBLE)), "spadille")
    if takers and taker not in takers:
        raise ImpossibleDeal(
            Words(N_("{taker} lost the last codille: its odd chips go to whichever of {players} held Spadille, "
                     "or else the highest trump (EB: \"him of the three\")"), taker=taker, players=_names(takers)),
            "spadille")


def _names(players: tuple[str, ...]) -> str | Words:
    return listed_words(players, none=Words(N_("the winners of that codille")))


def spadille_holder(deal: Deal) -> str | None:
    """Who takes the odd chips set aside for Spadille: the player the deal names, or in a forced
    spadille Hombre, who held Spadille."""
    if deal.spadille is not None:
        return deal.spadille
    if deal.contract is Contract.FORCED_SPADILLE:
        return deal.hombre
    return None


def _check_trumps(deal: Deal, rules: RuleValues) -> None:
    if deal.kind.trumps and deal.trumps is None:
        raise ImpossibleDeal(Words(N_("which suit was trumps?")), "trumps")
    if not deal.kind.trumps and deal.trumps is not None:
        raise ImpossibleDeal(Words(N_("{a_contract} has no trump suit but the two black Aces"), **contract_placeholders(deal.contract)),
                             "trumps")
    per_deal = rules[R.FAVOURITE_SUIT] is R.FavouriteSuit.EACH_DEAL
    if per_deal and deal.kind.trumps and deal.favourite is None:
        raise ImpossibleDeal(Words(N_("which suit is favourite this deal? (house rule {rule})"), rule=_rule(R.FAVOURITE_SUIT)),
                             "favourite")
    if not per_deal and deal.favourite is not None:
        raise ImpossibleDeal(Words(N_("the favourite suit is not drawn each deal at this table (house rule {rule})"),
                                   rule=_rule(R.FAVOURITE_SUIT)), "favourite")


def _check_partnership(deal: Deal, state: TableState, rules: RuleValues) -> None:
    _check_alone(deal)
    if not deal.kind.calls_king:
        if deal.called is not None:
            raise ImpossibleDeal(Words(N_("nobody is called in {a_contract}"), **contract_placeholders(deal.contract)), "called")
        return
    called = _check_called(deal)
    if deal.kind.takes_king:
        _check_giver(deal, state, called)
    else:
        _check_ally(deal, state, rules, called)


def _check_alone(deal: Deal) -> None:
    """No ally, no ally's tricks and no King given where the contract has none."""
    kind = deal.kind
    contract = contract_placeholders(deal.contract)
    if not kind.allied and deal.ally is not None:
        raise ImpossibleDeal(Words(N_("{a_contract} is played alone: there is no ally"), **contract), "ally")
    if not kind.allied and deal.ally_tricks:
        raise ImpossibleDeal(Words(N_("{a_contract} has no ally to take tricks"), **contract), "tricks")
    if not kind.takes_king and deal.giver is not None:
        raise ImpossibleDeal(Words(N_("nobody gives Hombre a King in {a_contract}"), **contract), "giver")


def _check_called(deal: Deal) -> Card:
    """The King called (or the Queen), in a contract that calls one; return it."""
    if deal.called is None:
        raise ImpossibleDeal(Words(N_("{a_contract} calls a King: which one?"), **contract_placeholders(deal.contract)), "called")
    called = deal.called
    if called.rank not in ("K", "Q"):
        raise ImpossibleDeal(Words(N_("Hombre calls a King (or a Queen when she holds every King), not the {card}"),
                                   **card_placeholders(called)), "called")
    # P: the King of trumps may not be called for an ally (the médiateur may be "any King";
    # in casco the ally names trumps after she is called).
    if deal.contract in (Contract.ALLIANCE, Contract.FORCED_SPADILLE) and called.suit is deal.trumps:
        raise ImpossibleDeal(Words(N_("the {card} is a trump: Hombre may not call a card of the trump suit"),
                                   **card_placeholders(called)), "called")
    return called


def _check_giver(deal: Deal, state: TableState, called: Card) -> None:
    """Médiateur: another player gave Hombre the King."""
    if deal.giver is None:
        raise ImpossibleDeal(Words(N_("who gave Hombre the {card}?"), **card_placeholders(called)), "giver")
    check_seated(deal.giver, state, "giver")
    if deal.giver == deal.hombre:
        raise ImpossibleDeal(Words(N_("the médiateur King comes from another player's hand, not Hombre's own")), "giver")


def own_king_allowed(contract: Contract, rules: RuleValues) -> bool:
    """Whether Hombre may call a King she holds herself in ``contract`` (P: "whether by mistake or as a bluff"; a
    secret solo): in a contract with an ally, but not in casco (its King comes from another's hand), nor where
    the house rule own_king forbids it."""
    return (CONTRACT_KINDS[contract].allied and contract is not Contract.CASCO
            and rules[R.OWN_KING] is not R.OwnKing.FORBIDDEN)


def _check_ally(deal: Deal, state: TableState, rules: RuleValues, called: Card) -> None:
    """The holder of the King called: a player at the table, or Hombre herself (a secret solo) where allowed."""
    if deal.ally is None:
        raise ImpossibleDeal(Words(N_("who held the {card}? {A_contract} needs the ally"), **card_placeholders(called),
                                   A_contract=_A(deal.contract, capital=True), contract=Later(deal.contract, "label")),
                             "ally")
    check_seated(deal.ally, state, "ally")
    if not deal.is_secret_solo:
        if deal.ally_tricks is None:
            raise ImpossibleDeal(Words(N_("how many tricks did {ally} (the ally) take?"), ally=deal.ally), "tricks")
        return
    if deal.contract is Contract.CASCO:
        raise ImpossibleDeal(
            Words(N_("in casco Hombre calls a King she lacks: its holder names trumps and plays with her")), "ally")
    if rules[R.OWN_KING] is R.OwnKing.FORBIDDEN:
        raise ImpossibleDeal(
            Words(N_("Hombre may not call a King she holds herself at this table (house rule {rule})"), rule=_rule(R.OWN_KING)),
            "ally")
    if deal.ally_tricks:  # a slip or a secret solo: say which, never drop the tricks
        raise ImpossibleDeal(Words(N_("{hombre} is named both Hombre and her ally, and the ally's tricks are {tricks}: "
                                      "for a secret solo (Hombre called a King she held herself) the ally takes no "
                                      "tricks; else name who held the {card}"),
                                   hombre=deal.hombre, tricks=deal.ally_tricks, **card_placeholders(called)), "ally")


def _check_tricks(deal: Deal) -> None:
    for sentence, tricks in ((N_("Hombre cannot take {tricks} tricks: a deal has 0 to {most}"), deal.hombre_tricks),
                             (N_("the ally cannot take {tricks} tricks: a deal has 0 to {most}"), deal.ally_tricks)):
        if tricks is not None and not 0 <= tricks <= TRICKS:
            raise ImpossibleDeal(Words(sentence, tricks=tricks, most=TRICKS), "tricks")
    if deal.side_tricks > TRICKS:
        raise ImpossibleDeal(
            Words(N_("Hombre's {hombre} and her ally's {ally} tricks make {both}: there are only {most}"),
                  hombre=deal.hombre_tricks, ally=deal.ally_tricks, both=deal.side_tricks, most=TRICKS), "tricks")


def _check_matadors(deal: Deal, rules: RuleValues) -> None:
    m = deal.matadors
    if m < 0 or m in (1, 2):
        raise ImpossibleDeal(
            Words(N_("matadors are 0, or the unbroken run of trumps from Spadille of 3 or more; {matadors} is not one"),
                  matadors=m), "matadors")
    if deal.trumps is None:
        if m:
            raise ImpossibleDeal(Words(N_("there are no matadors in {a_contract}: without a trump suit there is no Manille"),
                                       **contract_placeholders(deal.contract)), "matadors")
        return
    trumps: Suit = deal.trumps
    if m > trumps.trump_count:
        raise ImpossibleDeal(Words(N_("{suit} have only {count} trumps, so not {matadors} matadors"),
                                   suit=Words(SUIT_PLURALS[trumps]), count=trumps.trump_count, matadors=m), "matadors")
    # A run of four or more in black trumps is held as the player says; where double matadors need
    # Punto (P, PG) it pays as three (house rule double_matadors_suits, see the hard score).


def implied(deal: Deal, rules: RuleValues) -> Deal:
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


def _check_premiers(deal: Deal, no_bonuses: bool) -> None:
    """Premiers are the first six tricks, and none are paid where the contract (or a house rule) has no bonuses."""
    if not deal.premiers:
        return
    if deal.kind.nemo:
        raise ImpossibleDeal(Words(N_("there are no premiers in nemo: Hombre plays to lose every trick")), "premiers")
    if no_bonuses:
        raise ImpossibleDeal(Words(N_("no premiers are paid in a forced spadille at this table (house rule {rule})"),
                                   rule=_rule(R.FORCED_SPADILLE_BONUSES)), "premiers")
    if deal.side_tricks < 6:
        raise ImpossibleDeal(Words(N_("premiers are the first six tricks, but the contracting side took only {tricks}"),
                                   tricks=deal.side_tricks), "premiers")


def _check_vole(deal: Deal, vole_bids: tuple[Contract, ...], no_bonuses: bool) -> None:
    """A vole announced only with a contract the profile allows; a vole undertaken only after premiers."""
    if deal.vole.in_the_bid and deal.contract not in vole_bids:
        bids = (labels(vole_bids) if vole_bids
                else Words(N_("no contract (bid the vole itself)")))
        raise ImpossibleDeal(Words(N_("{a_contract} cannot be bid with the vole announced at this table (it can: {bids})"),
                                   bids=bids, **contract_placeholders(deal.contract)), "vole")
    if deal.vole is not Vole.UNDERTAKEN:
        return
    if deal.kind.vole_announced:
        raise ImpossibleDeal(Words(N_("a vole announced is already a vole: do not mark it undertaken as well")), "vole")
    if deal.kind.nemo:
        raise ImpossibleDeal(Words(N_("there is no vole in nemo")), "vole")
    if no_bonuses:
        raise ImpossibleDeal(
            Words(N_("no vole may be undertaken in a forced spadille at this table (house rule {rule})"),
                  rule=_rule(R.FORCED_SPADILLE_BONUSES)), "vole")
    if not deal.premiers:
        raise ImpossibleDeal(Words(N_("a vole can be undertaken only after winning premiers (the first six tricks)")), "vole")


def _check_all_tricks(deal: Deal, no_bonuses: bool) -> None:
    """Ten tricks include premiers; a seventh trick led after premiers undertakes the vole."""
    tricks = deal.side_tricks
    if tricks == TRICKS and not deal.premiers and not no_bonuses:
        raise ImpossibleDeal(Words(N_("taking all ten tricks means taking the first six: mark premiers")), "premiers")
    if deal.premiers and tricks > 6 and deal.vole is Vole.NONE and not deal.vole_in_the_bid:
        raise ImpossibleDeal(
            Words(N_("leading to the seventh trick after premiers undertakes the vole: mark the vole undertaken, "
                     "or enter 6 tricks if the side claimed at premiers")), "vole")
