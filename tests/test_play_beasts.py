"""Worked plays written as text (issue 13): what a play record proves, and the beasts a renounce costs
under the house rules renounce_beast and beasts_together, in every settlement system. No fixtures."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers.plays import CODILLE, RENOUNCE, VOLE, play, random_play, referee, refereed
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core import Card, Contract, Deal, HouseRules, Pot, Reason, Suit, TableState, check_deal, settle
from scorer.core.game.play import parse_tricks

PLAYERS = ("Ann", "Bea", "Cat", "Dan")
START = TableState.start(PLAYERS)


ALLIANCE = """
Bea JD, Cat 3D, Dan 6D, Ann 2D
Bea 7C, Cat 3C, Dan 2C, Ann 6C
Bea 4H, Cat 6H, Dan KH, Ann 7H
Dan KC, Ann QC, Bea 4C, Cat 7S
Cat 5H, Dan QH, Ann 3H, Bea 2H
Dan 5C, Ann AS, Bea JC, Cat 3S
Ann 4D, Bea QD, Cat JH, Dan 5D
Bea AC, Cat 5S, Dan QS, Ann KS
Bea 4S, Cat JS, Dan 7D, Ann KD
Cat 2S, Dan AH, Ann AD, Bea 6S
"""
"""Ann deals; Bea calls the King of clubs in spades; it falls in trick 4, played by Dan: her ally."""


def test_an_alliance_whose_called_king_falls_in_trick_four() -> None:
    entered = Deal("Ann", "Bea", Contract.ALLIANCE, Suit.SPADES, called=Card.parse("KC"), ally="Cat",
                   hombre_tricks=4, ally_tricks=3)
    report = referee(entered, PLAYERS, play(ALLIANCE))
    assert report.tricks[3].cards[0].card == Card.parse("KC") and report.tricks[3].cards[0].player == "Dan"
    assert (report.derived.ally, report.derived.hombre_tricks, report.derived.ally_tricks) == ("Dan", 4, 2)
    assert report.derived.premiers is False and report.derived.matadors == 0
    assert [(d.field, d.recorded, d.from_play) for d in report.disagreements] == [
        ("ally", "Cat", "Dan"), ("tricks", {"hombre": 4, "ally": 3}, {"hombre": 4, "ally": 2})]
    proven = refereed(replace(entered, ally="Dan", ally_tricks=2), ALLIANCE)
    assert settle(proven, START, HouseRules.of()).result.value == "won"  # six tricks between them


TWO_RENOUNCES = RENOUNCE.replace("Bea KS, Cat 7S, Dan 5S, Ann 3S", "Bea KS, Cat 7S, Dan 5S, Ann 4C").replace(
    "Bea AH, Cat JS, Dan 6H, Ann 4C", "Bea AH, Cat JS, Dan 6H, Ann 3S")
"""The same, and in trick 4 Ann plays the 4 of clubs to the King of spades led while she holds the 3 of spades."""


def test_a_renounce_in_trick_three_proven_by_trick_eight_and_the_beast_it_costs() -> None:
    deal = refereed(VOLE, RENOUNCE)
    report = referee(deal, PLAYERS, deal.play or ())
    [renounce] = report.renounces
    assert (renounce.trick, renounce.player, str(renounce.led), str(renounce.played), str(renounce.held)) == (
        3, "Dan", "AC", "6S", "6H")
    assert str(report.hands["Dan"][7]) == "6H"  # the proof: the card he held, played in trick 8
    check_deal(deal, START, HouseRules.of())
    settled = settle(deal, START, HouseRules.of())
    beasts = [t for t in settled.transfers if t.reason is Reason.RENOUNCE_BEAST]
    # EB: "beasted what goes upon the game": the pool in play, 4 chips of antes on a fresh table.
    assert [(t.payer, t.payee, t.chips, t.source) for t in beasts] == [("Dan", Pot.POOL, 4, "EB")]
    assert "trick 3" in str(beasts[0].what) and settled.after.pool == 4 and settled.after.total == 0
    unchecked = settle(replace(deal, play=None), START, HouseRules.of())
    assert settled.after.balance("Dan") == unchecked.after.balance("Dan") - 4


def test_no_beast_where_the_table_replays_a_renounced_deal_instead() -> None:
    settled = settle(refereed(VOLE, RENOUNCE), START, HouseRules.of("quadrille", {"renounce_beast": "none"}))
    assert not [t for t in settled.transfers if t.reason is Reason.RENOUNCE_BEAST]


def test_two_renounces_go_into_the_next_pool_together_by_default() -> None:
    deal = refereed(VOLE, TWO_RENOUNCES)
    settled = settle(deal, START, HouseRules.of())
    assert [(t.payer, t.chips) for t in settled.transfers if t.reason is Reason.RENOUNCE_BEAST] == [("Dan", 4), ("Ann", 4)]
    assert settled.after.pool == 8 and settled.after.beasts_waiting == ()


def test_two_renounces_one_at_a_time_the_other_waits_for_the_next_pool() -> None:
    rules = HouseRules.of("quadrille", {"beasts_together": "greatest_first"})
    settled = settle(refereed(VOLE, TWO_RENOUNCES), START, rules)
    waits = [t for t in settled.transfers if t.reason is Reason.BEAST_WAITS]
    assert [(t.payer, t.payee, t.chips) for t in waits] == [(Pot.POOL, Pot.BEASTS_WAITING, 4)]
    assert settled.after.pool == 4 and settled.after.beasts_waiting == (4,) and settled.after.total == 0
    # The next deal: the waiting beast joins the pool before the antes.
    following = settle(Deal("Bea", "Cat", Contract.SOLO, Suit.SPADES, hombre_tricks=6), settled.after, rules)
    joins = [t for t in following.transfers if t.reason is Reason.BEAST_JOINS_POOL]
    assert [(t.payer, t.payee, t.chips) for t in joins] == [(Pot.BEASTS_WAITING, Pot.POOL, 4)]
    assert following.transfers[0] == joins[0] and following.stake == 4 + 4 + 4
    assert following.after.beasts_waiting == () and following.after.total == 0


@pytest.mark.parametrize("together, pool_after, waiting", [
    ("together", 4 + 8 + 4, ()),  # the pool of 4 stays whole (it does not divide by three), both beasts join it
    ("greatest_first", 4 + 8, (4,)),  # the codille beast (double the stake, 8) first; the renounce's 4 waits
])
def test_a_codille_beast_and_a_renounce_beast(together: str, pool_after: int, waiting: tuple[int, ...]) -> None:
    deal = refereed(Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=3), CODILLE)
    rules = HouseRules.of("quadrille", {"beasts_together": together})
    settled = settle(deal, START, rules)
    assert settled.result.value == "codille"
    assert [(t.payer, t.chips) for t in settled.transfers if t.reason is Reason.CODILLE_BEAST] == [("Bea", 8)]
    assert [(t.payer, t.chips) for t in settled.transfers if t.reason is Reason.RENOUNCE_BEAST] == [("Dan", 4)]
    assert settled.after.pool == pool_after and settled.after.beasts_waiting == waiting and settled.after.total == 0


@pytest.mark.parametrize("profile", ["quadrille", "mediateur", "penguin_chips", "penguin_points", "britannica"])
def test_a_renounce_beast_is_settled_by_every_system_with_chips_conserved(profile: str) -> None:
    from scorer.core import PROFILES

    if profile not in PROFILES:
        pytest.skip(f"no profile {profile}")
    rules = HouseRules.of(profile)
    deal = refereed(replace(VOLE, matadors=4 if rules.profile.system.asks_matadors else 0), RENOUNCE)
    settled = settle(deal, START, rules)
    beasts = [t for t in settled.transfers if t.reason is Reason.RENOUNCE_BEAST]
    assert len(beasts) == 1 and beasts[0].payer == "Dan" and beasts[0].chips > 0 and beasts[0].source == "EB"
    assert settled.after.total == 0
    assert settled.after.balance("Dan") == settle(replace(deal, play=None), START, rules).after.balance("Dan") - beasts[0].chips


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["quadrille", "mediateur", "penguin_chips", "penguin_points", "britannica"]),
       st.sampled_from(["together", "greatest_first"]))
def test_beasts_from_random_plays_conserve_chips(seed: int, profile: str, together: str) -> None:
    """A random deal played with some unlawful cards, entered as its play proves it, then a plain deal:
    every chip is accounted for after each, whatever the system and however the beasts go."""

    tricks, _ = random_play(seed, Suit.HEARTS, renege=0.1)
    rules = HouseRules.of(profile, {"beasts_together": together} if profile != "penguin_points" else {})
    record = parse_tricks([[c.code for c in t] for t in tricks])
    report = referee(Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS), PLAYERS, record)
    d = report.derived
    deal = Deal("Ann", "Bea", Contract.SOLO, Suit.HEARTS, hombre_tricks=d.hombre_tricks, premiers=d.premiers,
                vole=d.vole, matadors=(d.matadors or 0) if rules.profile.system.asks_matadors else 0, play=record)
    first = settle(deal, START, rules)
    assert first.after.total == 0
    beasts = [t for t in first.transfers if t.reason is Reason.RENOUNCE_BEAST]
    assert len(beasts) == len(report.renounces)
    takers = first.after.spadille_takers  # EB: odd codille chips await one of the three's Spadille
    second = settle(Deal("Bea", "Cat", Contract.SOLO, Suit.SPADES, hombre_tricks=6, spadille=takers[0] if takers else None),
                    first.after, rules)
    assert second.after.total == 0 and len(second.after.beasts_waiting) == max(0, len(first.after.beasts_waiting) - 1)
