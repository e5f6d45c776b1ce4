"""The card-play engine (issue 13): the rank of the cards, lawful plays with the matadors' privilege,
the winner of a trick, and what a whole record of the play proves. Domain tests: no fixtures."""

from __future__ import annotations


import pytest
from helpers.plays import random_play
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core import Card, Contract, Deal, Suit, Vole
from scorer.core import HouseRules, PlayReport
from scorer.core.game.play import PACK, PlayError, legal_plays, parse_tricks, ranking, trick_winner, why_not
from scorer.core.ledger.table_checks import referee as referee_under


def referee(deal: Deal, players: tuple[str, ...], tricks: tuple[tuple[Card, ...], ...]) -> PlayReport:
    """The engine's verdict under the default house rules (Quadrille's)."""
    return referee_under(deal, players, tricks, HouseRules.of())

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


# P's table of the rank of the cards (P, PG), highest first: the trumps, then each plain suit.
RANKS = [
    (Suit.SPADES, "AS 2S AC KS QS JS 7S 6S 5S 4S 3S",
     {Suit.CLUBS: "KC QC JC 7C 6C 5C 4C 3C 2C", Suit.DIAMONDS: "KD QD JD AD 2D 3D 4D 5D 6D 7D",
      Suit.HEARTS: "KH QH JH AH 2H 3H 4H 5H 6H 7H"}),
    (Suit.CLUBS, "AS 2C AC KC QC JC 7C 6C 5C 4C 3C",
     {Suit.SPADES: "KS QS JS 7S 6S 5S 4S 3S 2S", Suit.DIAMONDS: "KD QD JD AD 2D 3D 4D 5D 6D 7D",
      Suit.HEARTS: "KH QH JH AH 2H 3H 4H 5H 6H 7H"}),
    (Suit.DIAMONDS, "AS 7D AC AD KD QD JD 2D 3D 4D 5D 6D",
     {Suit.SPADES: "KS QS JS 7S 6S 5S 4S 3S 2S", Suit.CLUBS: "KC QC JC 7C 6C 5C 4C 3C 2C",
      Suit.HEARTS: "KH QH JH AH 2H 3H 4H 5H 6H 7H"}),
    (Suit.HEARTS, "AS 7H AC AH KH QH JH 2H 3H 4H 5H 6H",
     {Suit.SPADES: "KS QS JS 7S 6S 5S 4S 3S 2S", Suit.CLUBS: "KC QC JC 7C 6C 5C 4C 3C 2C",
      Suit.DIAMONDS: "KD QD JD AD 2D 3D 4D 5D 6D 7D"}),
    (None, "AS AC",  # grandissimo and nemo: the two black Aces a fifth suit of trumps (P)
     {Suit.SPADES: "KS QS JS 7S 6S 5S 4S 3S 2S", Suit.CLUBS: "KC QC JC 7C 6C 5C 4C 3C 2C",
      Suit.DIAMONDS: "KD QD JD AD 2D 3D 4D 5D 6D 7D", Suit.HEARTS: "KH QH JH AH 2H 3H 4H 5H 6H 7H"}),
]


@pytest.mark.parametrize("trumps, trump_order, plain", RANKS, ids=[str(r[0] and r[0].value or "grandissimo") for r in RANKS])
def test_the_rank_of_every_card(trumps: Suit | None, trump_order: str, plain: dict[Suit, str]) -> None:
    rank = ranking(trumps)
    assert rank.trump_order == cards(trump_order)
    for suit, order in plain.items():
        assert rank.plain_orders[suit] == cards(order)
    every = list(rank.trump_order) + [c for order in rank.plain_orders.values() for c in order]
    assert sorted(every) == sorted(PACK) and len(every) == 40
    for higher, lower in zip(rank.trump_order, rank.trump_order[1:]):  # each trump takes the one below it
        assert trick_winner([lower, higher], trumps) == 1 and trick_winner([higher, lower], trumps) == 0


# (what, trumps, hand, the trick so far, the cards she may play)
PRIVILEGE = [
    ("only Manille: need not follow a small trump led", Suit.SPADES, "2S KH 3D", "5S", "2S KH 3D"),
    ("only Manille: must follow Spadille led", Suit.SPADES, "2S KH 3D", "AS", "2S"),
    ("Basto and a small trump: must play a trump", Suit.SPADES, "AC 4S KH", "5S", "AC 4S"),
    ("Manille led forces Basto alone", Suit.HEARTS, "AC KS", "7H", "AC"),
    ("Manille led does not force Spadille", Suit.HEARTS, "AS KS", "7H", "AS KS"),
    ("a higher matador played second does not force", Suit.HEARTS, "AC KS", "3H AS", "AC KS"),
    ("Punto is not a matador: must follow", Suit.HEARTS, "AH KS", "3H", "AH"),
    ("must follow the suit led", Suit.HEARTS, "KS 3S 4D", "7S", "KS 3S"),
    ("Spadille is not a spade when hearts are trumps", Suit.HEARTS, "AS 4D", "7S", "AS 4D"),
    ("nothing of the suit led: any card", Suit.HEARTS, "KC 4D", "7S", "KC 4D"),
    ("grandissimo: Basto must follow Spadille led", None, "AC KH", "AS", "AC"),
    ("grandissimo: no matadors, so Spadille must follow Basto led", None, "AS KH", "AC", "AS"),
]


@pytest.mark.parametrize("what, trumps, hand, trick, lawful", PRIVILEGE, ids=[p[0] for p in PRIVILEGE])
def test_lawful_plays_and_the_matadors_privilege(what: str, trumps: Suit | None, hand: str, trick: str, lawful: str) -> None:
    assert legal_plays(cards(hand), cards(trick), trumps) == frozenset(cards(lawful))


def test_why_a_card_may_not_be_played() -> None:
    assert why_not(cards("KS 3S 4D"), cards("7S"), Suit.HEARTS, Card.parse("4D")) == "must follow spades"
    assert why_not(cards("AC 4S KH"), cards("5S"), Suit.SPADES, Card.parse("KH")) == "must follow trumps"
    assert why_not(cards("AC KS"), cards("7H"), Suit.HEARTS, Card.parse("KS")) == "must play a trump: 7♥ led forces a lower matador"
    assert why_not(cards("AC KS"), cards("7H"), Suit.HEARTS, Card.parse("AC")) is None


# --- whole plays ----------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None]))
def test_a_random_lawful_play_is_accepted_and_proves_the_hands(seed: int, trumps: Suit | None) -> None:
    tricks, dealt = random_play(seed, trumps)
    parsed = parse_tricks([[c.code for c in t] for t in tricks])
    contract = Contract.SOLO if trumps is not None else Contract.GRANDISSIMO
    report = referee(Deal("Ann", "Bea", contract, trumps), PLAYERS, parsed)
    assert report.renounces == ()
    assert sum(report.tricks_won.values()) == 10
    assert {p: sorted(h) for p, h in report.hands.items()} == {p: sorted(h) for p, h in dealt.items()}
    assert report.tricks[0].leader == "Bea"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([Suit.SPADES, Suit.HEARTS, None]))
def test_a_card_played_against_the_rules_is_found_as_a_renounce(seed: int, trumps: Suit | None) -> None:
    """Every card that was not lawful from the hand then held is a renounce, proven by a card held."""
    tricks, dealt = random_play(seed, trumps, renege=0.3)
    report = referee(Deal("Ann", "Bea", Contract.SOLO if trumps else Contract.GRANDISSIMO, trumps), PLAYERS,
                     parse_tricks([[c.code for c in t] for t in tricks]))
    hands = {p: list(h) for p, h in dealt.items()}
    expected = []
    for number, trick in enumerate(report.tricks, start=1):
        so_far: list[Card] = []
        for pc in trick.cards:
            if so_far and pc.card not in legal_plays(hands[pc.player], so_far, trumps):
                expected.append((number, pc.player, pc.card))
            hands[pc.player].remove(pc.card)
            so_far.append(pc.card)
    assert [(r.trick, r.player, r.played) for r in report.renounces] == expected
    for r in report.renounces:  # the proof: she held the card and played it later
        later = [pc.card for t in report.tricks[r.trick:] for pc in t.cards if pc.player == r.player]
        assert r.held in later


@pytest.mark.parametrize("tricks, message", [
    ([["AS", "2S", "KS", "3S"]] * 1, "a play record has all 10 tricks, or 6"),
    ([["AS", "2S", "KS"]] + [["AS"]] * 5, "trick 1: a trick is four cards"),
    ([["AS", "2S", "KS", "9S"]] + [[]] * 5, "trick 1: 9S is not in the pack"),
    ([["AS", "2S", "KS", "3S"], ["AS", "2H", "KH", "3H"]] + [[]] * 4, "trick 2: A♠ was played already in trick 1"),
    ([["AS", "2S", "KS", "XS"]] + [[]] * 5, "trick 1: 'XS' is not a card: unknown rank 'X'"),
])
def test_an_impossible_record_is_refused_with_the_trick_and_card(tricks: list[list[str]], message: str) -> None:
    with pytest.raises(PlayError, match=message.replace("(", r"\(")):
        parse_tricks(tricks)


def test_premiers_claimed_after_six_tricks() -> None:
    """Bea's solo in hearts takes the first six tricks and she claims premiers there."""
    tricks, _ = fixed_solo()
    report = referee(Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=6, premiers=True, matadors=4),
                     PLAYERS, parse_tricks(tricks[:6]))
    assert report.derived.matadors == 4  # proven by the first six tricks: Cat played the King of hearts
    assert report.derived.premiers and report.derived.vole is Vole.NONE
    assert report.derived.hombre_tricks == 6 and report.disagreements == ()


def fixed_solo() -> tuple[list[list[str]], dict[str, str]]:
    """Bea holds AS 7H AC AH QH JH (Cat the King of hearts) and KS KC KD 2D; she leads her trumps,
    then her Kings, and takes every trick."""
    hands = {"Bea": "AS 7H AC AH QH JH KS KC KD 2D", "Cat": "KH 2H QS JS 7S QC JC 7C 3D 4D",
             "Dan": "3H 4H 6S 5S QD JD AD 5D 6C 5C", "Ann": "5H 6H 4S 3S 2S 4C 3C 2C 6D 7D"}
    plays = [("AS", "2H", "3H", "5H"), ("7H", "KH", "4H", "6H"), ("AC", "QS", "6S", "4S"), ("AH", "JS", "5S", "3S"),
             ("KS", "7S", "QD", "2S"), ("KC", "QC", "6C", "4C"), ("QH", "JC", "JD", "3C"), ("JH", "7C", "AD", "2C"),
             ("KD", "3D", "5D", "6D"), ("2D", "4D", "5C", "7D")]
    return [list(p) for p in plays], hands


def test_a_vole_proves_hands_tricks_and_four_matadors_where_three_were_recorded() -> None:
    tricks, hands = fixed_solo()
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=10, premiers=True, vole=Vole.UNDERTAKEN, matadors=3)
    report = referee(deal, PLAYERS, parse_tricks(tricks))
    assert {p: sorted(h) for p, h in report.hands.items()} == {p: sorted(cards(h)) for p, h in hands.items()}
    assert [t.winner for t in report.tricks] == ["Bea"] * 10
    assert report.renounces == () and report.privileges == ()
    assert report.derived.matadors == 4  # Spadille, Manille, Basto and Punto; the King is Cat's (P)
    assert report.derived.vole is Vole.UNDERTAKEN and report.derived.premiers
    assert [(d.field, d.recorded, d.from_play) for d in report.disagreements] == [("matadors", 3, 4)]


def test_a_deal_keeps_its_play_record_in_the_evening_file() -> None:
    from scorer.core.ledger.evening_json import format_deal, parse_deal

    tricks, _ = fixed_solo()
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=10, premiers=True, vole=Vole.UNDERTAKEN,
                matadors=4, play=parse_tricks(tricks))
    data = format_deal(deal)
    assert data["play"] == {"tricks": tricks}
    assert parse_deal(data) == deal
    with pytest.raises(ValueError, match="play: trick 2: A♠ was played already in trick 1"):
        parse_deal({**data, "play": {"tricks": [tricks[0], tricks[0]] + tricks[2:]}})


def test_a_deal_kept_with_its_play_must_say_what_the_play_proves() -> None:
    from scorer.core import HouseRules, ImpossibleDeal, TableState, check_deal

    tricks, _ = fixed_solo()
    proven = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=10, premiers=True, vole=Vole.UNDERTAKEN,
                  matadors=4, play=parse_tricks(tricks))
    start = TableState.start(PLAYERS)
    check_deal(proven, start, HouseRules.of())
    from dataclasses import replace

    with pytest.raises(ImpossibleDeal, match="the play proves matadors: 4, but the deal says 3") as refused:
        check_deal(replace(proven, matadors=3), start, HouseRules.of())
    assert refused.value.field == "matadors"


def test_six_tricks_are_a_record_only_where_the_side_took_them_all() -> None:
    """A record may stop after six tricks only because premiers were claimed (docs/FORMATS.md, "Play records")."""
    from dataclasses import replace

    from scorer.core import HouseRules, ImpossibleDeal, TableState, check_deal

    six = parse_tricks([[c.code for c in t] for t in random_play(7, Suit.HEARTS)[0][:6]])
    report = referee(Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS), PLAYERS, six)
    assert not report.derived.premiers, "seed 7 has Bea lose one of the first six tricks"
    deal = replace(Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS), hombre_tricks=report.derived.hombre_tricks,
                   matadors=report.derived.matadors or 0, play=six)
    with pytest.raises(ImpossibleDeal, match="a play of six tricks is premiers claimed"):
        check_deal(deal, TableState.start(PLAYERS), HouseRules.of())


def test_a_card_of_a_million_letters_is_named_short() -> None:
    with pytest.raises(PlayError) as refused:
        parse_tricks([["A" * 1_000_000, "2S", "KS", "3S"]] * 6)
    assert len(refused.value.message) < 120


@pytest.mark.parametrize("seed, profile, deal", [
    # The side takes the first six tricks in both (found by seed): no premiers to prove, no vole undertaken.
    (82, "quadrille", Deal("Ann", "Bea", Contract.FORCED_SPADILLE, Suit.HEARTS, called=Card.parse("KC"))),
    (244, "mediateur", Deal("Ann", "Bea", Contract.NEMO, None)),
])
def test_no_premiers_or_vole_are_proven_where_the_contract_has_none(seed: int, profile: str, deal: Deal) -> None:
    tricks, _ = random_play(seed, deal.trumps)
    report = referee_under(deal, PLAYERS, parse_tricks([[c.code for c in t] for t in tricks]), HouseRules.of(profile))
    assert report.derived.first_six, f"seed {seed} should have the side take the first six"
    assert report.derived.premiers is False and report.derived.vole is Vole.NONE


def test_the_point_score_leaves_the_matadors_unproven() -> None:
    tricks, _ = fixed_solo()
    report = referee_under(Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=10), PLAYERS,
                           parse_tricks(tricks), HouseRules.of("penguin_points"))
    assert report.derived.matadors is None and "matadors" not in [d.field for d in report.disagreements]
