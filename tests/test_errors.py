"""Impossible deals are refused with a message a player understands, naming the input at fault."""

from __future__ import annotations

import pytest
from helpers.scenario import parse_deal

from scorer.core import (
    Card,
    Contract,
    Deal,
    DealError,
    Evening,
    HouseRules,
    ImpossibleDeal,
    Suit,
    TableState,
    UnknownHouseRule,
    Vole,
    replay,
    settle,
)

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


def solo(**changes: object) -> Deal:
    fields: dict[str, object] = dict(dealer="Ann", hombre="Bea", contract=Contract.SOLO, trumps=Suit.HEARTS, hombre_tricks=6)
    fields.update(changes)
    return Deal(**fields)  # type: ignore[arg-type]


def alliance(**changes: object) -> Deal:
    fields: dict[str, object] = dict(
        dealer="Ann", hombre="Bea", contract=Contract.ALLIANCE, trumps=Suit.SPADES,
        called=Card.parse("KH"), ally="Dan", hombre_tricks=4, ally_tricks=3,
    )
    fields.update(changes)
    return Deal(**fields)  # type: ignore[arg-type]


ERRORS = [
    ("tricks above ten", solo(hombre_tricks=11), {}, "tricks", "Hombre cannot take 11 tricks: a deal has 0 to 10"),
    ("negative tricks", solo(hombre_tricks=-1), {}, "tricks", "Hombre cannot take -1 tricks"),
    ("ally's tricks above ten", alliance(ally_tricks=12), {}, "tricks", "the ally cannot take 12 tricks"),
    ("side over ten", alliance(hombre_tricks=6, ally_tricks=5), {}, "tricks", "make 11: there are only 10"),
    ("an ally in a solo", solo(ally="Dan"), {}, "ally", "a solo is played alone: there is no ally"),
    ("a called King in a solo", solo(called=Card.parse("KH")), {}, "called", "nobody is called in a solo"),
    ("ally's tricks in a solo", solo(ally_tricks=2), {}, "tricks", "a solo has no ally to take tricks"),
    ("no ally in an alliance", alliance(ally=None), {}, "ally", "who held the King of hearts? An alliance needs the ally"),
    ("no called King", alliance(called=None), {}, "called", "an alliance calls a King: which one?"),
    ("own King forbidden", alliance(ally="Bea", ally_tricks=None), {"own_king": "forbidden"}, "ally",
     "Hombre may not call a King she holds herself at this table (house rule “Hombre calls a King she holds”)"),
    ("ally's tricks in a secret solo: a slip or a secret solo, said which", alliance(ally="Bea", ally_tricks=3), {},
     "ally", "Bea is named both Hombre and her ally, and the ally's tricks are 3: for a secret solo (Hombre called a "
     "King she held herself) the ally takes no tricks; else name who held the King of hearts"),
    ("the King of trumps", alliance(called=Card.parse("KS")), {}, "called",
     "the King of spades is a trump: Hombre may not call a card of the trump suit"),
    ("a Knave called", alliance(called=Card.parse("JH")), {}, "called", "Hombre calls a King (or a Queen when she holds every King), not the Knave of hearts"),
    ("ally's tricks missing", alliance(ally_tricks=None), {}, "tricks", "how many tricks did Dan (the ally) take?"),
    ("premiers with five tricks", solo(hombre_tricks=5, premiers=True), {}, "premiers",
     "premiers are the first six tricks, but the contracting side took only 5"),
    ("vole without premiers", solo(hombre_tricks=8, vole=Vole.UNDERTAKEN), {}, "vole",
     "a vole can be undertaken only after winning premiers"),
    ("vole in forced spadille", alliance(contract=Contract.FORCED_SPADILLE, hombre_tricks=6, ally_tricks=4, vole=Vole.UNDERTAKEN), {},
     "vole", "no vole may be undertaken in a forced spadille at this table (house rule “Premiers and vole in forced spadille”)"),
    ("premiers in forced spadille", alliance(contract=Contract.FORCED_SPADILLE, premiers=True), {}, "premiers",
     "no premiers are paid in a forced spadille at this table (house rule “Premiers and vole in forced spadille”)"),
    ("vole announced and undertaken", solo(contract=Contract.VOLE, hombre_tricks=10, premiers=True, vole=Vole.UNDERTAKEN), {},
     "vole", "a vole announced is already a vole"),
    ("ten tricks without premiers", solo(hombre_tricks=10), {}, "premiers", "taking all ten tricks means taking the first six: mark premiers"),
    ("playing on after premiers", solo(hombre_tricks=8, premiers=True), {}, "vole",
     "leading to the seventh trick after premiers undertakes the vole"),
    ("two matadors", solo(matadors=2), {}, "matadors", "matadors are 0, or the unbroken run of trumps from Spadille of 3 or more"),
    ("more matadors than trumps", solo(trumps=Suit.SPADES, matadors=12), {"double_matadors_suits": "any_suit"}, "matadors",
     "spades have only 11 trumps, so not 12 matadors"),
    ("unknown Hombre", solo(hombre="Eve"), {}, "hombre", "'Eve' is not one of the players at this table (Ann, Bea, Cat, Dan)"),
    ("unknown dealer", solo(dealer="Eve"), {}, "dealer", "'Eve' is not one of the players at this table"),
    ("unknown ally", alliance(ally="Eve"), {}, "ally", "'Eve' is not one of the players at this table"),
    ("spadille held by another in forced spadille", alliance(contract=Contract.FORCED_SPADILLE, spadille="Cat"), {}, "spadille",
     "in a forced spadille Hombre is the player who held Spadille"),
]


@pytest.mark.parametrize("deal, changes, field, message", [pytest.param(*e[1:], id=e[0]) for e in ERRORS])
def test_impossible_deal_is_refused(deal: Deal, changes: dict[str, str], field: str, message: str) -> None:
    with pytest.raises(ImpossibleDeal) as caught:
        settle(deal, TableState.start(PLAYERS), HouseRules.of("quadrille", changes))
    assert message in caught.value.message
    assert caught.value.field == field


def test_dealer_out_of_turn() -> None:
    first = settle(parse_deal("Ann deals: Bea solo in hearts, 6 tricks"), TableState.start(PLAYERS), HouseRules.of())
    with pytest.raises(ImpossibleDeal) as caught:
        settle(parse_deal("Cat deals: Bea solo in hearts, 6 tricks"), first.after, HouseRules.of())
    assert caught.value.message == "it is Bea's deal, not Cat's: the deal passes to the right, to the player after Ann"
    assert caught.value.field == "dealer"


def test_odd_chips_for_spadille_need_its_holder() -> None:
    rules = HouseRules.of("quadrille", {"codille_indivisible": "odd_to_spadille"})
    first = settle(parse_deal("Ann deals: Bea solo in hearts, 4 tricks"), TableState.start(PLAYERS), rules)
    with pytest.raises(ImpossibleDeal) as caught:
        settle(parse_deal("Bea deals: Cat solo in clubs, 6 tricks"), first.after, rules)
    assert "holds Spadille this deal, or else the highest trump, takes the last codille's 1 odd chip (" in caught.value.message
    assert caught.value.field == "spadille"


def test_a_failed_deal_settles_nothing_and_names_its_number() -> None:
    good = parse_deal("Ann deals: Bea solo in hearts, 6 tricks")
    bad = parse_deal("Bea deals: Cat solo in clubs, 5 tricks, premiers")
    later = parse_deal("Cat deals: Dan solo in clubs, 6 tricks")
    with pytest.raises(DealError) as caught:
        replay(Evening(PLAYERS, HouseRules.of(), (good, bad, later)))
    assert caught.value.number == 2
    assert caught.value.message.startswith("deal 2: premiers are the first six tricks")
    assert caught.value.field == "premiers"


def test_a_refused_deal_leaves_the_state_as_it_was() -> None:
    state = TableState.start(PLAYERS)
    with pytest.raises(ImpossibleDeal):
        settle(solo(hombre_tricks=11), state, HouseRules.of())
    assert state == TableState.start(PLAYERS)


@pytest.mark.parametrize(
    "players, message",
    [
        (("Ann", "Bea", "Cat"), "Quadrille is played by four; 3 players were given"),
        (("Ann", "Bea", "Cat", "ann"), "two players have the same name"),
        (("Ann", "Bea", "Cat", " "), "every player needs a name"),
        (("Ann", "Bea", "Cat", "pool"), "'pool' cannot be a player's name: it names a pot of chips"),
        (("Ann", "Bea", "Cat", "D\x00n"), "cannot be a player's name: it has an invisible control character"),
    ],
)
def test_bad_players_are_refused(players: tuple[str, ...], message: str) -> None:
    with pytest.raises(ImpossibleDeal) as caught:
        Evening(players)
    assert message in caught.value.message


def test_evening_length_is_a_multiple_of_four() -> None:
    with pytest.raises(ImpossibleDeal, match="an evening is a multiple of four deals, not 10"):
        Evening(PLAYERS, deals_agreed=10)


@pytest.mark.parametrize(
    "profile, changes, message",
    [
        ("quadrille", {"no_such_rule": "x"}, "there is no house rule called 'no_such_rule'"),
        ("quadrille", {"solo_premium": "five_units"}, "'five_units' is not a value of the house rule solo_premium"),
        ("whist", {}, "there is no rule profile called 'whist'"),
    ],
)
def test_unknown_house_rules_are_refused(profile: str, changes: dict[str, str], message: str) -> None:
    with pytest.raises(UnknownHouseRule) as caught:
        HouseRules.of(profile, changes)
    assert message in caught.value.message
