"""The deal told in one sentence (scorer.core.game.describe), as the undo page shows it: every contract of every profile."""

from __future__ import annotations

import json

import pytest
from helpers.deals import evening_deals

from scorer.core import CONTRACT_KINDS, PROFILES, Card, Contract, Deal, Result, Suit, Vole, describe, loads, replay


def settled(profile: str) -> list[tuple[Deal, Result]]:
    deals = evening_deals(profile)
    evening = loads(json.dumps({"format": "quadrille-evening/1", "players": ["Ann", "Bea", "Cat", "Dan"],
                                "profile": profile, "deals_agreed": 8, "deals": deals}))
    return [(s.deal, s.result) for s in replay(evening).settlements]


CASES = [(profile, contract) for profile, p in PROFILES.items() for contract in p.contracts]


def test_every_contract_of_every_profile_has_a_case() -> None:
    for profile, contract in CASES:
        assert contract in {deal.contract for deal, _ in settled(profile)}, (profile, contract)


@pytest.mark.parametrize("profile, contract", CASES, ids=[f"{p}-{c.value}" for p, c in CASES])
def test_the_sentence_says_what_was_played_in_the_contract_s_own_words(profile: str, contract: Contract) -> None:
    for deal, result in settled(profile):
        if deal.contract is not contract:
            continue
        told = str(describe(deal, result))
        assert told.startswith(deal.hombre + " ") and told.endswith(".")
        assert "None" not in told and " in :" not in told and " in ," not in told and "  " not in told
        kind = CONTRACT_KINDS[contract]
        if kind.trumps:
            assert deal.trumps is not None and f" in {deal.trumps.value}" in told
        else:
            assert not any(f" in {suit.value}" in told for suit in Suit)  # grandissimo and nemo: no trump suit
            assert "no trumps" in told
        if deal.called is not None:
            assert deal.called.name in told  # the King called (or taken, in médiateur)
        if deal.has_real_ally:
            assert f"({deal.ally} held it)" in told and f"{deal.hombre} and {deal.ally} took" in told
        if kind.takes_king:
            assert f"from {deal.giver}" in told
        label = {Result.WON: "won", Result.VOLE_WON: "with the vole", Result.REMISE: "remise",
                 Result.CODILLE: "codille", Result.VOLE_LOST: "the vole lost", Result.LOST: "lost"}[result]
        assert label in told.rsplit(":", 1)[1]


@pytest.mark.parametrize("deal, result, sentence", [
    (Deal("Ann", "Hal", Contract.GRANDISSIMO, None, hombre_tricks=7), Result.WON,
     "Hal played grandissimo (no trumps but the black Aces); Hal took 7 tricks: won."),
    (Deal("Ann", "Hal", Contract.NEMO, None, hombre_tricks=0), Result.WON,
     "Hal played nemo (no trumps but the black Aces; to lose every trick); Hal took no trick: won."),
    (Deal("Ann", "Hal", Contract.NEMO, None, hombre_tricks=1), Result.REMISE,
     "Hal played nemo (no trumps but the black Aces; to lose every trick); Hal took 1 trick: lost by remise."),
    (Deal("Ann", "Hal", Contract.ALLIANCE, Suit.SPADES, Card.parse("KH"), "Bea", 4, 2), Result.WON,
     "Hal played an alliance in spades, calling the King of hearts (Bea held it); Hal and Bea took 6 tricks "
     "(Hal 4, Bea 2): won."),
    (Deal("Ann", "Hal", Contract.ALLIANCE, Suit.SPADES, Card.parse("KH"), "Hal", 6), Result.WON,
     "Hal played an alliance in spades, calling the King of hearts, which Hal held (played alone); Hal took 6 tricks: won."),
    (Deal("Ann", "Hal", Contract.FORCED_SPADILLE, Suit.CLUBS, Card.parse("KD"), "Cat", 3, 2), Result.REMISE,
     "Hal held Spadille: forced spadille in clubs, calling the King of diamonds (Cat held it); Hal and Cat took 5 tricks "
     "(Hal 3, Cat 2): lost by remise."),
    (Deal("Ann", "Hal", Contract.MEDIATEUR, Suit.HEARTS, Card.parse("KC"), hombre_tricks=10, premiers=True,
          vole=Vole.REVEALED, giver="Bea"), Result.VOLE_WON,
     "Hal played médiateur in hearts, taking the King of clubs from Bea, with the vole revealed (the hand shown); "
     "Hal took 10 tricks: won, with the vole."),
    (Deal("Ann", "Hal", Contract.SOLO, Suit.HEARTS, hombre_tricks=8, matadors=3, premiers=True, vole=Vole.UNDERTAKEN),
     Result.VOLE_LOST, "Hal played a solo in hearts, with 3 matadors and the vole undertaken after premiers; Hal took 8 "
                       "tricks: the game won with premiers, the vole lost."),
    (Deal("Ann", "Hal", Contract.VOLE, Suit.DIAMONDS, hombre_tricks=10, premiers=True), Result.VOLE_WON,
     "Hal bid the vole in diamonds; Hal took 10 tricks: won, with the vole."),
    (Deal("Ann", "Hal", Contract.SOLO, Suit.CLUBS, hombre_tricks=6, premiers=True), Result.WON,
     "Hal played a solo in clubs; Hal took 6 tricks: won, with premiers."),
    (Deal("Ann", "Hal", Contract.CASCO, Suit.HEARTS, Card.parse("KS"), "Dan", 2, 2), Result.CODILLE,
     "Hal played casco in hearts, calling the King of spades (Dan held it); Hal and Dan took 4 tricks (Hal 2, Dan 2): "
     "lost by codille."),
])
def test_examples(deal: Deal, result: Result, sentence: str) -> None:
    assert str(describe(deal, result)) == sentence
