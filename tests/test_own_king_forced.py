"""Hombre calls a King she holds herself in a forced spadille (house rule own_king_forced, issue 24 point 5).

P, in its alliance paragraph: "Hombre may call a King she holds herself, whether by mistake or as a bluff. In this
case she will, in effect, be playing a solo (secretly), and wins or loses accordingly"; its forced spadille: the
holder of Spadille "must play an alliance by calling a King". Quanti's table: forced spadille 0, alliance 0, each
1 in favourite. EB: "he wins alone or loses alone as in the other case, except the sans appeller" (house rule
own_king). The default settles it as in an alliance; without the solo premium has no source.

Players sit Ann, Bea, Cat, Dan in the order of play; Ann deals, so Bea is eldest. Bea holds Spadille and calls
a King she holds. The pool is empty before the antes (a chip each: stake 4, unit 1; at ``britannica`` a fish
each, 40 counters). Changes are each player's chips, counters or points in the deal, antes included.
"""

from __future__ import annotations

import pytest
from helpers.scenario import assert_settles_as, parse_deal, parse_expected

from scorer.core import HouseRules, Reason, TableState, settle
from scorer.core import rules as R
from scorer.core.errors import ImpossibleDeal

PLAYERS = ("Ann", "Bea", "Cat", "Dan")

P_OWN_KING = ("P: 'Hombre may call a King she holds herself, whether by mistake or as a bluff. In this case she "
              "will, in effect, be playing a solo (secretly), and wins or loses accordingly'")
P_FORCED = "P: Spadille's holder 'must play an alliance by calling a King'"

FORCED = "Ann deals: Bea forced spadille in spades calling KH held by Bea, {} tricks"
FORCED_IN_HEARTS = "Ann deals: Bea forced spadille in hearts calling KS held by Bea, {} tricks"
ALLIANCE = "Ann deals: Bea alliance in spades calling KH held by Bea, {} tricks"
NO_SOLO_PREMIUM = {R.OWN_KING_FORCED: "no_solo_premium"}

# (name, profile, house rule changes, deal line, expected line)
WORKED = [
    # --- quadrille: as in an alliance, a secret solo with the solo premium, 4 units (P).
    ("quadrille, 6 tricks: the pool and the solo premium, 4 from each", "quadrille", {}, FORCED.format(6),
     "=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5"),
    ("quadrille, 5 tricks: a remise alone, the premium to each", "quadrille", {}, FORCED.format(5),
     "=> remise; pool 8; Ann +3, Bea -17, Cat +3, Dan +3"),
    ("quadrille, 4 tricks: a codille alone; 4 does not divide by 3, Bea puts up double the stake",
     "quadrille", {}, FORCED.format(4),
     "=> codille; pool 12; Ann +3, Bea -21, Cat +3, Dan +3"),
    # --- without the solo premium: alone, paid as the forced spadille (Quanti: 0).
    ("no solo premium, 6 tricks: the pool alone", "quadrille", NO_SOLO_PREMIUM, FORCED.format(6),
     "=> won; pool 0; Ann -1, Bea +3, Cat -1, Dan -1"),
    ("no solo premium, 5 tricks: a remise alone, the beast only", "quadrille", NO_SOLO_PREMIUM, FORCED.format(5),
     "=> remise; pool 8; Ann -1, Bea -5, Cat -1, Dan -1"),
    ("no solo premium, 4 tricks: a codille alone, the beast only", "quadrille", NO_SOLO_PREMIUM, FORCED.format(4),
     "=> codille; pool 12; Ann -1, Bea -9, Cat -1, Dan -1"),
    ("no solo premium leaves the alliance's own King alone: the solo premium there", "quadrille", NO_SOLO_PREMIUM,
     ALLIANCE.format(6), "=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5"),
    # --- mediateur, hearts the favourite suit: the solo's 2 units doubled, or Quanti's forced spadille 1.
    ("mediateur in favourite: the solo premium, 2 units doubled", "mediateur", {}, FORCED_IN_HEARTS.format(6),
     "=> won; pool 0; Ann -5, Bea +15, Cat -5, Dan -5"),
    ("mediateur in favourite, no solo premium: Quanti's forced spadille, 1 unit", "mediateur", NO_SOLO_PREMIUM,
     FORCED_IN_HEARTS.format(6), "=> won; pool 0; Ann -2, Bea +6, Cat -2, Dan -2"),
    # --- britannica (own_king = alone_no_premium, EB): no sans appeler under either value: the game 1 and the
    # consolation 2 from each.
    ("britannica: alone, the game and the consolation", "britannica", {}, FORCED.format(6),
     "=> won; pool 0; Ann -13, Bea +39, Cat -13, Dan -13"),
    ("britannica, no solo premium: the same", "britannica", NO_SOLO_PREMIUM, FORCED.format(6),
     "=> won; pool 0; Ann -13, Bea +39, Cat -13, Dan -13"),
    ("britannica with P's secret solo: sans appeler too, 4 from each", "britannica", {R.OWN_KING: "secret_solo"},
     FORCED.format(6), "=> won; pool 0; Ann -17, Bea +51, Cat -17, Dan -17"),
    ("britannica with P's secret solo, no solo premium in a forced spadille: no sans appeler", "britannica",
     {R.OWN_KING: "secret_solo", **NO_SOLO_PREMIUM}, FORCED.format(6),
     "=> won; pool 0; Ann -13, Bea +39, Cat -13, Dan -13"),
    # --- penguin_points: the solo's column (10, remise -20), or the forced spadille's (3, remise -6).
    ("penguin_points: the solo's column", "penguin_points", {}, FORCED.format(6),
     "=> won; ×1; Ann 0, Bea +10, Cat 0, Dan 0"),
    ("penguin_points, no solo premium: the forced spadille's column", "penguin_points", NO_SOLO_PREMIUM,
     FORCED.format(6), "=> won; ×1; Ann 0, Bea +3, Cat 0, Dan 0"),
    ("penguin_points, no solo premium, 5 tricks: the forced spadille's remise, hers alone", "penguin_points",
     NO_SOLO_PREMIUM, FORCED.format(5), "=> remise; ×1; Ann 0, Bea -6, Cat 0, Dan 0"),
    ("penguin_points with EB's own King: the forced spadille's column", "penguin_points",
     {R.OWN_KING: "alone_no_premium"}, FORCED.format(6), "=> won; ×1; Ann 0, Bea +3, Cat 0, Dan 0"),
    ("penguin_points with EB's own King in an alliance: the alliance's column", "penguin_points",
     {R.OWN_KING: "alone_no_premium"}, ALLIANCE.format(6), "=> won; ×1; Ann 0, Bea +5, Cat 0, Dan 0"),
]


@pytest.mark.parametrize("profile, changes, deal_line, expected_line", [pytest.param(*r[1:], id=r[0]) for r in WORKED])
def test_her_own_king_in_a_forced_spadille(profile: str, changes: dict[str, str], deal_line: str,
                                           expected_line: str) -> None:
    """P_OWN_KING, read with P_FORCED (the default, as in an alliance); or alone without the solo premium."""
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), HouseRules.of(profile, changes))
    assert_settles_as(settlement, parse_expected(expected_line), PLAYERS)
    assert settlement.after.total == 0


@pytest.mark.parametrize("value", R.house_rule(R.OWN_KING_FORCED).values)
def test_a_table_that_forbids_her_own_king_forbids_it_in_a_forced_spadille_too(value: str) -> None:
    """House rule own_king = forbidden refuses it in every contract that calls a King, whatever own_king_forced."""
    rules = HouseRules.of("quadrille", {R.OWN_KING: "forbidden", R.OWN_KING_FORCED: value})
    with pytest.raises(ImpossibleDeal, match="house rule “Hombre calls a King she holds”"):
        settle(parse_deal(FORCED.format(6)), TableState.start(PLAYERS), rules)


def test_the_premium_names_the_rules_that_decided_it() -> None:
    """In a forced spadille the solo premium cites own_king and own_king_forced; in an alliance own_king alone."""
    forced = settle(parse_deal(FORCED.format(6)), TableState.start(PLAYERS), HouseRules.of())
    alliance = settle(parse_deal(ALLIANCE.format(6)), TableState.start(PLAYERS), HouseRules.of())
    for settlement, cited in ((forced, {R.OWN_KING, R.OWN_KING_FORCED}), (alliance, {R.OWN_KING})):
        premiums = [t for t in settlement.transfers if t.reason is Reason.GAME_PREMIUM]
        assert len(premiums) == 3
        assert all(set(t.rules) & {R.OWN_KING, R.OWN_KING_FORCED} == cited for t in premiums)
        assert all("secret solo" in str(t.what) for t in premiums)


def test_each_profile_keeps_the_default() -> None:
    """P_FORCED: the default follows P's alliance sentence at every profile; the britannica profile's own_king
    (EB) already pays no solo premium in any secret solo."""
    for profile in ("quadrille", "mediateur", "penguin_chips", "penguin_points", "britannica"):
        assert HouseRules.of(profile).value_of(R.OWN_KING_FORCED) == "as_in_alliance"


def test_the_help_text_gives_the_reason_and_the_sentences() -> None:
    text = R.house_rule(R.OWN_KING_FORCED).help
    for phrase in ("whether by mistake or as a bluff", "must play an alliance by calling a King",
                   "Quanti's table values the two games alike", "has no source", "(house rule “Hombre calls a King she holds”: with the solo premium"):
        assert phrase in text, phrase
    assert "(house rule “Hombre calls a King she holds in a forced spadille”)" in R.house_rule(R.OWN_KING).help
