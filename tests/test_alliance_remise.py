"""Where the remise ends in an alliance (house rule alliance_remise, issue 24 point 1).

EB: "if they make only four tricks between them it is a remise; if they make less they lose codill"
(of Hombre "together with him who is the king called", in a forced spadille as in an alliance).
P: "If Hombre wins only five tricks, it is a remise; if four or fewer, it is a codille"; PG the same, "and
the same applies to an alliance". Who pays is house rule alliance_loss, EB's three-trick rule holding
"as well in case of a codill as a remise".

Players sit Ann, Bea, Cat, Dan in the order of play; Ann deals, so Bea is eldest. Bea is Hombre, Dan her
ally: one to one, Cat (the first opponent after Bea) settles with Bea and Ann with Dan. The pool is empty
before the antes: at ``quadrille`` a chip each (stake 4, unit 1), at ``britannica`` a fish each (10
counters, 40 on the game). Changes are each player's chips or counters in the deal, antes included.
"""

from __future__ import annotations

import pytest
from helpers.deals import valid_deal
from helpers.scenario import assert_settles_as, parse_deal, parse_expected
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core import PROFILES, Deal, HouseRules, Result, TableState, settle
from scorer.core import rules as R
from scorer.core.rules import HOUSE_RULES

PLAYERS = ("Ann", "Bea", "Cat", "Dan")

EB_FOUR = "EB: 'if they make only four tricks between them it is a remise; if they make less they lose codill'"
EB_ALONE = ("EB: the ombre who 'does not make three tricks' pays alone, 'as well in case of a codill as a remise'; "
            "a forced spadille: 'he that is called pays one half of the losings'")
P_FIVE = "P: 'If Hombre wins only five tricks, it is a remise; if four or fewer, it is a codille'"

ALLIANCE = "Ann deals: Bea alliance in spades calling KH held by Dan, {} + {} tricks, 3 matadors"
FORCED = "Ann deals: Bea forced spadille in spades calling KH held by Dan, {} + {} tricks"
OWN_KING = "Ann deals: Bea alliance in spades calling KH held by Bea, {} tricks"

# (name, profile, house rule changes, deal line, expected line)
WORKED = [
    # --- quadrille (P's five tricks by default): chips, alliance premium 0, three matadors 1 unit.
    ("quadrille, 5 tricks: a remise; Bea took 3, the beast of 4 shared, matadors one to one",
     "quadrille", {}, ALLIANCE.format(3, 2),
     "=> remise; pool 8; Ann 0, Bea -4, Cat 0, Dan -4"),
    ("quadrille, 4 tricks: a codille (P); Bea took 2, she alone puts up twice the 4 taken and pays both",
     "quadrille", {}, ALLIANCE.format(2, 2),
     "=> codille; pool 8; Ann +2, Bea -11, Cat +2, Dan -1"),
    ("quadrille, 4 tricks: a codille (P); Bea took 3, the beast of 8 shared",
     "quadrille", {}, ALLIANCE.format(3, 1),
     "=> codille; pool 8; Ann +2, Bea -6, Cat +2, Dan -6"),
    ("quadrille, 3 tricks: a codille",
     "quadrille", {}, ALLIANCE.format(3, 0),
     "=> codille; pool 8; Ann +2, Bea -6, Cat +2, Dan -6"),
    ("quadrille with EB's four tricks, 5 tricks: a remise as under P",
     "quadrille", {R.ALLIANCE_REMISE: "four_tricks"}, ALLIANCE.format(3, 2),
     "=> remise; pool 8; Ann 0, Bea -4, Cat 0, Dan -4"),
    ("quadrille with EB's four tricks, 4 tricks: a remise; Bea took 2, she alone doubles the pool, pays both",
     "quadrille", {R.ALLIANCE_REMISE: "four_tricks"}, ALLIANCE.format(2, 2),
     "=> remise; pool 8; Ann 0, Bea -7, Cat 0, Dan -1"),
    ("quadrille with EB's four tricks, 4 tricks: a remise; Bea took 3, the beast shared",
     "quadrille", {R.ALLIANCE_REMISE: "four_tricks"}, ALLIANCE.format(3, 1),
     "=> remise; pool 8; Ann 0, Bea -4, Cat 0, Dan -4"),
    ("quadrille with EB's four tricks, 3 tricks: 'if they make less they lose codill'",
     "quadrille", {R.ALLIANCE_REMISE: "four_tricks"}, ALLIANCE.format(3, 0),
     "=> codille; pool 8; Ann +2, Bea -6, Cat +2, Dan -6"),
    ("quadrille with EB's four tricks, 3 tricks, Bea took 2: a codille she pays alone",
     "quadrille", {R.ALLIANCE_REMISE: "four_tricks"}, ALLIANCE.format(2, 1),
     "=> codille; pool 8; Ann +2, Bea -11, Cat +2, Dan -1"),
    # --- britannica (EB's four tricks): the consolation 2 and 3 matadors on a remise, the game 1 besides
    # on a codille; the beast once the board, 40.
    ("britannica, 5 tricks: a remise, the beast of 40 shared, consolation and matadors one to one",
     "britannica", {}, ALLIANCE.format(3, 2),
     "=> remise; pool 80; Ann -5, Bea -35, Cat -5, Dan -35"),
    ("britannica, 4 tricks: a remise (EB); Bea took 2, she pays the beast and both opponents alone",
     "britannica", {}, ALLIANCE.format(2, 2),
     "=> remise; pool 80; Ann -5, Bea -60, Cat -5, Dan -10"),
    ("britannica, 4 tricks: a remise (EB); Bea took 3, the beast shared",
     "britannica", {}, ALLIANCE.format(3, 1),
     "=> remise; pool 80; Ann -5, Bea -35, Cat -5, Dan -35"),
    ("britannica, 3 tricks: a codille; Bea took 3, the opponents divide the board, the beast shared",
     "britannica", {}, ALLIANCE.format(3, 0),
     "=> codille; pool 40; Ann +16, Bea -36, Cat +16, Dan -36"),
    ("britannica, 3 tricks: a codille; Bea took 2, she pays alone",
     "britannica", {}, ALLIANCE.format(2, 1),
     "=> codille; pool 40; Ann +16, Bea -62, Cat +16, Dan -10"),
    ("britannica with P's five tricks, 4 tricks: a codille",
     "britannica", {R.ALLIANCE_REMISE: "five_tricks"}, ALLIANCE.format(2, 2),
     "=> codille; pool 40; Ann +16, Bea -62, Cat +16, Dan -10"),
    # EB's sentence holds in a forced spadille too ("Whether the deal is played in this manner ..."),
    # whose loss is always shared: "he that is called pays one half of the losings".
    ("britannica forced spadille, 4 tricks: a remise, shared though Bea took 2",
     "britannica", {}, FORCED.format(2, 2),
     "=> remise; pool 80; Ann -8, Bea -32, Cat -8, Dan -32"),
    ("britannica forced spadille, 3 tricks: a codille, shared",
     "britannica", {}, FORCED.format(2, 1),
     "=> codille; pool 40; Ann +13, Bea -33, Cat +13, Dan -33"),
    # A King Bea held herself: she plays alone, judged as a solo (the app's reading): four tricks a codille.
    # The three opponents take 13 each; the odd counter waits for Spadille (EB); no sans appeler (EB).
    ("britannica, her own King, 4 tricks: a codille, alone",
     "britannica", {}, OWN_KING.format(4),
     "=> codille; pool 40; Ann +6, Bea -59, Cat +6, Dan +6"),
    ("britannica, her own King, 5 tricks: a remise, alone",
     "britannica", {}, OWN_KING.format(5),
     "=> remise; pool 80; Ann -8, Bea -56, Cat -8, Dan -8"),
    ("quadrille with EB's four tricks, her own King, 4 tricks: a codille, alone as in a solo",
     "quadrille", {R.ALLIANCE_REMISE: "four_tricks"}, OWN_KING.format(4),
     "=> codille; pool 12; Ann +3, Bea -21, Cat +3, Dan +3"),
]


@pytest.mark.parametrize("profile, changes, deal_line, expected_line", [pytest.param(*r[1:], id=r[0]) for r in WORKED])
def test_an_alliance_with_four_tricks(profile: str, changes: dict[str, str], deal_line: str, expected_line: str) -> None:
    """EB_FOUR at the britannica profile (and wherever a table picks it), P_FIVE at the quadrille profile; who
    pays is alliance_loss (EB_ALONE)."""
    settlement = settle(parse_deal(deal_line), TableState.start(PLAYERS), HouseRules.of(profile, changes))
    assert_settles_as(settlement, parse_expected(expected_line), PLAYERS)
    assert settlement.after.total == 0


@pytest.mark.parametrize("profile, value", [("quadrille", "five_tricks"), ("mediateur", "five_tricks"),
                                            ("penguin_chips", "five_tricks"), ("penguin_points", "five_tricks"),
                                            ("britannica", "four_tricks")])
def test_each_profile_ends_the_remise_where_its_source_does(profile: str, value: str) -> None:
    """P_FIVE (P and PG: 'the same applies to an alliance'); EB_FOUR for the britannica profile."""
    assert HouseRules.of(profile).value_of(R.ALLIANCE_REMISE) == value


@pytest.mark.parametrize("changes, expected", [
    pytest.param({}, "=> codille; ×1; Ann 0, Bea -20, Cat 0, Dan 0", id="PG: 4 tricks a codille, -20"),
    pytest.param({R.ALLIANCE_REMISE: "four_tricks"}, "=> remise; ×1; Ann 0, Bea -10, Cat 0, Dan 0",
                 id="EB's four tricks: a remise, -10"),
])
def test_the_point_score_scores_the_four_tricks_by_the_rule(changes: dict[str, str], expected: str) -> None:
    """PG's alliance column: remise -10, codille -20; a lost alliance is Hombre's alone (PG)."""
    settlement = settle(parse_deal(ALLIANCE.format(2, 2)), TableState.start(PLAYERS), HouseRules.of("penguin_points", changes))
    assert_settles_as(settlement, parse_expected(expected), PLAYERS)


def test_the_transfers_of_a_four_trick_remise_name_the_rule_that_made_it() -> None:
    """The beast says which house rules decided it, alliance_remise among them only where the side's four tricks
    made the remise (EB's, its source) or the codille (P's): never at five tricks or three, nor for a secret solo."""
    four = settle(parse_deal(ALLIANCE.format(2, 2)), TableState.start(PLAYERS), HouseRules.of("britannica"))
    beast = [t for t in four.transfers if t.reason.value == "remise_beast"]
    assert beast and all(R.ALLIANCE_REMISE in t.rules and R.ALLIANCE_LOSS in t.rules and t.source == "EB" for t in beast)
    assert any("four tricks between them: a remise" in str(note) for note in four.notes)
    at_p = settle(parse_deal(ALLIANCE.format(2, 2)), TableState.start(PLAYERS), HouseRules.of("quadrille"))
    assert [R.ALLIANCE_REMISE in t.rules for t in at_p.transfers if t.reason.value == "codille_beast"] == [True]
    for other in (ALLIANCE.format(3, 2), ALLIANCE.format(2, 1), ALLIANCE.format(4, 2), OWN_KING.format(4)):
        settled = settle(parse_deal(other), TableState.start(PLAYERS), HouseRules.of("britannica"))
        assert all(R.ALLIANCE_REMISE not in t.rules for t in settled.transfers), other
        assert not any("four tricks between them" in str(note) for note in settled.notes), other


def test_the_help_text_quotes_the_sources() -> None:
    text = R.house_rule(R.ALLIANCE_REMISE).help
    for phrase in ("if they make only four tricks between them it is a remise; if they make less they lose codill",
                   "If Hombre wins only five tricks, it is a remise; if four or fewer, it is a codille",
                   "the same applies to an alliance", "the app's reading", "house rule “Who pays when an alliance loses”"):
        assert phrase in text, phrase


# --- properties -----------------------------------------------------------------------------------------------

NEW_RULES = (R.ALLIANCE_REMISE, R.OWN_KING_FORCED)
NEW_VALUES = [(rule, value) for rule in NEW_RULES for value in R.house_rule(rule).values]


def _expected_result(deal: Deal, rules: HouseRules) -> Result:
    """The threshold, worked apart from the code: EB's four tricks only where Hombre has an ally."""
    tricks = deal.side_tricks
    four = rules[R.ALLIANCE_REMISE] is R.AllianceRemise.FOUR_TRICKS and deal.has_real_ally
    return Result.REMISE if tricks == 5 or (four and tricks == 4) else Result.CODILLE


@st.composite
def _rules_with(draw: st.DrawFn, rule: str, value: str) -> HouseRules:
    """A random profile and random values of the other rules, ``rule`` set to ``value``."""
    profile = draw(st.sampled_from(sorted(PROFILES)))
    changes = {r.name: draw(st.sampled_from(r.values)) for r in HOUSE_RULES if draw(st.booleans())}
    changes[rule] = value
    return HouseRules.of(profile, changes)


@pytest.mark.parametrize("rule, value", NEW_VALUES, ids=[f"{r}={v}" for r, v in NEW_VALUES])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_chips_are_conserved_under_every_value_of_the_new_rules(rule: str, value: str, data: st.DataObject) -> None:
    """Every deal of a random evening, allied contracts and secret solos most of all, leaves the balances and
    every pot summing to zero, and changes them by nothing in all; a lost allied deal ends where the rule says."""
    rules = data.draw(_rules_with(rule, value))
    state = TableState.start(PLAYERS)
    for _ in range(data.draw(st.integers(1, 12))):
        allied_only = data.draw(st.booleans())  # every profile plays the alliance and the forced spadille
        deal = data.draw(valid_deal(state, rules).filter(lambda d: d.kind.allied or not allied_only))
        s = settle(deal, state, rules, 12)
        assert s.after.total == 0
        moved = sum(s.change(p) for p in PLAYERS)
        pots = (s.after.pool - s.before.pool) + (s.after.vole_pool - s.before.vole_pool)
        pots += s.after.spadille_reserve - s.before.spadille_reserve + sum(s.after.beasts_waiting) - sum(s.before.beasts_waiting)
        pots += s.after.circle_pool - s.before.circle_pool + s.after.carried.held - s.before.carried.held
        assert moved + pots == 0
        if deal.kind.allied and deal.side_tricks < 6 and not deal.kind.nemo:
            assert s.result is _expected_result(deal, rules), (deal, s.result)
        state = s.after
